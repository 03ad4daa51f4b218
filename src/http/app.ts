/**
 * The HTTP server: Express 5 with the REST adapter under /api, Apollo Server at /graphql (and its
 * IDE for browsers), graphql-ws on the same port and path, health routes, and the dashboard at /.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApolloServer } from '@apollo/server'
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer'
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled'
import { expressMiddleware } from '@as-integrations/express5'
import express, { type NextFunction, type Request, type Response } from 'express'
import { GraphQLError } from 'graphql'
import { graphqlUploadExpress } from 'graphql-upload-minimal'
import type { Authenticator } from '../auth/authenticate.ts'
import type { Caller } from '../auth/caller.ts'
import { databaseUnavailable } from '../db/unavailable.ts'
import { BadRequestError, DATABASE_RETRY_AFTER_SECONDS, DomainError, PayloadTooLargeError, ValidationError } from '../errors.ts'
import { createContext, type GraphQLContext } from '../graphql/context.ts'
import { createErrorFormatter, graphQLErrorCode, unavailableResponsePlugin } from '../graphql/format-error.ts'
import { jitGateway } from '../graphql/jit-executor.ts'
import { checkQueryLimits, type QueryLimits } from '../graphql/limits.ts'
import { checkDocumentNesting, operationChecksPlugin } from '../graphql/operation-checks.ts'
import { buildSchema } from '../graphql/schema.ts'
import type { Logger } from '../logger.ts'
import { apiDocs } from './api-docs.ts'
import { credentialsFromHeaders } from './credentials.ts'
import { dashboard } from './dashboard.ts'
import { GRAPHIQL_PAGE, graphiqlAssets, wantsGraphiql } from './graphiql.ts'
import { createRestRouter, sendRestError } from './rest/adapter.ts'
import { toRestError } from './rest/error-response.ts'
import { REST_ROUTES } from './rest/routes.ts'
import { DEFAULT_WEBSOCKET_SETTINGS, serveGraphQLOverWebSocket, type WebSocketSettings } from './websocket.ts'
import type { ServiceRuntime } from '../runtime.ts'

const KEEP_ALIVE_TIMEOUT_MS = 65_000

export interface ApiServerOptions {
  runtime: ServiceRuntime
  authenticate: Authenticator
  logger: Logger
  host: string
  port: number
  /** JSON body limit of the REST and GraphQL routes */
  jsonLimit?: string
  /** depth, width and cost limits of client-written GraphQL operations */
  queryLimits?: QueryLimits
  /** subscription limits and credential re-checks of WebSocket connections */
  websocket?: WebSocketSettings
  /** whether clients may introspect the schema (default true, in every NODE_ENV) */
  introspection?: boolean
  /** the bundled dashboard served at / (default dist/web) */
  dashboardDir?: string
}

const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 10, maxCost: 20_000, maxRootFields: 20 }

export interface ApiServer {
  url: string
  port: number
  close(): Promise<void>
}

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const { runtime, authenticate, logger } = options
  const { orm } = runtime
  const schema = buildSchema()
  const formatError = createErrorFormatter(logger)
  const queryLimits = options.queryLimits ?? DEFAULT_QUERY_LIMITS
  const introspection = options.introspection ?? true
  const app = express()
  app.disable('x-powered-by')
  app.set('query parser', 'simple')
  const httpServer = http.createServer(app)
  // Idle keep-alive connections stay open longer than clients and proxies keep them (undici 4 s,
  // load balancers 60 s): a server closing first races the client's next request on that socket,
  // which then fails with ECONNRESET, most often on a busy machine.
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS
  httpServer.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000

  const websocket = serveGraphQLOverWebSocket({ httpServer, schema, runtime, authenticate, logger, formatError, queryLimits, introspection, settings: options.websocket ?? DEFAULT_WEBSOCKET_SETTINGS })

  const apollo = new ApolloServer<GraphQLContext>({
    gateway: jitGateway(schema),
    formatError,
    includeStacktraceInErrorResponses: false,
    persistedQueries: false,
    csrfPrevention: true,
    // set explicitly: Apollo's default turns introspection off when NODE_ENV is production
    introspection,
    hideSchemaDetailsFromClientErrors: !introspection,
    plugins: [
      operationChecksPlugin(),
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageDisabled(),
      // no cache hints are given; the plugin would otherwise wrap every field resolver of the (shared) schema
      ApolloServerPluginCacheControlDisabled(),
      unavailableResponsePlugin(),
      { async serverWillStart() { return { async drainServer() { await websocket.dispose() } } } },
      {
        async requestDidStart() {
          return {
            async didResolveOperation({ document, request, operationName }) {
              const [error] = checkQueryLimits(schema, document, operationName, request.variables, queryLimits)
              if (error) throw error
            },
          }
        },
      },
    ],
  })
  await apollo.start()

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' })
  })
  app.get('/readyz', async (_req, res) => {
    try {
      await orm.em.getConnection().execute('select 1', [], 'get')
      res.json({ status: 'ready' })
    } catch {
      res.status(503).set('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).json({ status: 'unavailable', detail: 'database unreachable' })
    }
  })

  app.use(apiDocs(schema, REST_ROUTES))
  app.use(graphiqlAssets())
  app.use('/graphql', (req, res, next) => {
    if (wantsGraphiql(req.method, req.headers.accept, req.query as Record<string, unknown>)) res.type('html').send(GRAPHIQL_PAGE)
    else next()
  })
  app.use(
    '/graphql',
    express.json({ limit: options.jsonLimit ?? '1mb' }),
    graphqlUploadExpress({ maxFileSize: runtime.limits.uploadMaxBytes, maxFiles: 1 }),
    refuseTooDeepDocuments,
    expressMiddleware(apollo, {
      context: async ({ req }) => createContext(runtime, await authenticateGraphQLRequest(authenticate, req)),
    }),
    (error: unknown, _req: Request, res: Response, next: NextFunction) => sendGraphQLRequestError(res, error, next),
  )

  app.use('/api', express.json({ limit: options.jsonLimit ?? '1mb' }))
  app.use(createRestRouter({ schema, routes: REST_ROUTES, uploadMaxBytes: runtime.limits.uploadMaxBytes, authenticate, createContext: (caller) => createContext(runtime, caller), logger }))
  app.use(dashboard(options.dashboardDir))
  app.use((_req, res) => {
    res.status(404).json({ detail: 'Not Found' })
  })
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => sendRestError(res, restRequestError(error), logger, req))

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(options.port, options.host, () => resolve())
  })
  const port = (httpServer.address() as AddressInfo).port
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host
  return {
    url: `http://${shownHost}:${port}`,
    port,
    close: async () => {
      await apollo.stop()
      await websocket.dispose()
    },
  }
}

