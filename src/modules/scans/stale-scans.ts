/**
 * Scans whose worker died (killed, host lost) stop sending heartbeats. Every process runs this
 * check: a running scan silent for longer than the timeout is marked failed with the reason,
 * and its job, still locked by the dead worker, is unlocked and removed, so nothing stays
 * `running` for the queue's default of hours.
 *
 * This is the one maintenance job that looks across organizations (docs/org-scoping.md): it
 * reads only ids of stale scans and writes only their status.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import { forkForOrg } from '../../db/org-scope.ts'
import { publishScanEvent } from '../../events/event-hub.ts'
import type { Logger } from '../../logger.ts'
import { Repository } from '../repositories/repository.entity.ts'
import { Scan } from './scan.entity.ts'

export interface StaleScanOptions {
  orm: MikroORM
  /** seconds without a heartbeat after which a running scan is failed */
  timeoutSeconds: number
  logger: Logger
  /** how often to look, default a quarter of the timeout (at most 30 s) */
  intervalMs?: number
}

const FAIL_STALE_SCANS_SQL = `
  update scans set status = 'failed', completed_at = now(), updated_at = now(),
    error = 'The worker running the scan stopped responding (no heartbeat for ' || ?::int || ' s)'
  where status = 'running' and heartbeat_at < now() - make_interval(secs => ?::int)
  returning id, org_id`

export async function failStaleScans(orm: MikroORM, timeoutSeconds: number): Promise<string[]> {
  const connection = orm.em.getConnection()
  const stale = await connection.execute<{ id: string; org_id: string }[]>(FAIL_STALE_SCANS_SQL, [timeoutSeconds, timeoutSeconds])
  for (const { id, org_id: orgId } of stale) {
    const [job] = await connection.execute<{ locked_by: string | null }[]>('select locked_by from graphile_worker.jobs where key = ?', [id])
    if (job?.locked_by) await connection.execute('select graphile_worker.force_unlock_workers(array[?]::text[])', [job.locked_by])
    await connection.execute('select graphile_worker.remove_job(?)', [id])
    const em = forkForOrg(orm.em, orgId)
    await connection.execute(
      `insert into scan_logs (id, org_id, scan_id, level, message) values (gen_random_uuid(), ?, ?, 'error', ?)`,
      [orgId, id, `Scan failed: the worker running it stopped responding for more than ${timeoutSeconds} s`],
    )
    const scan = await em.findOne(Scan, { id })
    if (scan) await em.nativeUpdate(Repository, { id: scan.repository.id, lastScanId: id }, { lastScanStatus: 'failed' })
    await publishScanEvent(em, { kind: 'log', scanId: id, orgId })
    await publishScanEvent(em, { kind: 'scan', scanId: id, orgId })
  }
  return stale.map((row) => row.id)
}

export function startStaleScanReaper(options: StaleScanOptions): { stop(): void } {
  const interval = options.intervalMs ?? Math.min(30_000, (options.timeoutSeconds * 1000) / 4)
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    failStaleScans(options.orm, options.timeoutSeconds)
      .then((ids) => {
        if (ids.length > 0) options.logger.warn('failed scans whose worker stopped responding', { scans: ids })
      })
      .catch((error: unknown) => options.logger.warn('stale scan check failed', { error }))
      .finally(() => (running = false))
  }, interval)
  timer.unref()
  return { stop: () => clearInterval(timer) }
}
