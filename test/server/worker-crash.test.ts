/**
 * A worker process killed with SIGKILL mid-scan: its scan stops sending heartbeats and is
 * failed with the reason; a new worker scans the repository again. The stale-scan check runs
 * in this process with a short timeout so the test is quick.
 */
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'
import { startServiceProcess } from '../support/processes.ts'
import { isTerminal, largeProject, uploadProject, waitForScan } from '../support/scans.ts'

const app = useTestApp({ heartbeatTimeoutSeconds: 10 })

describe('a worker killed with SIGKILL mid-scan', () => {
  it('leaves a scan that is failed with the reason and the repository can be scanned again', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, largeProject(4000))
    const worker = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })
    await waitForScan(app, caller, created.body.id, (status) => status === 'running' || isTerminal(status))
    worker.child.kill('SIGKILL')

    const failed = await waitForScan(app, caller, created.body.id, isTerminal, 30_000)
    expect(failed).toMatchObject({ status: 'failed', error: expect.stringMatching(/stopped responding/) })
    const task = await app.request(`/api/scans/${created.body.id}/task-status`, { headers: caller.headers })
    expect(task.body).toMatchObject({ status: 'failed', locked_at: null })
    const logs = await app.request(`/api/scans/${created.body.id}/logs`, { headers: caller.headers })
    expect(logs.body.at(-1)).toMatchObject({ level: 'error', message: expect.stringMatching(/stopped responding/) })

    const replacement = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })
    const again = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    expect(again.status).toBe(201)
    expect((await waitForScan(app, caller, again.body.id, isTerminal)).status).toBe('completed')
    replacement.child.kill('SIGTERM')
    expect(await replacement.exited).toBe(0)
  })
})
