/**
 * The run_scan task: one scan, from queued to completed (or failed, or stopped).
 *
 * Invariants:
 * - Only a queued scan starts (queued -> running is a conditional update): a stopped scan never runs.
 * - A stop (NOTIFY on the cancel channel, or a progress write finding the scan no longer
 *   running) aborts the analysis at once (its worker processes are killed, whatever they are
 *   doing); the task then returns normally.
 * - Time limits (ScanLimits): a file whose analysis runs past the file limit is skipped and
 *   logged, and the scan goes on; past the scan limit the scan fails with that reason.
 * - A worker shutdown puts the scan back to queued and fails the attempt, so the queue runs
 *   it again elsewhere.
 * - The database going away mid-scan: the task waits for it, then puts the scan back to queued
 *   and fails the attempt (the queue retries it), or fails the scan once the job's attempts are
 *   used up.
 * - An attempt writes only while the scan is still its own (running, with the start time it
 *   claimed): one superseded by a retry (src/modules/scans/stale-scans.ts) aborts and leaves
 *   the job to the attempt that took it over. A retry first discards the issues an interrupted
 *   attempt stored.
 * - Any other error marks the scan failed with a short reason (failure-reason.ts; the details go
 *   to the service log); the task returns normally (a scan that failed once would fail again).
 */
import { tmpdir } from 'node:os'
import path from 'node:path'
import fs from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import type { JobHelpers, Task } from 'graphile-worker'
import {
  DEFAULT_RULE_LIMITS,
  formatSeconds,
  parseRulesText,
  RuleValidationError,
  scanSources,
  type AnalyzerName,
  type RuleDocument,
  type RuleLimits,
} from '../src/engine/index.ts'
import { forkForOrg } from '../src/db/org-scope.ts'
import { isDatabaseUnavailable, waitForDatabase } from '../src/db/unavailable.ts'
import type { Logger } from '../src/logger.ts'
import { Repository } from '../src/modules/repositories/repository.entity.ts'
import { rulesetsOfRepository } from '../src/modules/rulesets/ruleset.service.ts'
import { replaceSummary } from '../src/modules/summaries/summary.service.ts'
import { Scan } from '../src/modules/scans/scan.entity.ts'
import { transitionScan, type ScanRef, type TransitionFields } from '../src/modules/scans/scan-lifecycle.ts'
import type { RunScanPayload } from '../src/modules/scans/scan.service.ts'
import { writeContentToFile } from '../src/modules/uploads/content-store.ts'
import { readZipFiles } from '../src/modules/uploads/zip-archive.ts'
import { SHUTDOWN, type CancelRegistry } from './cancellations.ts'
import { failureReason } from './failure-reason.ts'
import { storeFindings } from './store-findings.ts'
import { ScanProgressWriter } from './scan-progress.ts'

/** How long a scan may take, and what its rulesets may hold (SCAN_FILE_TIMEOUT, SCAN_TIMEOUT, RULES_*). */
export interface ScanLimits {
  /** one file's analysis (and each step of the repository analyses: data flow, taint rules, the summary) */
  fileTimeoutMs: number
  /** the whole scan, from the moment it is claimed */
  scanTimeoutMs: number
  ruleLimits: RuleLimits
}

export const DEFAULT_SCAN_LIMITS: ScanLimits = { fileTimeoutMs: 30_000, scanTimeoutMs: 3_600_000, ruleLimits: DEFAULT_RULE_LIMITS }

export interface RunScanDependencies {
  orm: MikroORM
  cancellations: CancelRegistry
  logger: Logger
  maxFileBytes: number
  /** DEFAULT_SCAN_LIMITS when absent */
  scanLimits?: ScanLimits
}

/** The abort reason of a scan that ran past its time limit. */
class ScanTimeLimitError extends Error {
  constructor(limitMs: number) {
    super(`the scan exceeded its time limit of ${formatSeconds(limitMs)}`)
  }
}

/** A scan as one attempt holds it: `startedAt` is the claim's start time, its fence. */
interface ClaimedScan extends RunScanPayload {
  startedAt: Date
}

