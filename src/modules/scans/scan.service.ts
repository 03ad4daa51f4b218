/**
 * Scans of the caller's organization: creation (queued as a background job in the same
 * transaction), listing, stop, status, task status, results (with the comparison to the scan's
 * base: new, unchanged and fixed issues) and logs. Another organization's scan is a 403, as the
 * spec checks scans by ownership through their repository.
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { AVAILABLE_ANALYZERS } from '../../engine/core/analyzer.ts'
import type { AnalyzerName } from '../../engine/core/types.ts'
import { existsInOtherOrg, orgOf } from '../../db/org-scope.ts'
import { publishCancel } from '../../events/event-hub.ts'
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts'
import { readIssues, type IssueRecord } from '../issues/issue.records.ts'
import { countIssues, type IssueCounts } from '../issues/issue.service.ts'
import { requireRepository } from '../repositories/repository.service.ts'
import { announceQueuedScan, transitionScan } from './scan-lifecycle.ts'
import { Scan, ScanLog, type ScanStatus, type ScanType } from './scan.entity.ts'

export const RUN_SCAN_TASK = 'run_scan'
export const SCAN_MAX_ATTEMPTS = 3
export const ACTIVE_STATUSES: readonly ScanStatus[] = ['queued', 'running']
export const TERMINAL_STATUSES: readonly ScanStatus[] = ['completed', 'failed', 'stopped']

/** The analyzers each scan type may run (the summary is part of full scans only). */
const TYPE_ANALYZERS: Record<ScanType, readonly string[]> = {
  full: ['sast', 'secrets', 'dataflow'],
  quick: ['sast', 'secrets'],
  secrets: ['secrets'],
}

export interface ScanTypeOption {
  scanType: ScanType
  analyzers: AnalyzerName[]
}

/** Each scan type with the analyzers it may run here (what createScan accepts in activeModels). */
export function scanTypeOptions(): ScanTypeOption[] {
  return (Object.keys(TYPE_ANALYZERS) as ScanType[]).map((scanType) => ({ scanType, analyzers: analyzersFor(scanType, null) }))
}

export interface RunScanPayload {
  scanId: string
  orgId: string
}

export interface CreateScanInput {
  scanType?: ScanType | null | undefined
  activeModels?: string[] | null | undefined
}

/** The analyzers a scan runs: those asked for, checked against the type and what is installed. */
export function analyzersFor(scanType: ScanType, activeModels: readonly string[] | null | undefined): AnalyzerName[] {
  const allowed = TYPE_ANALYZERS[scanType].filter((name): name is AnalyzerName => (AVAILABLE_ANALYZERS as readonly string[]).includes(name))
  if (activeModels == null) return allowed
  const problems = activeModels
    .map((name, index) => ({ name, index }))
    .filter(({ name }) => !allowed.includes(name as AnalyzerName))
    .map(({ name, index }) => ({
      loc: ['body', 'active_models', index],
      msg: `Unknown analyzer '${name}' for a ${scanType} scan; valid: ${allowed.join(', ')}`,
      type: 'enum',
    }))
  if (problems.length > 0) throw new ValidationError(problems)
  if (activeModels.length === 0) throw new ValidationError([{ loc: ['body', 'active_models'], msg: 'List should have at least 1 item after validation, not 0', type: 'too_short' }])
  return [...new Set(activeModels)] as AnalyzerName[]
}

export async function createScan(em: EntityManager, repoId: string, input: CreateScanInput, createdBy: string): Promise<Scan> {
  const scanType = input.scanType ?? 'full'
  const activeModels = analyzersFor(scanType, input.activeModels)
  try {
    return await em.transactional(async (tx) => {
      const repository = await requireRepository(tx, repoId, { otherOrganization: 'forbidden' })
      if (!repository.contentId) throw new BadRequestError('The repository has no uploaded content to scan')
      const scan = tx.create(Scan, { orgId: orgOf(tx), repository, scanType, activeModels, contentId: repository.contentId, createdBy })
      await tx.flush()
      // the job is queued in the scan's transaction: both exist, or neither
      const payload: RunScanPayload = { scanId: scan.id, orgId: scan.orgId }
      const [job] = await tx
        .getConnection()
        .execute<{ id: string }[]>(
          'select id::text from graphile_worker.add_job(?, ?::json, max_attempts := ?, job_key := ?)',
          [RUN_SCAN_TASK, JSON.stringify(payload), SCAN_MAX_ATTEMPTS, scan.id],
          'all',
          tx.getTransactionContext(),
        )
      scan.taskId = job?.id ?? null
      await tx.flush()
      await announceQueuedScan(tx, { id: scan.id, orgId: scan.orgId, repoId: repository.id })
      return scan
    })
  } catch (error) {
    // the partial unique index (one queued-or-running scan per repository) decides races
    if (error instanceof UniqueConstraintViolationException) throw new BadRequestError('A scan is already running for this repository')
    throw error
  }
}

