/**
 * GraphQL over WebSocket (graphql-ws) on the HTTP server's /graphql path: subscriptions, and
 * queries and mutations for clients that send everything over one socket.
 *
 * A connection's credentials are checked for as long as it lives, not only when it opens:
 * on connection_init, on every subscribe, every `credentialRecheckMs` (AUTH_RECHECK_INTERVAL),
 * before each result is sent (results of one moment share one check), and at a bearer token's
 * `exp` (a timer set to that instant). When they no longer hold, the socket closes with 4401
 * (unauthenticated: unknown or revoked key, invalid or expired token) or 4403 (forbidden: a
 * token without an organization), the reason in words, and nothing more is sent on it.
 * graphql-ws clients do not reconnect after 4401.
 *
 * Operations pass the same depth, width and cost limits as over HTTP; live subscriptions are
 * also counted per connection and per organization (src/graphql/subscription-limits.ts).
 */
import type http from 'node:http'
import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql'
import { CloseCode } from 'graphql-ws'
import { useServer } from 'graphql-ws/use/ws'
import { WebSocket, WebSocketServer } from 'ws'
import type { Authenticator, Credentials } from '../auth/authenticate.ts'
import type { Caller } from '../auth/caller.ts'
import { DomainError } from '../errors.ts'
import { createContext } from '../graphql/context.ts'
import { databaseUnavailable } from '../db/unavailable.ts'
import { introspectionRules, withoutSchemaHints } from '../graphql/introspection.ts'
import { checkDocumentNesting } from '../graphql/operation-checks.ts'
import { checkQueryLimits, type QueryLimits } from '../graphql/limits.ts'
import { SubscriptionLedger, type ConnectionSubscriptions } from '../graphql/subscription-limits.ts'
import type { Logger } from '../logger.ts'
import type { ServiceRuntime } from '../runtime.ts'
import { credentialsFromConnectionParams } from './credentials.ts'

export interface WebSocketSettings {
  maxSubscriptionsPerConnection: number
  maxSubscriptionsPerOrg: number
  /** how often an open connection's credentials are checked again, in milliseconds */
  credentialRecheckMs: number
}

export const DEFAULT_WEBSOCKET_SETTINGS: WebSocketSettings = { maxSubscriptionsPerConnection: 50, maxSubscriptionsPerOrg: 500, credentialRecheckMs: 5000 }

export interface GraphQLWebSocketOptions {
  httpServer: http.Server
  schema: GraphQLSchema
  runtime: ServiceRuntime
  authenticate: Authenticator
  logger: Logger
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError
  queryLimits: QueryLimits
  /** whether clients may introspect the schema (see src/graphql/introspection.ts) */
  introspection: boolean
  settings: WebSocketSettings
}

/** What an accepted connection holds while it lives. */
interface Connection {
  credentials: Credentials
  caller: Caller
  subscriptions: ConnectionSubscriptions
  /** the credential check in flight, shared by everything that needs one meanwhile */
  check: Promise<boolean> | undefined
  timers: NodeJS.Timeout[]
}

type ConnectionExtra = Record<PropertyKey, unknown> & { connection?: Connection }

/** setTimeout's longest delay; a later expiry is seen by the periodic check */
const MAX_TIMER_MS = 2 ** 31 - 1
/** the WebSocket protocol's limit for a close reason */
const MAX_CLOSE_REASON_BYTES = 123

