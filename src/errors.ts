/**
 * Domain errors. Services throw these and know nothing of HTTP or GraphQL; each surface maps
 * them exactly once (REST: src/http/rest/error-response.ts, GraphQL: src/graphql/format-error.ts).
 *
 * Vocabulary:
 * - Unauthenticated: no or invalid credentials (REST 401 with WWW-Authenticate).
 * - Forbidden: valid credentials without the scope, without an organization, or asking for a
 *   resource of another organization where the spec answers 403.
 * - NotFound: does not exist for the caller (never says whether it exists elsewhere).
 * - BadRequest: a malformed identifier or a request the resource's state refuses.
 * - Conflict: a uniqueness rule (ruleset name).
 * - PayloadTooLarge: a body or upload over its configured limit (REST 413).
 * - Validation: input that fails its schema; carries every failing field (REST 422 detail[]).
 * - DatabaseUnavailable: the database cannot be reached right now (refused, shutting down,
 *   connection lost); the request may succeed if retried (REST 503 with Retry-After).
 *   Raised from driver errors by src/db/unavailable.ts, never by services themselves.
 */

export interface ValidationIssue {
  /** starts at body, query or path, pydantic-v2 style */
  loc: (string | number)[]
  msg: string
  type: string
  /** where in a text the problem lies (a rule text's 1-based line), for clients that show it there; GraphQL only */
  line?: number
  /** the rule the problem belongs to, when it belongs to one; GraphQL only */
  ruleId?: string | null
}

export abstract class DomainError extends Error {
  abstract readonly kind: 'unauthenticated' | 'forbidden' | 'not_found' | 'bad_request' | 'conflict' | 'too_large' | 'validation' | 'unavailable'
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated'
  constructor(message = 'Not authenticated') {
    super(message)
  }
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden'
  constructor(message = 'Forbidden') {
    super(message)
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found'
  constructor(message = 'Not found') {
    super(message)
  }
}

export class BadRequestError extends DomainError {
  readonly kind = 'bad_request'
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict'
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = 'too_large'
}

export class ValidationError extends DomainError {
  readonly kind = 'validation'
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.map((issue) => `${issue.loc.join('.')}: ${issue.msg}`).join('; '))
  }
}

/** What clients are told to wait before retrying while the database is unreachable (Retry-After). */
export const DATABASE_RETRY_AFTER_SECONDS = 5

export class DatabaseUnavailableError extends DomainError {
  readonly kind = 'unavailable'
  constructor(
    message = 'The service is temporarily unavailable (its database cannot be reached); retry shortly',
    readonly retryAfterSeconds = DATABASE_RETRY_AFTER_SECONDS,
  ) {
    super(message)
  }
}

export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`)
}
