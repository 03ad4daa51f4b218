/**
 * A tenant's ruleset built to make one native ast-grep call run for minutes (SLOW_RULES on
 * slowProject()): a stop, a worker shutdown and the time limits each end the analysis within
 * seconds, and the worker processes doing it are gone.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_RULE_LIMITS } from '../../src/engine/rules/limits.ts'
import { useTestApp, type TestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, type Principal } from '../support/factories.ts'
import { analysisWorkerPids, cpuSeconds, isRunning, startServiceProcess, waitFor } from '../support/processes.ts'
import { SLOW_RULES } from '../support/rules.ts'
import { isTerminal, slowProject, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

const LONG = 600_000

/** A repository with the slow ruleset linked to it, and a quick scan of it created. */
async function startSlowScan(app: TestApp, caller: Principal): Promise<string> {
  const repository = await uploadProject(app, caller, slowProject())
  const ruleset = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: `slow-${repository.id}`, rules_text: SLOW_RULES, repo_ids: [repository.id] } })
  expect(ruleset.status).toBe(201)
  const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
  expect(created.status).toBe(201)
  return created.body.id
}

/** The analysis workers of `parentPid` once one of them is grinding (3 s of CPU: far past starting up). */
async function grindingWorkers(parentPid: number): Promise<number[]> {
  return waitFor(() => analysisWorkerPids(parentPid), (pids) => pids.some((pid) => cpuSeconds(pid) >= 3), 90_000, 'an analysis worker to grind on slow.js')
}

async function logMessages(app: TestApp, caller: Principal, scanId: string): Promise<string[]> {
  return (await app.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body.map((entry: { message: string }) => entry.message)
}

describe('stop during an analysis stuck in a native call', () => {
  const app = useTestApp({ worker: true, scanLimits: { fileTimeoutMs: LONG, scanTimeoutMs: LONG, ruleLimits: DEFAULT_RULE_LIMITS } })

  it('ends it within seconds: the scan is stopped, its worker processes are gone, and the next scan completes', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scanId = await startSlowScan(app, caller)
    const workers = await grindingWorkers(process.pid)

    const stop = await app.request(`/api/scans/${scanId}/stop`, { method: 'POST', headers: caller.headers })
    expect(stop.status).toBe(200)
    await waitFor(() => workers.filter(isRunning), (running) => running.length === 0, 20_000, 'the analysis workers to end')
    expect((await waitForScan(app, caller, scanId, isTerminal)).status).toBe('stopped')
    expect(analysisWorkerPids(process.pid)).toEqual([])

    const next = await uploadProject(app, caller, vulnerableProject())
    const created = await app.request(`/api/scans/${next.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    expect((await waitForScan(app, caller, created.body.id, isTerminal)).status).toBe('completed')
  })
})

describe('the file time limit', () => {
  const app = useTestApp({ worker: true, scanLimits: { fileTimeoutMs: 2000, scanTimeoutMs: LONG, ruleLimits: DEFAULT_RULE_LIMITS } })

  it('skips the file past it, logging why, and the scan completes with the other files\' findings', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scanId = await startSlowScan(app, caller)
    const done = await waitForScan(app, caller, scanId, isTerminal)
    expect(done.status).toBe('completed')
    expect(await logMessages(app, caller, scanId)).toContain('skipped src/slow.js: timeout (analysis of src/slow.js exceeded 2 s)')
    const results = await app.request(`/api/scans/${scanId}/results`, { headers: caller.headers })
    expect(results.body.issues.map((issue: { file_path: string }) => issue.file_path)).toContain('src/app.js')
    expect(analysisWorkerPids(process.pid)).toEqual([])
  })
})

describe('worker processes (SIGTERM, the scan time limit)', () => {
  // no worker in this process: workers are child processes
  const app = useTestApp()

  it('SIGTERM ends a worker mid-analysis promptly: the scan goes back to the queue, the analysis workers are gone', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const worker = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1', SCAN_FILE_TIMEOUT: '600' })
    const scanId = await startSlowScan(app, caller)
    const workers = await grindingWorkers(worker.child.pid as number)

    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
    await waitFor(() => workers.filter(isRunning), (running) => running.length === 0, 10_000, 'the analysis workers to end')
    expect((await app.request(`/api/scans/${scanId}/status`, { headers: caller.headers })).body.status).toBe('queued')
    // leave no queued scan to the next test's worker
    expect((await app.request(`/api/scans/${scanId}/stop`, { method: 'POST', headers: caller.headers })).status).toBe(200)
  })

  it('past the scan time limit, the scan fails with that reason and its analysis ends', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const worker = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1', SCAN_FILE_TIMEOUT: '600', SCAN_TIMEOUT: '10' })
    const scanId = await startSlowScan(app, caller)
    const workers = await waitFor(() => analysisWorkerPids(worker.child.pid as number), (pids) => pids.length > 0, 60_000, 'analysis workers')

    const failed = await waitForScan(app, caller, scanId, isTerminal)
    expect(failed).toMatchObject({ status: 'failed', error: 'the scan exceeded its time limit of 10 s' })
    await waitFor(() => workers.filter(isRunning), (running) => running.length === 0, 10_000, 'the analysis workers to end')
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
  })
})
