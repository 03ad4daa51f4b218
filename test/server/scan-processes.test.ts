/**
 * The pipeline across processes, as it runs in production: a worker stopped mid-scan, and two
 * API processes with two workers on one database, events crossing through PostgreSQL. (A worker
 * killed mid-scan, and the database killed under a scan: faults.test.ts.)
 */
import { createClient } from 'graphql-ws'
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'
import { startServiceProcess } from '../support/processes.ts'
import { isTerminal, largeProject, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

// no worker in this process: workers are child processes. No short stale-scan timeout either:
// a live worker on a loaded machine can be silent for seconds, and these scans must complete.
const app = useTestApp()

// each test starts several processes and waits for whole scans (its own waits are bounded at
// 120 s); on a busy 2-core machine that is well past vitest's default 60 s. Generous, not a target.
const PROCESS_TEST_TIMEOUT_MS = 300_000

describe('a worker stopped gracefully mid-scan', () => {
  it('releases the scan to the queue, and another worker completes it', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, largeProject(4000))
    const worker = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    await waitForScan(app, caller, created.body.id, (status) => status === 'running' || isTerminal(status))
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
    const released = await app.request(`/api/scans/${created.body.id}/status`, { headers: caller.headers })
    expect(released.body.status).toBe('queued')
    const task = await app.request(`/api/scans/${created.body.id}/task-status`, { headers: caller.headers })
    expect(task.body).toMatchObject({ status: 'pending', attempts: 1, locked_at: null })

    const next = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })
    const done = await waitForScan(app, caller, created.body.id, isTerminal, 120_000)
    expect(done.status).toBe('completed')
    const logs = (await app.request(`/api/scans/${created.body.id}/logs`, { headers: caller.headers })).body.map((entry: { message: string }) => entry.message)
    expect(logs).toContain('The worker is shutting down: the scan goes back to the queue')
    expect(logs.filter((message: string) => message === 'Scan started')).toHaveLength(2)
    // a job completing is routine: logged at debug level, not at the default info
    expect(next.output()).not.toMatch(/Completed task/)
    next.child.kill('SIGTERM')
    expect(await next.exited).toBe(0)
  }, PROCESS_TEST_TIMEOUT_MS)
})

describe('two API processes and two workers on one database', () => {
  it('run a scan created through the first API on a worker, and stream it to a subscriber of the second', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const [api1, api2, worker1, worker2] = await Promise.all([
      startServiceProcess('api', app.db.url),
      startServiceProcess('api', app.db.url),
      startServiceProcess('worker', app.db.url),
      startServiceProcess('worker', app.db.url),
    ])
    const form = new FormData()
    form.set('repo_name', 'multi')
    form.set('branch_name', 'main')
    const { makeZip } = await import('../support/zips.ts')
    form.set('file', new Blob([await makeZip({ ...vulnerableProject(), ...largeProject(300) })]), 'repo.zip')
    const uploaded = (await (await fetch(`${api1.url}/api/upload`, { method: 'POST', headers: caller.headers, body: form })).json()) as { id: string }
    const created = (await (await fetch(`${api1.url}/api/scans/${uploaded.id}`, { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json' }, body: '{}' })).json()) as { id: string }

    const client = createClient({ url: api2.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams: { apiKey: caller.headers['X-API-Key'] }, retryAttempts: 0 })
    const logs: string[] = []
    const statuses: string[] = []
    await Promise.all([
      new Promise<void>((resolve, reject) =>
        client.subscribe({ query: 'subscription($id: ID!) { scanLogs(scanId: $id) { message } }', variables: { id: created.id } }, { next: (value) => logs.push((value.data as any).scanLogs.message), error: reject, complete: resolve }),
      ),
      new Promise<void>((resolve, reject) =>
        client.subscribe({ query: 'subscription($id: ID!) { scanStatus(scanId: $id) { status } }', variables: { id: created.id } }, { next: (value) => statuses.push((value.data as any).scanStatus.status), error: reject, complete: resolve }),
      ),
    ])
    await client.dispose()

    expect(logs[0]).toBe('Scan started')
    expect(logs.at(-1)).toMatch(/^Scan completed/)
    expect(statuses.at(-1)).toBe('COMPLETED')
    const ranOn = [worker1, worker2].filter((worker) => worker.output().includes(created.id) || worker.output().includes('run_scan'))
    expect(ranOn.length).toBeGreaterThanOrEqual(1)
    for (const process of [api1, api2, worker1, worker2]) process.child.kill('SIGTERM')
    expect(await Promise.all([api1, api2, worker1, worker2].map((process) => process.exited))).toEqual([0, 0, 0, 0])
  }, PROCESS_TEST_TIMEOUT_MS)
})
