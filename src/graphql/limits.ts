/**
 * Depth and cost limits for client-written GraphQL operations (HTTP and WebSocket alike).
 * Depth counts nested selections; cost counts fields, multiplying a list's selections by the
 * page size asked for (a perPage / limit argument on the list or on the field holding it, the
 * maximum when it is a variable), or by a small default for lists without one.
 * Introspection is exempt, so IDEs keep working.
 */
import {
  getOperationAST,
  GraphQLError,
  getNamedType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type GraphQLOutputType,
  type GraphQLType,
  type SelectionSetNode,
} from 'graphql'

export interface QueryLimits {
  maxDepth: number
  maxCost: number
}

const PAGE_ARGUMENTS = ['perPage', 'limit', 'first']
/** what a list without a page-size argument is assumed to hold (notes, links...) */
const DEFAULT_LIST_SIZE = 10
/** a page-size argument without a usable value counts as the largest page the API serves */
const MAX_PAGE_SIZE = 500

/**
 * The limit errors of one operation of `document`, with its variables known (HTTP: an Apollo
 * plugin once the operation is resolved; WebSocket: on subscribe).
 */
export function checkQueryLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  limits: QueryLimits,
): GraphQLError[] {
  const operation = getOperationAST(document, operationName)
  if (!operation) return []
  const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType()
  if (!root) return []
  const fragments = Object.fromEntries(document.definitions.filter((node): node is FragmentDefinitionNode => node.kind === Kind.FRAGMENT_DEFINITION).map((node) => [node.name.value, node]))
  const measure = measureSelection(root, operation.selectionSet, fragments, new Set(), variables ?? {})
  const errors: GraphQLError[] = []
  const extensions = { code: 'QUERY_TOO_COMPLEX', status: 400, http: { status: 400 } }
  if (measure.depth > limits.maxDepth) errors.push(new GraphQLError(`Query is too deep: depth ${measure.depth} exceeds the limit of ${limits.maxDepth}`, { extensions }))
  if (measure.cost > limits.maxCost) errors.push(new GraphQLError(`Query is too expensive: estimated cost ${measure.cost} exceeds the limit of ${limits.maxCost}`, { extensions }))
  return errors
}

interface Measure {
  depth: number
  cost: number
}

function measureSelection(
  type: GraphQLType,
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  visiting: Set<string>,
  variables: Record<string, unknown>,
  pageSize?: number,
): Measure {
  const named = getNamedType(type)
  if (!isObjectType(named)) return { depth: 0, cost: 0 }
  let depth = 0
  let cost = 0
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const name = selection.name.value
      const fragment = fragments[name]
      if (!fragment || visiting.has(name)) continue
      const inner = measureSelection(named, fragment.selectionSet, fragments, new Set([...visiting, name]), variables, pageSize)
      depth = Math.max(depth, inner.depth)
      cost += inner.cost
      continue
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const inner = measureSelection(named, selection.selectionSet, fragments, visiting, variables, pageSize)
      depth = Math.max(depth, inner.depth)
      cost += inner.cost
      continue
    }
    if (selection.name.value.startsWith('__')) continue
    const field = named.getFields()[selection.name.value]
    if (!field) continue
    const asked = pageArgument(selection.arguments ?? [], variables)
    const isList = returnsList(field.type)
    // a page size asked on a field that is not itself a list sizes the list inside it (IssuePage.issues)
    const inner = selection.selectionSet ? measureSelection(field.type, selection.selectionSet, fragments, visiting, variables, isList ? undefined : asked) : { depth: 0, cost: 0 }
    depth = Math.max(depth, inner.depth + 1)
    cost += 1 + (isList ? (asked ?? pageSize ?? DEFAULT_LIST_SIZE) : 1) * inner.cost
  }
  return { depth, cost }
}

function pageArgument(args: readonly ArgumentNode[], variables: Record<string, unknown>): number | undefined {
  const argument = args.find((candidate) => PAGE_ARGUMENTS.includes(candidate.name.value))
  if (!argument) return undefined
  const value = argument.value.kind === Kind.INT ? Number(argument.value.value) : argument.value.kind === Kind.VARIABLE ? Number(variables[argument.value.name.value]) : Number.NaN
  return Number.isFinite(value) ? Math.max(1, Math.min(MAX_PAGE_SIZE, value)) : MAX_PAGE_SIZE
}

function returnsList(type: GraphQLOutputType): boolean {
  const inner = isNonNullType(type) ? type.ofType : type
  return isListType(inner)
}
