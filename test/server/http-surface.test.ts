/**
 * The HTTP surface around the routes: health, the GraphQL IDE from local files, unknown routes
 * and methods, malformed bodies, no internals in any error, and bad input refused where it
 * enters (a 4xx, never a 500).
 */
import { describe, expect, it } from 'vitest'
import { expectNoInternals, useTestApp, type TestResponse } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeRepository, makeScan } from '../support/factories.ts'

const app = useTestApp()

describe('health', () => {
  it('GET /healthz answers while the process lives', async () => {
    const response = await app.request('/healthz')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 'ok' })
  })

  it('keeps idle connections open longer than clients and proxies do, so a reused connection is never closed under a request', async () => {
    const response = await app.request('/healthz')
    expect(response.headers.get('keep-alive')).toBe('timeout=65')
  })

  it('GET /readyz checks the database', async () => {
    const response = await app.request('/readyz')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 'ready' })
  })
})

describe('the GraphQL IDE', () => {
  it('is served to a browser at GET /graphql, with every asset local', async () => {
    const page = await app.request('/graphql', { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string)
    expect(sources.length).toBeGreaterThanOrEqual(4)
    for (const source of sources) {
      expect(source.startsWith('/')).toBe(true)
      const asset = await app.request(source)
      expect(asset.status, source).toBe(200)
      expect(asset.text.length, source).toBeGreaterThan(1000)
    }
    expect(page.text).not.toMatch(/https?:\/\/(?!localhost)/)
  })

  it('does not replace GraphQL GET queries', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request('/graphql?query=' + encodeURIComponent('{ repositories { id } }'), {
      headers: { ...caller.headers, 'apollo-require-preflight': 'true' },
    })
    expect(response.body).toEqual({ data: { repositories: [] } })
  })
})

