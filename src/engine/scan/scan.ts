/**
 * The scan pipeline: selects files (directory walk or in-memory sources), analyzes each one
 * (in this thread, or in worker processes), counts what it skipped and why, and returns the
 * findings sorted by location. Reports progress and logs every stage and every skipped file.
 *
 * Time limits: with `fileTimeoutMs`, every analysis runs in worker processes; a file whose
 * analysis runs past the limit is skipped (reason `timeout`) and its worker replaced, and the
 * repository-wide data-flow analysis gets the same limit between two files. An abort (stop,
 * shutdown, the caller's deadline) kills the workers at once, whatever they are doing; in the
 * calling thread, analysis can only stop between files.
 */
import { open, stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'
import { ANALYZERS } from '../core/types.ts'
import type { AnalyzerName, DataFlowTrace, Finding, RuleDocument, ScanStats } from '../core/types.ts'
import { analyzeDataFlowAsync, mergeWithPatternFindings, supportsDataFlow, withoutCleanSinkFindings, type DataFlowResult } from '../dataflow/index.ts'
import { isRepositoryConfig } from '../dataflow/crypto.ts'
import { isDependencyManifest } from '../dataflow/manifests.ts'
import type { DataFlowTaskInput } from '../dataflow/task.ts'
import { DEFAULT_IGNORED_DIRS, DEFAULT_MAX_FILE_BYTES, classifyContent, classifyPath, isInIgnoredDir } from './file-selection.ts'
import type { SkipReason } from './file-selection.ts'
import { FileAnalysis, createAnalyzers } from './file-analysis.ts'
import type { FileAnalysisResult, LogEvent, LogLevel } from './file-analysis.ts'
import type { CodeLanguage, FileLanguage } from '../core/languages.ts'
import { formatRuleProblem, loadBuiltinRulesLeniently } from '../rules/loader.ts'
import { emptySastMetrics } from '../sast/analyzer.ts'
import type { SastMetrics } from '../sast/analyzer.ts'
import { loadSecretsDetector, type SecretsDetector } from '../secrets/bridge.ts'
import { walkDirectory } from './walk.ts'
import { analyzeTaintRules, checkTaintRule, isTaintRule, taintFileLanguages } from '../semgrep/taint.ts'
import type { TaintRulesResult } from '../semgrep/taint.ts'
import type { TaintTaskInput } from '../semgrep/taint-task.ts'
import { AnalysisCrashError, AnalysisPool, AnalysisTimeoutError } from './worker-pool.ts'

export type { LogEvent, LogLevel } from './file-analysis.ts'

export interface ScanProgress {
  /** files handled so far, scanned or skipped */
  filesScanned: number
  filesTotal: number
  /** pattern and secret findings so far (data-flow findings come at the end) */
  findings: number
}

export interface ScanOptions {
  /** Which analyzers run; default sast and secrets. */
  analyzers?: AnalyzerName[]
  /** Rules added to (or, by id, replacing) the built-in rules, e.g. a ruleset's rules. */
  extraRules?: RuleDocument[]
  /** Set false to run only extraRules. Default true. */
  builtinRules?: boolean
  /** Files larger than this are skipped as too-large. Default 1 MiB. */
  maxFileBytes?: number
  /** Folder names never entered; defaults to DEFAULT_IGNORED_DIRS. */
  ignoredDirs?: readonly string[]
  /**
   * Worker processes analyzing files. 0 analyzes in the calling thread (no time limit can stop
   * an analysis there). Default: up to 4 (one per core) when there are at least 100 files
   * (scanSources: when `expectedFiles` says so); else one with `fileTimeoutMs`, none without:
   * starting a worker takes about half a second, more than a small repository takes to analyze.
   */
  workers?: number
  /**
   * Time limit of one file's analysis (and, for the data-flow analysis, between two files):
   * past it the worker is killed and replaced, and the file skipped (reason `timeout`). Needs
   * worker processes (at least one is started). Default: none.
   */
  fileTimeoutMs?: number
  /** scanSources: how many sources the iterable will yield, when known beforehand (e.g. a zip's entry count). */
  expectedFiles?: number
  /** Aborting kills the worker processes at once; the scan rejects with the signal's reason. */
  signal?: AbortSignal
  onProgress?(progress: ScanProgress): void
  onLog?(event: LogEvent): void
  /** Filled with matching counters when given (benchmarks). */
  sastMetrics?: SastMetrics
}

export interface ScanReport {
  findings: Finding[]
  /** every source-to-sink path of the data-flow analyzer, sanitized ones included (empty without it) */
  dataFlows: DataFlowTrace[]
  stats: ScanStats
  /** Rules (and secret detectors) the scan applied. */
  rulesRun: number
  durationMs: number
}

export interface SourceInput {
  path: string
  content: Buffer
}

const DEFAULT_ANALYZERS: AnalyzerName[] = ['sast', 'secrets']
const MIN_FILES_FOR_WORKERS = 100
const MAX_AUTO_WORKERS = 4
/** Data-flow analyses started again without the file that stalled the previous one. */
const MAX_DATAFLOW_RETRIES = 2

/** What is known about a file before its bytes are read. */
interface PendingFile {
  path: string
  /** The bytes, or the file's size when it exceeds the limit (then it is not read). */
  read(): Promise<Buffer | number>
}

interface Executor {
  analyze(path: string, language: FileLanguage, text: string): Promise<FileAnalysisResult>
  /** How many files may be in flight at once. */
  readonly parallelism: number
}

/** Rules, analyzers and detector of a scan, prepared once. */
interface Preparation {
  names: AnalyzerName[]
  rules: RuleDocument[]
  analysis: FileAnalysis
  rulesRun: number
  metrics: SastMetrics
  detector: SecretsDetector | null
  /** the data-flow analyzer runs over the whole repository once every file was read */
  dataflow: boolean
  /** user taint rules (Semgrep `mode: taint`): they run with `sast`, over the whole repository at the end */
  taintRules: RuleDocument[]
  /** file languages the taint rules follow data in */
  taintLanguages: ReadonlySet<CodeLanguage>
}

class ScanSession {
  readonly stats: ScanStats = { filesTotal: 0, filesScanned: 0, linesScanned: 0, skipped: {}, suppressed: 0, languages: {} }
  private readonly findings: Finding[] = []
  /** texts kept for the data-flow analyzer (files of a language it has a spec for) */
  private readonly dataflowFiles: { path: string; text: string }[] = []
  /** texts kept for the user taint rules (files of their languages) */
  private readonly taintFiles: { path: string; text: string }[] = []
  private taint: TaintRulesResult | null = null
  private handled = 0
  private readonly started = performance.now()
  private executor: Executor | null = null
  private pool: AnalysisPool | null = null
  private workers = 0
  private workersDecided = false
  private prepared: Preparation | null = null
  private dataflow: DataFlowResult | null = null
  private readonly abort = () => void this.pool?.close()

  constructor(private readonly options: ScanOptions) {
    if (options.fileTimeoutMs !== undefined && options.workers === 0) throw new Error('a file time limit needs worker processes (workers: 0 was given)')
    options.signal?.addEventListener('abort', this.abort, { once: true })
  }

  log(level: LogLevel, message: string, data?: Record<string, unknown>): void {
    this.options.onLog?.(data ? { level, message, data } : { level, message })
  }

  get preparation(): Preparation {
    if (!this.prepared) throw new Error('scan not prepared')
    return this.prepared
  }

  /**
   * Decides between in-thread and worker analysis once the number of files is known (or not),
   * and starts the workers loading the engine while this thread loads the rules (prepare).
   */
  bootWorkers(expectedFiles: number | null): void {
    if (this.workersDecided) return
    this.workersDecided = true
    const auto = expectedFiles !== null && expectedFiles >= MIN_FILES_FOR_WORKERS ? Math.min(availableParallelism(), MAX_AUTO_WORKERS) : 0
    this.workers = this.options.workers ?? (auto === 0 && this.options.fileTimeoutMs !== undefined ? 1 : auto)
    if (this.workers === 0) return
    this.pool = AnalysisPool.start(this.workers, this.options.fileTimeoutMs === undefined ? {} : { fileTimeoutMs: this.options.fileTimeoutMs })
    if (this.options.signal?.aborted) this.abort()
  }

  async prepare(): Promise<void> {
    this.prepared = await prepare(this.options)
  }

  /** Starts the analysis: configures the workers, or analyzes in this thread. */
  async startExecutor(): Promise<void> {
    const pool = this.pool
    if (pool) {
      try {
        await pool.configure({ analyzers: this.preparation.names, rules: this.preparation.rules })
      } catch (error) {
        this.options.signal?.throwIfAborted()
        throw error
      }
      const metrics = this.preparation.metrics
      this.executor = {
        parallelism: this.workers * 3,
        analyze: async (path, language, text) => {
          const { result, metrics: delta } = await pool.analyze(path, language, text)
          for (const key of Object.keys(delta) as Array<keyof SastMetrics>) metrics[key] += delta[key]
          return result
        },
      }
      this.log('info', `analyzing with ${this.workers} worker processes`, { workers: this.workers })
      return
    }
    const analysis = this.preparation.analysis
    this.executor = { parallelism: 1, analyze: async (path, language, text) => analysis.analyze(path, language, text) }
  }

  get parallelism(): number {
    return this.executor?.parallelism ?? 1
  }

  /** Stops the workers (at once: they have nothing left to save). */
  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.abort)
    await this.pool?.close()
  }

  skip(path: string, reason: SkipReason, detail?: string, countsAsFile = true): void {
    this.stats.skipped[reason] = (this.stats.skipped[reason] ?? 0) + 1
    const level: LogLevel =
      reason === 'unreadable' || reason === 'timeout' || reason === 'crashed' ? 'warning' : reason === 'vendored' || reason === 'unsupported' || reason === 'symlink' ? 'debug' : 'info'
    this.log(level, `skipped ${path}: ${reason}${detail ? ` (${detail})` : ''}`, { path, reason, ...(detail ? { detail } : {}) })
    if (countsAsFile) this.advance()
  }

  private advance(): void {
    this.handled++
    this.options.onProgress?.({ filesScanned: this.handled, filesTotal: this.stats.filesTotal, findings: this.findings.length })
  }

  async process(file: PendingFile): Promise<void> {
    this.options.signal?.throwIfAborted()
    const pathDecision = classifyPath(file.path)
    if ('skip' in pathDecision) return this.skip(file.path, pathDecision.skip)
    let content: Buffer | number
    try {
      content = await file.read()
    } catch (error) {
      return this.skip(file.path, 'unreadable', error instanceof Error ? error.message : String(error))
    }
    const maxBytes = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
    const size = typeof content === 'number' ? content : content.length
    if (typeof content === 'number' || size > maxBytes) return this.skip(file.path, 'too-large', `${size} bytes`)
    const decision = classifyContent(content, pathDecision)
    if ('skip' in decision) return this.skip(file.path, decision.skip)
    const forTaint = (this.preparation.taintLanguages as ReadonlySet<string>).has(decision.language)
    if (forTaint) this.taintFiles.push({ path: file.path, text: decision.text })
    const forDataflow = this.preparation.dataflow && supportsDataFlow(file.path)
    if (forDataflow) this.dataflowFiles.push({ path: file.path, text: decision.text })
    // The repository's own configuration, read by the data-flow analysis (crypto.ts).
    else if (this.preparation.dataflow && isRepositoryConfig(file.path)) this.dataflowFiles.push({ path: file.path, text: decision.text })
    // Its dependency manifests: a sink can depend on a library's version (manifests.ts).
    else if (this.preparation.dataflow && isDependencyManifest(file.path)) this.dataflowFiles.push({ path: file.path, text: decision.text })
    if (!this.preparation.analysis.accepts(decision.language)) {
      if (forDataflow || forTaint) {
        this.stats.filesScanned++
        this.advance()
        return
      }
      return this.skip(file.path, 'unsupported', `no analyzer reads ${decision.language}`)
    }
    const executor = this.executor
    if (!executor) throw new Error('scan executor not started')
    let result: FileAnalysisResult
    try {
      result = await executor.analyze(file.path, decision.language, decision.text)
    } catch (error) {
      this.options.signal?.throwIfAborted()
      // The file's worker was killed (or died) and replaced: the scan goes on without the file.
      if (error instanceof AnalysisTimeoutError) return this.skip(file.path, 'timeout', error.message)
      if (error instanceof AnalysisCrashError) return this.skip(file.path, 'crashed', error.message)
      throw error
    }
    this.options.signal?.throwIfAborted()
    this.record(file.path, decision.language, result)
    this.advance()
  }

  private record(path: string, language: FileLanguage, result: FileAnalysisResult): void {
    this.stats.filesScanned++
    this.stats.linesScanned += result.lines
    this.stats.languages[language] = (this.stats.languages[language] ?? 0) + result.lines
    this.stats.suppressed += result.suppressed
    for (const event of result.logs) this.options.onLog?.(event)
    if (result.suppressed > 0) this.log('debug', `${result.suppressed} findings suppressed by comments in ${path}`, { path, suppressed: result.suppressed })
    this.findings.push(...result.findings)
  }

  report(): ScanReport {
    const dataflow = this.dataflow
    // a sink found by a pattern rule and by the data-flow analyzer is reported once, as the data-flow finding
    // Taint-rule findings followed data themselves: a sink the built-in analysis saw clean (its
    // sources are not the rule's) does not drop them, as it drops pattern findings.
    const taint = this.taint?.findings ?? []
    const merged = dataflow
      ? mergeWithPatternFindings([...withoutCleanSinkFindings(this.findings, dataflow.cleanSinks ?? []), ...taint], dataflow.findings)
      : [...this.findings, ...taint]
    const findings = [...merged].sort(
      (a, b) =>
        compareText(a.filePath, b.filePath) || a.lineNumber - b.lineNumber || a.columnStart - b.columnStart || compareText(a.ruleId, b.ruleId),
    )
    const report = {
      findings,
      stats: this.stats,
      rulesRun: this.preparation.rulesRun,
      durationMs: Math.round(performance.now() - this.started),
      dataFlows: [...(dataflow?.traces ?? []), ...(this.taint?.traces ?? [])],
    }
    this.log('info', `scan complete: ${report.stats.filesScanned} files, ${report.findings.length} findings`, {
      filesScanned: report.stats.filesScanned,
      findings: report.findings.length,
      suppressed: report.stats.suppressed,
      skipped: report.stats.skipped,
      durationMs: report.durationMs,
    })
    return report
  }

  /** The repository-wide analyses, once every file was analyzed (the workers are still up). */
  async analyzeRepository(): Promise<void> {
    await this.analyzeTaintRules()
    if (!this.preparation.dataflow) return
    this.log('info', `data-flow analysis of ${this.dataflowFiles.length} files`)
    const started = performance.now()
    const result = this.pool
      ? await this.analyzeDataFlowInWorker(this.pool)
      : await analyzeDataFlowAsync(this.dataflowFiles, { ...(this.options.signal ? { signal: this.options.signal } : {}), secrets: this.preparation.detector })
    this.options.signal?.throwIfAborted()
    if (!result) return
    for (const failure of result.errors) this.log('warning', `data-flow analysis left out ${failure.path}: ${failure.message}`, { path: failure.path })
    const sanitized = result.traces.filter((trace) => trace.sanitized).length
    this.log('info', `data-flow analysis found ${result.findings.length} flows to sinks (${sanitized} more sanitized)`, {
      findings: result.findings.length,
      sanitized,
      durationMs: Math.round(performance.now() - started),
    })
    this.dataflow = result
  }

  /** The user taint rules, each one data-flow analysis over the files of its languages. */
  private async analyzeTaintRules(): Promise<void> {
    const rules = this.preparation.taintRules
    if (rules.length === 0) return
    this.log('info', `taint rules: ${rules.length} over ${this.taintFiles.length} files`)
    const result = this.pool
      ? await this.analyzeTaintRulesInWorker(this.pool, rules)
      : await analyzeTaintRules(this.taintFiles, rules, { ...(this.options.signal ? { signal: this.options.signal } : {}), secrets: this.preparation.detector })
    this.options.signal?.throwIfAborted()
    if (!result) return
    for (const failure of result.errors) {
      const where = failure.path === '' ? '' : ` on ${failure.path}`
      this.log('error', `rule ${failure.ruleId} failed${where}: ${failure.message}`, { ruleId: failure.ruleId, ...(failure.path === '' ? {} : { path: failure.path }) })
    }
    this.stats.suppressed += result.suppressed
    this.taint = result
  }

  /**
   * The taint rules on a worker, within the file time limit between two files: a file that stalls
   * them costs the scan its taint findings (logged), not its other findings.
   */
  private async analyzeTaintRulesInWorker(pool: AnalysisPool, rules: RuleDocument[]): Promise<TaintRulesResult | null> {
    try {
      const input: TaintTaskInput = { files: this.taintFiles, rules }
      return await pool.runTask<TaintRulesResult>(TAINT_TASK, 'analyzeTaintRulesTask', input, {
        label: 'the taint rules',
        ...(this.options.fileTimeoutMs === undefined ? {} : { stallTimeoutMs: this.options.fileTimeoutMs }),
      })
    } catch (error) {
      this.options.signal?.throwIfAborted()
      if (!(error instanceof AnalysisTimeoutError || error instanceof AnalysisCrashError)) throw error
      this.log('warning', `taint rules abandoned: ${error.message}`, { path: error.subject })
      return null
    }
  }

  /**
   * The data-flow analysis on a worker, within the file time limit between two files: a file
   * that stalls it is left out and the analysis starts again without it, a few times at most;
   * after that (or when the analysis stalls elsewhere) the scan has no data-flow findings.
   */
  private async analyzeDataFlowInWorker(pool: AnalysisPool): Promise<DataFlowResult | null> {
    const left: string[] = []
    for (let attempt = 0; ; attempt++) {
      const files = left.length === 0 ? this.dataflowFiles : this.dataflowFiles.filter((file) => !left.includes(file.path))
      try {
        const input: DataFlowTaskInput = { files }
        return await pool.runTask<DataFlowResult>(DATAFLOW_TASK, 'analyzeDataFlowTask', input, {
          label: 'the data-flow analysis',
          ...(this.options.fileTimeoutMs === undefined ? {} : { stallTimeoutMs: this.options.fileTimeoutMs }),
        })
      } catch (error) {
        this.options.signal?.throwIfAborted()
        if (!(error instanceof AnalysisTimeoutError || error instanceof AnalysisCrashError)) throw error
        const path = error.subject
        if (attempt >= MAX_DATAFLOW_RETRIES || !files.some((file) => file.path === path)) {
          this.log('warning', `data-flow analysis abandoned: ${error.message}`, { path })
          return null
        }
        left.push(path)
        this.log('warning', `data-flow analysis left out ${path}: ${error.message}; the analysis starts again without it`, { path })
      }
    }
  }
}

