/**
 * Factories: each creates what it needs, including a fresh organization unless given one, so no
 * test depends on another's data and every test can ask "what does another org see?".
 */
import { randomUUID } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import { SCOPES, type Scope } from '../../src/auth/caller.ts'
import { mintToken } from '../../src/auth/jwt.ts'
import { forkForOrg } from '../../src/db/org-scope.ts'
import { createApiKey } from '../../src/modules/api-keys/api-key.service.ts'
import { Repository } from '../../src/modules/repositories/repository.entity.ts'
import { RepositorySummary } from '../../src/modules/summaries/summary.entity.ts'
import { TEST_JWT_SECRET } from './app.ts'

export function makeOrgId(): string {
  return `org-${randomUUID()}`
}

export interface Principal {
  orgId: string
  userId: string
  scopes: Scope[]
  /** headers that authenticate as this principal */
  headers: Record<string, string>
}

export async function makeApiKeyPrincipal(orm: MikroORM, options: Partial<Omit<Principal, 'headers'>> = {}): Promise<Principal> {
  const orgId = options.orgId ?? makeOrgId()
  const userId = options.userId ?? `user-${randomUUID().slice(0, 8)}`
  const scopes = options.scopes ?? [...SCOPES]
  const { key } = await createApiKey(orm.em.fork(), { orgId, userId, scopes })
  return { orgId, userId, scopes, headers: { 'X-API-Key': key } }
}

export async function makeTokenPrincipal(options: Partial<Omit<Principal, 'headers'>> & { secret?: string; expiresIn?: number } = {}): Promise<Principal> {
  const orgId = options.orgId ?? makeOrgId()
  const userId = options.userId ?? `user-${randomUUID().slice(0, 8)}`
  const scopes = options.scopes ?? [...SCOPES]
  const token = await mintToken({ secret: options.secret ?? TEST_JWT_SECRET, orgId, userId, scopes, expiresIn: options.expiresIn ?? 600 })
  return { orgId, userId, scopes, headers: { Authorization: `Bearer ${token}` } }
}

export async function makeRepository(orm: MikroORM, options: Partial<Repository> & { orgId?: string } = {}): Promise<Repository> {
  const orgId = options.orgId ?? makeOrgId()
  const em = forkForOrg(orm.em, orgId)
  const repository = em.create(Repository, {
    repoName: `repo-${randomUUID().slice(0, 8)}`,
    branchName: 'main',
    createdBy: 'factory',
    sizeBytes: 1234,
    fileCount: 3,
    languages: { Python: 120, JavaScript: 40 },
    ...options,
    orgId,
  })
  await em.flush()
  return repository
}

export async function makeSummary(orm: MikroORM, repository: Repository, options: Partial<RepositorySummary> = {}): Promise<RepositorySummary> {
  const em = forkForOrg(orm.em, repository.orgId)
  const summary = em.create(RepositorySummary, {
    repoId: repository.id,
    architecturePattern: 'Flask REST API over PostgreSQL',
    authLogicSummary: 'JWT bearer tokens checked by a decorator',
    trustBoundaries: { entry_points: [{ method: 'GET', path: '/items', file: 'app.py', line: 10 }] },
    businessLogicFlows: { flows: [] },
    crossFileDependencies: { files: 2, edges: [] },
    ragContext: 'A small item service.',
    securityContext: 'No CSRF protection.',
    dataFlowAnalysis: { flows: [] },
    ...options,
    orgId: repository.orgId,
  })
  await em.flush()
  return summary
}
