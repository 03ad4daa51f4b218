/**
 * Findings that follow the code across scans: each issue is new or unchanged against the
 * repository's previous completed scan and knows where its fingerprint first appeared, a scan's
 * results list what it fixed, `latest=true` reads the current state of the code, and the SARIF
 * log carries baseline states and triage. End to end through REST and GraphQL with the worker,
 * on a project whose zips carry a different top-level folder each time and whose code moved.
 */
import { describe, expect, it } from 'vitest'
import { sarifSchemaErrors } from '../engine/support/sarif-schema.ts'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeRepository, makeScan, type Principal } from '../support/factories.ts'
import { isTerminal, uploadProject, waitForScan } from '../support/scans.ts'
import type { ZipFiles } from '../support/zips.ts'

const app = useTestApp({ worker: true })

interface IssueJson {
  id: string
  scan_id: string
  fingerprint: string
  file_path: string
  line_number: number
  category: string
  baseline_state: string
  first_seen_at: string
  first_seen_scan_id: string
  false_positive: boolean
  notes: { text: string }[]
  created_at: string
}

const ORDERS_ROUTE = [
  "app.get('/orders', (req, res) => {",
  "  db.query('SELECT * FROM orders WHERE customer = ' + req.query.customer, (err, rows) => res.json(rows))",
  '})',
]

const FLASK_APP = [
  'import os',
  'from flask import Flask, request',
  '',
  'app = Flask(__name__)',
  '',
  "@app.route('/ping')",
  'def ping():',
  "    host = request.args.get('host')",
  "    os.system('ping -c 1 ' + host)",
  "    return 'ok'",
  '',
].join('\n')

/** v1: SQL built from req.query, a shell command built from req.query, a Flask command injection. */
function shopV1(folder: string): ZipFiles {
  return {
    [`${folder}/server.js`]: [
      "const express = require('express')",
      "const { exec } = require('child_process')",
      "const db = require('./db')",
      'const app = express()',
      '',
      ...ORDERS_ROUTE,
      '',
      "app.get('/files', (req, res) => {",
      "  exec('ls ' + req.query.dir, (err, out) => res.send(out))",
      '})',
      '',
      'app.listen(3000)',
      '',
    ].join('\n'),
    [`${folder}/app.py`]: FLASK_APP,
  }
}

/** v2: six lines added at the top of the JS file, the exec route removed, an eval route added. */
function shopV2(folder: string): ZipFiles {
  return {
    [`${folder}/server.js`]: [
      '// Shop API',
      '// v2: the calculator endpoint',
      "'use strict'",
      '',
      "const bodyParser = require('body-parser')",
      '',
      "const express = require('express')",
      "const { exec } = require('child_process')",
      "const db = require('./db')",
      'const app = express()',
      '',
      ...ORDERS_ROUTE,
      '',
      "app.post('/calc', (req, res) => {",
      '  res.json({ result: eval(req.body.code) })',
      '})',
      '',
      'app.listen(3000)',
      '',
    ].join('\n'),
    [`${folder}/app.py`]: FLASK_APP,
  }
}

async function scanOf(caller: Principal, repoId: string, scanType = 'full'): Promise<string> {
  const created = await app.request(`/api/scans/${repoId}`, { method: 'POST', headers: caller.headers, json: { scan_type: scanType } })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const status = await waitForScan(app, caller, created.body.id, isTerminal)
  expect(status.status, JSON.stringify(status)).toBe('completed')
  return created.body.id
}

function find(issues: IssueJson[], category: string, file: string): IssueJson {
  const issue = issues.find((candidate) => candidate.category === category && candidate.file_path === file)
  expect(issue, `${category} in ${file} among ${issues.map((candidate) => `${candidate.category} ${candidate.file_path}`).join(', ')}`).toBeDefined()
  return issue as IssueJson
}

const NOTE = 'customer is an internal id, validated by the gateway'

