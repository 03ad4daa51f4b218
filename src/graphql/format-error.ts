/**
 * The GraphQL surface's one error mapping: domain errors become `extensions.code` plus the
 * HTTP status the REST route would give (`extensions.status`); anything unexpected is masked to
 * INTERNAL_SERVER_ERROR (logged, never described to the client). Stack traces never leave.
 * A database outage is SERVICE_UNAVAILABLE (503), and a /graphql response that carries one is
 * itself a 503 with Retry-After (`unavailableResponsePlugin`).
 */
import type { ApolloServerPlugin } from '@apollo/server'
import { unwrapResolverError } from '@apollo/server/errors'
import { GraphQLError, type GraphQLFormattedError } from 'graphql'
import { databaseUnavailable } from '../db/unavailable.ts'
import { DomainError, ValidationError } from '../errors.ts'
import { toRestError } from '../http/rest/error-response.ts'
import type { Logger } from '../logger.ts'

const CODES: Record<DomainError['kind'], string> = {
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  not_found: 'NOT_FOUND',
  bad_request: 'BAD_REQUEST',
  conflict: 'CONFLICT',
  too_large: 'PAYLOAD_TOO_LARGE',
  validation: 'BAD_USER_INPUT',
  unavailable: 'SERVICE_UNAVAILABLE',
}

/** Codes the GraphQL machinery itself produces (parse, validation, variable coercion, limits...). */
const PASS_THROUGH = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST', 'UNAUTHENTICATED', 'QUERY_TOO_COMPLEX', 'TOO_MANY_SUBSCRIPTIONS'])

export function graphQLErrorCode(error: DomainError): string {
  return CODES[error.kind]
}

/** The error a resolver (or a subscription's event stream, which carries no path) threw. */
function originalOf(error: unknown): unknown {
  let current = error
  while (current instanceof GraphQLError && current.originalError) current = current.originalError
  return current
}

export function createErrorFormatter(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const unwrapped = originalOf(unwrapResolverError(error))
    const original = unwrapped instanceof DomainError ? unwrapped : (databaseUnavailable(unwrapped) ?? unwrapped)
    const base = { message: formatted.message, ...(formatted.locations && { locations: formatted.locations }), ...(formatted.path && { path: formatted.path }) }
    if (original instanceof DomainError) {
      return {
        ...base,
        message: original.message,
        extensions: {
          code: graphQLErrorCode(original),
          status: toRestError(original).status,
          ...(original instanceof ValidationError && { issues: original.issues }),
        },
      }
    }
    const code = formatted.extensions?.['code']
    if (typeof code === 'string' && PASS_THROUGH.has(code) && !(original instanceof Error && !(original instanceof GraphQLError))) {
      const { stacktrace: _stacktrace, exception: _exception, ...extensions } = formatted.extensions ?? {}
      return { ...base, extensions }
    }
    logger.error('GraphQL operation failed', { error: original })
    return { ...base, message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500 } }
  }
}

/**
 * Apollo takes a response's HTTP status from the errors as thrown, before they are formatted:
 * an operation that failed because the database is unreachable answers 503 with Retry-After,
 * like the REST routes, so clients and load balancers back off.
 */
export function unavailableResponsePlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, response }) {
          const unavailable = errors.map((error) => databaseUnavailable(originalOf(unwrapResolverError(error)))).find(Boolean)
          if (!unavailable) return
          response.http.status = 503
          response.http.headers.set('retry-after', String(unavailable.retryAfterSeconds))
        },
      }
    },
  }
}
