/**
 * GraphQL serializes enum values in capitals (COMPLETED); REST serves the values the spec and
 * the database use (completed), which are the enums' internal values. REST operations are
 * compiled with these serializers in place of the enums' own, so REST rows need no per-field
 * presenters and no second pass over the result.
 */
import { isEnumType, type GraphQLSchema } from 'graphql'

export function internalEnumSerializers(schema: GraphQLSchema): Record<string, (value: unknown) => unknown> {
  const serializers: Record<string, (value: unknown) => unknown> = {}
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith('__')) continue
    serializers[type.name] = (value) => {
      type.serialize(value) // refuses a value that is not one of the enum's, as GraphQL would
      return value
    }
  }
  return serializers
}
