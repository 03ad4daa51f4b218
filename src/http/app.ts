/**
 * The HTTP server: Express 5 with the REST adapter under /api, Apollo Server at /graphql (and its
 * IDE for browsers), graphql-ws on the same port and path, and health routes.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApolloServer } from '@apollo/server'
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer'
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled'
import { expressMiddleware } from '@as-integrations/express5'
import express, { type NextFunction, type Request, type Response } from 'express'
import { GraphQLError, parse, validate } from 'graphql'
import { graphqlUploadExpress } from 'graphql-upload-minimal'
import { useServer } from 'graphql-ws/use/ws'
import { WebSocketServer } from 'ws'
import type { Authenticator } from '../auth/authenticate.ts'
import type { Caller } from '../auth/caller.ts'
import { databaseUnavailable } from '../db/unavailable.ts'
import { DATABASE_RETRY_AFTER_SECONDS, DomainError, PayloadTooLargeError, ValidationError } from '../errors.ts'
import { createContext, type GraphQLContext } from '../graphql/context.ts'
import { createErrorFormatter, unavailableResponsePlugin } from '../graphql/format-error.ts'
import { jitGateway } from '../graphql/jit-executor.ts'
import { checkQueryLimits, type QueryLimits } from '../graphql/limits.ts'
import { buildSchema } from '../graphql/schema.ts'
import type { Logger } from '../logger.ts'
import { apiDocs } from './api-docs.ts'
import { credentialsFromConnectionParams, credentialsFromHeaders } from './credentials.ts'
import { GRAPHIQL_PAGE, graphiqlAssets, wantsGraphiql } from './graphiql.ts'
import { createRestRouter, sendRestError } from './rest/adapter.ts'
import { toRestError, WWW_AUTHENTICATE } from './rest/error-response.ts'
import { REST_ROUTES } from './rest/routes.ts'
import type { ServiceRuntime } from '../runtime.ts'

export interface ApiServerOptions {
  runtime: ServiceRuntime
  authenticate: Authenticator
  logger: Logger
  host: string
  port: number
  /** JSON body limit of the REST and GraphQL routes */
  jsonLimit?: string
  /** depth and cost limits of client-written GraphQL operations */
  queryLimits?: QueryLimits
}

const DEFAULT_QUERY_LIMITS: QueryLimits = { maxDepth: 10, maxCost: 20_000 }

export interface ApiServer {
  url: string
  port: number
  close(): Promise<void>
}

type SocketExtra = Record<PropertyKey, unknown> & { caller?: Caller }

export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const { runtime, authenticate, logger } = options
  const { orm } = runtime
  const schema = buildSchema()
  const formatError = createErrorFormatter(logger)
  const queryLimits = options.queryLimits ?? DEFAULT_QUERY_LIMITS
  const app = express()
  app.disable('x-powered-by')
  app.set('query parser', 'simple')
  const httpServer = http.createServer(app)

  const wsServer = new WebSocketServer({ server: httpServer, path: '/graphql' })
  const wsCleanup = useServer<Record<string, unknown>, SocketExtra>(
    {
      schema,
      onConnect: async (ctx) => {
        try {
          ctx.extra.caller = await authenticate(credentialsFromConnectionParams(ctx.connectionParams))
          return true
        } catch (error) {
          if (databaseUnavailable(error)) {
            // 1013 "try again later": clients reconnect, as they retry after a 503
            ctx.extra.socket.close(1013, 'Service unavailable: retry shortly')
            return false
          }
          if (!(error instanceof DomainError)) logger.error('websocket authentication failed', { error })
          return false
        }
      },
      context: (ctx) => createContext(runtime, ctx.extra.caller as Caller),
      onSubscribe: async (ctx, _id, payload) => {
        // credentials are checked again for every subscription (a key may have been revoked since connecting)
        try {
          ctx.extra.caller = await authenticate(credentialsFromConnectionParams(ctx.connectionParams))
        } catch (error) {
          const unavailable = databaseUnavailable(error)
          if (unavailable) return [new GraphQLError(unavailable.message, { originalError: unavailable })]
          const message = error instanceof DomainError ? error.message : 'Not authenticated'
          return [new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED', status: 401 } })]
        }
        let document
        try {
          document = parse(payload.query)
        } catch (error) {
          return [error instanceof GraphQLError ? error : new GraphQLError('Invalid query')]
        }
        const errors = [...validate(schema, document), ...checkQueryLimits(schema, document, payload.operationName, payload.variables, queryLimits)]
        if (errors.length > 0) return errors
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables }
      },
      // the same error mapping as HTTP: codes and statuses, internals masked
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((error) => formatError(error.toJSON(), error)) } : result,
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatError(error.toJSON(), error)),
    },
    wsServer,
  )

  const apollo = new ApolloServer<GraphQLContext>({
    gateway: jitGateway(schema),
    formatError,
    includeStacktraceInErrorResponses: false,
    persistedQueries: false,
    csrfPrevention: true,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      ApolloServerPluginLandingPageDisabled(),
      // no cache hints are given; the plugin would otherwise wrap every field resolver of the (shared) schema
      ApolloServerPluginCacheControlDisabled(),
      unavailableResponsePlugin(),
      { async serverWillStart() { return { async drainServer() { await wsCleanup.dispose() } } } },
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
    expressMiddleware(apollo, {
      context: async ({ req }) => createContext(runtime, await authenticateGraphQLRequest(authenticate, req)),
    }),
  )

  app.use('/api', express.json({ limit: options.jsonLimit ?? '1mb' }))
  app.use(createRestRouter({ schema, routes: REST_ROUTES, uploadMaxBytes: runtime.limits.uploadMaxBytes, authenticate, createContext: (caller) => createContext(runtime, caller), logger }))
  app.use((_req, res) => {
    res.status(404).json({ detail: 'Not Found' })
  })
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => sendRestError(res, bodyParserError(error), logger, req))

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
      wsServer.close()
    },
  }
}

async function authenticateGraphQLRequest(authenticate: Authenticator, req: Request): Promise<Caller> {
  try {
    return await authenticate(credentialsFromHeaders(req.headers))
  } catch (error) {
    // the API key could not be looked up: answered like any operation failing for that reason
    const unavailable = databaseUnavailable(error)
    if (unavailable) {
      throw new GraphQLError(unavailable.message, { originalError: unavailable, extensions: { http: { status: 503, headers: new Map([['retry-after', String(unavailable.retryAfterSeconds)]]) } } })
    }
    const response = toRestError(error)
    if (response.status !== 401) throw error
    throw new GraphQLError(String(response.body.detail), {
      extensions: { code: 'UNAUTHENTICATED', status: 401, http: { status: 401, headers: new Map([['www-authenticate', WWW_AUTHENTICATE]]) } },
    })
  }
}

/** Body parser failures become the spec's shapes: malformed JSON is a 422 json_invalid, too large a 413. */
function bodyParserError(error: unknown): unknown {
  const parserError = error as { type?: string; status?: number; body?: string }
  if (parserError.type === 'entity.parse.failed') {
    return new ValidationError([{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }])
  }
  if (parserError.type === 'entity.too.large') return new PayloadTooLargeError('Request body is too large')
  return error
}
