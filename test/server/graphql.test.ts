/**
 * The GraphQL surface's hardening (depth, width and cost limits on HTTP and WebSocket, no
 * automatic persisted queries) and its parity with REST: the same records, field for field.
 */
import { describe, expect, it } from 'vitest'
import { runOverWebSocket, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeRepository, makeScan, makeSummary } from '../support/factories.ts'
import { EVAL_RULES } from '../support/rules.ts'

const app = useTestApp({ queryLimits: { maxDepth: 4, maxCost: 5000, maxRootFields: 20 } })
/** a server with the default limits (GRAPHQL_MAX_DEPTH, GRAPHQL_MAX_COST, GRAPHQL_MAX_ROOT_FIELDS) */
const defaults = useTestApp()

const SHALLOW = `{ issues(perPage: 5) { total issues { id repository { id } } } }`
const TOO_DEEP = `{ issues { issues { scan { repository { id } } } } }`
const ISSUE_FIELDS = `id scanId repoId ruleId fingerprint filePath lineNumber category severity confidence title description columnStart columnEnd
  explanation codeSnippet contextBefore contextAfter remediation remediationCode cweIds owaspCategory cvssScore tags modelUsed dataFlow
  falsePositive exploitable baselineState firstSeenAt firstSeenScanId notes { text author createdAt } createdAt updatedAt repoName scanStatus scanCreatedAt`

/** One operation selecting `field` `count` times under aliases a0, a1... */
function aliases(count: number, field: string, header = ''): string {
  return `${header} { ${Array.from({ length: count }, (_, index) => `a${index}: ${field}`).join(' ')} }`
}
const TOO_EXPENSIVE = `query($n: Int!) { issues(perPage: $n) { issues { id title notes { text author } scan { id status } repository { id repoName } } } }`

