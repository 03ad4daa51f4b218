/**
 * What a dashboard reads and writes through the public GraphQL API, beyond the REST spec's
 * shapes: sorted issue lists, an issue's numbered code, typed data-flow trace and reference
 * links, a repository's scans with their counts by severity and new / fixed counts (for a chart),
 * one repository with its summary, rulesets with their repositories, and rule problems carrying
 * their line in the error's extensions. Each read is checked from another organization too.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Issue } from '../../src/modules/issues/issue.entity.ts'
import type { Repository } from '../../src/modules/repositories/repository.entity.ts'
import type { Scan } from '../../src/modules/scans/scan.entity.ts'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeRepository, makeScan, makeSummary, type Principal } from '../support/factories.ts'
import { EVAL_RULES } from '../support/rules.ts'

const app = useTestApp()

async function graphql(caller: Principal, query: string, variables: Record<string, unknown> = {}) {
  const response = await app.graphql(query, variables, caller.headers)
  expect(response.status, response.text).toBe(200)
  return response.body as { data?: any; errors?: { message: string; extensions: Record<string, any> }[] }
}

describe('sorting issue lists', () => {
  let caller: Principal
  let repository: Repository
  const issues: Record<string, Issue> = {}
  const SORTED = `query($sort: IssueSort, $page: Int! = 1, $perPage: Int! = 20) {
    issues(sort: $sort, page: $page, perPage: $perPage) { total issues { id } }
  }`
  const order = async (sort: unknown, paging: { page?: number; perPage?: number } = {}) => {
    const body = await graphql(caller, SORTED, { sort, ...paging })
    expect(body.errors).toBeUndefined()
    return body.data.issues.issues.map((issue: { id: string }) => issue.id)
  }
  const idsOf = (...names: string[]) => names.map((name) => issues[name]?.id)

  beforeAll(async () => {
    caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const scan = await makeScan(app.db.orm, repository)
    const at = (day: number) => new Date(`2026-06-0${day}T10:00:00Z`)
    issues.low = await makeIssue(app.db.orm, scan, { severity: 'low', filePath: 'b/app.py', lineNumber: 30, ruleId: 'r.c', title: 'Zeta', createdAt: at(1) })
    issues.critical = await makeIssue(app.db.orm, scan, { severity: 'critical', filePath: 'a/db.py', lineNumber: 9, ruleId: 'r.b', title: 'Alpha', createdAt: at(2) })
    issues.info = await makeIssue(app.db.orm, scan, { severity: 'info', filePath: 'b/app.py', lineNumber: 4, ruleId: 'r.a', title: 'Mu', createdAt: at(3) })
    issues.high = await makeIssue(app.db.orm, scan, { severity: 'high', filePath: 'c/run.py', lineNumber: 1, ruleId: 'r.b', title: 'Beta', createdAt: at(4) })
    issues.medium = await makeIssue(app.db.orm, scan, { severity: 'medium', filePath: 'a/db.py', lineNumber: 100, ruleId: 'r.d', title: 'Gamma', createdAt: at(5) })
  })

  it('orders by severity, most severe first or last', async () => {
    expect(await order({ field: 'SEVERITY', direction: 'DESC' })).toEqual(idsOf('critical', 'high', 'medium', 'low', 'info'))
    expect(await order({ field: 'SEVERITY', direction: 'ASC' })).toEqual(idsOf('info', 'low', 'medium', 'high', 'critical'))
  })

  it('orders by file and line (numerically), by rule, by title and by date', async () => {
    expect(await order({ field: 'FILE_PATH', direction: 'ASC' })).toEqual(idsOf('critical', 'medium', 'info', 'low', 'high'))
    expect(await order({ field: 'FILE_PATH', direction: 'DESC' })).toEqual(idsOf('high', 'low', 'info', 'medium', 'critical'))
    // equal rules fall back to the default order, newest first
    expect(await order({ field: 'RULE_ID', direction: 'ASC' })).toEqual(idsOf('info', 'high', 'critical', 'low', 'medium'))
    expect(await order({ field: 'TITLE', direction: 'ASC' })).toEqual(idsOf('critical', 'high', 'medium', 'info', 'low'))
    expect(await order({ field: 'CREATED_AT', direction: 'ASC' })).toEqual(idsOf('low', 'critical', 'info', 'high', 'medium'))
    expect(await order(null)).toEqual(idsOf('medium', 'high', 'info', 'critical', 'low'))
  })

  it('pages through the sorted list without skipping or repeating an issue', async () => {
    const sort = { field: 'SEVERITY', direction: 'DESC' }
    const pages = [...(await order(sort, { page: 1, perPage: 2 })), ...(await order(sort, { page: 2, perPage: 2 })), ...(await order(sort, { page: 3, perPage: 2 }))]
    expect(pages).toEqual(idsOf('critical', 'high', 'medium', 'low', 'info'))
  })

  it("sorts a repository's issues too, with the filters", async () => {
    const body = await graphql(
      caller,
      `query($repoId: ID!) { repositoryIssues(repoId: $repoId, filter: { filePath: "b/" }, sort: { field: FILE_PATH, direction: ASC }) { issues { id } } }`,
      { repoId: repository.id },
    )
    expect(body.data.repositoryIssues.issues.map((issue: { id: string }) => issue.id)).toEqual(idsOf('info', 'low'))
  })

  it('refuses an unknown sort field as bad input', async () => {
    const response = await app.graphql(SORTED, { sort: { field: 'LINE', direction: 'ASC' } }, caller.headers)
    expect(response.status).toBe(400)
    expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT')
  })
})

describe("an issue's page", () => {
  const ISSUE_PAGE = `query($id: ID!) { issue(id: $id) {
    codeLines { number text inMatch }
    references { kind id title url }
    trace { sanitized source { filePath lineNumber code note kind } steps { filePath lineNumber code note } sink { filePath lineNumber code note kind } sanitizer { lineNumber } }
  } }`

  it('numbers the code around the finding and marks the matched lines', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const issue = await makeIssue(app.db.orm, scan, {
      lineNumber: 12,
      contextBefore: 'def load(uid):\n    cursor = db.cursor()\n',
      codeSnippet: '    cursor.execute(\n        f"select {uid}")',
      contextAfter: '    return cursor.fetchall()',
    })
    const body = await graphql(caller, ISSUE_PAGE, { id: issue.id })
    expect(body.data.issue.codeLines).toEqual([
      { number: 9, text: 'def load(uid):', inMatch: false },
      { number: 10, text: '    cursor = db.cursor()', inMatch: false },
      { number: 11, text: '', inMatch: false },
      { number: 12, text: '    cursor.execute(', inMatch: true },
      { number: 13, text: '        f"select {uid}")', inMatch: true },
      { number: 14, text: '    return cursor.fetchall()', inMatch: false },
    ])
  })

  it('keeps line numbers right near the top of a file and after a long, shortened match', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const matched = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`)
    const issue = await makeIssue(app.db.orm, scan, { lineNumber: 1, contextBefore: '', codeSnippet: `${matched.join('\n')}\n… (8 more lines)`, contextAfter: 'after' })
    const lines = (await graphql(caller, ISSUE_PAGE, { id: issue.id })).data.issue.codeLines
    expect(lines[0]).toEqual({ number: 1, text: 'line 1', inMatch: true })
    expect(lines.at(-2)).toEqual({ number: 12, text: 'line 12', inMatch: true })
    expect(lines.at(-1)).toEqual({ number: 21, text: 'after', inMatch: false })
  })

  it('links its CWE and OWASP references', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const issue = await makeIssue(app.db.orm, scan, { cweIds: ['CWE-89', 'CWE-564'], owaspCategory: 'A03:2021 - Injection' })
    const unknown = await makeIssue(app.db.orm, scan, { cweIds: ['not a cwe'], owaspCategory: 'Z9:1999 - Something' })
    expect((await graphql(caller, ISSUE_PAGE, { id: issue.id })).data.issue.references).toEqual([
      { kind: 'CWE', id: 'CWE-89', title: null, url: 'https://cwe.mitre.org/data/definitions/89.html' },
      { kind: 'CWE', id: 'CWE-564', title: null, url: 'https://cwe.mitre.org/data/definitions/564.html' },
      { kind: 'OWASP', id: 'A03:2021', title: 'Injection', url: 'https://owasp.org/Top10/A03_2021-Injection/' },
    ])
    expect((await graphql(caller, ISSUE_PAGE, { id: unknown.id })).data.issue.references).toEqual([
      { kind: 'CWE', id: 'not a cwe', title: null, url: null },
      { kind: 'OWASP', id: 'Z9:1999', title: 'Something', url: null },
    ])
  })

  it('gives the data-flow trace step by step, typed, and null for a pattern finding', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const step = (lineNumber: number, note: string) => ({ filePath: 'app.py', lineNumber, code: `code ${lineNumber}`, note })
    const flow = await makeIssue(app.db.orm, scan, {
      dataFlow: { source: { ...step(3, 'request.args'), kind: 'HTTP query parameter' }, steps: [step(4, 'assigned to q'), step(7, 'passed to run()')], sink: { ...step(9, 'shell'), kind: 'command', cwe: 'CWE-78' }, sanitized: false, sanitizer: null },
    })
    const pattern = await makeIssue(app.db.orm, scan, { dataFlow: null })
    expect((await graphql(caller, ISSUE_PAGE, { id: flow.id })).data.issue.trace).toEqual({
      sanitized: false,
      source: { filePath: 'app.py', lineNumber: 3, code: 'code 3', note: 'request.args', kind: 'HTTP query parameter' },
      steps: [step(4, 'assigned to q'), step(7, 'passed to run()')],
      sink: { filePath: 'app.py', lineNumber: 9, code: 'code 9', note: 'shell', kind: 'command' },
      sanitizer: null,
    })
    expect((await graphql(caller, ISSUE_PAGE, { id: pattern.id })).data.issue.trace).toBeNull()
  })
})

describe("a repository's scans for a chart", () => {
  let caller: Principal
  let repository: Repository
  let first: Scan
  let second: Scan
  let running: Scan
  const CHART = `query($repoId: ID!) { scans(repoId: $repoId) { id status issueCounts {
    total falsePositiveCount newCount unchangedCount fixedCount bySeverity { severity count }
  } } }`
  const bySeverity = (counts: Record<string, number>) =>
    ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'].map((severity) => ({ severity, count: counts[severity] ?? 0 }))

  beforeAll(async () => {
    caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo', 'write:scan'] })
    repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    first = await makeScan(app.db.orm, repository, { createdAt: new Date('2026-06-01T00:00:00Z') })
    second = await makeScan(app.db.orm, repository, { createdAt: new Date('2026-06-02T00:00:00Z'), baseScanId: first.id })
    running = await makeScan(app.db.orm, repository, { status: 'running', createdAt: new Date('2026-06-03T00:00:00Z') })
    // first: a (high), b (high), c (low); second keeps a, fixes b and c, adds d (critical, false positive)
    await makeIssue(app.db.orm, first, { fingerprint: 'fp-a', severity: 'high' })
    await makeIssue(app.db.orm, first, { fingerprint: 'fp-b', severity: 'high' })
    await makeIssue(app.db.orm, first, { fingerprint: 'fp-c', severity: 'low' })
    await makeIssue(app.db.orm, second, { fingerprint: 'fp-a', severity: 'high', baselineState: 'unchanged' })
    await makeIssue(app.db.orm, second, { fingerprint: 'fp-d', severity: 'critical', falsePositive: true })
    await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
  })

  it("lists only the repository's scans, newest first, each with its counts by severity and its new and fixed issues", async () => {
    const body = await graphql(caller, CHART, { repoId: repository.id })
    expect(body.errors).toBeUndefined()
    expect(body.data.scans).toEqual([
      { id: running.id, status: 'RUNNING', issueCounts: null },
      { id: second.id, status: 'COMPLETED', issueCounts: { total: 2, falsePositiveCount: 1, newCount: 1, unchangedCount: 1, fixedCount: 2, bySeverity: bySeverity({ CRITICAL: 1, HIGH: 1 }) } },
      { id: first.id, status: 'COMPLETED', issueCounts: { total: 3, falsePositiveCount: 0, newCount: 3, unchangedCount: 0, fixedCount: 0, bySeverity: bySeverity({ HIGH: 2, LOW: 1 }) } },
    ])
  })

  it('counts every scan of the list in a fixed number of statements', async () => {
    const statements = async () => {
      app.db.statements.length = 0
      await graphql(caller, CHART, { repoId: repository.id })
      return app.db.statements.filter((line) => /\b(select)\b/i.test(line) && !/api_keys/.test(line)).length
    }
    const before = await statements()
    const later = await makeScan(app.db.orm, repository, { createdAt: new Date('2026-06-04T00:00:00Z'), status: 'completed', baseScanId: second.id })
    await makeIssue(app.db.orm, later, { fingerprint: 'fp-a', severity: 'high', baselineState: 'unchanged' })
    expect(await statements()).toBe(before)
  })

  it("shows another organization none of the repository's scans", async () => {
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    expect((await graphql(stranger, CHART, { repoId: repository.id })).data.scans).toEqual([])
  })
})

describe('one repository with its summary', () => {
  const REPOSITORY = `query($id: ID!) { repository(id: $id) { id repoName languages summary { architecturePattern authLogicSummary trustBoundaries } } }`

  it('reads one repository, with its summary or null before a full scan made one', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const summarized = await makeRepository(app.db.orm, { orgId: caller.orgId, repoName: 'shop' })
    await makeSummary(app.db.orm, summarized)
    const fresh = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const body = await graphql(caller, REPOSITORY, { id: summarized.id })
    expect(body.data.repository).toMatchObject({ id: summarized.id, repoName: 'shop', summary: { architecturePattern: 'Flask REST API over PostgreSQL', trustBoundaries: { entry_points: [expect.any(Object)] } } })
    expect((await graphql(caller, REPOSITORY, { id: fresh.id })).data.repository.summary).toBeNull()
  })

  it("refuses another organization's and a deleted repository, describing nothing", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const theirs = await makeRepository(app.db.orm, { repoName: 'secret-name' })
    const deleted = await makeRepository(app.db.orm, { orgId: caller.orgId, isActive: false })
    const foreign = await graphql(caller, REPOSITORY, { id: theirs.id })
    expect(foreign.data).toBeNull()
    expect(foreign.errors?.[0]?.extensions.code).toBe('NOT_FOUND')
    expect(JSON.stringify(foreign)).not.toContain('secret-name')
    expect((await graphql(caller, REPOSITORY, { id: deleted.id })).errors?.[0]?.extensions.code).toBe('NOT_FOUND')
  })
})

describe('rulesets in an editor', () => {
  it('lists the repositories a ruleset is linked to, by name', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId, repoName: 'shop' })
    const body = await graphql(caller, `mutation($input: CreateRulesetInput!) { createRuleset(input: $input) { repositories { id repoName } } }`, {
      input: { name: 'team', rulesText: EVAL_RULES, repoIds: [repository.id] },
    })
    expect(body.data.createRuleset.repositories).toEqual([{ id: repository.id, repoName: 'shop' }])
  })

  it("gives each rule problem's line and rule in the error's extensions", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const text = ['id: custom.first', 'language: javascript', 'severity: info', 'message: m', 'rule:', '  pattern: foo($A)', '---', 'id: custom.bad', 'language: cobol', 'severity: info', 'message: m', 'rule:', '  pattern: eval($X)', ''].join('\n')
    const body = await graphql(caller, `mutation($input: CreateRulesetInput!) { createRuleset(input: $input) { id } }`, { input: { name: 'broken', rulesText: text } })
    expect(body.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT')
    expect(body.errors?.[0]?.extensions.issues).toEqual([expect.objectContaining({ loc: ['body', 'rules_text'], line: 9, ruleId: 'custom.bad', msg: expect.stringContaining('line 9') })])
  })

  it('keeps the REST 422 body in the spec shape', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'broken', rules_text: 'id: [unclosed' } })
    expect(response.status).toBe(422)
    for (const problem of response.body.detail) expect(Object.keys(problem).sort()).toEqual(['loc', 'msg', 'type'])
  })
})

describe("an issue's triage history", () => {
  const HISTORY = `query($id: ID!) { issue(id: $id) { notes { text author } triageHistory { author createdAt falsePositive exploitable severity note } } }`

  it('records who set what and when, with or without a note, from single and bulk triage, oldest first', async () => {
    const alice = await makeApiKeyPrincipal(app.db.orm, { userId: 'alice' })
    const bob = await makeApiKeyPrincipal(app.db.orm, { orgId: alice.orgId, userId: 'bob' })
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: alice.orgId }))
    const issue = await makeIssue(app.db.orm, scan)
    const other = await makeIssue(app.db.orm, scan)
    await graphql(alice, `mutation($id: ID!) { updateIssue(id: $id, input: { falsePositive: true }) { id } }`, { id: issue.id })
    await graphql(bob, `mutation($ids: [ID!]!) { bulkUpdateIssues(input: { issueIds: $ids, exploitable: true, severity: CRITICAL, notes: "reachable" }) { updatedCount } }`, { ids: [issue.id, other.id] })
    await graphql(alice, `mutation($id: ID!) { updateIssue(id: $id, input: { notes: "asked the team" }) { id } }`, { id: issue.id })

    const { issue: read } = (await graphql(alice, HISTORY, { id: issue.id })).data
    expect(read.triageHistory).toEqual([
      { author: 'alice', createdAt: expect.any(String), falsePositive: true, exploitable: null, severity: null, note: null },
      { author: 'bob', createdAt: expect.any(String), falsePositive: null, exploitable: true, severity: 'CRITICAL', note: 'reachable' },
      { author: 'alice', createdAt: expect.any(String), falsePositive: null, exploitable: null, severity: null, note: 'asked the team' },
    ])
    // notes stay the written notes only, on both surfaces
    expect(read.notes).toEqual([{ text: 'reachable', author: 'bob' }, { text: 'asked the team', author: 'alice' }])
    const rest = await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: alice.headers, json: { exploitable: false } })
    expect(rest.body.notes.map((note: { text: string }) => note.text)).toEqual(['reachable', 'asked the team'])
  })

  it('shows another organization nothing of it', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const issue = await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId })))
    await graphql(caller, `mutation($id: ID!) { updateIssue(id: $id, input: { falsePositive: true, notes: "private" }) { id } }`, { id: issue.id })
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    const body = await graphql(stranger, HISTORY, { id: issue.id })
    expect(body.data).toBeNull()
    expect(JSON.stringify(body)).not.toContain('private')
  })
})
