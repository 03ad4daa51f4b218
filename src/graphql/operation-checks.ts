/**
 * What /graphql refuses of an operation before running it, beyond what the schema's types say:
 * a subscription (served over WebSocket only: over HTTP it has no event stream to run on), and
 * text holding NUL (U+0000), in variables or in literals, which PostgreSQL cannot store; and,
 * before parsing (checkDocumentNesting: the HTTP route and the WebSocket server call it, as
 * Apollo's hooks run after its parser), a document nested deeper than any real operation
 * (graphql-js's recursive parser overflows its stack on a few thousand nested brackets).
 * Refusals are 400s with the codes GraphQL's own input errors carry.
 */
import type { ApolloServerPlugin } from '@apollo/server'
import { GraphQLError, visit, type ASTNode, type DocumentNode } from 'graphql'
import { findNulText, type TextPath } from './arguments.ts'

export function operationChecksPlugin<Context extends object>(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, document, request }) {
          if (operation?.operation === 'subscription') {
            throw new GraphQLError('Subscriptions are served over WebSocket (graphql-ws) at /graphql, not over HTTP', {
              nodes: operation,
              extensions: { code: 'BAD_REQUEST', status: 400, http: { status: 400 } },
            })
          }
          const error = checkText(document, request.variables)
          if (error) throw error
        },
      }
    },
  }
}

/**
 * Brackets ({ [ () nested in the document's text, outside strings and comments. Selections are
 * limited to GRAPHQL_MAX_DEPTH after parsing; this bound only keeps the parser itself safe.
 */
export const MAX_DOCUMENT_NESTING = 100

export function checkDocumentNesting(source: string): GraphQLError | undefined {
  let depth = 0
  for (let index = 0; index < source.length; index++) {
    const char = source[index]
    if (char === '#') {
      while (index < source.length && source[index] !== '\n' && source[index] !== '\r') index++
    } else if (char === '"') {
      index = endOfString(source, index)
    } else if (char === '{' || char === '[' || char === '(') {
      depth++
      if (depth > MAX_DOCUMENT_NESTING) {
        return new GraphQLError(`Document is nested too deeply: more than ${MAX_DOCUMENT_NESTING} levels of brackets`, {
          extensions: { code: 'GRAPHQL_PARSE_FAILED', status: 400 },
        })
      }
    } else if (char === '}' || char === ']' || char === ')') {
      depth = Math.max(0, depth - 1)
    }
  }
  return undefined
}

/** The index of the closing quote of the string (or block string) opening at `start`. */
function endOfString(source: string, start: number): number {
  if (source.startsWith('"""', start)) {
    const end = source.indexOf('"""', start + 3)
    return end < 0 ? source.length : end + 2
  }
  for (let index = start + 1; index < source.length; index++) {
    if (source[index] === '\\') index++
    else if (source[index] === '"' || source[index] === '\n') return index
  }
  return source.length
}

/** The first place holding NUL text, variables first. */
function checkText(document: DocumentNode, variables: Record<string, unknown> | undefined): GraphQLError | undefined {
  const [path] = findNulText(variables ?? {})
  if (path) return nulTextError(`Variable "$${String(path[0])}" got invalid value at "${describe(path)}"`)
  let literal: ASTNode | undefined
  visit(document, {
    StringValue(node) {
      if (node.value.includes('\u0000')) literal ??= node
    },
  })
  return literal && nulTextError('String literal got invalid value', literal)
}

function nulTextError(where: string, node?: ASTNode): GraphQLError {
  return new GraphQLError(`${where}; text cannot contain NUL (U+0000) characters`, {
    ...(node && { nodes: [node] }),
    extensions: { code: 'BAD_USER_INPUT', status: 400, http: { status: 400 } },
  })
}

/** input.notes, filter.category[0]: how graphql-js names a place in a variable */
function describe(path: TextPath): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('')
}
