/**
 * What a running scan writes as it goes: log entries (batched, in order) and progress with a
 * heartbeat (at least once a second), each followed by an event for live subscribers. A
 * progress write that finds the scan no longer running means it was stopped: the run aborts
 * even if the cancel notification was missed.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import { publishScanEvent } from '../src/events/event-hub.ts'
import type { Logger } from '../src/logger.ts'
import type { LogLevel } from '../src/modules/scans/scan.entity.ts'

const FLUSH_INTERVAL_MS = 500
const MAX_BUFFERED_LOGS = 200

interface PendingLog {
  id: string
  timestamp: Date
  level: LogLevel
  message: string
  data: Record<string, unknown> | null
}

export class ScanProgressWriter {
  private logs: PendingLog[] = []
  private progress = { filesScanned: 0, filesTotal: 0 }
  private timer: NodeJS.Timeout | undefined
  private flushing: Promise<void> = Promise.resolve()

  constructor(
    private readonly em: EntityManager,
    private readonly scanId: string,
    private readonly orgId: string,
    private readonly onStopped: () => void,
    private readonly logger: Logger,
  ) {}

  start(filesTotal: number): void {
    this.progress.filesTotal = filesTotal
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS)
  }

  log(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    this.logs.push({ id: randomUUID(), timestamp: new Date(), level, message, data: data ?? null })
    if (this.logs.length >= MAX_BUFFERED_LOGS) void this.flush()
  }

  setProgress(filesScanned: number, filesTotal: number): void {
    this.progress = { filesScanned, filesTotal: Math.max(filesTotal, filesScanned, this.progress.filesTotal) }
  }

  /** Writes what is pending; calls are serialized so entries keep their order. */
  flush(): Promise<void> {
    this.flushing = this.flushing
      .then(() => this.writePending())
      .catch((error: unknown) => this.logger.warn('scan progress not written', { scanId: this.scanId, error }))
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
      const values = logs.map(() => '(?, ?, ?, ?, ?, ?, ?::jsonb)').join(', ')
      const params = logs.flatMap((log) => [log.id, this.orgId, this.scanId, log.timestamp, log.level, log.message, log.data ? JSON.stringify(log.data) : null])
      await connection.execute(`insert into scan_logs (id, org_id, scan_id, "timestamp", level, message, data) values ${values}`, params, 'run')
      await publishScanEvent(this.em, { kind: 'log', scanId: this.scanId, orgId: this.orgId })
    }
    const { filesScanned, filesTotal } = this.progress
    const percent = filesTotal > 0 ? Math.min(99, Math.floor((filesScanned / filesTotal) * 100)) : 0
    const updated = await connection.execute<{ affectedRows?: number; rowCount?: number }>(
      `update scans set progress = ?, files_scanned = ?, files_total = ?, heartbeat_at = now(), updated_at = now()
       where id = ? and org_id = ? and status = 'running'`,
      [percent, filesScanned, filesTotal, this.scanId, this.orgId],
      'run',
    )
    if ((updated.affectedRows ?? updated.rowCount ?? 1) === 0) this.onStopped()
    else await publishScanEvent(this.em, { kind: 'scan', scanId: this.scanId, orgId: this.orgId })
  }
}
