/**
 * Live events across processes, through PostgreSQL LISTEN/NOTIFY. Payloads carry ids only
 * (NOTIFY payloads are visible to every database user): a subscriber re-reads what it needs
 * through its own organization's scope.
 *
 * Channels:
 * - parapet_events: a scan changed (status, progress) or got new log entries.
 * - parapet_scan_cancel: a running scan was stopped; the worker running it aborts.
 */
import { EventEmitter } from 'node:events'
import type { EntityManager } from '@mikro-orm/postgresql'
import pg from 'pg'
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../db/orm.ts'
import type { Logger } from '../logger.ts'

export const EVENTS_CHANNEL = 'parapet_events'
export const CANCEL_CHANNEL = 'parapet_scan_cancel'

export interface ScanEvent {
  kind: 'scan' | 'log'
  scanId: string
  orgId: string
}

/** Sends an event; inside a transaction it is delivered on commit. */
export async function publishScanEvent(em: EntityManager, event: ScanEvent): Promise<void> {
  await em.getConnection().execute('select pg_notify(?, ?)', [EVENTS_CHANNEL, JSON.stringify(event)], 'run', em.getTransactionContext())
}

export async function publishCancel(em: EntityManager, scanId: string): Promise<void> {
  await em.getConnection().execute('select pg_notify(?, ?)', [CANCEL_CHANNEL, scanId], 'run', em.getTransactionContext())
}

/**
 * One LISTEN connection per process, shared by every subscriber of the process; reconnects
 * after a lost connection, with a growing pause while the database stays away (subscribers
 * re-read state, so a missed event costs only latency). An outage is logged when it starts and
 * when it ends, not at every attempt.
 */
export class EventListener {
  private readonly emitter = new EventEmitter().setMaxListeners(0)
  private client: pg.Client | undefined
  private closed = false
  private retry: NodeJS.Timeout | undefined
  private retryDelayMs = MIN_RETRY_DELAY_MS
  private lostSince: number | undefined

  constructor(
    private readonly connectionString: string,
    private readonly channels: readonly string[],
    private readonly logger: Logger,
    private readonly options: { connectTimeoutMs?: number } = {},
  ) {}

  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS })
    client.on('notification', (message) => this.emitter.emit(message.channel, message.payload ?? ''))
    client.on('error', (error) => this.reconnectSoon(client, error))
    client.on('end', () => this.reconnectSoon(client, new Error('connection ended')))
    try {
      await client.connect()
      for (const channel of this.channels) await client.query(`listen ${channel}`)
    } catch (error) {
      client.removeAllListeners('end')
      await client.end().catch(() => undefined)
      throw error
    }
    this.client = client
  }

  on(channel: string, listener: (payload: string) => void): () => void {
    this.emitter.on(channel, listener)
    return () => this.emitter.off(channel, listener)
  }

  /** Scan events of one organization (an invalid payload is ignored). */
  onScanEvent(listener: (event: ScanEvent) => void): () => void {
    return this.on(EVENTS_CHANNEL, (payload) => {
      const event = parseScanEvent(payload)
      if (event) listener(event)
    })
  }

  async close(): Promise<void> {
    this.closed = true
    clearTimeout(this.retry)
    this.emitter.removeAllListeners()
    const client = this.client
    this.client = undefined
    await client?.end().catch(() => undefined)
  }

  /** Called for the connection in use only: a failed or replaced one is ignored. */
  private reconnectSoon(lost: pg.Client, error: unknown): void {
    if (lost !== this.client) return
    this.client = undefined
    lost.removeAllListeners('end')
    void lost.end().catch(() => undefined)
    if (this.closed) return
    this.lostSince = Date.now()
    this.logger.warn('event listener connection lost; reconnecting', { channels: this.channels, error })
    this.scheduleReconnect()
  }

  private scheduleReconnect(): void {
    if (this.closed) return
    this.retry = setTimeout(() => {
      this.start().then(
        () => {
          this.logger.info('event listener reconnected', { channels: this.channels, after_ms: Date.now() - (this.lostSince ?? Date.now()) })
          this.retryDelayMs = MIN_RETRY_DELAY_MS
          if (this.closed) void this.close()
        },
        (error: unknown) => {
          this.logger.debug('event listener reconnect failed', { error })
          this.retryDelayMs = Math.min(this.retryDelayMs * 2, MAX_RETRY_DELAY_MS)
          this.scheduleReconnect()
        },
      )
    }, this.retryDelayMs)
  }
}

const MIN_RETRY_DELAY_MS = 250
const MAX_RETRY_DELAY_MS = 5000

function parseScanEvent(payload: string): ScanEvent | undefined {
  try {
    const value = JSON.parse(payload) as Partial<ScanEvent>
    if ((value.kind === 'scan' || value.kind === 'log') && typeof value.scanId === 'string' && typeof value.orgId === 'string') {
      return { kind: value.kind, scanId: value.scanId, orgId: value.orgId }
    }
  } catch {
    // not ours
  }
  return undefined
}