describe('a finding followed across two scans, through REST', () => {
  it('is new, then unchanged with its triage; what was removed is fixed; latest and SARIF tell the same', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'gil' })
    const repository = await uploadProject(app, caller, shopV1('shop-1111'), 'shop')
    const first = await scanOf(caller, repository.id)
    const firstResults = (await app.request(`/api/scans/${first}/results`, { headers: caller.headers })).body
    const sql = find(firstResults.issues, 'sql-injection', 'server.js')
    const exec = find(firstResults.issues, 'command-injection', 'server.js')
    const flask = find(firstResults.issues, 'command-injection', 'app.py')
    const triaged = await app.request(`/api/issues/${sql.id}`, { method: 'PATCH', headers: caller.headers, json: { false_positive: true, notes: NOTE } })
    expect(triaged.status).toBe(200)

    expect((await uploadProject(app, caller, shopV2('shop-2222'), 'shop')).id).toBe(repository.id)
    const second = await scanOf(caller, repository.id)
    const results = await app.request(`/api/scans/${second}/results`, { headers: caller.headers })
    expect(results.status).toBe(200)
    const issues: IssueJson[] = results.body.issues
    const fixed: IssueJson[] = results.body.fixed_issues

    expect([...issues, ...fixed, ...firstResults.issues].filter((issue) => issue.file_path.startsWith('shop-'))).toEqual([])
    expect(find(issues, 'sql-injection', 'server.js')).toMatchObject({
      fingerprint: sql.fingerprint,
      line_number: sql.line_number + 6,
      baseline_state: 'unchanged',
      false_positive: true,
      notes: [{ text: NOTE, author: 'gil' }],
      first_seen_scan_id: first,
      first_seen_at: sql.created_at,
    })
    expect(find(issues, 'command-injection', 'app.py')).toMatchObject({ fingerprint: flask.fingerprint, baseline_state: 'unchanged', first_seen_scan_id: first })
    const evaluated = find(issues, 'code-injection', 'server.js')
    expect(evaluated).toMatchObject({ baseline_state: 'new', first_seen_scan_id: second, false_positive: false })
    expect(fixed.map((issue) => issue.id)).toEqual([exec.id])
    expect(fixed[0]).toMatchObject({ scan_id: first, fingerprint: exec.fingerprint })
    const newIssues = issues.filter((issue) => issue.baseline_state === 'new')
    expect(results.body.summary).toMatchObject({
      total_issues: issues.length,
      new_count: newIssues.length,
      unchanged_count: issues.length - newIssues.length,
      fixed_count: 1,
    })

    const everything = await app.request('/api/issues?per_page=100', { headers: caller.headers })
    expect(everything.body.total).toBe(firstResults.issues.length + issues.length)
    const latest = await app.request('/api/issues?latest=true&per_page=100', { headers: caller.headers })
    expect(latest.status).toBe(200)
    expect(latest.body.issues.map((issue: IssueJson) => issue.id).sort()).toEqual(issues.map((issue) => issue.id).sort())
    const latestNew = await app.request(`/api/repositories/${repository.id}/issues?latest=true&baseline_state=new`, { headers: caller.headers })
    expect(latestNew.body.issues.map((issue: IssueJson) => issue.id).sort()).toEqual(newIssues.map((issue) => issue.id).sort())
    expect(latestNew.body.issues.map((issue: IssueJson) => issue.id)).toContain(evaluated.id)

    const sarif = await app.request(`/api/scans/${second}/sarif`, { headers: caller.headers })
    expect(sarif.status).toBe(200)
    expect(sarif.body.version).toBe('2.1.0')
    expect(sarifSchemaErrors(sarif.body)).toEqual([])
    const [run] = sarif.body.runs
    expect(run.baselineGuid).toBe(first)
    expect(run.automationDetails.guid).toBe(second)
    const byFingerprint = new Map(run.results.map((result: { partialFingerprints: Record<string, string> }) => [result.partialFingerprints['parapet/v1'], result]))
    expect(byFingerprint.size).toBe(issues.length)
    for (const issue of issues) expect(byFingerprint.get(issue.fingerprint), issue.category).toMatchObject({ baselineState: issue.baseline_state })
    expect(byFingerprint.get(sql.fingerprint)).toMatchObject({ suppressions: [{ kind: 'external', status: 'accepted', justification: NOTE }] })
    expect(byFingerprint.get(evaluated.fingerprint)).not.toHaveProperty('suppressions')
    expect(byFingerprint.get(evaluated.fingerprint)).toMatchObject({ locations: [{ physicalLocation: { artifactLocation: { uri: 'server.js' } } }] })
    // the data-flow trace of the eval finding, from req.body.code to eval()
    const [flow] = (byFingerprint.get(evaluated.fingerprint) as { codeFlows: { threadFlows: { locations: { location: { physicalLocation: { artifactLocation: { uri: string } } } }[] }[] }[] }).codeFlows
    expect(flow?.threadFlows[0]?.locations.length).toBeGreaterThanOrEqual(2)
    expect(flow?.threadFlows[0]?.locations.every((step) => step.location.physicalLocation.artifactLocation.uri === 'server.js')).toBe(true)
  })
})

