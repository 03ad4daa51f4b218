/**
 * The scan pipeline over HTTP with a real graphile worker: create, run, status, task status,
 * logs, results; stop in both states; one active scan per repository under 30 concurrent
 * creates; triage carried to the next scan; scopes and other organizations.
 */
import { describe, expect, it } from 'vitest'
import { expectNoInternals, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeRepository } from '../support/factories.ts'
import { isTerminal, largeProject, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

const app = useTestApp({ worker: true })
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'

describe('a scan, end to end', () => {
  it('queues (201), runs in the worker, and answers status, task status, logs and results', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'erin' })
    const repository = await uploadProject(app, caller, vulnerableProject(), 'vulnerable')

    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      repo_id: repository.id,
      org_id: caller.orgId,
      repo_name: 'vulnerable',
      branch_name: 'main',
      status: 'queued',
      scan_type: 'quick',
      active_models: ['sast', 'secrets'],
      task_id: expect.stringMatching(/^\d+$/),
      progress: 0,
      created_by: 'erin',
    })
    const scanId = created.body.id as string

    const status = await waitForScan(app, caller, scanId, isTerminal)
    expect(status).toMatchObject({ scan_id: scanId, status: 'completed', progress: 100, files_total: 3, files_scanned: 2, error: null })
    expect(status.issues_found).toBeGreaterThanOrEqual(2)

    const task = await app.request(`/api/scans/${scanId}/task-status`, { headers: caller.headers })
    expect(task.body).toMatchObject({ scan_id: scanId, task_id: created.body.task_id, status: 'completed' })

    const logs = await app.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })
    const messages = logs.body.map((entry: { message: string }) => entry.message)
    expect(messages[0]).toBe('Scan started')
    expect(messages).toContain('Repository content fetched')
    expect(messages.at(-1)).toMatch(/^Scan completed: \d+ issues; 2 of 3 files scanned, 1 skipped$/)
    const times = logs.body.map((entry: { timestamp: string }) => Date.parse(entry.timestamp))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect(logs.body[0]).toMatchObject({ id: expect.any(String), scan_id: scanId, level: 'info' })

    const results = await app.request(`/api/scans/${scanId}/results`, { headers: caller.headers })
    expect(results.status).toBe(200)
    expect(results.body.scan_id).toBe(scanId)
    expect(results.body.summary.total_issues).toBe(results.body.issues.length)
    const files = results.body.issues.map((issue: { file_path: string }) => issue.file_path)
    expect(files).toEqual(expect.arrayContaining(['app/views.py', 'web/server.js']))
    const commandInjection = results.body.issues.find((issue: { category: string; file_path: string }) => issue.category === 'command-injection' && issue.file_path === 'app/views.py')
    expect(commandInjection).toMatchObject({ scan_id: scanId, repo_id: repository.id, repo_name: 'vulnerable', scan_status: 'completed', model_used: 'parapet-sast/1.0' })

    const repositories = await app.request('/api/repositories', { headers: caller.headers })
    expect(repositories.body.all_repos[0]).toMatchObject({ last_scan_id: scanId, last_scan_status: 'completed' })
  })

  it('validates scan_type and active_models (422 listing the valid analyzers)', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, vulnerableProject())
    const badType = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'deep' } })
    expect(badType.status).toBe(422)
    expect(badType.body.detail[0]).toMatchObject({ loc: ['body', 'scan_type'], type: 'enum' })
    const badModel = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets', active_models: ['sast'] } })
    expect(badModel.status).toBe(422)
    expect(badModel.body.detail[0]).toMatchObject({ loc: ['body', 'active_models', 0], msg: "Unknown analyzer 'sast' for a secrets scan; valid: secrets" })
  })

  it('answers 400 for a repository id that is malformed, 404 unknown, 403 of another organization', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.request('/api/scans/nope', { method: 'POST', headers: caller.headers, json: {} })).status).toBe(400)
    expect((await app.request(`/api/scans/${UNKNOWN_ID}`, { method: 'POST', headers: caller.headers, json: {} })).status).toBe(404)
    const theirs = await makeRepository(app.db.orm)
    const response = await app.request(`/api/scans/${theirs.id}`, { method: 'POST', headers: caller.headers, json: {} })
    expect(response.status).toBe(403)
    expectNoInternals(response)
  })

  it('gives exactly one 201 to 30 concurrent creates for a repository', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, largeProject(300))
    const responses = await Promise.all(Array.from({ length: 30 }, () => app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })))
    const statuses = responses.map((response) => response.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 400)).toHaveLength(29)
    expect(responses.find((response) => response.status === 400)?.body).toEqual({ detail: 'A scan is already running for this repository' })
    const winner = responses.find((response) => response.status === 201)?.body
    await waitForScan(app, caller, winner.id, isTerminal)
  })
})