describe('query limits', () => {
  it('accept operations within the limits, and introspection', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const ordinary = await app.graphql(SHALLOW, {}, caller.headers)
    expect(ordinary.body).toEqual({ data: { issues: { total: 0, issues: [] } } })
    const introspection = await app.graphql('{ __schema { types { name fields { name type { name ofType { name ofType { name ofType { name } } } } } } } }', {}, caller.headers)
    expect(introspection.body.data.__schema.types.length).toBeGreaterThan(10)
  })

  it('refuse a too deep operation over HTTP (400) and over WebSocket', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const http = await app.graphql(TOO_DEEP, {}, caller.headers)
    expect(http.status).toBe(400)
    expect(http.body.errors[0]).toMatchObject({ message: 'Query is too deep: depth 5 exceeds the limit of 4', extensions: { code: 'QUERY_TOO_COMPLEX' } })
    const socket = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const refused = await runOverWebSocket(socket, TOO_DEEP).catch((errors: unknown) => errors)
    expect(JSON.stringify(refused)).toContain('Query is too deep')
  })

  it('refuse a document whose literals nest thousands of brackets before parsing it, over HTTP (400) and WebSocket', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const nested = `{ issues(filter: { category: ${'['.repeat(3000)}"x"${']'.repeat(3000)} }) { total } }`
    const http = await app.graphql(nested, {}, caller.headers)
    expect(http.status).toBe(400)
    expect(http.body.errors[0]).toMatchObject({ message: expect.stringMatching(/nested too deeply/), extensions: { code: 'GRAPHQL_PARSE_FAILED' } })
    const socket = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const refused = await runOverWebSocket(socket, nested).catch((errors: unknown) => errors)
    expect(JSON.stringify(refused)).toContain('nested too deeply')
    // brackets inside strings and comments are text, not nesting
    const quoted = await app.graphql(`# ${'['.repeat(500)}\n{ issues(filter: { filePath: "${'{'.repeat(500)}" }) { total } }`, {}, caller.headers)
    expect(quoted.body).toEqual({ data: { issues: { total: 0 } } })
  })

  it('price a list by the page size its variables ask for', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const small = await app.graphql(TOO_EXPENSIVE, { n: 5 }, caller.headers)
    expect(small.body.errors).toBeUndefined()
    const large = await app.graphql(TOO_EXPENSIVE, { n: 200 }, caller.headers)
    expect(large.status).toBe(400)
    expect(large.body.errors[0].message).toMatch(/^Query is too expensive: estimated cost \d+ exceeds the limit of 5000$/)
  })

  it('charge each root field for the database read it runs, aliases included', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const few = await app.graphql(aliases(5, 'scan(id: $id) { id }', 'query($id: ID!)'), { id: scan.id }, caller.headers)
    expect(few.body).toEqual({ data: Object.fromEntries(Array.from({ length: 5 }, (_, index) => [`a${index}`, { id: scan.id }])) })
    const many = await app.graphql(aliases(10, 'scan(id: $id) { id }', 'query($id: ID!)'), { id: scan.id }, caller.headers)
    expect(many.status).toBe(400)
    expect(many.body.errors[0]).toMatchObject({ message: expect.stringMatching(/^Query is too expensive: estimated cost \d+ exceeds the limit of 5000$/), extensions: { code: 'QUERY_TOO_COMPLEX' } })
  })

  it('charge a page its page size even when none of its rows is selected', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.graphql(aliases(5, 'issues(perPage: 20) { total }'), {}, caller.headers)).body.errors).toBeUndefined()
    const large = await app.graphql(aliases(5, 'issues(perPage: 500) { total }'), {}, caller.headers)
    expect(large.status).toBe(400)
    expect(large.body.errors[0].message).toMatch(/^Query is too expensive/)
  })

  it('under the default limits, refuse a thousand aliased root fields over HTTP (400) and WebSocket, and let dashboard queries through', async () => {
    const caller = await makeApiKeyPrincipal(defaults.db.orm)
    const wide = aliases(1000, 'repositories { id }')
    const http = await defaults.graphql(wide, {}, caller.headers)
    expect(http.status).toBe(400)
    expect(http.body).toEqual({ errors: [{ message: 'Query has too many root fields: 1000 exceed the limit of 20', extensions: { code: 'QUERY_TOO_COMPLEX', status: 400 } }] })
    const socket = defaults.websocket({ apiKey: caller.headers['X-API-Key'] })
    const refused = await runOverWebSocket(socket, wide).catch((errors: unknown) => errors)
    expect(JSON.stringify(refused)).toContain('Query has too many root fields: 1000 exceed the limit of 20')

    const scan = await makeScan(defaults.db.orm, await makeRepository(defaults.db.orm, { orgId: caller.orgId }))
    const dashboards = [
      // 20 root fields, and introspection, which is not counted
      aliases(20, 'repositories { id }').replace('{', '{ __typename __schema { queryType { name } }'),
      // the API benchmark's page: 100 issues with every field
      `{ issues(perPage: 100) { issues { ${ISSUE_FIELDS} } total page perPage totalPages hasNext hasPrev } }`,
      `query($id: ID!) { scan(id: $id) { id status progress issuesCount } scanStatus(id: $id) { status progress } scanTaskStatus(id: $id) { status }
        scanLogs(id: $id) { message level } scanResults(id: $id) { status summary { totalIssues } issues { id } } }`,
      `{ repositories { id repoName lastScanStatus } repositorySummaries { totalCount summaries { id repoId } } rulesets { id name repoIds }
        issuesSummary { totalIssues issuesBySeverity recentIssues { id title severity } } scans(limit: 50) { id status progress repository { repoName } } }`,
    ]
    for (const query of dashboards) {
      const response = await defaults.graphql(query, { id: scan.id }, caller.headers)
      expect(response.status).toBe(200)
      expect(response.body.errors).toBeUndefined()
    }
  })

  it('do not support automatic persisted queries', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request('/graphql', {
      method: 'POST',
      headers: caller.headers,
      json: { extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } },
    })
    expect(response.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED')
  })
})

/** camelCase GraphQL names to the spec's snake_case, enum values to lower case. */
function toRest(value: unknown, enumKeys: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => toRest(item, enumKeys))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => {
      const snake = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
      if (enumKeys.has(key) && typeof item === 'string') return [snake, item.toLowerCase()]
      const free = ['languages', 'trustBoundaries', 'businessLogicFlows', 'crossFileDependencies', 'dataFlowAnalysis', 'dataFlow'].includes(key)
      return [snake, free ? item : toRest(item, enumKeys)]
    }),
  )
}

