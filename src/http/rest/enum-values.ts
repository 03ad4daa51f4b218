/**
 * GraphQL serializes enum values in capitals (COMPLETED); REST serves the values the spec and
 * the database use (completed). This walks a result along its operation and puts each enum
 * field back to its internal value, so REST rows need no per-field presenters.
 */
import {
  getNamedType,
  isEnumType,
  isObjectType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLEnumType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql'

export function restoreEnumValues(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  data: Record<string, unknown>,
): void {
  const root = operation.operation === 'mutation' ? schema.getMutationType() : schema.getQueryType()
  if (root) visitSelection(root, operation.selectionSet, data, fragments)
}

function visitSelection(type: GraphQLObjectType, selectionSet: SelectionSetNode, value: unknown, fragments: Record<string, FragmentDefinitionNode>): void {
  if (Array.isArray(value)) {
    for (const item of value) visitSelection(type, selectionSet, item, fragments)
    return
  }
  if (value === null || typeof value !== 'object') return
  const record = value as Record<string, unknown>
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = fragments[selection.name.value]
      if (fragment) visitSelection(type, fragment.selectionSet, record, fragments)
      continue
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      visitSelection(type, selection.selectionSet, record, fragments)
      continue
    }
    const field = type.getFields()[selection.name.value]
    if (!field) continue
    const key = selection.alias?.value ?? selection.name.value
    const fieldType = getNamedType(field.type)
    if (isEnumType(fieldType)) record[key] = internalValue(fieldType, record[key])
    else if (isObjectType(fieldType) && selection.selectionSet) visitSelection(fieldType, selection.selectionSet, record[key], fragments)
  }
}

function internalValue(type: GraphQLEnumType, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => internalValue(type, item))
  if (typeof value !== 'string') return value
  return type.getValue(value)?.value ?? value
}
