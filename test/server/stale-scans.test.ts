/**
 * Scans whose worker stopped sending heartbeats (killed, host lost): the stale-scan check
 * retries them while their job has attempts left, and fails them with the reason after the
 * last; the retry stores the scan's issues afresh. Arranged in the database as a dead worker
 * leaves them: the scan running with its heartbeat long past, its job locked by a worker that
 * is gone, some issues stored.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import { describe, expect, it } from 'vitest'
import { forkForOrg } from '../../src/db/org-scope.ts'
import { Scan } from '../../src/modules/scans/scan.entity.ts'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeRepository, makeScan, type Principal } from '../support/factories.ts'
import { waitUntil } from '../support/faults.ts'
import { startServiceProcess } from '../support/processes.ts'
import { isTerminal, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

// no worker in this process: nothing runs a retried job, so its state stays visible
const app = useTestApp({ heartbeatTimeoutSeconds: 5 })

async function runningScan(orm: MikroORM, caller: Principal, options: { heartbeatAgoSeconds: number; attempts: number; lockedBy: string }) {
  const repository = await makeRepository(orm, { orgId: caller.orgId })
  const since = new Date(Date.now() - options.heartbeatAgoSeconds * 1000)
  // The scan's heartbeat goes stale last, once its job is in place: the stale-scan check runs
  // all along and would otherwise find a stale scan without a job.
  const scan = await makeScan(orm, repository, { status: 'running', startedAt: since, heartbeatAt: new Date(Date.now() + 600_000) })
  const connection = orm.em.getConnection()
  await connection.execute(`update repositories set last_scan_id = ?, last_scan_status = 'running' where id = ?`, [scan.id, repository.id])
  await connection.execute(`select graphile_worker.add_job('run_scan', ?::json, max_attempts := 3, job_key := ?)`, [JSON.stringify({ scanId: scan.id, orgId: caller.orgId }), scan.id])
  // what a worker taking the job does: count the attempt and lock it
  await connection.execute(`update graphile_worker._private_jobs set attempts = ?, locked_at = now() - interval '10 minutes', locked_by = ? where key = ?`, [options.attempts, options.lockedBy, scan.id])
  await connection.execute(`update scans set heartbeat_at = ? where id = ?`, [since, scan.id])
  return { scan, repository }
}

async function statusOf(caller: Principal, scanId: string): Promise<string> {
  return (await app.request(`/api/scans/${scanId}/status`, { headers: caller.headers })).body.status
}

async function repositoryOf(caller: Principal, id: string): Promise<Record<string, unknown>> {
  const { body } = await app.request('/api/repositories', { headers: caller.headers })
  return body.all_repos.find((repository: { id: string }) => repository.id === id)
}

describe('a running scan whose worker stopped responding', () => {
  it('goes back to the queue while its job has attempts left, its job runnable again and the log saying why', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const { scan, repository } = await runningScan(app.db.orm, caller, { heartbeatAgoSeconds: 3600, attempts: 1, lockedBy: 'worker-gone' })
    // a heartbeat this fresh stays fresh however slow the machine is
    const alive = await runningScan(app.db.orm, caller, { heartbeatAgoSeconds: -60, attempts: 1, lockedBy: 'worker-alive' })

    await waitUntil(async () => (await statusOf(caller, scan.id)) !== 'running', 60_000, 'the stale scan to be taken back')
    const status = await app.request(`/api/scans/${scan.id}/status`, { headers: caller.headers })
    expect(status.body).toMatchObject({ status: 'queued', started_at: null, error: null })
    const task = await app.request(`/api/scans/${scan.id}/task-status`, { headers: caller.headers })
    expect(task.body).toMatchObject({ status: 'pending', attempts: 1, max_attempts: 3, locked_at: null })
    const logs = await app.request(`/api/scans/${scan.id}/logs`, { headers: caller.headers })
    expect(logs.body.at(-1)).toMatchObject({
      level: 'warning',
      message: 'Retrying: the worker running the scan stopped responding (no heartbeat for 5 s); the scan goes back to the queue (attempt 1 of 3 interrupted)',
    })
    expect(await repositoryOf(caller, repository.id)).toMatchObject({ last_scan_id: scan.id, last_scan_status: 'queued' })
    // a scan with a fresh heartbeat is left to its worker, and its job to that worker
    expect(await statusOf(caller, alive.scan.id)).toBe('running')
    const aliveTask = await app.request(`/api/scans/${alive.scan.id}/task-status`, { headers: caller.headers })
    expect(aliveTask.body).toMatchObject({ status: 'running', locked_at: expect.any(String) })
  })

  it('fails with the reason and the retries it had once its job has no attempt left', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const { scan, repository } = await runningScan(app.db.orm, caller, { heartbeatAgoSeconds: 3600, attempts: 3, lockedBy: 'worker-gone-too' })

    await waitUntil(async () => (await statusOf(caller, scan.id)) !== 'running', 60_000, 'the stale scan to be taken back')
    const reason = 'The worker running the scan stopped responding (no heartbeat for 5 s); retried 2 times'
    const status = await app.request(`/api/scans/${scan.id}/status`, { headers: caller.headers })
    expect(status.body).toMatchObject({ status: 'failed', error: reason, completed_at: expect.any(String) })
    const task = await app.request(`/api/scans/${scan.id}/task-status`, { headers: caller.headers })
    expect(task.body).toMatchObject({ status: 'failed', locked_at: null, last_error: reason })
    const logs = await app.request(`/api/scans/${scan.id}/logs`, { headers: caller.headers })
    expect(logs.body.at(-1)).toMatchObject({ level: 'error', message: `Scan failed: ${reason}` })
    expect(await repositoryOf(caller, repository.id)).toMatchObject({ last_scan_id: scan.id, last_scan_status: 'failed' })
  })
})

describe('a scan run again after an interrupted attempt', () => {
  it('stores its issues afresh: what the interrupted attempt stored is discarded', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, vulnerableProject())
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    const scanId = created.body.id as string
    // what an attempt cut short leaves behind: an issue stored, the attempt counted
    const scan = await forkForOrg(app.db.orm.em, caller.orgId).findOneOrFail(Scan, { id: scanId })
    await makeIssue(app.db.orm, scan, { title: 'Stored by the interrupted attempt' })
    await app.db.orm.em.getConnection().execute('update graphile_worker._private_jobs set attempts = 1 where key = ?', [scanId])

    const worker = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })
    const done = await waitForScan(app, caller, scanId, isTerminal, 120_000)
    expect(done).toMatchObject({ status: 'completed' })
    const results = await app.request(`/api/scans/${scanId}/results`, { headers: caller.headers })
    expect(results.body.issues.length).toBeGreaterThan(0)
    expect(results.body.issues.map((issue: { title: string }) => issue.title)).not.toContain('Stored by the interrupted attempt')
    expect(results.body.summary.total_issues).toBe(done.issues_found)
    worker.child.kill('SIGTERM')
    expect(await worker.exited).toBe(0)
  }, 180_000)
})