describe('errors around the routes', () => {
  it('answers 404 {"detail": "Not Found"} for unknown paths', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    for (const path of ['/api/nothing', '/nothing', '/api/repositories/x/y/z']) {
      const response = await app.request(path, { headers: caller.headers })
      expect(response.status, path).toBe(404)
      expect(response.body).toEqual({ detail: 'Not Found' })
    }
  })

  it('answers 405 with Allow for a known path and another method', async () => {
    const response = await app.request('/api/repositories', { method: 'PUT' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
    expect(response.body).toEqual({ detail: 'Method Not Allowed' })
  })

  it('answers 422 json_invalid for a malformed JSON body', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const broken = await fetch(app.url + '/api/nothing', { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json' }, body: '{"a":' })
    expect(broken.status).toBe(422)
    expect(await broken.json()).toEqual({ detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }] })
  })

  it('never shows a stack trace, even for a broken GraphQL request', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const responses = [
      await app.graphql('{ repositories { nope } }', {}, caller.headers),
      await app.graphql('{ repositories ', {}, caller.headers),
      await app.request('/graphql', { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json' }, body: '{"query":' }),
    ]
    for (const response of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400)
      expectNoInternals(response)
    }
  })
})

describe('bad input is a 4xx where it enters, never a 500', () => {
  const ISSUES = 'query($filter: IssueFilter) { issues(filter: $filter, perPage: 5) { total } }'

  async function triaged() {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const issue = await makeIssue(app.db.orm, await makeScan(app.db.orm, repository))
    return { caller, repository, issue }
  }

  function located(response: TestResponse) {
    return response.body.detail.map((item: { loc: (string | number)[]; type: string }) => `${item.loc.join('.')}:${item.type}`)
  }

  it('refuses text holding NUL (PostgreSQL cannot store it) with a 422 naming the field, and stores nothing', async () => {
    const { caller, issue } = await triaged()
    const cases: [string, RequestInit & { json?: unknown }, string][] = [
      ['/api/issues?category=a%00b', {}, 'query.category:value_error'],
      ['/api/issues?file_path=a%00b', {}, 'query.file_path:value_error'],
      ['/api/scans?org_id=%00', {}, 'query.org_id:value_error'],
      [`/api/issues/${issue.id}`, { method: 'PATCH', json: { notes: 'see \u0000 here' } }, 'body.notes:value_error'],
      ['/api/issues/bulk', { method: 'PATCH', json: { issue_ids: [issue.id], notes: '\u0000' } }, 'body.notes:value_error'],
      ['/api/rulesets', { method: 'POST', json: { name: 'n\u0000', rules_text: 'rules: []' } }, 'body.name:value_error'],
    ]
    for (const [path, init, expected] of cases) {
      const response = await app.request(path, { ...init, headers: caller.headers })
      expect(response.status, path).toBe(422)
      expect(located(response), path).toContain(expected)
      expectNoInternals(response)
    }
    // a malformed identifier stays the spec's 400
    expect((await app.request(`/api/scans/${issue.id}%00/status`, { headers: caller.headers })).status).toBe(400)
    const stored = await app.request('/api/issues', { headers: caller.headers })
    expect(stored.body.issues[0].notes).toEqual([])
    expect((await app.request('/api/rulesets', { headers: caller.headers })).body).toEqual([])
  })

  it('refuses integers beyond GraphQL Int with a 422', async () => {
    const { caller, repository } = await triaged()
    for (const [path, expected] of [
      ['/api/issues?page=2147483648', 'query.page:less_than_equal'],
      [`/api/repositories/${repository.id}/issues?page=99999999999999999999`, 'query.page:less_than_equal'],
      ['/api/scans?offset=9999999999999', 'query.offset:less_than_equal'],
    ] as const) {
      const response = await app.request(path, { headers: caller.headers })
      expect(response.status, path).toBe(422)
      expect(located(response)).toContain(expected)
    }
    expect((await app.request('/api/issues?page=2147483647', { headers: caller.headers })).status).toBe(200)
  })

  it('refuses dates outside the years 1 to 9999 with a 422', async () => {
    const { caller } = await triaged()
    for (const path of ['/api/issues?created_after=0000-01-01', '/api/issues?created_before=0000-12-31T23:59:59Z']) {
      const response = await app.request(path, { headers: caller.headers })
      expect(response.status, path).toBe(422)
      expect(located(response)[0]).toMatch(/^query\.created_(after|before):datetime_parsing$/)
    }
    const earliest = await app.request('/api/issues?created_after=0001-01-01&created_before=9999-12-31T23:59:59.999Z', { headers: caller.headers })
    expect(earliest.status).toBe(200)
    expect(earliest.body.total).toBe(1)
  })

  it('refuses rules text whose YAML alias has no anchor with a 422 on rules_text (found by the fuzz test)', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const rest = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'aliases', rules_text: 'rules: *nowhere' } })
    expect(rest.status).toBe(422)
    expect(rest.body.detail).toEqual([{ loc: ['body', 'rules_text'], msg: expect.stringMatching(/line 1.*Unresolved alias/), type: 'value_error' }])
    const graphql = await app.graphql('mutation($input: CreateRulesetInput!) { createRuleset(input: $input) { id } }', { input: { name: 'aliases', rulesText: '*\u0001' } }, caller.headers)
    expect(graphql.body.errors[0].extensions.code).toBe('BAD_USER_INPUT')
  })

  it('answers 400 for a path whose percent-encoding does not decode', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    for (const path of ['/api/repositories/%ZZ/issues', '/api/scans/%/status', '/api/rulesets/%E0%A4%A']) {
      const response = await app.request(path, { headers: caller.headers })
      expect(response.status, path).toBe(400)
      expect(response.body).toEqual({ detail: 'Malformed percent-encoding in the request path' })
    }
  })

  it('answers 400 for a body in a charset or an encoding it does not read', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const latin1 = await app.request('/api/rulesets', { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json; charset=latin1' }, body: '{}' })
    expect(latin1.status).toBe(400)
    expect(latin1.body.detail).toMatch(/unsupported charset/)
    const encoded = await app.request('/api/rulesets', { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json', 'content-encoding': 'bogus' }, body: '{}' })
    expect(encoded.status).toBe(400)
    expect(encoded.body.detail).toMatch(/unsupported content encoding/)
  })

  it('answers /graphql requests it cannot read with a GraphQL error and 400', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    for (const body of ['{"query":', 'not json at all']) {
      const response = await app.request('/graphql', { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json' }, body })
      expect(response.status).toBe(400)
      expect(response.body).toEqual({ errors: [{ message: 'The request body is not valid JSON', extensions: { code: 'BAD_REQUEST', status: 400 } }] })
    }
  })

  it('refuses NUL text in GraphQL variables and literals with BAD_USER_INPUT', async () => {
    const { caller, issue } = await triaged()
    const responses = [
      await app.graphql(ISSUES, { filter: { category: ['a\u0000'] } }, caller.headers),
      await app.graphql('mutation($notes: String) { updateIssue(id: "' + issue.id + '", input: { notes: $notes }) { id } }', { notes: 'x\u0000' }, caller.headers),
      await app.graphql('mutation { updateIssue(id: "' + issue.id + '", input: { notes: "x\\u0000" }) { id } }', {}, caller.headers),
    ]
    for (const response of responses) {
      expect(response.status).toBe(400)
      expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT')
      expect(response.body.errors[0].message).toMatch(/NUL/)
    }
    expect(responses[0]!.body.errors[0].message).toMatch(/"filter.category\[0\]"/)
    expect((await app.request('/api/issues', { headers: caller.headers })).body.issues[0].notes).toEqual([])
  })

  it('refuses GraphQL DateTime values outside the years 1 to 9999 with BAD_USER_INPUT, every time', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    // the second sight of a document runs it compiled: the same refusal both ways
    for (const value of ['-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00Z', '0000-01-01T00:00:00Z']) {
      const response = await app.graphql(ISSUES, { filter: { createdAfter: value } }, caller.headers)
      expect(response.status, value).toBe(400)
      expect(response.body.errors[0].extensions.code, value).toBe('BAD_USER_INPUT')
      expect(response.body.errors[0].message).toMatch(/DateTime must be between 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z/)
    }
    const literal = await app.graphql('{ issues(filter: { createdBefore: "+275760-09-13T00:00:00Z" }) { total } }', {}, caller.headers)
    expect(literal.status).toBe(400)
    expect(literal.body.errors[0].message).toMatch(/DateTime must be between/)
  })

  it('refuses a variable that does not coerce with BAD_USER_INPUT also when the document is sent again', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const query = 'query($perPage: Int!) { issues(perPage: $perPage) { total } }'
    expect((await app.graphql(query, { perPage: 5 }, caller.headers)).status).toBe(200)
    for (const attempt of [1, 2, 3]) {
      const response = await app.graphql(query, { perPage: 'many' }, caller.headers)
      expect(response.status, `attempt ${attempt}`).toBe(400)
      expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT')
    }
  })

  it('refuses a subscription sent over HTTP with 400: subscriptions are served over WebSocket', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.graphql('subscription($id: ID!) { scanStatus(scanId: $id) { status } }', { id: '00000000-0000-4000-8000-000000000000' }, caller.headers)
    expect(response.status).toBe(400)
    expect(response.body.errors[0]).toMatchObject({ message: expect.stringMatching(/WebSocket/), extensions: { code: 'BAD_REQUEST' } })
  })
})
