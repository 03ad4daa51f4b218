/**
 * API keys: `pk_<prefix>_<secret>`. The prefix finds the row; the sha256 of the whole key is
 * compared in constant time. The key itself is shown once, at creation, and never stored.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Scope } from '../../auth/caller.ts'
import { NotFoundError } from '../../errors.ts'
import { ApiKey } from './api-key.entity.ts'

const KEY_PATTERN = /^pk_([A-Za-z0-9]{12})_([A-Za-z0-9_-]{43})$/
const DUMMY_HASH = hashKey('pk_000000000000_' + 'x'.repeat(43))

export interface NewApiKey {
  orgId: string
  userId: string
  scopes: readonly Scope[]
  name?: string
}

export async function createApiKey(em: EntityManager, input: NewApiKey): Promise<{ key: string; record: ApiKey }> {
  const prefix = randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').slice(0, 12)
  const key = `pk_${prefix}_${randomBytes(32).toString('base64url')}`
  const record = em.create(ApiKey, {
    orgId: input.orgId,
    userId: input.userId,
    scopes: [...input.scopes],
    name: input.name ?? '',
    prefix,
    keyHash: hashKey(key),
  })
  await em.flush()
  return { key, record }
}

export async function listApiKeys(em: EntityManager, filter: { orgId?: string } = {}): Promise<ApiKey[]> {
  return em.find(ApiKey, filter.orgId ? { orgId: filter.orgId } : {}, { orderBy: { createdAt: 'asc' } })
}

export async function revokeApiKey(em: EntityManager, id: string): Promise<ApiKey> {
  const record = await em.findOne(ApiKey, { id })
  if (!record) throw new NotFoundError(`No API key with id ${id}`)
  record.revokedAt ??= new Date()
  await em.flush()
  return record
}

/** What authentication needs of a key. */
export interface ActiveApiKey {
  id: string
  orgId: string
  userId: string
  scopes: string[]
}

// Raw SQL: it runs on every request with a key, and hydrating an entity cost more than the query.
// api_keys is the one unscoped table (docs/org-scoping.md, rule 1).
const KEY_BY_PREFIX_SQL = `
  select id, org_id as "orgId", user_id as "userId", scopes, key_hash as "keyHash", revoked_at is not null as revoked
  from api_keys where prefix = ?`

/** The active key matching `presented`, or null. Timing does not depend on how it fails. */
export async function findActiveApiKey(em: EntityManager, presented: string): Promise<ActiveApiKey | null> {
  const match = KEY_PATTERN.exec(presented)
  const rows = match ? await em.getConnection().execute<(ActiveApiKey & { keyHash: string; revoked: boolean })[]>(KEY_BY_PREFIX_SQL, [match[1]]) : []
  const row = rows[0]
  const matches = constantTimeEqual(hashKey(presented), row?.keyHash ?? DUMMY_HASH)
  if (!row || !matches || row.revoked) return null
  return { id: row.id, orgId: row.orgId, userId: row.userId, scopes: row.scopes }
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex')
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}