describe('the same through GraphQL', () => {
  const ISSUE = 'id fingerprint filePath lineNumber category baselineState firstSeenAt firstSeenScan { id } falsePositive notes { text } createdAt'

  it('answers baselineState, firstSeenScan, Scan.comparison and the new filters', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const gql = async (query: string, variables: Record<string, unknown> = {}) => {
      const response = await app.graphql(query, variables, caller.headers)
      expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined()
      return response.body.data
    }
    const createScan = async (repoId: string) => {
      const { createScan: scan } = await gql('mutation($repoId: ID!) { createScan(repoId: $repoId, input: { scanType: FULL }) { id } }', { repoId })
      expect((await waitForScan(app, caller, scan.id, isTerminal)).status).toBe('completed')
      return scan.id as string
    }
    const comparisonOf = (id: string) =>
      gql(`query($id: ID!) { scan(id: $id) { comparison { base { id } newCount unchangedCount fixedCount fixedIssues { ${ISSUE} } } } }`, { id })

    const repository = await uploadProject(app, caller, shopV1('shop-1111'), 'shop')
    const first = await createScan(repository.id)
    const firstComparison = (await comparisonOf(first)).scan.comparison
    expect(firstComparison).toMatchObject({ base: null, unchangedCount: 0, fixedCount: 0, fixedIssues: [] })
    const { issues: firstPage } = await gql(`query($scanId: ID!) { issues(filter: { scanId: $scanId }, perPage: 100) { issues { ${ISSUE} } } }`, { scanId: first })
    expect(firstComparison.newCount).toBe(firstPage.issues.length)
    const sql = firstPage.issues.find((issue: { category: string }) => issue.category === 'sql-injection')
    const exec = firstPage.issues.find((issue: { category: string; filePath: string }) => issue.category === 'command-injection' && issue.filePath === 'server.js')
    await gql('mutation($id: ID!) { updateIssue(id: $id, input: { falsePositive: true, notes: "reviewed" }) { id } }', { id: sql.id })
    await gql('mutation($id: ID!) { updateIssue(id: $id, input: { exploitable: false }) { id } }', { id: sql.id })

    await uploadProject(app, caller, shopV2('shop-2222'), 'shop')
    const second = await createScan(repository.id)
    const { comparison } = (await comparisonOf(second)).scan
    expect(comparison).toMatchObject({ base: { id: first }, fixedCount: 1, fixedIssues: [{ id: exec.id, filePath: 'server.js' }] })

    const { issues: latest } = await gql(`{ issues(filter: { latest: true }, perPage: 100) { total issues { ${ISSUE} } } }`)
    expect(latest.total).toBe(comparison.newCount + comparison.unchangedCount)
    expect(latest.issues.every((issue: { filePath: string }) => !issue.filePath.startsWith('shop-'))).toBe(true)
    expect(latest.issues.find((issue: { fingerprint: string }) => issue.fingerprint === sql.fingerprint)).toMatchObject({
      baselineState: 'UNCHANGED',
      falsePositive: true,
      notes: [{ text: 'reviewed' }],
      firstSeenScan: { id: first },
      firstSeenAt: sql.createdAt,
    })
    // the whole triage history comes along, the triage that wrote no note included
    const carried = latest.issues.find((issue: { fingerprint: string }) => issue.fingerprint === sql.fingerprint)
    const { issue: history } = await gql('query($id: ID!) { issue(id: $id) { exploitable triageHistory { falsePositive exploitable note } } }', { id: carried.id })
    expect(history).toEqual({
      exploitable: false,
      triageHistory: [
        { falsePositive: true, exploitable: null, note: 'reviewed' },
        { falsePositive: null, exploitable: false, note: null },
      ],
    })
    const { repositoryIssues: fresh } = await gql(`query($repoId: ID!) { repositoryIssues(repoId: $repoId, filter: { latest: true, baselineState: NEW }) { issues { ${ISSUE} } } }`, { repoId: repository.id })
    expect(fresh.issues).toHaveLength(comparison.newCount)
    expect(fresh.issues.map((issue: { category: string }) => issue.category)).toContain('code-injection')
    expect(fresh.issues.every((issue: { baselineState: string; firstSeenScan: { id: string } }) => issue.baselineState === 'NEW' && issue.firstSeenScan.id === second)).toBe(true)

    const { scanSarif } = await gql('query($id: ID!) { scanSarif(id: $id) }', { id: second })
    const states = scanSarif.runs[0].results.map((result: { baselineState: string }) => result.baselineState)
    expect(states.filter((state: string) => state === 'new')).toHaveLength(comparison.newCount)
    expect(states.filter((state: string) => state === 'unchanged')).toHaveLength(comparison.unchangedCount)
  })
})

