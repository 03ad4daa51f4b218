/**
 * The caller: who is asking, for which organization, with which scopes. One shape for HTTP
 * (X-API-Key or Authorization: Bearer) and WebSocket connectionParams.
 */
import { ForbiddenError } from '../errors.ts'

export const SCOPES = ['read:repo', 'write:repo', 'delete:repo', 'write:scan'] as const
export type Scope = (typeof SCOPES)[number]

export interface Caller {
  /** never empty: a credential that names no organization is refused when authenticating */
  orgId: string
  userId: string | null
  scopes: ReadonlySet<Scope>
  via: 'api_key' | 'jwt'
  /** when the credential ends by itself (a bearer token's exp); an API key holds until revoked */
  expiresAt?: Date | undefined
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value)
}

/** The one scope check of the service (GraphQL directive and REST routes both call it). */
export function requireScope(caller: Caller, scope: Scope): void {
  if (!caller.scopes.has(scope)) throw new ForbiddenError(`Insufficient scope: this operation requires "${scope}"`)
}

export function requireUser(caller: Caller): string {
  if (!caller.userId) throw new ForbiddenError('No user identifier found for the caller')
  return caller.userId
}