describe('POST /api/scans/{scan_id}/stop', () => {
  it('stops a running scan within seconds; 400 once it is no longer running', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, largeProject(3000))
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })
    await waitForScan(app, caller, created.body.id, (status) => status === 'running' || isTerminal(status))
    const stopped = await app.request(`/api/scans/${created.body.id}/stop`, { method: 'POST', headers: caller.headers })
    expect(stopped.status).toBe(200)
    expect(stopped.body).toEqual({ message: 'Scan stopped', scan_id: created.body.id, status: 'stopped' })
    const started = Date.now()
    // the worker lets go of the job within 5 seconds: its task status is then final
    while ((await app.request(`/api/scans/${created.body.id}/task-status`, { headers: caller.headers })).body.locked_at !== null) {
      expect(Date.now() - started).toBeLessThan(5000)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const task = await app.request(`/api/scans/${created.body.id}/task-status`, { headers: caller.headers })
    expect(task.body.status).toBe('cancelled')
    const again = await app.request(`/api/scans/${created.body.id}/stop`, { method: 'POST', headers: caller.headers })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ detail: 'Scan is not running (status: stopped)' })
    const status = await app.request(`/api/scans/${created.body.id}/status`, { headers: caller.headers })
    expect(status.body.status).toBe('stopped')
    const results = await app.request(`/api/scans/${created.body.id}/results`, { headers: caller.headers })
    expect(results.status).toBe(400)
  })
})

