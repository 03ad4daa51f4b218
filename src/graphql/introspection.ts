/**
 * Whether clients may read the schema. On by default in every environment: frontend teams
 * run codegen and IDEs against the live endpoint, and every operation needs credentials
 * anyway. Turned off (GRAPHQL_INTROSPECTION=false), introspection queries are refused and error
 * messages stop suggesting field, argument or type names ("Did you mean ...?"), which would
 * otherwise let a caller rebuild the schema by guessing.
 */
import { GraphQLError, NoSchemaIntrospectionCustomRule, type ValidationRule } from 'graphql'

/** Validation rules added to graphql-js's own for client operations. */
export function introspectionRules(introspection: boolean): ValidationRule[] {
  return introspection ? [] : [NoSchemaIntrospectionCustomRule]
}

const SUGGESTION = / ?Did you mean .*\?$/

/** The error without the schema names graphql-js suggests, when introspection is off. */
export function withoutSchemaHints(error: GraphQLError, introspection: boolean): GraphQLError {
  if (introspection || !SUGGESTION.test(error.message)) return error
  return new GraphQLError(error.message.replace(SUGGESTION, ''), { nodes: error.nodes ?? null, extensions: error.extensions })
}
