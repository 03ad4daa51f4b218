/**
 * What a running scan writes as it goes: log entries (batched, in order) and progress with a
 * heartbeat (at least once a second), each followed by an event for live subscribers. A
 * progress write that finds the scan no longer running means it was stopped: the run aborts
 * even if the cancel notification was missed. Writes are fenced by the attempt's start time:
 * a run whose scan was taken from it (its worker was judged dead and the scan retried) finds
 * no row to update, and aborts too.
 *
 * While the database is unreachable, entries stay buffered (up to MAX_KEPT_LOGS, the oldest
 * dropped beyond) and are written once it answers again.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { isDatabaseUnavailable } from '../src/db/unavailable.ts'
import { publishScanEvent } from '../src/events/event-hub.ts'
import { recordProgress } from '../src/modules/scans/scan-lifecycle.ts'
import type { Logger } from '../src/logger.ts'
import type { LogLevel } from '../src/modules/scans/scan.entity.ts'

const FLUSH_INTERVAL_MS = 500
const MAX_BUFFERED_LOGS = 200
const MAX_KEPT_LOGS = 5000

interface PendingLog {
  id: string
  timestamp: Date
  level: LogLevel
  message: string
  data: Record<string, unknown> | null
}

export class ScanProgressWriter {
  private logs: PendingLog[] = []
  private progress = { filesScanned: 0, filesTotal: 0, issuesFound: 0 }
  /** the counts subscribers last heard of: a heartbeat that changes none of them is not sent */
  private published = ''
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()
  /** since when writes fail because the database is unreachable */
  private unreachableSince: number | undefined

  constructor(
    private readonly em: EntityManager,
    private readonly scanId: string,
    private readonly orgId: string,
    private readonly onStopped: () => void,
    private readonly logger: Logger,
    /** the attempt's claim time (scans.started_at): writes of a superseded attempt touch nothing */
    private readonly startedAt?: Date,
  ) {}

  start(filesTotal: number): void {
    this.progress.filesTotal = filesTotal
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS)
  }

  log(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    this.logs.push({ id: randomUUID(), timestamp: new Date(), level, message, data: data ?? null })
    if (this.logs.length >= MAX_BUFFERED_LOGS && this.unreachableSince === undefined) void this.flush()
  }

  setProgress(filesScanned: number, filesTotal: number, issuesFound: number): void {
    this.progress = { filesScanned, filesTotal: Math.max(filesTotal, filesScanned, this.progress.filesTotal), issuesFound }
  }

  /** Writes what is pending; calls are serialized so entries keep their order. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writePending()).then(
      () => {
        if (this.unreachableSince === undefined) return
        this.logger.info('scan progress written again', { scanId: this.scanId, after_ms: Date.now() - this.unreachableSince })
        this.unreachableSince = undefined
      },
      (error: unknown) => {
        if (!isDatabaseUnavailable(error)) return this.logger.warn('scan progress not written', { scanId: this.scanId, error })
        if (this.unreachableSince === undefined) this.logger.warn('scan progress not written: the database is unreachable; retrying', { scanId: this.scanId, error })
        this.unreachableSince ??= Date.now()
      },
    )
    return this.flushing
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }

  private async writePending(): Promise<void> {
    const logs = this.logs.splice(0)
    const connection = this.em.getConnection()
    if (logs.length > 0) {
      const values = logs.map(() => '(?::uuid, ?, ?::uuid, ?::timestamptz, ?, ?, ?::jsonb)').join(', ')
      const params = logs.flatMap((log) => [log.id, this.orgId, this.scanId, log.timestamp, log.level, log.message, log.data ? JSON.stringify(log.data) : null])
      const fenced = this.startedAt ? ' where exists (select 1 from scans where id = ? and org_id = ? and started_at = ?)' : ''
      try {
        await connection.execute(
          `insert into scan_logs (id, org_id, scan_id, "timestamp", level, message, data) select * from (values ${values}) as entries${fenced}`,
          [...params, ...(this.startedAt ? [this.scanId, this.orgId, this.startedAt] : [])],
          'run',
        )
      } catch (error) {
        // kept for the next flush: the entries of an outage are the ones an owner wants to read
        if (isDatabaseUnavailable(error)) this.logs = [...logs, ...this.logs].slice(-MAX_KEPT_LOGS)
        throw error
      }
      await publishScanEvent(this.em, { kind: 'log', scanId: this.scanId, orgId: this.orgId })
    }
    const { filesScanned, filesTotal, issuesFound } = this.progress
    const progress = { progress: filesTotal > 0 ? Math.min(99, Math.floor((filesScanned / filesTotal) * 100)) : 0, filesScanned, filesTotal, issuesFound }
    const counts = JSON.stringify(progress)
    const mine = await recordProgress(this.em, { id: this.scanId, orgId: this.orgId }, progress, { ...(this.startedAt && { attempt: this.startedAt }), changed: counts !== this.published })
    if (!mine) this.onStopped()
    else this.published = counts
  }
}
