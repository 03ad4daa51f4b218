/**
 * Issue routes: the organization's and a repository's lists with every filter and the page
 * envelope, the summary, and triage of one issue or many; scopes and other organizations.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { Issue } from '../../src/modules/issues/issue.entity.ts'
import type { Repository } from '../../src/modules/repositories/repository.entity.ts'
import type { Scan } from '../../src/modules/scans/scan.entity.ts'
import { expectNoInternals, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeOrgId, makeRepository, makeScan, type Principal } from '../support/factories.ts'

const app = useTestApp()
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'
type IssueJson = Record<string, unknown> & { id: string }
const ids = (body: { issues: IssueJson[] }) => body.issues.map((issue) => issue.id).sort()

describe('GET /api/issues', () => {
  let caller: Principal
  let repository: Repository
  let otherRepository: Repository
  let scan: Scan
  let laterScan: Scan
  const issues: Record<string, Issue> = {}

  beforeAll(async () => {
    caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    repository = await makeRepository(app.db.orm, { orgId: caller.orgId, repoName: 'api' })
    otherRepository = await makeRepository(app.db.orm, { orgId: caller.orgId, repoName: 'web' })
    scan = await makeScan(app.db.orm, repository, { createdAt: new Date('2026-05-01T00:00:00Z') })
    laterScan = await makeScan(app.db.orm, otherRepository)
    issues.sql = await makeIssue(app.db.orm, scan, { severity: 'critical', category: 'sql-injection', filePath: 'src/db/query.py', createdAt: new Date('2026-05-01T10:00:00Z') })
    issues.xss = await makeIssue(app.db.orm, scan, { severity: 'medium', category: 'xss', filePath: 'templates/page_50%.html', falsePositive: true, createdAt: new Date('2026-05-02T10:00:00Z') })
    issues.cmd = await makeIssue(app.db.orm, scan, { severity: 'high', category: 'command-injection', filePath: 'src/tools/run.py', exploitable: true, createdAt: new Date('2026-05-03T10:00:00Z') })
    issues.weak = await makeIssue(app.db.orm, laterScan, { severity: 'low', category: 'weak-hash', filePath: 'web/src/Hash.java', createdAt: new Date('2026-05-04T10:00:00Z') })
    const inactive = await makeRepository(app.db.orm, { orgId: caller.orgId, isActive: false })
    await makeIssue(app.db.orm, await makeScan(app.db.orm, inactive), { title: 'of a deleted repository' })
    await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm)), { title: 'of another organization' })
  })

  it('answers the page envelope with every issue field', async () => {
    const response = await app.request('/api/issues', { headers: caller.headers })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ total: 4, page: 1, per_page: 20, total_pages: 1, has_next: false, has_prev: false })
    expect(response.body.issues.map((issue: IssueJson) => issue.id)).toEqual([issues.weak, issues.cmd, issues.xss, issues.sql].map((issue) => issue?.id))
    const sql = response.body.issues[3]
    expect(sql).toEqual({
      id: issues.sql?.id,
      scan_id: scan.id,
      repo_id: repository.id,
      rule_id: 'python.sql-injection.string-format',
      fingerprint: issues.sql?.fingerprint,
      file_path: 'src/db/query.py',
      line_number: issues.sql?.lineNumber,
      category: 'sql-injection',
      severity: 'critical',
      confidence: 0.8,
      title: 'SQL query built from a string',
      description: 'cursor.execute() runs a query built with an f-string',
      column_start: 5,
      column_end: 40,
      explanation: 'User input reaches the query text',
      code_snippet: 'cursor.execute(f"select * from t where id = {uid}")',
      context_before: 'def load(uid):',
      context_after: '    return cursor.fetchall()',
      remediation: 'Use query parameters',
      remediation_code: 'cursor.execute("select * from t where id = %s", (uid,))',
      cwe_ids: ['CWE-89'],
      owasp_category: 'A03:2021 - Injection',
      cvss_score: 8.6,
      tags: ['injection'],
      model_used: 'parapet-sast/1.0',
      data_flow: null,
      false_positive: false,
      exploitable: null,
      baseline_state: 'new',
      first_seen_at: '2026-05-01T10:00:00.000Z',
      first_seen_scan_id: scan.id,
      notes: [],
      created_at: '2026-05-01T10:00:00.000Z',
      updated_at: issues.sql?.updatedAt.toISOString(),
      repo_name: 'api',
      scan_status: 'completed',
      scan_created_at: '2026-05-01T00:00:00.000Z',
    })
    expect(response.text).not.toContain('of a deleted repository')
    expect(response.text).not.toContain('of another organization')
  })

  it.each([
    ['severity=critical,high', ['sql', 'cmd']],
    ['severity=low&severity=medium', ['weak', 'xss']],
    ['category=xss', ['xss']],
    ['category=sql-injection,command-injection', ['sql', 'cmd']],
    ['false_positive=1', ['xss']],
    ['false_positive=true', ['xss']],
    ['false_positive=0', ['sql', 'cmd', 'weak']],
    ['false_positive=false', ['sql', 'cmd', 'weak']],
    ['false_positive=2', ['sql', 'weak']],
    ['file_path=src/', ['sql', 'cmd', 'weak']],
    ['file_path=50%25', ['xss']],
    ['file_path=QUERY', ['sql']],
    ['created_after=2026-05-02T12:00:00Z', ['cmd', 'weak']],
    ['created_before=2026-05-02', ['sql']],
    ['created_after=2026-05-01T12:00:00Z&created_before=2026-05-03T12:00:00Z', ['xss', 'cmd']],
  ])('filters by %s', async (query, expected) => {
    const response = await app.request(`/api/issues?${query}`, { headers: caller.headers })
    expect(response.status).toBe(200)
    expect(ids(response.body)).toEqual(expected.map((name) => issues[name]?.id).sort())
    expect(response.body.total).toBe(expected.length)
  })

  it('filters by scan_id and repo_id', async () => {
    const byScan = await app.request(`/api/issues?scan_id=${laterScan.id}`, { headers: caller.headers })
    expect(ids(byScan.body)).toEqual([issues.weak?.id])
    const byRepo = await app.request(`/api/issues?repo_id=${repository.id}`, { headers: caller.headers })
    expect(byRepo.body.total).toBe(3)
  })

  it('pages exactly', async () => {
    const first = await app.request('/api/issues?per_page=3', { headers: caller.headers })
    expect(first.body).toMatchObject({ total: 4, page: 1, per_page: 3, total_pages: 2, has_next: true, has_prev: false })
    expect(first.body.issues).toHaveLength(3)
    const second = await app.request('/api/issues?per_page=3&page=2', { headers: caller.headers })
    expect(second.body).toMatchObject({ total: 4, page: 2, total_pages: 2, has_next: false, has_prev: true })
    expect(second.body.issues).toHaveLength(1)
    const beyond = await app.request('/api/issues?per_page=3&page=9', { headers: caller.headers })
    expect(beyond.body).toMatchObject({ total: 4, page: 9, issues: [], has_next: false, has_prev: true })
  })

  it('answers 422 with every failing parameter', async () => {
    const response = await app.request('/api/issues?page=0&per_page=101&severity=urgent&false_positive=3&scan_id=nope&created_after=yesterday', { headers: caller.headers })
    expect(response.status).toBe(422)
    const locations = response.body.detail.map((item: { loc: string[] }) => item.loc.join('.'))
    expect(locations).toEqual(expect.arrayContaining(['query.page', 'query.per_page', 'query.severity.0', 'query.false_positive', 'query.scan_id', 'query.created_after']))
    const types = Object.fromEntries(response.body.detail.map((item: { loc: string[]; type: string }) => [item.loc.join('.'), item.type]))
    expect(types).toMatchObject({ 'query.page': 'greater_than_equal', 'query.per_page': 'less_than_equal', 'query.severity.0': 'enum', 'query.scan_id': 'uuid_parsing', 'query.created_after': 'datetime_from_date_parsing' })
    expect((await app.request('/api/issues?page=abc', { headers: caller.headers })).body.detail[0]).toEqual({
      loc: ['query', 'page'],
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      type: 'int_parsing',
    })
  })

  it('answers 400 when created_after is later than created_before', async () => {
    const response = await app.request('/api/issues?created_after=2026-06-01&created_before=2026-05-01', { headers: caller.headers })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ detail: 'created_after must not be later than created_before' })
  })

  it('needs read:repo', async () => {
    const scanner = await makeApiKeyPrincipal(app.db.orm, { orgId: caller.orgId, scopes: ['write:scan'] })
    expect((await app.request('/api/issues', { headers: scanner.headers })).status).toBe(403)
    expect((await app.request('/api/issues')).status).toBe(401)
  })

  it('shows another organization nothing', async () => {
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request(`/api/issues?repo_id=${repository.id}`, { headers: stranger.headers })
    expect(response.body).toMatchObject({ total: 0, issues: [] })
  })
})

describe('GET /api/repositories/{repo_id}/issues', () => {
  it("lists the repository's issues with the same filters", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const scan = await makeScan(app.db.orm, repository)
    const high = await makeIssue(app.db.orm, scan, { severity: 'high' })
    await makeIssue(app.db.orm, scan, { severity: 'low' })
    await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId })))
    const response = await app.request(`/api/repositories/${repository.id}/issues?severity=high`, { headers: caller.headers })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ total: 1, page: 1, per_page: 20 })
    expect(response.body.issues[0].id).toBe(high.id)
  })

  it('answers 400, 404 and 403 (another organization) without revealing anything', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.request('/api/repositories/123/issues', { headers: caller.headers })).body).toEqual({ detail: 'Invalid repository identifier format' })
    expect((await app.request(`/api/repositories/${UNKNOWN_ID}/issues`, { headers: caller.headers })).status).toBe(404)
    const theirs = await makeRepository(app.db.orm, { repoName: 'their-secret-repo' })
    await makeIssue(app.db.orm, await makeScan(app.db.orm, theirs), { title: 'their secret issue' })
    const response = await app.request(`/api/repositories/${theirs.id}/issues`, { headers: caller.headers })
    expect(response.status).toBe(403)
    expect(response.text).not.toMatch(/their|secret/)
  })

  it('is 404 for a deactivated repository, and 422 for per_page=0', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId, isActive: false })
    expect((await app.request(`/api/repositories/${repository.id}/issues`, { headers: caller.headers })).status).toBe(404)
    const active = await makeRepository(app.db.orm, { orgId: caller.orgId })
    expect((await app.request(`/api/repositories/${active.id}/issues?per_page=0`, { headers: caller.headers })).status).toBe(422)
  })
})

describe('GET /api/issues/summary', () => {
  it('totals by severity and category, counts false positives, lists recent issues', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    await makeIssue(app.db.orm, scan, { severity: 'high', category: 'xss' })
    await makeIssue(app.db.orm, scan, { severity: 'high', category: 'sql-injection', falsePositive: true })
    const newest = await makeIssue(app.db.orm, scan, { severity: 'info', category: 'xss', createdAt: new Date(Date.now() + 1000) })
    await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm)), { category: 'elsewhere' })

    const response = await app.request('/api/issues/summary', { headers: caller.headers })

    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      total_issues: 3,
      issues_by_severity: { critical: 0, high: 2, medium: 0, low: 0, info: 1 },
      issues_by_category: { 'sql-injection': 1, xss: 2 },
      false_positive_count: 1,
    })
    expect(response.body.recent_issues).toHaveLength(3)
    expect(response.body.recent_issues[0].id).toBe(newest.id)
  })

  it('is all zeros for an organization without issues, and needs read:repo', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.request('/api/issues/summary', { headers: caller.headers })).body).toEqual({
      total_issues: 0,
      issues_by_severity: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
      issues_by_category: {},
      false_positive_count: 0,
      recent_issues: [],
    })
    const scanner = await makeApiKeyPrincipal(app.db.orm, { scopes: ['write:scan'] })
    expect((await app.request('/api/issues/summary', { headers: scanner.headers })).status).toBe(403)
  })
})

describe('PATCH /api/issues/{issue_id}', () => {
  async function arrange() {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'alice', scopes: ['write:scan'] })
    const issue = await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId })))
    return { caller, issue }
  }

  it('sets the flags and appends notes with author and time', async () => {
    const { caller, issue } = await arrange()
    const first = await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: { exploitable: true, notes: 'Reachable from /login' } })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ id: issue.id, exploitable: true, false_positive: false })
    expect(first.body.notes).toEqual([{ text: 'Reachable from /login', author: 'alice', created_at: expect.stringMatching(/Z$/) }])

    const second = await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: { notes: 'Fixed in #42' } })
    expect(second.body.notes.map((note: { text: string }) => note.text)).toEqual(['Reachable from /login', 'Fixed in #42'])
    expect(second.body.exploitable).toBe(true)
  })

  it('answers 400 for a malformed id and an empty change', async () => {
    const { caller, issue } = await arrange()
    expect((await app.request('/api/issues/xyz', { method: 'PATCH', headers: caller.headers, json: { exploitable: true } })).body).toEqual({ detail: 'Invalid issue identifier format' })
    expect((await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: {} })).status).toBe(400)
  })

  it('marks an issue false positive and exploitable at once, and sets its severity', async () => {
    const { caller, issue } = await arrange()
    const response = await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: { false_positive: true, exploitable: true, severity: 'critical' } })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ false_positive: true, exploitable: true, severity: 'critical' })
    const graphql = await app.graphql('mutation($id: ID!) { updateIssue(id: $id, input: { severity: LOW }) { severity falsePositive exploitable } }', { id: issue.id }, caller.headers)
    expect(graphql.body.data.updateIssue).toEqual({ severity: 'LOW', falsePositive: true, exploitable: true })
    const unknown = await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: { severity: 'urgent' } })
    expect(unknown.status).toBe(422)
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'severity'], type: 'enum' })
  })

  it('answers 422 for wrong types and too long notes', async () => {
    const { caller, issue } = await arrange()
    const response = await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: caller.headers, json: { false_positive: 'maybe', notes: 'x'.repeat(1001) } })
    expect(response.status).toBe(422)
    expect(response.body.detail).toEqual([
      { loc: ['body', 'false_positive'], msg: 'Input should be a valid boolean', type: 'bool_parsing' },
      { loc: ['body', 'notes'], msg: 'String should have at most 1000 characters', type: 'string_too_long' },
    ])
  })

  it("answers 404 for an unknown issue and 403 for another organization's, changing nothing", async () => {
    const { caller } = await arrange()
    expect((await app.request(`/api/issues/${UNKNOWN_ID}`, { method: 'PATCH', headers: caller.headers, json: { exploitable: true } })).status).toBe(404)
    const theirs = await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm)), { title: 'their issue' })
    const response = await app.request(`/api/issues/${theirs.id}`, { method: 'PATCH', headers: caller.headers, json: { false_positive: true, notes: 'pwned' } })
    expect(response.status).toBe(403)
    expect(response.text).not.toContain('their issue')
    const owner = await makeApiKeyPrincipal(app.db.orm, { orgId: theirs.orgId })
    const reread = await app.request(`/api/issues?scan_id=${theirs.scan.id}`, { headers: owner.headers })
    expect(reread.body.issues[0]).toMatchObject({ false_positive: false, notes: [] })
  })

  it('needs write:scan', async () => {
    const { caller, issue } = await arrange()
    const reader = await makeApiKeyPrincipal(app.db.orm, { orgId: caller.orgId, scopes: ['read:repo'] })
    expect((await app.request(`/api/issues/${issue.id}`, { method: 'PATCH', headers: reader.headers, json: { exploitable: true } })).status).toBe(403)
  })
})

describe('PATCH /api/issues/bulk', () => {
  it('updates every listed issue and reports unknown ones in failed_issues', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'bob' })
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const mine = [await makeIssue(app.db.orm, scan), await makeIssue(app.db.orm, scan)]

    const response = await app.request('/api/issues/bulk', {
      method: 'PATCH',
      headers: caller.headers,
      json: { issue_ids: [mine[0]?.id, mine[1]?.id, UNKNOWN_ID], severity: 'low', false_positive: true, exploitable: true, notes: 'Test code only' },
    })

    expect(response.status).toBe(200)
    expect(response.body.updated_count).toBe(2)
    expect(response.body.failed_count).toBe(1)
    expect(response.body.failed_issues).toEqual([{ issue_id: UNKNOWN_ID, error: 'Issue not found' }])
    for (const issue of response.body.updated_issues) {
      expect(issue).toMatchObject({ severity: 'low', false_positive: true, exploitable: true, notes: [{ text: 'Test code only', author: 'bob' }] })
    }
  })

  it("refuses a list naming another organization's issue with 403, updating nothing", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'bob' })
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
    const mine = await makeIssue(app.db.orm, scan)
    const theirs = await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm)), { title: 'their title' })

    const response = await app.request('/api/issues/bulk', {
      method: 'PATCH',
      headers: caller.headers,
      json: { issue_ids: [mine.id, theirs.id, UNKNOWN_ID], severity: 'low', false_positive: true, notes: 'Test code only' },
    })

    expect(response.status).toBe(403)
    expect(response.body).toEqual({ detail: 'Issues do not belong to your organization' })
    expect(response.text).not.toContain(theirs.id)
    const mineNow = await app.request(`/api/issues?scan_id=${scan.id}`, { headers: caller.headers })
    expect(mineNow.body.issues[0]).toMatchObject({ severity: 'high', false_positive: false, notes: [] })
    const owner = await makeApiKeyPrincipal(app.db.orm, { orgId: theirs.orgId })
    const untouched = await app.request(`/api/issues?scan_id=${theirs.scan.id}`, { headers: owner.headers })
    expect(untouched.body.issues[0]).toMatchObject({ severity: 'high', false_positive: false, notes: [] })
  })

  it('validates the list and the fields (422) and identifiers (400)', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const tooMany = Array.from({ length: 101 }, () => UNKNOWN_ID)
    const cases: [unknown, number, string?][] = [
      [{ issue_ids: [] }, 422, 'too_short'],
      [{ issue_ids: tooMany, severity: 'low' }, 422, 'too_long'],
      [{ severity: 'low' }, 422, 'missing'],
      [{ issue_ids: [UNKNOWN_ID], severity: 'urgent' }, 422, 'enum'],
      [{ issue_ids: [UNKNOWN_ID], notes: 'x'.repeat(1001) }, 422, 'string_too_long'],
      [{ issue_ids: ['not-an-id'], severity: 'low' }, 400],
      [{ issue_ids: [UNKNOWN_ID] }, 400],
    ]
    for (const [json, status, type] of cases) {
      const response = await app.request('/api/issues/bulk', { method: 'PATCH', headers: caller.headers, json })
      expect(response.status, JSON.stringify(json).slice(0, 80)).toBe(status)
      if (type) expect(response.body.detail[0].type).toBe(type)
      expectNoInternals(response)
    }
  })

  it('needs write:scan', async () => {
    const reader = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const response = await app.request('/api/issues/bulk', { method: 'PATCH', headers: reader.headers, json: { issue_ids: [UNKNOWN_ID], severity: 'low' } })
    expect(response.status).toBe(403)
  })
})

describe('loading a page of issues', () => {
  const statementsOf = () => app.db.statements.filter((line) => /\b(select|insert|update|delete)\b/i.test(line) && !/api_keys/.test(line)).length

  it('costs a fixed number of SQL statements, whatever the page size', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { orgId: makeOrgId() })
    for (let r = 0; r < 4; r++) {
      const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
      for (let i = 0; i < 25; i++) await makeIssue(app.db.orm, scan)
    }
    const count = async (perPage: number) => {
      app.db.statements.length = 0
      const response = await app.request(`/api/issues?per_page=${perPage}`, { headers: caller.headers })
      expect(response.body.issues).toHaveLength(perPage)
      return statementsOf()
    }
    const small = await count(5)
    const large = await count(100)
    expect(large).toBe(small)
    // the page (with repositories, scans and notes joined) and its count
    expect(large).toBeLessThanOrEqual(2)
  })

  it('costs a fixed number of SQL statements with every scan and repository of the page over GraphQL', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { orgId: makeOrgId() })
    for (let r = 0; r < 4; r++) {
      const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }))
      for (let i = 0; i < 25; i++) await makeIssue(app.db.orm, scan)
    }
    const query = `query($n: Int!) { issues(perPage: $n) { issues { id notes { text } scan { id status scanType } repository { id repoName branchName } } } }`
    const count = async (perPage: number) => {
      app.db.statements.length = 0
      const response = await app.graphql(query, { n: perPage }, caller.headers)
      expect(response.body.data.issues.issues).toHaveLength(perPage)
      expect(response.body.data.issues.issues[0].scan.status).toBeDefined()
      return statementsOf()
    }
    const small = await count(5)
    const large = await count(100)
    expect(large).toBe(small)
    // the page, its count, then one statement for all scans and one for all repositories
    expect(large).toBeLessThanOrEqual(4)
  })
})