/** The data-flow analysis as a worker task. */
const DATAFLOW_TASK = new URL('../dataflow/task.ts', import.meta.url).href
/** The user taint rules as a worker task. */
const TAINT_TASK = new URL('../semgrep/taint-task.ts', import.meta.url).href

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function mergeRules(builtin: RuleDocument[], extra: RuleDocument[], log: (level: LogLevel, message: string, data?: Record<string, unknown>) => void): RuleDocument[] {
  if (extra.length === 0) return builtin
  const extraIds = new Set(extra.map((rule) => rule.id))
  for (const rule of builtin) {
    if (extraIds.has(rule.id)) log('info', `rule ${rule.id} from the ruleset replaces the built-in rule`, { ruleId: rule.id })
  }
  return [...builtin.filter((rule) => !extraIds.has(rule.id)), ...extra]
}

function checkAnalyzerNames(options: ScanOptions): AnalyzerName[] {
  const names = options.analyzers ?? DEFAULT_ANALYZERS
  for (const name of names) {
    if (!(ANALYZERS as readonly string[]).includes(name)) throw new Error(`unknown analyzer "${name}" (known: ${ANALYZERS.join(', ')})`)
  }
  return names
}

async function prepare(options: ScanOptions): Promise<Preparation> {
  const log = (level: LogLevel, message: string, data?: Record<string, unknown>) => options.onLog?.(data ? { level, message, data } : { level, message })
  const names = checkAnalyzerNames(options)
  log('info', 'loading rules')
  let builtin: RuleDocument[] = []
  if (options.builtinRules !== false && names.includes('sast')) {
    const load = loadBuiltinRulesLeniently()
    builtin = load.rules
    // A broken built-in rule must not stop every scan: it is left out and reported.
    for (const problem of load.problems) log('error', `built-in rule left out: ${formatRuleProblem(problem)}`, { ...problem })
  }
  const rules = mergeRules(builtin, options.extraRules ?? [], log)
  // The detector is loaded even without the secrets analyzer: every finding is redacted.
  const { detector, problem } = await loadSecretsDetector()
  if (problem) log('warning', `${problem}; secrets are neither reported nor redacted`)
  const metrics = options.sastMetrics ?? emptySastMetrics()
  const set = createAnalyzers(names, rules, detector, metrics, (ruleId, path, message) =>
    log('error', `rule ${ruleId} failed on ${path}: ${message}`, { ruleId, path }),
  )
  for (const name of set.unavailable) log('warning', `analyzer "${name}" is not available in this engine version; skipped`, { analyzer: name })
  const running = set.analyzers.map((analyzer) => analyzer.name)
  log('info', `rules loaded: ${set.rulesRun} rules, analyzers ${running.join(', ') || 'none'}`, { rules: set.rulesRun, analyzers: running })
  const dataflow = names.includes('dataflow')
  const taintRules = names.includes('sast') ? rules.filter(isTaintRule) : []
  for (const rule of taintRules) {
    for (const problem of rule.semgrep ? checkTaintRule(rule.semgrep, rule.language) : []) log('error', `rule ${rule.id} does not run: ${problem.message}`, { ruleId: rule.id })
  }
  return {
    names: dataflow ? [...running, 'dataflow'] : running,
    rules,
    analysis: new FileAnalysis(set.analyzers, detector),
    rulesRun: set.rulesRun,
    metrics,
    detector,
    dataflow,
    taintRules,
    taintLanguages: taintFileLanguages(taintRules),
  }
}