/**
 * A refused credential is the whole response: the status REST would give (401 with its
 * challenge, 403 for a token without an organization) and, through the error formatter, the code.
 */
async function authenticateGraphQLRequest(authenticate: Authenticator, req: Request): Promise<Caller> {
  try {
    return await authenticate(credentialsFromHeaders(req.headers))
  } catch (error) {
    // the API key could not be looked up: answered like any operation failing for that reason
    const unavailable = databaseUnavailable(error)
    if (unavailable) {
      throw new GraphQLError(unavailable.message, { originalError: unavailable, extensions: { http: { status: 503, headers: new Map([['retry-after', String(unavailable.retryAfterSeconds)]]) } } })
    }
    if (!(error instanceof DomainError)) throw error
    const { status, headers } = toRestError(error)
    throw new GraphQLError(error.message, { originalError: error, extensions: { http: { status, headers: new Map(Object.entries(headers ?? {})) } } })
  }
}

/**
 * A request that cannot be read, as a domain error: a path whose percent-encoding does not
 * decode (the router's URIError), a body over the limit, unparseable, or in a charset or
 * encoding the parser does not read. Undefined for any other error.
 */
function unreadableRequest(error: unknown): DomainError | undefined {
  const failure = error as { type?: string; status?: number; expose?: boolean; message?: string }
  if (error instanceof URIError) return new BadRequestError('Malformed percent-encoding in the request path')
  if (failure.type === 'entity.too.large' || failure.status === 413) return new PayloadTooLargeError('Request body is too large')
  if (failure.type === 'entity.parse.failed') return new BadRequestError('The request body is not valid JSON')
  // body-parser's and the upload parser's other client errors carry a message meant for the client
  if (failure.expose === true && typeof failure.status === 'number' && failure.status >= 400 && failure.status < 500) return new BadRequestError(String(failure.message))
  return undefined
}

/** REST: malformed JSON is the spec's 422 json_invalid (as pydantic says it); other unreadable requests a 4xx. */
function restRequestError(error: unknown): unknown {
  if ((error as { type?: string }).type === 'entity.parse.failed') {
    return new ValidationError([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }])
  }
  return unreadableRequest(error) ?? error
}

/** /graphql: a document that would overflow graphql-js's parser is refused before Apollo parses it. */
function refuseTooDeepDocuments(req: Request, res: Response, next: NextFunction): void {
  const query: unknown = req.method === 'GET' ? req.query['query'] : (req.body as { query?: unknown } | undefined)?.query
  const refusal = typeof query === 'string' ? checkDocumentNesting(query) : undefined
  if (refusal) res.status(400).json({ errors: [{ message: refusal.message, extensions: refusal.extensions }] })
  else next()
}

/** /graphql: an unreadable request answers in GraphQL's shape, as Apollo answers a body it cannot use (400). */
function sendGraphQLRequestError(res: Response, error: unknown, next: NextFunction): void {
  const refusal = unreadableRequest(error)
  if (!refusal) {
    next(error)
    return
  }
  const { status } = toRestError(refusal)
  res.status(status).json({ errors: [{ message: refusal.message, extensions: { code: graphQLErrorCode(refusal), status } }] })
}