describe('scan reads', () => {
  it('list with org_id, status, limit and offset; 403 for another org_id', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, vulnerableProject())
    const first = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    await waitForScan(app, caller, first.body.id, isTerminal)
    const second = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    await waitForScan(app, caller, second.body.id, isTerminal)

    const all = await app.request(`/api/scans?org_id=${caller.orgId}`, { headers: caller.headers })
    expect(all.body.map((scan: { id: string }) => scan.id)).toEqual([second.body.id, first.body.id])
    expect((await app.request('/api/scans?limit=1&offset=1', { headers: caller.headers })).body.map((scan: { id: string }) => scan.id)).toEqual([first.body.id])
    expect((await app.request('/api/scans?status=running', { headers: caller.headers })).body).toEqual([])
    expect((await app.request('/api/scans?org_id=someone-else', { headers: caller.headers })).status).toBe(403)
    expect((await app.request('/api/scans?limit=0', { headers: caller.headers })).status).toBe(422)
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.request('/api/scans', { headers: stranger.headers })).body).toEqual([])
    for (const suffix of ['status', 'task-status', 'logs', 'results']) {
      const response = await app.request(`/api/scans/${first.body.id}/${suffix}`, { headers: stranger.headers })
      expect(response.status, suffix).toBe(403)
      expect(response.text).not.toContain(caller.orgId)
      expect((await app.request(`/api/scans/${UNKNOWN_ID}/${suffix}`, { headers: caller.headers })).status).toBe(404)
    }
    expect((await app.request(`/api/scans/${first.body.id}/stop`, { method: 'POST', headers: stranger.headers })).status).toBe(403)
  })

  it("of one repository over GraphQL (repoId), nothing of another organization's repository", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, vulnerableProject())
    const sibling = await uploadProject(app, caller, vulnerableProject())
    const mine = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    const theirs = await app.request(`/api/scans/${sibling.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    await waitForScan(app, caller, mine.body.id, isTerminal)
    await waitForScan(app, caller, theirs.body.id, isTerminal)
    const query = 'query($repoId: ID) { scans(repoId: $repoId) { id repoId } }'

    expect((await app.graphql(query, { repoId: repository.id }, caller.headers)).body.data.scans).toEqual([{ id: mine.body.id, repoId: repository.id }])
    expect((await app.graphql(query, {}, caller.headers)).body.data.scans).toHaveLength(2)
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.graphql(query, { repoId: repository.id }, stranger.headers)).body.data.scans).toEqual([])
    expect((await app.graphql(query, { repoId: 'nope' }, caller.headers)).body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST', status: 400 })
  })

  it('offer each scan type with the analyzers createScan accepts for it', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.graphql('{ scanTypes { scanType analyzers } }', {}, caller.headers)
    expect(response.body.data.scanTypes).toEqual([
      { scanType: 'FULL', analyzers: ['sast', 'secrets', 'dataflow'] },
      { scanType: 'QUICK', analyzers: ['sast', 'secrets'] },
      { scanType: 'SECRETS', analyzers: ['secrets'] },
    ])
    const reader = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    expect((await app.graphql('{ scanTypes { scanType } }', {}, reader.headers)).body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', status: 403 })
  })

  it('need write:scan', async () => {
    const reader = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo', 'write:repo'] })
    expect((await app.request('/api/scans', { headers: reader.headers })).status).toBe(403)
    expect((await app.request(`/api/scans/${UNKNOWN_ID}/logs`, { headers: reader.headers })).status).toBe(403)
  })
})

describe('triage carries over', () => {
  it('to the issue with the same fingerprint in the next scan of the repository', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'fay' })
    const repository = await uploadProject(app, caller, vulnerableProject())
    const first = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    await waitForScan(app, caller, first.body.id, isTerminal)
    const firstIssues = (await app.request(`/api/scans/${first.body.id}/results`, { headers: caller.headers })).body.issues
    const [triaged, other] = firstIssues
    await app.request('/api/issues/bulk', { method: 'PATCH', headers: caller.headers, json: { issue_ids: [triaged.id], severity: 'low', false_positive: true, notes: 'test helper only' } })
    await app.request(`/api/issues/${other.id}`, { method: 'PATCH', headers: caller.headers, json: { exploitable: true } })

    const second = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    await waitForScan(app, caller, second.body.id, isTerminal)
    const secondIssues = (await app.request(`/api/scans/${second.body.id}/results`, { headers: caller.headers })).body.issues
    const byFingerprint = new Map(secondIssues.map((issue: { fingerprint: string }) => [issue.fingerprint, issue]))
    expect(byFingerprint.get(triaged.fingerprint)).toMatchObject({ severity: 'low', false_positive: true, notes: [{ text: 'test helper only', author: 'fay' }] })
    expect(byFingerprint.get(other.fingerprint)).toMatchObject({ exploitable: true, false_positive: false })
    expect(secondIssues).toHaveLength(firstIssues.length)
  })
})

describe('the same operations in GraphQL', () => {
  it('create, read and stop scans with the records REST gives', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, vulnerableProject())
    const created = await app.graphql(
      'mutation($repoId: ID!) { createScan(repoId: $repoId, input: { scanType: SECRETS }) { id status scanType activeModels taskId repoName } }',
      { repoId: repository.id },
      caller.headers,
    )
    expect(created.body.errors).toBeUndefined()
    const scan = created.body.data.createScan
    expect(scan).toMatchObject({ status: 'QUEUED', scanType: 'SECRETS', activeModels: ['secrets'], taskId: expect.stringMatching(/^\d+$/) })
    await waitForScan(app, caller, scan.id, isTerminal)

    const read = await app.graphql(
      `query($id: ID!) {
        scan(id: $id) { id status progress issuesCount }
        scanStatus(id: $id) { scanId status progress filesScanned filesTotal issuesFound error }
        scanTaskStatus(id: $id) { status taskId }
        scanLogs(id: $id) { message level }
        scanResults(id: $id) { scanId status summary { totalIssues issuesBySeverity } issues { id } }
      }`,
      { id: scan.id },
      caller.headers,
    )
    expect(read.body.errors).toBeUndefined()
    const rest = (await app.request(`/api/scans/${scan.id}/status`, { headers: caller.headers })).body
    expect(read.body.data.scanStatus).toEqual({
      scanId: rest.scan_id, status: rest.status.toUpperCase(), progress: rest.progress, filesScanned: rest.files_scanned,
      filesTotal: rest.files_total, issuesFound: rest.issues_found, error: rest.error,
    })
    expect(read.body.data.scanTaskStatus).toEqual({ status: 'COMPLETED', taskId: scan.taskId })
    expect(read.body.data.scanLogs[0]).toEqual({ message: 'Scan started', level: 'INFO' })
    expect(read.body.data.scanResults.summary.totalIssues).toBe(read.body.data.scanResults.issues.length)

    const stop = await app.graphql('mutation($id: ID!) { stopScan(id: $id) { status } }', { id: scan.id }, caller.headers)
    expect(stop.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST', status: 400 })
    const busy = await app.graphql('mutation($repoId: ID!) { a: createScan(repoId: $repoId) { id } }', { repoId: repository.id }, caller.headers)
    const second = await app.graphql('mutation($repoId: ID!) { createScan(repoId: $repoId) { id } }', { repoId: repository.id }, caller.headers)
    expect(second.body.errors[0]).toMatchObject({ message: 'A scan is already running for this repository', extensions: { code: 'BAD_REQUEST' } })
    await app.graphql('mutation($id: ID!) { stopScan(id: $id) { status } }', { id: busy.body.data.a.id }, caller.headers)
  })
})

describe('rulesets in scans', () => {
  it('run with the built-in rules on the repositories they are linked to', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const linked = await uploadProject(app, caller, { 'src/pay.js': 'function pay(a) {\n  legacyTransfer(a)\n}\n', 'README.md': '# pay\n' })
    const unlinked = await uploadProject(app, caller, { 'src/pay.js': 'function pay(a) {\n  legacyTransfer(a)\n}\n', 'README.md': '# pay\n' })
    const rules = `id: team.legacy-transfer
language: javascript
rule: { pattern: legacyTransfer($X) }
severity: medium
message: legacyTransfer($X) skips the fraud checks
title: Legacy transfer API
category: trust-boundary
cwe: [CWE-501]
owasp: "A04:2021 - Insecure Design"
cvss: 5.3
confidence: 0.9
remediation: Call transfer() instead.
`
    const ruleset = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'payments', rules_text: rules, repo_ids: [linked.id] } })
    expect(ruleset.status).toBe(201)
    const results = async (repoId: string) => {
      const created = await app.request(`/api/scans/${repoId}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
      await waitForScan(app, caller, created.body.id, isTerminal)
      return (await app.request(`/api/scans/${created.body.id}/results`, { headers: caller.headers })).body
    }
    const withRuleset = await results(linked.id)
    expect(withRuleset.issues).toEqual([
      expect.objectContaining({ file_path: 'src/pay.js', line_number: 2, title: 'Legacy transfer API', description: 'legacyTransfer(a) skips the fraud checks', category: 'trust-boundary', severity: 'medium' }),
    ])
    expect((await results(unlinked.id)).issues).toEqual([])
  })

  it("accept a plain ast-grep rule as its users write it, with honest defaults in the issues it finds", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, { 'src/app.js': 'function start(port) {\n  console.log(port)\n}\n', 'README.md': '# app\n' })
    const rules = `id: no-console-log
language: javascript
severity: info
message: console.log left in code
rule:
  pattern: console.log($A)
`
    const ruleset = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'lint', rules_text: rules, repo_ids: [repository.id] } })
    expect(ruleset.status).toBe(201)
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    await waitForScan(app, caller, created.body.id, isTerminal)
    const results = (await app.request(`/api/scans/${created.body.id}/results`, { headers: caller.headers })).body
    expect(results.issues).toEqual([
      expect.objectContaining({
        rule_id: 'no-console-log',
        file_path: 'src/app.js',
        line_number: 2,
        title: 'console.log left in code',
        description: 'console.log left in code',
        category: 'custom',
        severity: 'info',
        cwe_ids: [],
        owasp_category: null,
        remediation: null,
      }),
    ])
  })

  it("run a team's Semgrep rules unchanged, search and taint, under the rules' own ids (issues and SARIF)", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, {
      'app/views.py': [
        'import subprocess as sp',
        'from flask import request',
        '',
        'def archive():',
        '    name = request.args.get("name")',
        '    target = "/srv/" + name',
        '    sp.call("tar czf " + target, shell=True)',
        '',
        'def ping():',
        '    sp.call("ping -c 1 localhost", shell=True)',
        '',
      ].join('\n'),
      'web/log.js': 'function audit(user) {\n  console.log("audit", user)\n}\n',
      'README.md': '# shop\n',
    })
    const rules = `rules:
  - id: team.flask-shell
    mode: taint
    languages: [python]
    severity: ERROR
    message: Request data reaches a shell command
    metadata:
      cwe: "CWE-78: Improper Neutralization of Special Elements used in an OS Command"
      owasp: "A03:2021 - Injection"
      confidence: HIGH
    pattern-sources:
      - pattern: request.args.get(...)
    pattern-sinks:
      - patterns:
          - pattern: subprocess.call($CMD, ..., shell=True, ...)
          - focus-metavariable: $CMD
  - id: team.no-console
    languages: [javascript]
    severity: INFO
    message: console.log of $X left in code
    patterns:
      - pattern: console.log(..., $X)
      - pattern-not: console.log("...")
`
    const ruleset = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'semgrep', rules_text: rules, repo_ids: [repository.id] } })
    expect(ruleset.status).toBe(201)
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    expect(created.body.active_models).toEqual(['sast', 'secrets'])
    await waitForScan(app, caller, created.body.id, isTerminal)
    const results = (await app.request(`/api/scans/${created.body.id}/results`, { headers: caller.headers })).body
    const team = results.issues.filter((issue: { rule_id: string }) => issue.rule_id.startsWith('team.'))
    expect(team).toEqual([
      expect.objectContaining({
        rule_id: 'team.flask-shell',
        file_path: 'app/views.py',
        line_number: 7,
        severity: 'high',
        category: 'command-injection',
        cwe_ids: ['CWE-78'],
        owasp_category: 'A03:2021 - Injection',
        confidence: 0.9,
        model_used: expect.stringMatching(/^parapet-sast\//),
        data_flow: expect.objectContaining({ source: expect.objectContaining({ filePath: 'app/views.py', lineNumber: 5 }) }),
      }),
      expect.objectContaining({ rule_id: 'team.no-console', file_path: 'web/log.js', line_number: 2, severity: 'low', description: 'console.log of user left in code' }),
    ])
    const sarif = (await app.request(`/api/scans/${created.body.id}/sarif`, { headers: caller.headers })).body
    const ruleIds = sarif.runs[0].results.map((result: { ruleId: string }) => result.ruleId)
    expect(ruleIds).toEqual(expect.arrayContaining(['team.flask-shell', 'team.no-console']))
  })

  it('check the security metadata of a plain rule when it is given (422 naming the field)', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const rules = 'id: weak\nlanguage: python\nmessage: weak\nrule: { pattern: md5($X) }\ncwe: [SQLI-89]\nowasp: "A03:2021 - Cryptography"\ncategory: wrong\n'
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'bad-meta', rules_text: rules } })
    expect(response.status).toBe(422)
    const messages = response.body.detail.map((item: { msg: string }) => item.msg).join('\n')
    expect(messages).toMatch(/cwe entries look like "CWE-89"/)
    expect(messages).toMatch(/owasp A03:2021 is "Injection"/)
    expect(messages).toMatch(/unknown category "wrong"/)
  })
})