export interface ScanListFilter {
  orgId?: string | null | undefined
  /** one repository's scans; another organization's repository has none */
  repoId?: string | null | undefined
  status?: ScanStatus | null | undefined
  limit: number
  offset: number
}

export async function listScans(em: EntityManager, filter: ScanListFilter): Promise<Scan[]> {
  if (filter.orgId != null && filter.orgId !== orgOf(em)) throw new ForbiddenError('No access to that organization')
  if (!Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > 500) {
    throw new ValidationError([{ loc: ['limit'], msg: 'Input should be between 1 and 500', type: 'less_than_equal' }])
  }
  if (!Number.isInteger(filter.offset) || filter.offset < 0) throw new ValidationError([{ loc: ['offset'], msg: 'Input should be greater than or equal to 0', type: 'greater_than_equal' }])
  return em.find(Scan, { repository: { isActive: true, ...(filter.repoId && { id: filter.repoId }) }, ...(filter.status && { status: filter.status }) }, { orderBy: { createdAt: 'desc', id: 'asc' }, limit: filter.limit, offset: filter.offset })
}

export async function getScan(em: EntityManager, id: string): Promise<Scan> {
  const scan = await em.findOne(Scan, { id, repository: { isActive: true } })
  if (scan) return scan
  if (await existsInOtherOrg(em, Scan.meta.className, id)) throw new ForbiddenError('Scan does not belong to your organization')
  throw new NotFoundError('Scan not found')
}

/** Stops a queued scan (it never starts) or a running one (its worker aborts within seconds). */
export async function stopScan(em: EntityManager, id: string): Promise<Scan> {
  const scan = await getScan(em, id)
  return em.transactional(async (tx) => {
    const stopped = await transitionScan(tx, scan, 'stop', { error: 'Stopped by request' })
    if (!stopped) {
      await tx.refresh(scan)
      throw new BadRequestError(`Scan is not running (status: ${scan.status})`)
    }
    const connection = tx.getConnection()
    // a queued job is removed; a locked (running) one is left to its worker, told to abort
    await connection.execute('select graphile_worker.remove_job(?)', [scan.id], 'all', tx.getTransactionContext())
    await publishCancel(tx, scan.id)
    await tx.refresh(scan)
    return scan
  })
}

export interface ScanStatusReport {
  scanId: string
  status: ScanStatus
  progress: number
  filesScanned: number
  filesTotal: number
  issuesCount: number
  /** the REST name of issuesCount */
  issuesFound: number
  startedAt: Date | null
  completedAt: Date | null
  error: string | null
}

export function statusReport(scan: Scan): ScanStatusReport {
  return {
    scanId: scan.id,
    status: scan.status,
    progress: scan.progress,
    filesScanned: scan.filesScanned,
    filesTotal: scan.filesTotal,
    issuesCount: scan.issuesCount,
    issuesFound: scan.issuesCount,
    startedAt: scan.startedAt ?? null,
    completedAt: scan.completedAt ?? null,
    error: scan.error ?? null,
  }
}

export type TaskState = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled'

export interface ScanTaskStatus {
  scanId: string
  taskId: string | null
  status: TaskState
  attempts: number
  maxAttempts: number
  lastError: string | null
  runAt: Date | null
  lockedAt: Date | null
}

interface JobRow {
  id: string
  attempts: number
  max_attempts: number
  last_error: string | null
  run_at: Date | null
  locked_at: Date | null
}

