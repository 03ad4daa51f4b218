/**
 * What /graphql refuses of an operation before running it, beyond what the schema's types say:
 * a subscription (served over WebSocket only: over HTTP it has no event stream to run on), and
 * text holding NUL (U+0000), in variables or in literals, which PostgreSQL cannot store.
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
