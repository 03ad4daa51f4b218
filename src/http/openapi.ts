/**
 * The OpenAPI 3.1 document of the REST surface, generated from the route table: paths and
 * methods from the rows, parameters and bodies from their zod schemas, responses from the
 * GraphQL operation each row runs (its aliases are the JSON's names, its types the JSON's
 * types). Nothing here is written by hand per route, so the document cannot drift.
 */
import {
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql'
import { z } from 'zod'
import type { RestRoute } from './rest/route-table.ts'

export const API_VERSION = '1.8.0'

type JsonSchema = Record<string, unknown>

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid identifier or parameters, or a request the resource state refuses',
  401: 'Missing or invalid token or API key',
  403: 'Insufficient scope, no organization, or a resource of another organization',
  404: 'Not found',
  409: 'Conflict',
  413: 'Payload too large',
  422: 'Validation error',
  500: 'Internal server error',
}

export function buildOpenApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[]): JsonSchema {
  const components: Record<string, JsonSchema> = {
    HTTPError: { type: 'object', properties: { detail: { type: 'string' } }, required: ['detail'] },
    ValidationError: {
      type: 'object',
      properties: {
        loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
        msg: { type: 'string' },
        type: { type: 'string' },
      },
      required: ['loc', 'msg', 'type'],
    },
    HTTPValidationError: { type: 'object', properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } }, required: ['detail'] },
  }
  const paths: Record<string, Record<string, unknown>> = {}
  for (const route of routes) {
    const path = route.path.replace(/:([a-z_]+)/g, '{$1}')
    paths[path] ??= {}
    paths[path][route.method] = operationObject(schema, route, components)
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Parapet',
      version: API_VERSION,
      description: 'Code security scanning service: repositories, scans, issues, rulesets and repository summaries, scoped to the caller\'s organization.',
    },
    servers: [{ url: '/' }],
    security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  }
}

function operationObject(schema: GraphQLSchema, route: RestRoute, components: Record<string, JsonSchema>): JsonSchema {
  const document = parse(route.operation)
  const operation = document.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)
  if (!operation) throw new Error(`route ${route.path} has no operation`)
  const fragments = Object.fromEntries(
    document.definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]),
  )
  const rootType = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType()
  const rootSelection = operation.selectionSet.selections[0]
  if (!rootType || rootSelection?.kind !== Kind.FIELD) throw new Error(`route ${route.path} has no root field`)
  const rootField = rootType.getFields()[rootSelection.name.value]
  if (!rootField) throw new Error(`route ${route.path}: unknown field ${rootSelection.name.value}`)
  const scope = rootField.astNode?.directives?.find((directive) => directive.name.value === 'auth')?.arguments?.[0]?.value
  const valueSchema = typeSchema(rootField.type, rootSelection.selectionSet, fragments, components)
  const success = route.status === 204
    ? { description: 'No content' }
    : { description: 'Success', content: { 'application/json': { schema: route.wrap ? { type: 'object', properties: { [route.wrap]: valueSchema }, required: [route.wrap] } : valueSchema } } }
  const errors = [...new Set([...(route.errors ?? []), 401, 403, 422, 500])].sort()
  return {
    summary: route.summary,
    tags: route.tags,
    operationId: `${route.method}_${route.path.replace(/^\/api\//, '').replace(/[/:]+/g, '_')}`,
    ...(scope?.kind === Kind.STRING && { description: `Requires the \`${scope.value}\` scope.`, 'x-required-scope': scope.value }),
    parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
    ...(route.body && { requestBody: { required: true, content: { [route.upload ? 'multipart/form-data' : 'application/json']: { schema: inputSchema(route.body) } } } }),
    responses: {
      [route.status]: success,
      ...Object.fromEntries(
        errors.map((status) => [
          status,
          { description: ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: { $ref: `#/components/schemas/${status === 422 ? 'HTTPValidationError' : 'HTTPError'}` } } } },
        ]),
      ),
    },
  }
}

function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema
  return json
}

function parameters(schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!schema) return []
  const json = inputSchema(schema) as { properties?: Record<string, JsonSchema>; required?: string[] }
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property
    return {
      name,
      in: location,
      required: location === 'path' || (json.required ?? []).includes(name),
      ...(typeof description === 'string' && { description }),
      schema: rest,
    }
  })
}

function typeSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, components: Record<string, JsonSchema>): JsonSchema {
  if (isNonNullType(type)) return nonNullSchema(type.ofType, selectionSet, fragments, components)
  return { anyOf: [nonNullSchema(type, selectionSet, fragments, components), { type: 'null' }] }
}

function nonNullSchema(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>, components: Record<string, JsonSchema>): JsonSchema {
  if (isNonNullType(type)) return nonNullSchema(type.ofType, selectionSet, fragments, components)
  if (isListType(type)) return { type: 'array', items: typeSchema(type.ofType, selectionSet, fragments, components) }
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((value) => value.value as string) }
  if (isScalarType(type)) return scalarSchema(type.name)
  if (isObjectType(type) && selectionSet) return objectSchema(type, selectionSet, fragments, components)
  return {}
}

/** A selection made of one named fragment becomes a reusable component named after it. */
function objectSchema(type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, components: Record<string, JsonSchema>): JsonSchema {
  const only = selectionSet.selections.length === 1 ? selectionSet.selections[0] : undefined
  if (only?.kind === Kind.FRAGMENT_SPREAD) {
    const fragment = fragments[only.name.value]
    const name = only.name.value.replace(/Fields$/, '')
    if (fragment && !components[name]) {
      components[name] = {}
      components[name] = inlineObject(type, fragment.selectionSet, fragments, components)
    }
    return { $ref: `#/components/schemas/${name}` }
  }
  return inlineObject(type, selectionSet, fragments, components)
}

function inlineObject(type: GraphQLObjectType, selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, components: Record<string, JsonSchema>): JsonSchema {
  const named = type
  const properties: Record<string, JsonSchema> = {}
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments[selection.name.value]
      if (fragment) Object.assign(properties, (inlineObject(named, fragment.selectionSet, fragments, components) as { properties: Record<string, JsonSchema> }).properties)
      continue
    }
    if (selection.kind !== Kind.FIELD) continue
    const field = named.getFields()[selection.name.value]
    if (!field) continue
    properties[selection.alias?.value ?? selection.name.value] = typeSchema(field.type, selection.selectionSet, fragments, components)
  }
  return { type: 'object', properties, required: Object.keys(properties) }
}

function scalarSchema(name: string): JsonSchema {
  switch (name) {
    case 'ID':
    case 'String':
      return { type: 'string' }
    case 'Int':
      return { type: 'integer' }
    case 'Float':
      return { type: 'number' }
    case 'Boolean':
      return { type: 'boolean' }
    case 'DateTime':
      return { type: 'string', format: 'date-time' }
    default:
      return {}
  }
}