/**
 * The job row tells while it exists (the queue deletes finished jobs); the scan record tells after.
 * Reads graphile_worker's table by the scan's id only after the scan was read in scope.
 */
export async function taskStatus(em: EntityManager, id: string): Promise<ScanTaskStatus> {
  const scan = await getScan(em, id)
  const [job] = await em
    .getConnection()
    .execute<JobRow[]>('select id::text, attempts, max_attempts, last_error, run_at, locked_at from graphile_worker.jobs where key = ?', [scan.id])
  const fromScan: Record<ScanStatus, TaskState> = { queued: 'pending', running: 'running', completed: 'completed', failed: 'failed', stopped: 'cancelled' }
  let status = fromScan[scan.status as ScanStatus]
  if (job && !TERMINAL_STATUSES.includes(scan.status)) {
    status = job.locked_at ? 'running' : job.attempts >= job.max_attempts ? 'failed' : 'pending'
  }
  return {
    scanId: scan.id,
    taskId: job?.id ?? scan.taskId ?? null,
    status,
    attempts: job?.attempts ?? (scan.startedAt ? 1 : 0),
    maxAttempts: job?.max_attempts ?? SCAN_MAX_ATTEMPTS,
    lastError: job?.last_error ?? (scan.status === 'failed' ? (scan.error ?? null) : null),
    runAt: job?.run_at ?? null,
    lockedAt: job?.locked_at ?? null,
  }
}

/** A completed scan set against its base, the repository's previous completed scan (none for a first scan). */
export interface ScanComparison {
  baseScanId: string | null
  newCount: number
  unchangedCount: number
  fixedCount: number
  /** the base's issues whose fingerprints this scan no longer has */
  fixedIssues: IssueRecord[]
}

export interface ScanResults {
  scanId: string
  status: ScanStatus
  issues: IssueRecord[]
  summary: IssueCounts & { fixedCount: number }
  fixedIssues: IssueRecord[]
}

/** The issues a completed scan no longer has, of its base; a first scan fixed nothing. */
function fixedIssuesOf(em: EntityManager, scan: Scan): Promise<IssueRecord[]> {
  if (!scan.baseScanId) return Promise.resolve([])
  return readIssues(em, { scanId: scan.baseScanId, absentFromScanId: scan.id }, { order: 'location' })
}

/** A scan found by id, refused (400) unless it completed: only a completed scan has results. */
async function completedScan(em: EntityManager, id: string): Promise<Scan> {
  const scan = await getScan(em, id)
  if (scan.status !== 'completed') throw new BadRequestError(`Scan is not completed (status: ${scan.status})`)
  return scan
}

export async function scanResults(em: EntityManager, id: string): Promise<ScanResults> {
  const scan = await completedScan(em, id)
  const [issues, counts, fixedIssues] = await Promise.all([
    readIssues(em, { scanId: scan.id }, { order: 'location' }),
    countIssues(em, { scanId: scan.id }),
    fixedIssuesOf(em, scan),
  ])
  return { scanId: scan.id, status: scan.status, issues, summary: { ...counts, fixedCount: fixedIssues.length }, fixedIssues }
}

/** The comparison of a scan with its base; null until the scan completed (it has no issues to compare before). */
export async function compareScan(em: EntityManager, scan: Scan): Promise<ScanComparison | null> {
  if (scan.status !== 'completed') return null
  const [counts, fixedIssues] = await Promise.all([countIssues(em, { scanId: scan.id }), fixedIssuesOf(em, scan)])
  return { baseScanId: scan.baseScanId ?? null, newCount: counts.newCount, unchangedCount: counts.unchangedCount, fixedCount: fixedIssues.length, fixedIssues }
}

/** The stored issues of a completed scan, in the order of its results, for the SARIF log (scan.sarif.ts). */
export async function completedScanIssues(em: EntityManager, id: string): Promise<{ scan: Scan; issues: IssueRecord[] }> {
  const scan = await completedScan(em, id)
  return { scan, issues: await readIssues(em, { scanId: scan.id }, { order: 'location' }) }
}

export async function scanLogs(em: EntityManager, id: string): Promise<ScanLog[]> {
  const scan = await getScan(em, id)
  return em.find(ScanLog, { scanId: scan.id }, { orderBy: { seq: 'asc' } })
}
