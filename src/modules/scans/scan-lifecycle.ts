/**
 * Every change of a scan's status, in one module.
 *
 *                        claim                 complete
 *      create ──► queued ─────────► running ─────────────► completed
 *                   │  ▲              │ │ │
 *                   │  └── requeue ───┘ │ └──── fail ─────► failed
 *                   │   (worker shutdown, database outage,
 *                   │    no heartbeat while attempts remain)
 *                   │                   │
 *                   └────── stop ───────┴───────────────────► stopped
 *                    (by request, or its repository deleted)
 *
 *      progress: running ─► running (counts and heartbeat; an event only when the counts change)
 *
 * A transition is one conditional UPDATE of the scan: it applies only from the states it starts
 * from and, for a running scan, only for the attempt that claimed it (the claim's start time
 * fences an attempt that was taken for dead and retried). When it applies, the scan's repository
 * shows the same status if the scan is its latest, and live subscribers get one event (inside a
 * transaction, on commit). When it does not apply, nothing changes and nothing is published.
 *
 * Statements are raw SQL bound to the scan's organization (docs/org-scoping.md, rule 4), so the
 * one cross-organization job (stale-scans.ts) can run them inside its own transaction.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { publishScanEvent } from '../../events/event-hub.ts'
import type { ScanStatus } from './scan.entity.ts'

export type ScanTransition = 'claim' | 'complete' | 'fail' | 'stop' | 'requeue'

const TRANSITIONS: Record<ScanTransition, { from: readonly ScanStatus[]; to: ScanStatus }> = {
  claim: { from: ['queued'], to: 'running' },
  complete: { from: ['running'], to: 'completed' },
  fail: { from: ['running'], to: 'failed' },
  stop: { from: ['queued', 'running'], to: 'stopped' },
  requeue: { from: ['running'], to: 'queued' },
}

export interface ScanRef {
  id: string
  orgId: string
}

/** What a transition records besides the status. */
export interface TransitionFields {
  error?: string | null
  issuesCount?: number
  filesScanned?: number
  filesTotal?: number
}

export interface TransitionOptions extends TransitionFields {
  /** the start time of the attempt making the change: a running scan moves only for it (claim: the time it claims) */
  attempt?: Date
}

/** Columns each transition sets by itself. */
function ownColumns(transition: ScanTransition, attempt: Date | undefined): [string, unknown][] {
  switch (transition) {
    case 'claim':
      return [['started_at', attempt ?? new Date()], ['heartbeat_at', new Date()], ['error', null]]
    case 'complete':
      return [['completed_at', new Date()], ['progress', 100]]
    case 'fail':
    case 'stop':
      return [['completed_at', new Date()]]
    case 'requeue':
      return [['started_at', null], ['heartbeat_at', null]]
  }
}

const FIELD_COLUMNS: Record<keyof TransitionFields, string> = {
  error: 'error',
  issuesCount: 'issues_count',
  filesScanned: 'files_scanned',
  filesTotal: 'files_total',
}

/** Applies a transition; true when it applied (the scan was in a state it starts from). */
export async function transitionScan(em: EntityManager, scan: ScanRef, transition: ScanTransition, options: TransitionOptions = {}): Promise<boolean> {
  const { from, to } = TRANSITIONS[transition]
  const fields = Object.entries(FIELD_COLUMNS)
    .filter(([field]) => options[field as keyof TransitionFields] !== undefined)
    .map(([field, column]): [string, unknown] => [column, options[field as keyof TransitionFields]])
  const columns = [['status', to], ...ownColumns(transition, options.attempt), ...fields] as [string, unknown][]
  // the claim sets the attempt's start time; every later move of a running scan checks it
  const fenced = transition !== 'claim' && options.attempt !== undefined
  const sql =
    `update scans set ${columns.map(([column]) => `${column} = ?`).join(', ')}, updated_at = now()` +
    ` where id = ? and org_id = ? and status in (${from.map(() => '?').join(', ')})` +
    (fenced ? ` and (status <> 'running' or started_at = ?)` : '')
  const params = [...columns.map(([, value]) => value), scan.id, scan.orgId, ...from, ...(fenced ? [options.attempt] : [])]
  const result = await execute(em, sql, params)
  if (affected(result) === 0) return false
  await execute(em, 'update repositories set last_scan_status = ? where org_id = ? and last_scan_id = ?', [to, scan.orgId, scan.id])
  await publishScanEvent(em, { kind: 'scan', scanId: scan.id, orgId: scan.orgId })
  return true
}

/** A new scan, just inserted as queued: it becomes its repository's latest scan, and subscribers hear of it. */
export async function announceQueuedScan(em: EntityManager, scan: ScanRef & { repoId: string }): Promise<void> {
  await execute(em, 'update repositories set last_scan_id = ?, last_scan_status = ? where org_id = ? and id = ?', [scan.id, 'queued', scan.orgId, scan.repoId])
  await publishScanEvent(em, { kind: 'scan', scanId: scan.id, orgId: scan.orgId })
}

export interface ScanProgress {
  progress: number
  filesScanned: number
  filesTotal: number
  /** issues found so far (the scan's issues_count, final once it completes) */
  issuesFound: number
}

/**
 * A running scan's counts and heartbeat. Subscribers hear of it only when the counts changed
 * (`changed`): a heartbeat alone is not news. Returns false when the scan is no longer this
 * attempt's to write (stopped, or taken over by a retry).
 */
export async function recordProgress(em: EntityManager, scan: ScanRef, progress: ScanProgress, options: { attempt?: Date; changed: boolean }): Promise<boolean> {
  const fence = options.attempt ? ' and started_at = ?' : ''
  const result = await execute(
    em,
    `update scans set progress = ?, files_scanned = ?, files_total = ?, issues_count = ?, heartbeat_at = now(), updated_at = now()
     where id = ? and org_id = ? and status = 'running'${fence}`,
    [progress.progress, progress.filesScanned, progress.filesTotal, progress.issuesFound, scan.id, scan.orgId, ...(options.attempt ? [options.attempt] : [])],
  )
  if (affected(result) === 0) return false
  if (options.changed) await publishScanEvent(em, { kind: 'scan', scanId: scan.id, orgId: scan.orgId })
  return true
}

function execute(em: EntityManager, sql: string, params: unknown[]): Promise<unknown> {
  return em.getConnection().execute(sql, params, 'run', em.getTransactionContext())
}

function affected(result: unknown): number {
  const { affectedRows, rowCount } = (result ?? {}) as { affectedRows?: number; rowCount?: number }
  return affectedRows ?? rowCount ?? 0
}