export function createRunScanTask(deps: RunScanDependencies): Task {
  return async (rawPayload, helpers) => {
    const payload: ClaimedScan = { ...parsePayload(rawPayload), startedAt: new Date() }
    const em = forkForOrg(deps.orm.em, payload.orgId)
    const claimed = await transitionScan(em, scanRef(payload), 'claim', { attempt: payload.startedAt })
    if (!claimed) return // stopped (or already handled) before it could start
    if (helpers.job.attempts > 1) await discardEarlierAttempts(deps.orm, payload)

    const limits = deps.scanLimits ?? DEFAULT_SCAN_LIMITS
    const controller = new AbortController()
    const deadline = setTimeout(() => controller.abort(new ScanTimeLimitError(limits.scanTimeoutMs)), limits.scanTimeoutMs)
    const unregister = deps.cancellations.register(payload.scanId, controller)
    const onShutdown = () => controller.abort(SHUTDOWN)
    helpers.abortSignal?.addEventListener('abort', onShutdown)
    const progress = new ScanProgressWriter(em, payload.scanId, payload.orgId, () => controller.abort('stopped'), deps.logger, payload.startedAt)
    try {
      await runScan(deps, limits, payload, progress, controller.signal)
    } catch (error) {
      const abortReason: unknown = controller.signal.reason
      if (abortReason === SHUTDOWN) {
        progress.log('warning', 'The worker is shutting down: the scan goes back to the queue')
        await progress.stop()
        await requeue(deps.orm, payload)
        throw new Error('worker shut down during the scan; requeued')
      }
      if (isDatabaseUnavailable(error) && !controller.signal.aborted) return await retryAfterOutage(deps, payload, progress, helpers)
      const timedOut = abortReason instanceof ScanTimeLimitError
      if (controller.signal.aborted && !timedOut) {
        if (await isSuperseded(deps.orm, payload)) throw new Error('the scan was retried by another attempt')
        progress.log('info', 'Scan stopped')
        return
      }
      // past the time limit, the limit is the reason, not whatever the abort interrupted
      const reason = timedOut ? (abortReason as ScanTimeLimitError).message : failureReason(error)
      if (!timedOut) deps.logger.error('scan failed', { scanId: payload.scanId, error })
      progress.log('error', `Scan failed: ${reason}`)
      await progress.stop()
      await finishScan(deps.orm, payload, 'failed', { error: reason })
    } finally {
      clearTimeout(deadline)
      helpers.abortSignal?.removeEventListener('abort', onShutdown)
      unregister()
      await progress.stop()
    }
  }
}

async function runScan(deps: RunScanDependencies, limits: ScanLimits, payload: ClaimedScan, progress: ScanProgressWriter, signal: AbortSignal): Promise<void> {
  const em = forkForOrg(deps.orm.em, payload.orgId)
  const scan = await em.findOneOrFail(Scan, { id: payload.scanId })
  const repository = await em.findOneOrFail(Repository, { id: scan.repository.id })
  if (!scan.contentId) throw new Error('the uploaded content of the repository is missing')
  progress.start(repository.fileCount)
  progress.log('info', 'Scan started', { scan_type: scan.scanType, analyzers: scan.activeModels, files: repository.fileCount })

  const extraRules = await rulesOfLinkedRulesets(em, repository.id, limits.ruleLimits, progress)
  const zipPath = path.join(tmpdir(), `parapet-scan-${randomUUID()}.zip`)
  try {
    const { rootPrefix } = await writeContentToFile(em, scan.contentId, zipPath)
    progress.log('info', 'Repository content fetched', { bytes: repository.sizeBytes })
    signal.throwIfAborted()
    // Full scans recompute what the service understands about the repository: the summary is a
    // stage of the scan, over the same read of the zip, under the same file time limit (a summary
    // that runs past it is left as it was: the scan logs "Repository summary not updated").
    const summarizing = scan.scanType === 'full'
    const report = await scanSources(readZipFiles(zipPath, rootPrefix), {
      analyzers: scan.activeModels as AnalyzerName[],
      summary: summarizing,
      extraRules,
      maxFileBytes: deps.maxFileBytes,
      // tenants' rules and files run in worker processes, under the file time limit
      fileTimeoutMs: limits.fileTimeoutMs,
      expectedFiles: repository.fileCount,
      signal,
      onProgress: ({ filesScanned, filesTotal, findings }) => progress.setProgress(filesScanned, filesTotal, findings),
      onLog: (event) => progress.log(event.level, event.message, event.data),
    })
    signal.throwIfAborted()
    progress.log('info', 'Analysis finished', { findings: report.findings.length, files_scanned: report.stats.filesScanned, skipped: report.stats.skipped, suppressed: report.stats.suppressed, duration_ms: report.durationMs })
    if (report.summary) {
      await replaceSummary(em, scan.repository.id, scan.id, report.summary)
      progress.log('info', 'Repository summary updated')
    }
    const stored = await storeFindings(em, scan, report.findings, (count) => progress.log('debug', `Stored ${count} of ${report.findings.length} issues`))
    const { filesScanned, filesTotal } = report.stats
    // the scan's counts are the log's: files analyzed (skipped ones are not) of the files seen
    progress.setProgress(filesTotal, filesTotal, stored)
    progress.log('info', `Scan completed: ${stored} issues; ${filesScanned} of ${filesTotal} files scanned, ${filesTotal - filesScanned} skipped`)
    await progress.stop()
    await finishScan(deps.orm, payload, 'completed', { issuesCount: stored, filesScanned, filesTotal })
  } finally {
    await fs.rm(zipPath, { force: true })
  }
}