describe('data-flow findings', () => {
  it('come from full scans with their trace in data_flow and explanation, one issue per sink', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, {
      'app/db.py': 'def find(cursor, name):\n    cursor.execute("select * from users where name = \'" + name + "\'")\n',
      'app/views.py': 'from flask import request\nfrom app.db import find\n\ndef search(cursor):\n    name = request.args.get("name")\n    return find(cursor, name)\n',
      // at the root: `app/` stays in the paths, where `from app.db` finds it (a zip of one folder is read without it)
      'README.md': '# search\n',
    })
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })
    expect(created.body.active_models).toEqual(['sast', 'secrets', 'dataflow'])
    await waitForScan(app, caller, created.body.id, isTerminal)
    const { issues } = (await app.request(`/api/scans/${created.body.id}/results`, { headers: caller.headers })).body
    const atSink = issues.filter((issue: { file_path: string; line_number: number }) => issue.file_path === 'app/db.py' && issue.line_number === 2)
    expect(atSink).toHaveLength(1)
    expect(atSink[0]).toMatchObject({ model_used: 'parapet-dataflow/1.0', category: 'sql-injection', cwe_ids: ['CWE-89'] })
    expect(atSink[0].data_flow.source).toMatchObject({ filePath: 'app/views.py', lineNumber: 5 })
    expect(atSink[0].explanation).toContain('app/views.py')
    const gql = await app.graphql('query($id: ID!) { issue(id: $id) { dataFlow } }', { id: atSink[0].id }, caller.headers)
    expect(gql.body.data.issue.dataFlow).toEqual(atSink[0].data_flow)

    const quick = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    await waitForScan(app, caller, quick.body.id, isTerminal)
    const quickIssues = (await app.request(`/api/scans/${quick.body.id}/results`, { headers: caller.headers })).body.issues
    expect(quickIssues.every((issue: { model_used: string }) => issue.model_used !== 'parapet-dataflow/1.0')).toBe(true)
  })
})
