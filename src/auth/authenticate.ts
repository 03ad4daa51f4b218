/**
 * Authentication, in one place: turns presented credentials (HTTP headers or WebSocket
 * connectionParams) into a Caller, or throws UnauthenticatedError (ForbiddenError for a valid
 * token that names no organization). A presented credential that fails is a 401 even when the
 * other scheme could have been tried. WebSocket connections call it again while they live
 * (src/http/websocket.ts), so a revoked key or an expired token ends them too.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import { DomainError, UnauthenticatedError } from '../errors.ts'
import { findActiveApiKey } from '../modules/api-keys/api-key.service.ts'
import { isScope, type Caller, type Scope } from './caller.ts'
import { callerFromClaims, createJwtVerifier, type JwtSettings } from './jwt.ts'

export interface Credentials {
  apiKey?: string | undefined
  /** the Authorization header value, e.g. "Bearer eyJ..." */
  authorization?: string | undefined
}

export type Authenticator = (credentials: Credentials) => Promise<Caller>

const LAST_USED_WRITE_INTERVAL_MS = 60_000

export function createAuthenticator(orm: MikroORM, settings: JwtSettings): Authenticator {
  const verifyJwt = createJwtVerifier(settings)
  const lastUsedWrites = new Map<string, number>()

  async function byApiKey(presented: string): Promise<Caller> {
    const record = await findActiveApiKey(orm.em, presented)
    if (!record) throw new UnauthenticatedError('Invalid API key')
    recordUse(record.id)
    const scopes = new Set(record.scopes.filter((scope): scope is Scope => isScope(scope)))
    return { orgId: record.orgId, userId: record.userId, scopes, via: 'api_key' }
  }

  /** Keeps last_used_at roughly current without a write per request. */
  function recordUse(id: string): void {
    const now = Date.now()
    if (now - (lastUsedWrites.get(id) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return
    lastUsedWrites.set(id, now)
    orm.em
      .getConnection()
      .execute('update api_keys set last_used_at = now() where id = ?', [id], 'run')
      .catch(() => lastUsedWrites.delete(id))
  }

  async function byBearer(authorization: string): Promise<Caller> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
    if (!match?.[1]) throw new UnauthenticatedError('Authorization header must be "Bearer <token>"')
    if (!verifyJwt) throw new UnauthenticatedError('Bearer tokens are not enabled on this server')
    try {
      return callerFromClaims(await verifyJwt(match[1]))
    } catch (error) {
      if (error instanceof DomainError) throw error
      throw new UnauthenticatedError('Invalid or expired bearer token')
    }
  }

  return async ({ apiKey, authorization }) => {
    if (apiKey) return byApiKey(apiKey)
    if (authorization) return byBearer(authorization)
    throw new UnauthenticatedError('Not authenticated')
  }
}