/** Runs `work` over items produced by `next`, at most `parallelism` at a time, in order of start. */
async function runBounded<T>(next: () => Promise<T | undefined>, parallelism: () => number, work: (item: T) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>()
  let failure: unknown = null
  for (;;) {
    if (failure) break
    const item = await next()
    if (item === undefined) break
    const task = work(item).catch((error: unknown) => {
      failure ??= error
    })
    inFlight.add(task)
    void task.finally(() => inFlight.delete(task))
    while (inFlight.size >= parallelism()) await Promise.race(inFlight)
  }
  await Promise.all(inFlight)
  if (failure) throw failure
}

/** Scans in-memory sources (paths are taken as repository-relative). */
export async function scanSources(sources: AsyncIterable<SourceInput> | Iterable<SourceInput>, options: ScanOptions = {}): Promise<ScanReport> {
  options.signal?.throwIfAborted()
  checkAnalyzerNames(options)
  const session = new ScanSession(options)
  const ignored = new Set(options.ignoredDirs ?? DEFAULT_IGNORED_DIRS)
  try {
    session.bootWorkers(options.expectedFiles ?? null)
    await session.prepare()
    await session.startExecutor()
    session.log('info', 'analyzing sources')
    const iterator = Symbol.asyncIterator in sources ? sources[Symbol.asyncIterator]() : sources[Symbol.iterator]()
    await runBounded(
      async () => {
        options.signal?.throwIfAborted()
        const step = await iterator.next()
        return step.done ? undefined : step.value
      },
      () => session.parallelism,
      async (source) => {
        const path = normalizeRelativePath(source.path)
        session.stats.filesTotal++
        if (isInIgnoredDir(path, ignored)) return session.skip(path, 'vendored')
        await session.process({ path, read: async () => source.content })
      },
    )
    await session.analyzeRepository()
  } finally {
    await session.close()
  }
  return session.report()
}