describe('REST and GraphQL parity', () => {
  it('give the same repositories, summaries, issues and rulesets', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId, lastScanStatus: 'completed' })
    await makeSummary(app.db.orm, repository)
    const scan = await makeScan(app.db.orm, repository)
    const issue = await makeIssue(app.db.orm, scan, { dataFlow: { steps: [{ file: 'a.py', line: 1 }] } })
    await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: { exploitable: true, notes: 'seen' } })
    await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'parity', rules_text: EVAL_RULES, repo_ids: [repository.id] } })
    const enums = new Set(['lastScanStatus', 'severity', 'scanStatus', 'baselineState'])

    const gql = await app.graphql(
      `query($repoId: ID!) {
        repositories { id orgId repoName branchName isActive sizeBytes fileCount languages contentSha256 createdBy createdAt updatedAt lastScanId lastScanStatus }
        repositorySummary(repoId: $repoId) { id repoId orgId architecturePattern authLogicSummary trustBoundaries businessLogicFlows crossFileDependencies ragContext securityContext dataFlowAnalysis createdAt updatedAt }
        issues(perPage: 5) { issues { ${ISSUE_FIELDS} } total page perPage totalPages hasNext hasPrev }
        rulesets { id name description rulesText orgId repoIds createdAt updatedAt createdBy }
      }`,
      { repoId: repository.id },
      caller.headers,
    )
    expect(gql.body.errors).toBeUndefined()

    const rest = {
      repositories: (await app.request('/api/repositories', { headers: caller.headers })).body.all_repos,
      summary: (await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })).body,
      issues: (await app.request('/api/issues?per_page=5', { headers: caller.headers })).body,
      rulesets: (await app.request('/api/rulesets', { headers: caller.headers })).body,
    }
    expect(rest.repositories).toEqual(toRest(gql.body.data.repositories, enums))
    expect(rest.summary).toEqual(toRest(gql.body.data.repositorySummary, enums))
    expect(rest.issues).toEqual(toRest(gql.body.data.issues, enums))
    expect(rest.rulesets).toEqual(toRest(gql.body.data.rulesets, enums))
    expect(rest.issues.issues[0].notes[0]).toMatchObject({ text: 'seen' })
  })
})

describe('a document sent again', () => {
  // the first execution interprets the document, later ones run it compiled: nobody may tell them apart
  it('gives the same data, field for field', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const issue = await makeIssue(app.db.orm, scan, { dataFlow: { steps: [{ file: 'a.py', line: 1 }] } })
    await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: { false_positive: true, notes: 'checked' } })
    const query = `query($severity: [Severity!]) { issues(perPage: 5, filter: { severity: $severity }) {
      total issues { id severity falsePositive dataFlow notes { text author createdAt } createdAt scanStatus scan { id status } repository { id repoName } } } }`
    const bodies = []
    for (let run = 0; run < 3; run++) bodies.push((await app.graphql(query, { severity: [issue.severity.toUpperCase()] }, caller.headers)).body)
    expect(bodies[0].errors).toBeUndefined()
    expect(bodies[0].data.issues.issues[0]).toMatchObject({ id: issue.id, falsePositive: true, notes: [{ text: 'checked' }] })
    expect(bodies[1]).toEqual(bodies[0])
    expect(bodies[2]).toEqual(bodies[0])
  })

  it('applies the defaults of variables the request leaves out, as the first time', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    await makeIssue(app.db.orm, scan)
    await makeIssue(app.db.orm, scan)
    // typed clients declare `$perPage: Int! = 20` and send only what the user changed
    const query = `query($page: Int! = 1, $perPage: Int! = 1, $severity: [Severity!] = [HIGH]) { issues(page: $page, perPage: $perPage, filter: { severity: $severity }) { total perPage issues { id } } }`
    const bodies = []
    for (let run = 0; run < 3; run++) bodies.push((await app.graphql(query, {}, caller.headers)).body)
    expect(bodies[0]).toMatchObject({ data: { issues: { total: 2, perPage: 1 } } })
    expect(bodies[1]).toEqual(bodies[0])
    expect(bodies[2]).toEqual(bodies[0])
  })

  it('gives the same errors, with their codes and statuses', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const other = await makeRepository(app.db.orm, { orgId: (await makeApiKeyPrincipal(app.db.orm)).orgId })
    const query = `query($id: ID!) { repositorySummary(repoId: $id) { id ragContext } }`
    for (const [id, code, status] of [[other.id, 'FORBIDDEN', 403], ['00000000-0000-4000-8000-000000000000', 'NOT_FOUND', 404]] as const) {
      const bodies = []
      for (let run = 0; run < 3; run++) bodies.push((await app.graphql(query, { id }, caller.headers)).body)
      expect(bodies[0].errors[0]).toMatchObject({ path: ['repositorySummary'], extensions: { code, status } })
      expect(bodies[1]).toEqual(bodies[0])
      expect(bodies[2]).toEqual(bodies[0])
    }
  })

  it('answers introspection the same way', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const query = '{ __schema { queryType { name } types { name kind fields { name args { name } type { name kind ofType { name } } } } } __type(name: "Issue") { fields { name } } }'
    const bodies = []
    for (let run = 0; run < 3; run++) bodies.push((await app.graphql(query, {}, caller.headers)).body)
    expect(bodies[0].data.__type.fields.map((field: { name: string }) => field.name)).toContain('dataFlow')
    expect(bodies[1]).toEqual(bodies[0])
    expect(bodies[2]).toEqual(bodies[0])
  })
})
