/**
 * The GraphQL surface's hardening (depth and cost limits on HTTP and WebSocket, no automatic
 * persisted queries) and its parity with REST: the same records, field for field.
 */
import { describe, expect, it } from 'vitest'
import { runOverWebSocket, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeRepository, makeScan, makeSummary } from '../support/factories.ts'
import { EVAL_RULES } from '../support/rules.ts'

const app = useTestApp({ queryLimits: { maxDepth: 4, maxCost: 600 } })

const SHALLOW = `{ issues(perPage: 5) { total issues { id repository { id } } } }`
const TOO_DEEP = `{ issues { issues { scan { repository { id } } } } }`
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

  it('price a list by the page size its variables ask for', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const small = await app.graphql(TOO_EXPENSIVE, { n: 5 }, caller.headers)
    expect(small.body.errors).toBeUndefined()
    const large = await app.graphql(TOO_EXPENSIVE, { n: 100 }, caller.headers)
    expect(large.status).toBe(400)
    expect(large.body.errors[0].message).toMatch(/^Query is too expensive: estimated cost \d+ exceeds the limit of 600$/)
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
    const enums = new Set(['lastScanStatus', 'severity', 'scanStatus'])
    const graphqlIssueFields = `id scanId repoId ruleId fingerprint filePath lineNumber category severity confidence title description columnStart columnEnd
      explanation codeSnippet contextBefore contextAfter remediation remediationCode cweIds owaspCategory cvssScore tags modelUsed dataFlow
      falsePositive exploitable notes { text author createdAt } createdAt updatedAt repoName scanStatus scanCreatedAt`

    const gql = await app.graphql(
      `query($repoId: ID!) {
        repositories { id orgId repoName branchName isActive sizeBytes fileCount languages contentSha256 createdBy createdAt updatedAt lastScanId lastScanStatus }
        repositorySummary(repoId: $repoId) { id repoId orgId architecturePattern authLogicSummary trustBoundaries businessLogicFlows crossFileDependencies ragContext securityContext dataFlowAnalysis createdAt updatedAt }
        issues(perPage: 5) { issues { ${graphqlIssueFields} } total page perPage totalPages hasNext hasPrev }
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