export function serveGraphQLOverWebSocket(options: GraphQLWebSocketOptions): { dispose(): Promise<void> } {
  const { schema, runtime, authenticate, logger, formatError, queryLimits, introspection, settings } = options
  const validationRules = [...specifiedRules, ...introspectionRules(introspection)]
  const ledger = new SubscriptionLedger({ maxPerConnection: settings.maxSubscriptionsPerConnection, maxPerOrg: settings.maxSubscriptionsPerOrg })
  const wsServer = new WebSocketServer({ server: options.httpServer, path: '/graphql' })

  function end(socket: WebSocket, code: number, reason: string): void {
    if (socket.readyState !== WebSocket.OPEN) return
    socket.close(code, closeReason(reason))
  }

  /** Closes the socket because its credentials do not (or no longer) hold, or cannot be checked. */
  function refuse(socket: WebSocket, error: unknown): void {
    if (databaseUnavailable(error)) {
      // 1013 "try again later": graphql-ws clients reconnect, as REST clients retry after a 503
      end(socket, 1013, 'Service unavailable: retry shortly')
      return
    }
    if (error instanceof DomainError) {
      end(socket, error.kind === 'forbidden' ? CloseCode.Forbidden : CloseCode.Unauthorized, error.message)
      return
    }
    logger.error('websocket credentials could not be checked', { error })
    end(socket, CloseCode.InternalServerError, 'Credentials could not be checked')
  }

  /** Authenticates the connection's credentials again; false (and the socket closing) when they fail. */
  function recheck(socket: WebSocket, connection: Connection): Promise<boolean> {
    if (socket.readyState !== WebSocket.OPEN) return Promise.resolve(false)
    connection.check ??= authenticate(connection.credentials)
      .then(
        (caller) => {
          connection.caller = caller
          return true
        },
        (error: unknown) => {
          refuse(socket, error)
          return false
        },
      )
      .finally(() => {
        connection.check = undefined
      })
    return connection.check
  }

  function watch(socket: WebSocket, connection: Connection): void {
    connection.timers.push(setInterval(() => void recheck(socket, connection), settings.credentialRecheckMs).unref())
    const expiresAt = connection.caller.expiresAt?.getTime()
    if (expiresAt !== undefined && expiresAt - Date.now() <= MAX_TIMER_MS) {
      connection.timers.push(setTimeout(() => end(socket, CloseCode.Unauthorized, 'Bearer token has expired'), Math.max(0, expiresAt - Date.now())).unref())
    }
  }

  // the same error mapping as HTTP: codes and statuses, internals masked
  const formatResult = (result: ExecutionResult) => (result.errors ? { ...result, errors: result.errors.map((error) => formatError(error.toJSON(), error)) } : result)

  const cleanup = useServer<Record<string, unknown>, ConnectionExtra>(
    {
      schema,
      onConnect: async (ctx) => {
        const { socket } = ctx.extra
        const credentials = credentialsFromConnectionParams(ctx.connectionParams)
        let caller: Caller
        try {
          caller = await authenticate(credentials)
        } catch (error) {
          refuse(socket, error)
          return false
        }
        // the client may have left while we checked: nothing would stop the timers then
        if (socket.readyState !== WebSocket.OPEN) return false
        const connection: Connection = { credentials, caller, subscriptions: ledger.openConnection(caller.orgId), check: undefined, timers: [] }
        ctx.extra.connection = connection
        watch(socket, connection)
        return true
      },
      onSubscribe: async (ctx, id, payload) => {
        const { socket, connection } = ctx.extra
        if (!connection || !(await recheck(socket, connection))) {
          return [new GraphQLError('Not authenticated', { extensions: { code: 'UNAUTHENTICATED', status: 401 } })]
        }
        const tooDeep = checkDocumentNesting(payload.query)
        if (tooDeep) return [tooDeep]
        let document
        try {
          document = parse(payload.query)
        } catch (error) {
          return [withCode(error instanceof GraphQLError ? error : new GraphQLError('Invalid query'), 'GRAPHQL_PARSE_FAILED')]
        }
        const invalid = validate(schema, document, validationRules).map((error) => withCode(withoutSchemaHints(error, introspection), 'GRAPHQL_VALIDATION_FAILED'))
        const errors = [...invalid, ...checkQueryLimits(schema, document, payload.operationName, payload.variables, queryLimits)]
        if (errors.length > 0) return errors
        // admitted last, with nothing awaited since the limits were read
        if (getOperationAST(document, payload.operationName)?.operation === 'subscription') {
          const refused = connection.subscriptions.admit(id)
          if (refused) return [refused]
        }
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue: createContext(runtime, connection.caller) }
      },
      // Before each result: when the credentials fail, the socket is closing and graphql-ws's
      // ws adapter sends nothing on a socket that is not open, so the result never leaves.
      onNext: async (ctx, _id, _payload, _args, result) => {
        const { socket, connection } = ctx.extra
        if (connection) await recheck(socket, connection)
        return formatResult(result)
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatError(error.toJSON(), error)),
      onComplete: (ctx, id) => {
        ctx.extra.connection?.subscriptions.release(id)
      },
      onClose: (ctx) => {
        const connection = ctx.extra.connection
        if (!connection) return
        for (const timer of connection.timers) clearTimeout(timer)
        connection.subscriptions.releaseAll()
      },
    },
    wsServer,
  )

  let disposed: Promise<void> | undefined
  return {
    dispose: () => (disposed ??= Promise.resolve(cleanup.dispose())),
  }
}

/** A close reason within the protocol's 123 bytes (a reason may quote what the client sent). */
function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES) return text
  let cut = text.slice(0, MAX_CLOSE_REASON_BYTES - 3)
  while (Buffer.byteLength(cut) > MAX_CLOSE_REASON_BYTES - 3) cut = cut.slice(0, -1)
  return `${cut}...`
}

/** graphql-js's parse and validation errors carry no code: they get Apollo's, so HTTP and WebSocket answer alike. */
function withCode(error: GraphQLError, code: string): GraphQLError {
  return new GraphQLError(error.message, { nodes: error.nodes ?? null, source: error.source ?? null, positions: error.positions ?? null, extensions: { ...error.extensions, code } })
}
