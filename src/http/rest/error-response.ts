/**
 * The REST surface's one error mapping: domain errors to status and `{"detail": ...}` bodies.
 * A database outage is a 503 with Retry-After. Anything else is a 500 with a fixed message;
 * its details go to the log, never to the client.
 */
import { databaseUnavailable } from '../../db/unavailable.ts'
import { assertUnreachable, DATABASE_RETRY_AFTER_SECONDS, DatabaseUnavailableError, DomainError, ValidationError } from '../../errors.ts'

export interface RestErrorResponse {
  status: number
  body: { detail: unknown }
  headers?: Record<string, string>
}

export const WWW_AUTHENTICATE = 'Bearer realm="parapet", ApiKey realm="parapet" header="X-API-Key"'

export function toRestError(thrown: unknown): RestErrorResponse {
  const error = thrown instanceof DomainError ? thrown : databaseUnavailable(thrown)
  if (!error) return { status: 500, body: { detail: 'Internal server error' } }
  const kind = error.kind
  switch (kind) {
    case 'unauthenticated':
      return { status: 401, body: { detail: error.message }, headers: { 'WWW-Authenticate': WWW_AUTHENTICATE } }
    case 'forbidden':
      return { status: 403, body: { detail: error.message } }
    case 'not_found':
      return { status: 404, body: { detail: error.message } }
    case 'bad_request':
      return { status: 400, body: { detail: error.message } }
    case 'conflict':
      return { status: 409, body: { detail: error.message } }
    case 'too_large':
      return { status: 413, body: { detail: error.message } }
    case 'validation':
      // the spec's body: loc, msg and type (the message names the rule and line)
      return { status: 422, body: { detail: error instanceof ValidationError ? error.issues.map(({ loc, msg, type }) => ({ loc, msg, type })) : [] } }
    case 'unavailable':
      return { status: 503, body: { detail: error.message }, headers: { 'Retry-After': String(error instanceof DatabaseUnavailableError ? error.retryAfterSeconds : DATABASE_RETRY_AFTER_SECONDS) } }
    default:
      return assertUnreachable(kind)
  }
}
