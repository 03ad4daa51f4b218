/**
 * Serves the REST route table by running GraphQL operations against the same schema and
 * resolvers as /graphql. Order per request, as REST clients expect: authenticate (401), scope
 * (403), validate path/query/body (400/422), execute, answer with the row's status.
 */
import express, { type Request, type Response, type Router } from 'express'
import { Kind, parse, validate, type GraphQLSchema, type OperationDefinitionNode } from 'graphql'
import type { Authenticator } from '../../auth/authenticate.ts'
import { requireScope, type Caller, type Scope } from '../../auth/caller.ts'
import type { GraphQLContext } from '../../graphql/context.ts'
import { compileOperation, type OperationRunner } from '../../graphql/jit-executor.ts'
import { scopeOfRootField } from '../../graphql/schema.ts'
import type { Logger } from '../../logger.ts'
import { credentialsFromHeaders } from '../credentials.ts'
import { internalEnumSerializers } from './enum-values.ts'
import { toRestError } from './error-response.ts'
import type { RestRoute } from './route-table.ts'
import { readMultipart } from './multipart.ts'
import { parseInput } from './validation.ts'

export interface RestAdapterOptions {
  schema: GraphQLSchema
  /** size limit of multipart uploads */
  uploadMaxBytes: number
  routes: readonly RestRoute[]
  authenticate: Authenticator
  createContext: (caller: Caller) => GraphQLContext
  logger: Logger
}

interface PreparedRoute {
  route: RestRoute
  /** the row's operation compiled to JavaScript: a route runs the same operation on every request */
  run: OperationRunner
  rootKey: string
  scope: Scope
}

export function createRestRouter(options: RestAdapterOptions): Router {
  const router = express.Router()
  const serializers = internalEnumSerializers(options.schema)
  const prepared = options.routes.map((route) => prepareRoute(options.schema, route, serializers))
  for (const entry of prepared) {
    router[entry.route.method](entry.route.path, (req, res) => handle(entry, options, req, res))
  }
  router.use('/api', (req, res) => {
    const allowed = prepared.filter((entry) => pathMatches(entry.route.path, req.originalUrl.split('?')[0] ?? '')).map((entry) => entry.route.method.toUpperCase())
    if (allowed.length > 0) {
      res.status(405).set('Allow', allowed.join(', ')).json({ detail: 'Method Not Allowed' })
    } else {
      res.status(404).json({ detail: 'Not Found' })
    }
  })
  return router
}

/** Parses, validates and compiles each row's operation once, at startup: a broken row fails the boot. */
function prepareRoute(schema: GraphQLSchema, route: RestRoute, serializers: Record<string, (value: unknown) => unknown>): PreparedRoute {
  const document = parse(route.operation)
  const errors = validate(schema, document)
  if (errors.length > 0) throw new Error(`REST route ${route.method.toUpperCase()} ${route.path}: ${errors.map((error) => error.message).join('; ')}`)
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
  const operation = operations[0]
  if (operations.length !== 1 || !operation) throw new Error(`REST route ${route.path} must hold exactly one operation`)
  const rootFields = operation.selectionSet.selections.filter((selection) => selection.kind === Kind.FIELD)
  const rootField = rootFields[0]
  if (rootFields.length !== 1 || !rootField) throw new Error(`REST route ${route.path} must select exactly one root field`)
  const run = compileOperation(schema, document, undefined, { customSerializers: serializers })
  const rootType = operation.operation === 'mutation' ? 'Mutation' : 'Query'
  return {
    route,
    run,
    rootKey: rootField.alias?.value ?? rootField.name.value,
    scope: scopeOfRootField(schema, rootType, rootField.name.value),
  }
}

async function handle(entry: PreparedRoute, options: RestAdapterOptions, req: Request, res: Response): Promise<void> {
  const { route } = entry
  let cleanup = async () => undefined as void
  try {
    const caller = await options.authenticate(credentialsFromHeaders(req.headers))
    requireScope(caller, entry.scope)
    const params = route.params ? parseInput(route.params, req.params, 'path') : undefined
    const query = route.query ? parseInput(route.query, req.query, 'query') : undefined
    let rawBody: unknown = req.body
    if (route.upload) {
      const multipart = await readMultipart(req, route.upload.field, options.uploadMaxBytes)
      cleanup = multipart.cleanup
      rawBody = { ...multipart.fields, [route.upload.field]: multipart.file }
    }
    const input = { params, query, body: route.body ? parseInput(route.body, rawBody, 'body') : undefined, caller }
    const result = await entry.run(options.createContext(caller), route.variables?.(input) ?? {})
    const firstError = result.errors?.[0]
    if (firstError) throw firstError.originalError ?? firstError
    const data = (result.data ?? {}) as Record<string, unknown>
    if (route.status === 204) {
      res.status(204).end()
      return
    }
    const value = data[entry.rootKey]
    res.status(route.status).json(route.wrap ? { [route.wrap]: value } : value)
  } catch (error) {
    sendRestError(res, error, options.logger, req)
  } finally {
    await cleanup()
  }
}

export function sendRestError(res: Response, error: unknown, logger: Logger, req: Request): void {
  const response = toRestError(error)
  // a database outage is answered 503 to every request while it lasts: one short line each
  if (response.status === 503) logger.warn('request refused: database unavailable', { method: req.method, path: req.path })
  else if (response.status >= 500) logger.error('request failed', { method: req.method, path: req.path, error })
  if (response.headers) res.set(response.headers)
  res.status(response.status).json(response.body)
}

function pathMatches(pattern: string, path: string): boolean {
  const expected = pattern.split('/')
  const actual = path.replace(/\/$/, '').split('/')
  return expected.length === actual.length && expected.every((part, index) => part.startsWith(':') || part === actual[index])
}
