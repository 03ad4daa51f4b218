/**
 * Scans whose worker died (killed, host lost) stop sending heartbeats. Every process runs this
 * check; a running scan silent for longer than the timeout is taken back from its worker:
 *
 *   running --(no heartbeat, its job has attempts left)--> queued   the job is unlocked and any
 *                                                                  live worker runs the next attempt
 *   running --(no heartbeat, the job's last attempt)-----> failed   "... stopped responding; retried N times",
 *                                                                  the job removed
 *
 * Either way the scan log says what happened and why. The attempt the dead worker held counts:
 * graphile-worker counts an attempt when a worker takes the job.
 *
 * A database that was down itself judges nobody: a scan is stale only once the server has been
 * up for a whole timeout, so workers had that long to write a heartbeat after a restart. A
 * worker wrongly judged dead (frozen, cut off from the database longer than the timeout) finds
 * its scan no longer its own at its next write and aborts (worker/run-scan.ts).
 *
 * This is the one maintenance job that looks across organizations (docs/org-scoping.md): it
 * reads only ids of stale scans and their jobs, and writes only their status, log and
 * repository's last status, each bound to the scan's own organization.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import { publishScanEvent } from '../../events/event-hub.ts'
import { transitionScan } from './scan-lifecycle.ts'
import type { Logger } from '../../logger.ts'

export interface StaleScanOptions {
  orm: MikroORM
  /** seconds without a heartbeat after which a running scan is taken back from its worker */
  timeoutSeconds: number
  logger: Logger
  /** how often to look, default a quarter of the timeout (at most 30 s) */
  intervalMs?: number
}

export interface ReclaimedScans {
  /** back to queued for another attempt */
  retried: string[]
  /** failed after the job's last attempt */
  failed: string[]
}

// `for update ... skip locked`: processes checking at the same moment each take different scans.
const STALE_SCANS_SQL = `
  select s.id, s.org_id as "orgId", j.attempts, j.max_attempts as "maxAttempts", j.locked_by as "lockedBy"
  from scans s
  left join graphile_worker.jobs j on j.key = s.id::text
  where s.status = 'running'
    and s.heartbeat_at < now() - make_interval(secs => ?::int)
    and pg_postmaster_start_time() < now() - make_interval(secs => ?::int)
  order by s.heartbeat_at
  limit 100
  for update of s skip locked`

interface StaleScan {
  id: string
  orgId: string
  attempts: number | null
  maxAttempts: number | null
  lockedBy: string | null
}

const LOG_SQL = `insert into scan_logs (id, org_id, scan_id, level, message) values (gen_random_uuid(), ?, ?, ?, ?)`

/** Takes stale scans back from their dead workers, in one transaction: retried or failed. */
export async function reclaimStaleScans(orm: MikroORM, timeoutSeconds: number): Promise<ReclaimedScans> {
  const reclaimed: ReclaimedScans = { retried: [], failed: [] }
  await orm.em.fork().transactional(async (tx) => {
    const context = tx.getTransactionContext()
    const run = (sql: string, params: unknown[]) => tx.getConnection().execute(sql, params, 'all', context)
    const stale = (await run(STALE_SCANS_SQL, [timeoutSeconds, timeoutSeconds])) as StaleScan[]
    if (stale.length === 0) return
    const silence = `the worker running the scan stopped responding (no heartbeat for ${timeoutSeconds} s)`
    for (const scan of stale) {
      const attempts = scan.attempts ?? 1
      const maxAttempts = scan.maxAttempts ?? attempts
      if (attempts < maxAttempts) {
        await transitionScan(tx, scan, 'requeue')
        await run(LOG_SQL, [scan.orgId, scan.id, 'warning', `Retrying: ${silence}; the scan goes back to the queue (attempt ${attempts} of ${maxAttempts} interrupted)`])
        reclaimed.retried.push(scan.id)
      } else {
        const reason = `${capitalized(silence)}; retried ${attempts - 1} ${attempts - 1 === 1 ? 'time' : 'times'}`
        await transitionScan(tx, scan, 'fail', { error: reason })
        await run(LOG_SQL, [scan.orgId, scan.id, 'error', `Scan failed: ${reason}`])
        reclaimed.failed.push(scan.id)
      }
      // delivered on commit (the transition published the status change)
      await publishScanEvent(tx, { kind: 'log', scanId: scan.id, orgId: scan.orgId })
    }
    // Unlocked only now, in the same transaction: no worker sees a retried job before its scan is queued.
    const deadWorkers = [...new Set(stale.map((scan) => scan.lockedBy).filter((id): id is string => id !== null))]
    if (deadWorkers.length > 0) await run(`select graphile_worker.force_unlock_workers(array[${deadWorkers.map(() => '?').join(', ')}]::text[])`, deadWorkers)
    for (const id of reclaimed.failed) await run('select graphile_worker.remove_job(?)', [id])
  })
  return reclaimed
}

export function startStaleScanReaper(options: StaleScanOptions): { stop(): void } {
  const interval = options.intervalMs ?? Math.min(30_000, (options.timeoutSeconds * 1000) / 4)
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    reclaimStaleScans(options.orm, options.timeoutSeconds)
      .then(({ retried, failed }) => {
        if (retried.length > 0) options.logger.warn('retrying scans whose worker stopped responding', { scans: retried })
        if (failed.length > 0) options.logger.warn('failed scans whose worker stopped responding after their last attempt', { scans: failed })
      })
      .catch((error: unknown) => options.logger.warn('stale scan check failed', { error }))
      .finally(() => (running = false))
  }, interval)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