async function rulesOfLinkedRulesets(em: ReturnType<typeof forkForOrg>, repoId: string, ruleLimits: RuleLimits, progress: ScanProgressWriter): Promise<RuleDocument[]> {
  const rulesets = await rulesetsOfRepository(em, repoId)
  const rules: RuleDocument[] = []
  for (const ruleset of rulesets) {
    try {
      // stored rulesets are bounded again: they may predate the limits, or the limits changed
      rules.push(...parseRulesText(ruleset.rulesText, ruleset.name, { limits: ruleLimits }))
    } catch (error) {
      const reason = error instanceof RuleValidationError ? error.message : String(error)
      progress.log('error', `Ruleset "${ruleset.name}" skipped: ${reason}`)
    }
  }
  if (rulesets.length > 0) progress.log('info', `Rulesets loaded: ${rulesets.length} (${rules.length} rules)`, { rulesets: rulesets.map((ruleset) => ruleset.name) })
  return rules
}

/**
 * The database went away during the attempt: nothing of the scan can be written until it
 * answers, and graphile-worker could not record the attempt's end either. Wait for it, then
 * hand the scan back to the queue, or fail it when this was the job's last attempt.
 */
async function retryAfterOutage(deps: RunScanDependencies, payload: ClaimedScan, progress: ScanProgressWriter, helpers: JobHelpers): Promise<void> {
  deps.logger.warn('scan interrupted: the database is unreachable; waiting for it', { scanId: payload.scanId })
  await waitForDatabase(deps.orm, { signal: helpers.abortSignal })
  const { attempts, max_attempts: maxAttempts } = helpers.job
  if (attempts < maxAttempts) {
    progress.log('warning', `The database became unreachable during the scan: the scan goes back to the queue (attempt ${attempts} of ${maxAttempts})`)
    await progress.stop()
    await requeue(deps.orm, payload)
    throw new Error('the database became unreachable during the scan; requeued')
  }
  const reason = `The database became unreachable during the scan; retried ${attempts - 1} ${attempts === 2 ? 'time' : 'times'}`
  progress.log('error', `Scan failed: ${reason}`)
  await progress.stop()
  await finishScan(deps.orm, payload, 'failed', { error: reason })
}

// Raw SQL bound to the scan's organization (docs/org-scoping.md, rule 4).
const DISCARD_NOTES_SQL = 'delete from issue_notes where org_id = ? and issue_id in (select id from issues where scan_id = ? and org_id = ?)'
const DISCARD_ISSUES_SQL = 'delete from issues where scan_id = ? and org_id = ?'

/** An interrupted attempt may have stored some of the scan's issues: a retry stores them all afresh. */
async function discardEarlierAttempts(orm: MikroORM, payload: ClaimedScan): Promise<void> {
  await forkForOrg(orm.em, payload.orgId).transactional(async (tx) => {
    const connection = tx.getConnection()
    await connection.execute(DISCARD_NOTES_SQL, [payload.orgId, payload.scanId, payload.orgId], 'run', tx.getTransactionContext())
    await connection.execute(DISCARD_ISSUES_SQL, [payload.scanId, payload.orgId], 'run', tx.getTransactionContext())
  })
}

/** True when the scan is no longer this attempt's: another attempt claimed it since. */
async function isSuperseded(orm: MikroORM, payload: ClaimedScan): Promise<boolean> {
  const scan = await forkForOrg(orm.em, payload.orgId).findOne(Scan, { id: payload.scanId })
  return scan !== null && scan.status !== 'stopped' && scan.startedAt?.getTime() !== payload.startedAt.getTime()
}

/** Terminal status, unless the scan was stopped meanwhile (a stop wins) or another attempt took it over. */
async function finishScan(orm: MikroORM, payload: ClaimedScan, status: 'completed' | 'failed', fields: TransitionFields): Promise<void> {
  await transitionScan(forkForOrg(orm.em, payload.orgId), scanRef(payload), status === 'completed' ? 'complete' : 'fail', { ...fields, attempt: payload.startedAt })
}

async function requeue(orm: MikroORM, payload: ClaimedScan): Promise<void> {
  await transitionScan(forkForOrg(orm.em, payload.orgId), scanRef(payload), 'requeue', { attempt: payload.startedAt })
}

function scanRef(payload: RunScanPayload): ScanRef {
  return { id: payload.scanId, orgId: payload.orgId }
}

function parsePayload(payload: unknown): RunScanPayload {
  const value = payload as Partial<RunScanPayload> | null
  if (typeof value?.scanId !== 'string' || typeof value.orgId !== 'string') throw new Error('run_scan needs {scanId, orgId}')
  return { scanId: value.scanId, orgId: value.orgId }
}