describe('a first scan', () => {
  it('has every issue new and first seen in it, and fixed nothing', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, shopV1('shop'))
    const scanId = await scanOf(caller, repository.id, 'quick')
    const results = (await app.request(`/api/scans/${scanId}/results`, { headers: caller.headers })).body
    expect(results.issues.length).toBeGreaterThan(0)
    for (const issue of results.issues as IssueJson[]) expect(issue).toMatchObject({ baseline_state: 'new', first_seen_scan_id: scanId, first_seen_at: issue.created_at })
    expect(results.fixed_issues).toEqual([])
    expect(results.summary).toMatchObject({ new_count: results.issues.length, unchanged_count: 0, fixed_count: 0 })
    const sarif = (await app.request(`/api/scans/${scanId}/sarif`, { headers: caller.headers })).body
    expect(sarif.runs[0]).not.toHaveProperty('baselineGuid')
  })
})

describe('latest=true', () => {
  it('reads only the latest completed scan of each repository, in lists and in the summary', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const api = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const web = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const older = await makeScan(app.db.orm, api, { createdAt: new Date('2026-06-01T00:00:00Z') })
    const newer = await makeScan(app.db.orm, api, { createdAt: new Date('2026-06-02T00:00:00Z'), baseScanId: older.id })
    const failedLater = await makeScan(app.db.orm, api, { createdAt: new Date('2026-06-03T00:00:00Z'), status: 'failed' })
    const only = await makeScan(app.db.orm, web, { createdAt: new Date('2026-05-01T00:00:00Z') })
    await makeIssue(app.db.orm, older, { severity: 'low' })
    const current = [
      await makeIssue(app.db.orm, newer, { severity: 'high', baselineState: 'unchanged' }),
      await makeIssue(app.db.orm, newer, { severity: 'critical' }),
      await makeIssue(app.db.orm, only, { severity: 'high' }),
    ]
    await makeIssue(app.db.orm, failedLater, { severity: 'medium' })
    await makeIssue(app.db.orm, await makeScan(app.db.orm, await makeRepository(app.db.orm)), { title: 'of another organization' })

    const all = await app.request('/api/issues', { headers: caller.headers })
    expect(all.body.total).toBe(5)
    const latest = await app.request('/api/issues?latest=true', { headers: caller.headers })
    expect(latest.body.issues.map((issue: IssueJson) => issue.id).sort()).toEqual(current.map((issue) => issue.id).sort())
    expect(latest.body.total).toBe(3)
    const unchanged = await app.request('/api/issues?latest=true&baseline_state=unchanged', { headers: caller.headers })
    expect(unchanged.body.issues.map((issue: IssueJson) => issue.id)).toEqual([current[0]?.id])
    const ofOlder = await app.request(`/api/issues?latest=true&scan_id=${older.id}`, { headers: caller.headers })
    expect(ofOlder.body.total).toBe(0)
    const notLatest = await app.request('/api/issues?latest=false', { headers: caller.headers })
    expect(notLatest.body.total).toBe(5)

    const summary = await app.request('/api/issues/summary?latest=true', { headers: caller.headers })
    expect(summary.status).toBe(200)
    expect(summary.body).toMatchObject({ total_issues: 3, issues_by_severity: { critical: 1, high: 2, medium: 0, low: 0, info: 0 } })
    expect(summary.body.recent_issues.map((issue: IssueJson) => issue.id).sort()).toEqual(current.map((issue) => issue.id).sort())
    expect((await app.request('/api/issues/summary', { headers: caller.headers })).body.total_issues).toBe(5)
    const graphql = await app.graphql('{ issuesSummary(latest: true) { totalIssues } }', {}, caller.headers)
    expect(graphql.body.data.issuesSummary.totalIssues).toBe(3)
  })
})

