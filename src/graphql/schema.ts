/**
 * The executable schema: every SDL file of schema/, the resolvers of every module, and the
 * @auth directive turned into a scope check on each field that carries it. A root field
 * without @auth is a startup error: no operation is reachable without a declared scope.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { getDirective, MapperKind, mapSchema } from '@graphql-tools/utils'
import { makeExecutableSchema } from '@graphql-tools/schema'
import { defaultFieldResolver, type GraphQLFieldConfig, type GraphQLSchema } from 'graphql'
import { isScope, requireScope, type Scope } from '../auth/caller.ts'
import type { Resolvers } from '../generated/graphql.ts'
import { repositoryResolvers } from '../modules/repositories/repository.resolvers.ts'
import { issueResolvers } from '../modules/issues/issue.resolvers.ts'
import { rulesetResolvers } from '../modules/rulesets/ruleset.resolvers.ts'
import { scanResolvers } from '../modules/scans/scan.resolvers.ts'
import { summaryResolvers } from '../modules/summaries/summary.resolvers.ts'
import { uploadResolvers } from '../modules/uploads/upload.resolvers.ts'
import type { GraphQLContext } from './context.ts'
import { DateTimeScalar, JSONScalar } from './scalars.ts'

const SCHEMA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../schema')
const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription'])

export function loadTypeDefs(): string[] {
  return fs
    .readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8'))
}

const resolvers: Resolvers[] = [
  { DateTime: DateTimeScalar, JSON: JSONScalar },
  scanResolvers,
  repositoryResolvers,
  summaryResolvers,
  issueResolvers,
  rulesetResolvers,
  uploadResolvers,
]

export function buildSchema(): GraphQLSchema {
  const schema = makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers })
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field, fieldName, typeName) => {
      const scope = declaredScope(schema, field)
      if (!scope) {
        if (ROOT_TYPES.has(typeName)) throw new Error(`${typeName}.${fieldName} has no @auth(scope: ...) directive`)
        return field
      }
      return withScopeCheck(field, scope)
    },
  })
}

function declaredScope(schema: GraphQLSchema, field: GraphQLFieldConfig<unknown, unknown>): Scope | undefined {
  const directive = getDirective(schema, field, 'auth')?.[0] as { scope?: string } | undefined
  if (!directive?.scope) return undefined
  if (!isScope(directive.scope)) throw new Error(`unknown scope "${directive.scope}" in @auth`)
  return directive.scope
}

function withScopeCheck(field: GraphQLFieldConfig<unknown, GraphQLContext>, scope: Scope) {
  const resolve = field.resolve ?? defaultFieldResolver
  const subscribe = field.subscribe
  return {
    ...field,
    resolve: (source: unknown, args: Record<string, unknown>, context: GraphQLContext, info: Parameters<typeof resolve>[3]) => {
      requireScope(context.caller, scope)
      return resolve(source, args, context, info)
    },
    ...(subscribe && {
      subscribe: (source: unknown, args: Record<string, unknown>, context: GraphQLContext, info: Parameters<typeof resolve>[3]) => {
        requireScope(context.caller, scope)
        return subscribe(source, args, context, info)
      },
    }),
  }
}

/** The scope a root field requires (the REST adapter checks it before validating input). */
export function scopeOfRootField(schema: GraphQLSchema, typeName: 'Query' | 'Mutation', fieldName: string): Scope {
  const type = typeName === 'Query' ? schema.getQueryType() : schema.getMutationType()
  const field = type?.getFields()[fieldName]
  const directive = field?.astNode?.directives?.find((node) => node.name.value === 'auth')
  const argument = directive?.arguments?.find((node) => node.name.value === 'scope')
  const scope = argument?.value.kind === 'StringValue' ? argument.value.value : undefined
  if (!scope || !isScope(scope)) throw new Error(`${typeName}.${fieldName} declares no scope`)
  return scope
}