/** Walks `dir` (symlinks not followed, ignored folders not entered) and scans what it finds. */
export async function scanDirectory(dir: string, options: ScanOptions = {}): Promise<ScanReport> {
  options.signal?.throwIfAborted()
  const root = resolve(dir)
  const rootStats = await stat(root).catch(() => null)
  if (!rootStats?.isDirectory()) throw new Error(`not a directory: ${dir}`)
  checkAnalyzerNames(options)
  const session = new ScanSession(options)
  try {
    // Workers load the engine while this thread walks the tree and loads the rules; unless the
    // worker count is given, the number of files decides how many are needed.
    if (options.workers !== undefined) session.bootWorkers(null)
    session.log('info', `collecting files under ${dir}`)
    const files = await walkDirectory(root, {
      ignoredDirs: new Set(options.ignoredDirs ?? DEFAULT_IGNORED_DIRS),
      ...(options.signal ? { signal: options.signal } : {}),
      onSkip: (path, reason, detail) => session.skip(path, reason, detail, false),
    })
    session.stats.filesTotal = files.length
    session.bootWorkers(files.length)
    await session.prepare()
    await session.startExecutor()
    session.log('info', `analyzing ${files.length} files`, { files: files.length })
    const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
    // Reads run ahead of analysis so disk latency overlaps with parsing.
    const readAhead = 8
    const reads = new Map<number, Promise<Buffer | number>>()
    const startRead = (index: number) => {
      const file = files[index]
      if (!file || reads.has(index) || 'skip' in classifyPath(file.path)) return
      const pending = readWithin(file.absolutePath, maxBytes)
      pending.catch(() => undefined) // the error is reported where the read is awaited
      reads.set(index, pending)
    }
    let index = 0
    await runBounded(
      async () => {
        options.signal?.throwIfAborted()
        if (index >= files.length) return undefined
        const current = index++
        for (let ahead = current; ahead < Math.min(files.length, current + readAhead + session.parallelism); ahead++) startRead(ahead)
        return current
      },
      () => session.parallelism,
      async (current) => {
        const file = files[current]
        if (!file) return
        const read = () => {
          const pending = reads.get(current) ?? readWithin(file.absolutePath, maxBytes)
          reads.delete(current)
          return pending
        }
        await session.process({ path: file.path, read })
      },
    )
    await session.analyzeRepository()
  } finally {
    await session.close()
  }
  return session.report()
}

/** Reads a file unless it is larger than `maxBytes`, in which case its size is returned. */
async function readWithin(path: string, maxBytes: number): Promise<Buffer | number> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    if (size > maxBytes) return size
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

function normalizeRelativePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '')
}
