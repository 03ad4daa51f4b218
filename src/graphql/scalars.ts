/** DateTime (ISO 8601 UTC) and JSON scalars. */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql'

export const DateTimeScalar = new GraphQLScalarType<Date, string>({
  name: 'DateTime',
  serialize(value) {
    const date = value instanceof Date ? value : new Date(String(value))
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime cannot represent an invalid date')
    return date.toISOString()
  },
  parseValue(value) {
    return parseDate(value)
  },
  parseLiteral(ast) {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be an ISO 8601 string')
    return parseDate(ast.value)
  },
})

function parseDate(value: unknown): Date {
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN)
  if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string')
  if (!isStorableDate(date)) throw new GraphQLError(`DateTime must be between ${EARLIEST_DATE.toISOString()} and ${LATEST_DATE.toISOString()}`)
  return date
}

/**
 * The instants a client may give, on both edges: years 1 to 9999, ISO 8601's four-digit years.
 * JavaScript dates reach further (years -271821 to 275760) than PostgreSQL can compare with.
 */
export const EARLIEST_DATE = new Date('0001-01-01T00:00:00.000Z')
export const LATEST_DATE = new Date('9999-12-31T23:59:59.999Z')

export function isStorableDate(date: Date): boolean {
  return date >= EARLIEST_DATE && date <= LATEST_DATE
}

export const JSONScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value)
      case Kind.NULL:
        return null
      case Kind.LIST:
        return ast.values.map((item) => literal(item, variables))
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((field) => [field.name.value, literal(field.value, variables)]))
      case Kind.VARIABLE:
        return variables?.[ast.name.value]
      default:
        return undefined
    }
  },
})
