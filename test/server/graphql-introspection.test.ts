/**
 * Introspection for frontend teams: authenticated callers read the schema in every NODE_ENV
 * (production included) unless GRAPHQL_INTROSPECTION=false, which also stops error messages
 * from suggesting schema names.
 */
import { describe, expect, it } from 'vitest'
import { useTestApp, type TestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'

// Apollo decides its default when the server is built; these servers are built in production mode
process.env['NODE_ENV'] = 'production'

const open = useTestApp()
const closed = useTestApp({ introspection: false })

const INTROSPECTION = '{ __schema { queryType { name } } }'
const TYPO = '{ repositorys { id } }'

async function subscribeOnce(app: TestApp, apiKey: string, query: string): Promise<unknown> {
  const client = app.websocket({ apiKey })
  return new Promise((resolve) => {
    client.subscribe({ query }, { next: resolve, error: resolve, complete: () => resolve('complete') })
  })
}

describe('GraphQL introspection', () => {
  it('answers authenticated callers in production, and refuses anonymous ones', async () => {
    const caller = await makeApiKeyPrincipal(open.db.orm)
    const response = await open.graphql(INTROSPECTION, {}, caller.headers)
    expect(response.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } })
    expect((await open.graphql(INTROSPECTION, {}, {})).status).toBe(401)
    const typo = await open.graphql(TYPO, {}, caller.headers)
    expect(typo.body.errors[0].message).toMatch(/Did you mean .*"repositories"/)
  })

  it('is refused with GRAPHQL_INTROSPECTION=false, and errors no longer suggest names, over HTTP and WebSocket', async () => {
    const caller = await makeApiKeyPrincipal(closed.db.orm)
    const response = await closed.graphql(INTROSPECTION, {}, caller.headers)
    expect(response.status).toBe(400)
    expect(response.body.errors[0].message).toMatch(/introspection/i)
    const typo = await closed.graphql(TYPO, {}, caller.headers)
    expect(typo.body.errors[0].message).toBe('Cannot query field "repositorys" on type "Query".')

    const apiKey = caller.headers['X-API-Key'] as string
    const overSocket = (await subscribeOnce(closed, apiKey, INTROSPECTION)) as { message: string }[]
    expect(overSocket[0]?.message).toMatch(/introspection/i)
    const typoOverSocket = (await subscribeOnce(closed, apiKey, TYPO)) as { message: string }[]
    expect(typoOverSocket[0]?.message).toBe('Cannot query field "repositorys" on type "Query".')
  })
})
