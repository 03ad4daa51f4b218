/**
 * Depth, width and cost limits for client-written GraphQL operations (HTTP and WebSocket alike).
 * Depth counts nested selections. Width counts the root fields of the operation, aliases
 * included: each one runs at least one database statement, so a thousand aliases of one field
 * are a thousand reads. Cost estimates the work:
 * - a root field costs ROOT_FIELD_COST (its statement) plus what it returns;
 * - any other field costs 1 plus its selection;
 * - a list multiplies its selection (at least 1 a row, even when only __typename is asked) by
 *   the page size asked for (a perPage / limit argument on the list or on the field holding it,
 *   the maximum when it is a variable without a usable value), or by a small default for lists
 *   without one; a page (IssuePage) costs at least its page size, selected or not.
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
  /** root fields of one operation, aliases included */
  maxRootFields: number
}

/**
 * What a root field costs before what it returns: at least one statement. Measured on 2 cores,
 * a root field that reads one row took 2-3 ms, a page of 100 issues with every field (6,908 by
 * this model) 10-13 ms: 500 keeps the two in proportion within a factor of three, and lets the
 * widest operation allowed by default (20 root fields) through the default cost limit.
 */
const ROOT_FIELD_COST = 500

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
  const errors: GraphQLError[] = []
  const extensions = { code: 'QUERY_TOO_COMPLEX', status: 400, http: { status: 400 } }
  const rootFields = countRootFields(operation.selectionSet, fragments, new Set())
  if (rootFields > limits.maxRootFields) {
    // measured no further: the width alone is the answer, and measuring a huge operation is work too
    return [new GraphQLError(`Query has too many root fields: ${rootFields} exceed the limit of ${limits.maxRootFields}`, { extensions })]
  }
  const measure = measureSelection(root, operation.selectionSet, fragments, new Set(), variables ?? {}, { atRoot: true })
  if (measure.depth > limits.maxDepth) errors.push(new GraphQLError(`Query is too deep: depth ${measure.depth} exceeds the limit of ${limits.maxDepth}`, { extensions }))
  if (measure.cost > limits.maxCost) errors.push(new GraphQLError(`Query is too expensive: estimated cost ${measure.cost} exceeds the limit of ${limits.maxCost}`, { extensions }))
  return errors
}

/** Root fields after fragments are spread, aliases counted one by one, introspection not counted. */
function countRootFields(selectionSet: SelectionSetNode, fragments: Record<string, FragmentDefinitionNode>, visiting: Set<string>): number {
  let count = 0
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (!selection.name.value.startsWith('__')) count += 1
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countRootFields(selection.selectionSet, fragments, visiting)
    } else {
      const fragment = fragments[selection.name.value]
      if (fragment && !visiting.has(fragment.name.value)) count += countRootFields(fragment.selectionSet, fragments, new Set([...visiting, fragment.name.value]))
    }
  }
  return count
}

interface Measure {
  depth: number
  cost: number
}

interface Position {
  /** the selection is the operation's own (fields there are root fields) */
  atRoot: boolean
  /** a page size asked on the field holding this selection (IssuePage.issues) */
  pageSize?: number | undefined
}

const INSIDE: Position = { atRoot: false }

function measureSelection(
  type: GraphQLType,
  selectionSet: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  visiting: Set<string>,
  variables: Record<string, unknown>,
  position: Position,
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
      const inner = measureSelection(named, fragment.selectionSet, fragments, new Set([...visiting, name]), variables, position)
      depth = Math.max(depth, inner.depth)
      cost += inner.cost
      continue
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const inner = measureSelection(named, selection.selectionSet, fragments, visiting, variables, position)
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
    const inner = selection.selectionSet ? measureSelection(field.type, selection.selectionSet, fragments, visiting, variables, { ...INSIDE, pageSize: isList ? undefined : asked }) : { depth: 0, cost: 0 }
    depth = Math.max(depth, inner.depth + 1)
    cost += (position.atRoot ? ROOT_FIELD_COST : 0) + 1 + returnedCost(inner.cost, isList, selection.selectionSet !== undefined, asked, position.pageSize)
  }
  return { depth, cost }
}

/** What a field's value costs beyond the field itself. */
function returnedCost(innerCost: number, isList: boolean, isObject: boolean, asked: number | undefined, pageSize: number | undefined): number {
  // a list of scalars (tags, cweIds) comes with its row
  if (isList && !isObject) return 0
  if (isList) return (asked ?? pageSize ?? DEFAULT_LIST_SIZE) * Math.max(1, innerCost)
  // a page reads its rows whether or not they are selected
  if (asked !== undefined) return Math.max(asked, innerCost)
  return innerCost
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