describe('bad values', () => {
  it('answers 422 with the validation body for latest and baseline_state, on every route that takes them', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    for (const path of ['/api/issues', `/api/repositories/${repository.id}/issues`]) {
      const response = await app.request(`${path}?latest=maybe&baseline_state=fixed`, { headers: caller.headers })
      expect(response.status, path).toBe(422)
      expect(response.body.detail).toEqual([
        { loc: ['query', 'latest'], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing' },
        { loc: ['query', 'baseline_state'], msg: "Input should be 'new' or 'unchanged'", type: 'enum' },
      ])
    }
    const summary = await app.request('/api/issues/summary?latest=maybe', { headers: caller.headers })
    expect(summary.status).toBe(422)
    expect(summary.body.detail).toEqual([{ loc: ['query', 'latest'], msg: 'Input should be a valid boolean, unable to interpret input', type: 'bool_parsing' }])
    const graphql = await app.graphql('{ issues(filter: { baselineState: FIXED }) { total } }', {}, caller.headers)
    expect(graphql.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED')
  })

  it('answers 400 for SARIF of a scan that did not complete, 404 for an unknown one', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const failed = await makeScan(app.db.orm, repository, { status: 'failed' })
    const response = await app.request(`/api/scans/${failed.id}/sarif`, { headers: caller.headers })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ detail: 'Scan is not completed (status: failed)' })
    expect((await app.request('/api/scans/00000000-0000-4000-8000-000000000000/sarif', { headers: caller.headers })).status).toBe(404)
    expect((await app.request('/api/scans/nope/sarif', { headers: caller.headers })).status).toBe(400)
    const reader = await makeApiKeyPrincipal(app.db.orm, { orgId: caller.orgId, scopes: ['read:repo'] })
    expect((await app.request(`/api/scans/${failed.id}/sarif`, { headers: reader.headers })).status).toBe(403)
  })
})

describe('another organization', () => {
  it('sees neither the fixed issues nor the comparison of a scan', async () => {
    const owner = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: owner.orgId })
    const base = await makeScan(app.db.orm, repository, { createdAt: new Date('2026-07-01T00:00:00Z') })
    const removed = await makeIssue(app.db.orm, base, { title: 'removed since' })
    const kept = await makeIssue(app.db.orm, base)
    const scan = await makeScan(app.db.orm, repository, { createdAt: new Date('2026-07-02T00:00:00Z'), baseScanId: base.id })
    await makeIssue(app.db.orm, scan, { fingerprint: kept.fingerprint, baselineState: 'unchanged' })
    const own = await app.request(`/api/scans/${scan.id}/results`, { headers: owner.headers })
    expect(own.body.fixed_issues.map((issue: IssueJson) => issue.id)).toEqual([removed.id])
    expect(own.body.summary).toMatchObject({ new_count: 0, unchanged_count: 1, fixed_count: 1 })

    const stranger = await makeApiKeyPrincipal(app.db.orm)
    for (const path of [`/api/scans/${scan.id}/results`, `/api/scans/${scan.id}/sarif`]) {
      const response = await app.request(path, { headers: stranger.headers })
      expect(response.status, path).toBe(403)
      expect(response.text).not.toContain(removed.id)
    }
    const graphql = await app.graphql('query($id: ID!) { scan(id: $id) { comparison { fixedIssues { id } } } }', { id: scan.id }, stranger.headers)
    expect(graphql.body.data).toBeNull()
    expect(graphql.body.errors[0].extensions.code).toBe('FORBIDDEN')
    expect(graphql.text).not.toContain(removed.id)
    const latest = await app.request('/api/issues?latest=true', { headers: stranger.headers })
    expect(latest.body.total).toBe(0)
  })
})
