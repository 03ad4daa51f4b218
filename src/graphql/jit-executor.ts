/**
 * Executes GraphQL operations compiled to JavaScript by graphql-jit, for the REST adapter (one
 * fixed operation per route) and for /graphql (through Apollo Server's executor hook, see
 * `jitGateway`). A page of 100 issues is about 4,000 fields; graphql-js interprets the
 * operation for each of them, the compiled function does not.
 *
 * /graphql compiles a document the second time it is executed (Apollo keeps parsed documents
 * in a bounded store, so a repeated query is the same DocumentNode): one-off queries are not
 * worth compiling, and a client sending ever-new documents never makes the server compile.
 */
import type { GatewayExecutor, GatewayInterface } from '@apollo/server-gateway-interface'
import { execute, getOperationAST, getVariableValues, valueFromASTUntyped, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql'
import { compileQuery, isCompiledQuery, type CompiledQuery, type CompilerOptions } from 'graphql-jit'

export type OperationRunner = (context: unknown, variables: Record<string, unknown>) => Promise<ExecutionResult>

/** Compiles one operation, or throws with the reasons it does not compile. */
export function compileOperation(schema: GraphQLSchema, document: DocumentNode, operationName?: string, options?: Partial<CompilerOptions>): OperationRunner {
  const compiled = compileQuery(schema, document, operationName, options)
  if (!isCompiledQuery(compiled)) throw new Error(compiled.errors?.map((error) => error.message).join('; ') ?? 'operation does not compile')
  return runnerOf(compiled, variableDefaults(document, operationName))
}

/**
 * The declared defaults of the operation's variables, as request values. graphql-jit refuses a
 * non-null variable with a default (`$perPage: Int! = 20`) that the request leaves out, which
 * graphql-js accepts as the specification says: the runner fills them in first.
 */
function variableDefaults(document: DocumentNode, operationName: string | undefined): Record<string, unknown> {
  const definitions = getOperationAST(document, operationName)?.variableDefinitions ?? []
  return Object.fromEntries(definitions.flatMap((definition) => (definition.defaultValue ? [[definition.variable.name.value, valueFromASTUntyped(definition.defaultValue)]] : [])))
}

function runnerOf(compiled: CompiledQuery, defaults: Record<string, unknown>): OperationRunner {
  return async (context, variables) => {
    const given = Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined))
    const result = await compiled.query(undefined, context, { ...defaults, ...given })
    return result.errors ? { ...result, errors: result.errors.map(withExtensions) } : result
  }
}

/**
 * graphql-jit's errors leave `extensions` undefined (a read-only property) where graphql-js
 * gives {}, and Apollo reads `extensions.code`: the same error, seen through an object that has them.
 */
function withExtensions(error: GraphQLError): GraphQLError {
  if (error.extensions) return error
  return Object.create(error, { extensions: { value: {}, enumerable: true } }) as GraphQLError
}

/** Runs documents through graphql-js on first sight and compiled from the second time on. */
export function createDocumentExecutor(schema: GraphQLSchema) {
  const seen = new WeakMap<DocumentNode, Map<string, OperationRunner | 'seen'>>()

  function runnerFor(document: DocumentNode, operationName: string | undefined): OperationRunner | undefined {
    let operations = seen.get(document)
    if (!operations) seen.set(document, (operations = new Map()))
    const key = operationName ?? ''
    const known = operations.get(key)
    if (known && known !== 'seen') return known
    if (!known) {
      operations.set(key, 'seen')
      return undefined
    }
    // only queries and mutations: subscriptions are served over WebSocket by graphql-ws
    if (getOperationAST(document, operationName)?.operation === 'subscription') return undefined
    try {
      const runner = compileOperation(schema, document, operationName)
      operations.set(key, runner)
      return runner
    } catch {
      return undefined // graphql-js runs it and reports what is wrong
    }
  }

  return async (document: DocumentNode, operationName: string | undefined, context: unknown, variables: Record<string, unknown> | undefined): Promise<ExecutionResult> => {
    const runner = runnerFor(document, operationName)
    if (runner) {
      const result = await runner(context, variables ?? {})
      // no data: the variables did not coerce. graphql-jit says so with errors of its own kind,
      // which Apollo does not know as input errors (they would be 500s); graphql-js says it as Apollo expects
      if (result.data === undefined && result.errors) return coercionErrors(schema, document, operationName, variables) ?? result
      return result
    }
    return execute({ schema, document, operationName: operationName ?? null, contextValue: context, variableValues: variables ?? null })
  }
}

function coercionErrors(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown> | undefined): ExecutionResult | undefined {
  const operation = getOperationAST(document, operationName)
  if (!operation) return undefined
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 })
  return coerced.errors ? { errors: coerced.errors } : undefined
}

/**
 * Apollo Server's hook for a custom executor is its gateway interface: it takes the schema and
 * an executor from `load()`. Nothing else of a gateway is involved; the schema never changes.
 */
export function jitGateway(schema: GraphQLSchema): GatewayInterface {
  const run = createDocumentExecutor(schema)
  const executor: GatewayExecutor = async ({ document, request, context }) => run(document, request.operationName, context, request.variables)
  let announce: ((schemaContext: { apiSchema: GraphQLSchema; coreSupergraphSdl: string }) => void) | undefined
  return {
    onSchemaLoadOrUpdate(callback) {
      announce = callback
      return () => {
        announce = undefined
      }
    },
    async load() {
      announce?.({ apiSchema: schema, coreSupergraphSdl: '' })
      return { executor }
    },
    async stop() {},
  }
}
