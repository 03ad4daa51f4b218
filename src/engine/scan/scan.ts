/**
 * The scan pipeline, in stages over lists of analyzers (core/analyzer.ts):
 * select (directory walk or in-memory sources: read, classify, skip) -> per-file analyzers on
 * each selected file -> repository analyzers over the files they collected -> merge (a finding
 * of an analyzer that supersedes patterns replaces the pattern finding on its sink), sort and
 * report. Counts what it skipped and why; reports progress and logs every stage and skipped file.
 *
 * In this thread, each file is a SourceFile shared by both stages: its tree, parsed once, serves
 * the per-file analyzers and then the repository analyzers (TREES_KEPT bounds how many stay).
 * With worker processes, the repository stage is one task on a worker of the pool, started as
 * soon as every file was read, while the per-file jobs run on the others.
 *
 * Time limits: with `fileTimeoutMs`, every analysis runs in worker processes; a file whose
 * analysis runs past the limit is skipped (reason `timeout`) and its worker replaced, and the
 * repository stage gets the same limit between two files: the analyzer that stalled decides
 * (it starts again without the file, or is abandoned), the others run again. An abort (stop,
 * shutdown, the caller's deadline) kills the workers at once, whatever they are doing; in the
 * calling thread, analysis can only stop between files.
 */
import { open, readFile, stat } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { ANALYZERS } from '../core/types.ts'
import type { AnalyzerName, DataFlowTrace, Finding, RuleDocument, ScanStats } from '../core/types.ts'
import type { RepositoryAnalyzer, RepositoryResult } from '../core/analyzer.ts'
import { SourceFile, TreeKeeper } from '../core/source-file.ts'
import { DataFlowAnalyzer, mergeWithPatternFindings, withoutCleanSinkFindings } from '../dataflow/index.ts'
import type { LibrarySources } from '../dataflow/index.ts'
import { DEFAULT_IGNORED_DIRS, DEFAULT_MAX_FILE_BYTES, classifyContent, classifyPath, isInIgnoredDir } from './file-selection.ts'
import type { SkipReason } from './file-selection.ts'
import { FileAnalysis, createAnalyzers } from './file-analysis.ts'
import type { FileAnalysisResult, LogEvent, LogLevel } from './file-analysis.ts'
import type { FileLanguage } from '../core/languages.ts'
import { formatRuleProblem, loadBuiltinRulesLeniently } from '../rules/loader.ts'
import { emptySastMetrics } from '../sast/analyzer.ts'
import type { SastMetrics } from '../sast/analyzer.ts'
import { loadSecretsDetector, type SecretsDetector } from '../secrets/bridge.ts'
import { walkDirectory } from './walk.ts'
import type { WalkedFile } from './walk.ts'
import { compiledFolderOf, decideCompiledFolders, isTsconfigPath } from './compiled-output.ts'
import type { CompiledFolderDecision } from './compiled-output.ts'
import { TaintAnalyzer, checkTaintRule, isTaintRule } from '../semgrep/taint.ts'
import { SummaryAnalyzer } from '../summary/index.ts'
import type { RepositorySummaryData } from '../summary/index.ts'
import { TREES_KEPT, inRunOrder, runRepositoryAnalyzers } from './repository-stage.ts'
import type { RepositoryTaskInput, RepositoryTaskOutput } from './repository-stage.ts'
import { AnalysisCrashError, AnalysisTimeoutError, sharedAnalysisPool, type PoolLease } from './worker-pool.ts'

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
  /** Filled with matching counters when given (benchmarks): `treesParsed` counts every parse of the scan. */
  sastMetrics?: SastMetrics
  /**
   * Also build the repository summary (summary/index.ts) from every source given, selected or
   * not, and the traces of the data-flow analyses: ScanReport.summary. A summary that stalls
   * past `fileTimeoutMs` is left out (logged), the scan completes.
   */
  summary?: boolean
  /**
   * Whether the parameters of a package's exported functions are data-flow sources (with a lower
   * confidence than request data): `auto` (default) in library packages only (dataflow/library.ts),
   * `always`, or `never`.
   */
  packageApiSources?: LibrarySources
}

export interface ScanReport {
  findings: Finding[]
  /** every source-to-sink path of the data-flow analyzer, sanitized ones included (empty without it) */
  dataFlows: DataFlowTrace[]
  stats: ScanStats
  /** Rules (and secret detectors) the scan applied. */
  rulesRun: number
  durationMs: number
  /** with `summary: true`, unless it was abandoned */
  summary?: RepositorySummaryData
}

export interface SourceInput {
  path: string
  content: Buffer
}

const DEFAULT_ANALYZERS: AnalyzerName[] = ['sast', 'secrets']
const MIN_FILES_FOR_WORKERS = 100
const MAX_AUTO_WORKERS = 4

/** What is known about a file before its bytes are read. */
interface PendingFile {
  path: string
  /** in a folder the scan does not enter (its bytes are read only for the analyzers that observe every source) */
  ignored: boolean
  /** The bytes, or the file's size when it exceeds the limit (then it is not read). */
  read(): Promise<Buffer | number>
}

/** A file the select stage kept: its text is known. */
interface SelectedFile {
  path: string
  language: FileLanguage
  text: string
}

interface Executor {
  /** Runs the per-file analyzers (when any reads the file) and, in this thread, hands the file to the repository analyzers. */
  analyze(file: SelectedFile, perFile: boolean): Promise<FileAnalysisResult | null>
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
  /** in run order: data flow, user taint rules (they run with `sast`), the summary */
  repository: RepositoryAnalyzer[]
}

class ScanSession {
  readonly stats: ScanStats = { filesTotal: 0, filesScanned: 0, linesScanned: 0, skipped: {}, suppressed: 0, languages: {} }
  private readonly findings: Finding[] = []
  private repositoryResults: RepositoryResult[] = []
  /** worker mode: the repository stage, started once every file was read */
  private repositoryTask: Promise<RepositoryResult[]> | null = null
  private handled = 0
  private readonly started = performance.now()
  private executor: Executor | null = null
  /** the scan's use of the process's worker pool */
  private pool: PoolLease | null = null
  private workers = 0
  private workersDecided = false
  private prepared: Preparation | null = null
  private readonly abort = () => this.pool?.abort(this.options.signal?.reason)

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
    this.pool = sharedAnalysisPool(this.workers).lease(this.options.fileTimeoutMs === undefined ? {} : { fileTimeoutMs: this.options.fileTimeoutMs })
    if (this.options.signal?.aborted) this.abort()
  }

  async prepare(): Promise<void> {
    this.prepared = await prepare(this.options)
  }

  /** Starts the analysis: configures the workers, or analyzes in this thread. */
  async startExecutor(): Promise<void> {
    const pool = this.pool
    if (pool) {
      // files wait in the pool for workers that load the engine and build these analyzers
      pool.configure({ analyzers: this.preparation.names, rules: this.preparation.rules })
      const metrics = this.preparation.metrics
      this.executor = {
        parallelism: this.workers * 3,
        analyze: async (file, perFile) => {
          if (!perFile) return null
          const { result, metrics: delta } = await pool.analyze(file.path, file.language, file.text)
          for (const key of Object.keys(delta) as Array<keyof SastMetrics>) metrics[key] += delta[key]
          return result
        },
      }
      this.log('info', `analyzing with ${this.workers} worker processes`, { workers: this.workers })
      return
    }
    const { analysis, detector, metrics, repository } = this.preparation
    const keeper = new TreeKeeper(TREES_KEPT, metrics)
    this.executor = {
      parallelism: 1,
      analyze: async (file, perFile) => {
        const source = new SourceFile(file.path, file.language, file.text, detector, keeper)
        const result = perFile ? analysis.analyzeFile(source) : null
        const collectors = repository.filter((analyzer) => analyzer.accepts(file))
        for (const analyzer of collectors) this.collect(analyzer, source)
        // a tree no repository analyzer will read is not worth a place among the kept ones
        if (collectors.length === 0) source.releaseTree()
        return result
      },
    }
  }

  /** Hands a file to a repository analyzer in this thread (the summary reads its facts then). */
  private collect(analyzer: RepositoryAnalyzer, file: SourceFile): void {
    try {
      analyzer.collect(file)
    } catch (error) {
      this.log('error', `${analyzer.name} failed on ${file.path}: ${error instanceof Error ? error.message : String(error)}`, { path: file.path, analyzer: analyzer.name })
    }
  }

  get parallelism(): number {
    return this.executor?.parallelism ?? 1
  }

  /** Ends the scan's lease: work still in flight stops at once (it has nothing left to save). */
  async close(): Promise<void> {
    this.options.signal?.removeEventListener('abort', this.abort)
    this.pool?.release()
  }

  skip(path: string, reason: SkipReason, detail?: string, countsAsFile = true): void {
    this.stats.skipped[reason] = (this.stats.skipped[reason] ?? 0) + 1
    const level: LogLevel =
      reason === 'unreadable' || reason === 'timeout' || reason === 'crashed' ? 'warning' : reason === 'vendored' || reason === 'unsupported' || reason === 'symlink' ? 'debug' : 'info'
    this.log(level, `skipped ${path}: ${reason}${detail ? ` (${detail})` : ''}`, { path, reason, ...(detail ? { detail } : {}) })
    if (countsAsFile) this.advance()
  }

  /**
   * Logs whether a compiled folder is read, and why. A skipped folder of a directory counts as one
   * vendored folder, like the other folders the walk does not enter (in-memory sources count per file).
   */
  reportCompiledFolder(decision: CompiledFolderDecision, countSkippedFolder: boolean): void {
    const data = { path: decision.folder, reason: decision.reason }
    if (decision.scan) return this.log('info', `scanning ${decision.folder}/: ${decision.reason}`, data)
    if (countSkippedFolder) this.stats.skipped.vendored = (this.stats.skipped.vendored ?? 0) + 1
    this.log('info', `skipped ${decision.folder}/: ${decision.reason}`, data)
  }

  private advance(): void {
    this.handled++
    this.options.onProgress?.({ filesScanned: this.handled, filesTotal: this.stats.filesTotal, findings: this.findings.length })
  }

  /** The select stage for one file: read and classified, kept, or counted as skipped. */
  async select(file: PendingFile): Promise<SelectedFile | null> {
    this.options.signal?.throwIfAborted()
    let content: Buffer | number | null = null
    const read = async () => (content ??= await file.read())
    const observers = this.preparation.repository.filter((analyzer) => analyzer.observe)
    if (observers.length > 0) {
      // an unreadable file is reported below, when the scan reads it
      const observed = await read().catch(() => null)
      if (observed !== null) for (const analyzer of observers) analyzer.observe?.(file.path, observed)
    }
    if (file.ignored) return this.skipped(file.path, 'vendored')
    const pathDecision = classifyPath(file.path)
    if ('skip' in pathDecision) return this.skipped(file.path, pathDecision.skip)
    try {
      content = await read()
    } catch (error) {
      return this.skipped(file.path, 'unreadable', error instanceof Error ? error.message : String(error))
    }
    const maxBytes = this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
    const size = typeof content === 'number' ? content : content.length
    if (typeof content === 'number' || size > maxBytes) return this.skipped(file.path, 'too-large', `${size} bytes`)
    const decision = classifyContent(content, pathDecision)
    if ('skip' in decision) return this.skipped(file.path, decision.skip)
    const selected = { path: file.path, language: decision.language, text: decision.text }
    const readByRepository = this.preparation.repository.some((analyzer) => analyzer.countsAsScanned && analyzer.accepts(selected))
    if (!this.preparation.analysis.accepts(decision.language) && !readByRepository) return this.skipped(file.path, 'unsupported', `no analyzer reads ${decision.language}`)
    return selected
  }

  private skipped(path: string, reason: SkipReason, detail?: string): null {
    this.skip(path, reason, detail)
    return null
  }

  /** The per-file stage for one selected file (in this thread, it also goes to the repository analyzers). */
  async analyze(file: SelectedFile): Promise<void> {
    this.options.signal?.throwIfAborted()
    const executor = this.executor
    if (!executor) throw new Error('scan executor not started')
    let result: FileAnalysisResult | null
    try {
      result = await executor.analyze(file, this.preparation.analysis.accepts(file.language))
    } catch (error) {
      this.options.signal?.throwIfAborted()
      // The file's worker was killed (or died) and replaced: the scan goes on without the file.
      if (error instanceof AnalysisTimeoutError) return this.skip(file.path, 'timeout', error.message)
      if (error instanceof AnalysisCrashError) return this.skip(file.path, 'crashed', error.message)
      throw error
    }
    this.options.signal?.throwIfAborted()
    // a file only repository analyzers read counts as scanned, without lines
    if (result) this.record(file.path, file.language, result)
    else this.stats.filesScanned++
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

  /** Per-file and repository stages over the selected files (in their order). */
  async analyzeAll(selected: readonly SelectedFile[]): Promise<void> {
    // With workers, the repository stage starts now, on one worker, beside the per-file jobs.
    if (this.pool && this.preparation.repository.length > 0) {
      this.repositoryTask = this.analyzeRepositoryInWorker(this.pool, selected)
      this.repositoryTask.catch(() => undefined) // awaited below, unless the per-file stage fails first
    }
    let next = 0
    await runBounded(
      async () => {
        this.options.signal?.throwIfAborted()
        return next < selected.length ? selected[next++] : undefined
      },
      () => this.parallelism,
      (file) => this.analyze(file),
    )
    await this.analyzeRepository()
  }

  /** The repository stage: in this thread over what the analyzers collected, or the worker task's results. */
  private async analyzeRepository(): Promise<void> {
    const analyzers = this.preparation.repository
    if (analyzers.length === 0) return
    const signal = this.options.signal
    this.repositoryResults = this.repositoryTask
      ? await this.repositoryTask
      : await runRepositoryAnalyzers(analyzers, { ...(signal ? { signal } : {}), onProgress: () => undefined, log: (event) => this.options.onLog?.(event) })
    signal?.throwIfAborted()
    for (const result of this.repositoryResults) this.stats.suppressed += result.suppressed
  }

  /**
   * The repository stage as a task on one worker, within the file time limit between two files.
   * When it stalls, the analyzer that was running decides: it starts again without the file, or
   * it is abandoned (logged); the task then runs again with the analyzers left.
   */
  private async analyzeRepositoryInWorker(pool: PoolLease, selected: readonly SelectedFile[]): Promise<RepositoryResult[]> {
    let analyzers = inRunOrder(this.preparation.repository)
    for (;;) {
      const first = analyzers[0]
      if (!first) return []
      const byLabel = new Map(analyzers.map((analyzer) => [analyzer.stageLabel, analyzer]))
      let running: RepositoryAnalyzer = first
      const files = selected.filter((file) => analyzers.some((analyzer) => analyzer.accepts(file)))
      const input: RepositoryTaskInput = { setups: analyzers.map((analyzer) => analyzer.setup()), files }
      try {
        const output = await pool.runTask<RepositoryTaskOutput>(REPOSITORY_TASK, 'analyzeRepositoryTask', input, {
          label: first.stageLabel,
          onProgress: (label) => {
            running = byLabel.get(label) ?? running
          },
          ...(this.options.fileTimeoutMs === undefined ? {} : { stallTimeoutMs: this.options.fileTimeoutMs }),
        })
        this.options.signal?.throwIfAborted()
        for (const event of output.logs) this.options.onLog?.(event)
        this.preparation.metrics.treesParsed += output.treesParsed
        return output.results
      } catch (error) {
        this.options.signal?.throwIfAborted()
        if (!(error instanceof AnalysisTimeoutError || error instanceof AnalysisCrashError)) throw error
        const stalled = running
        const collected = files.some((file) => file.path === error.subject && stalled.accepts(file))
        const decision = stalled.stalled(error.subject, error.message, collected)
        this.options.onLog?.(decision.log)
        if ('abandon' in decision) analyzers = analyzers.filter((analyzer) => analyzer !== stalled)
      }
    }
  }

  report(): ScanReport {
    const results = this.repositoryResults
    // A sink found by a pattern rule and by an analyzer that follows data (data flow) is reported
    // once, as the latter's finding; pattern findings on sinks it saw clean are dropped. Taint-rule
    // findings followed data themselves: they stay whatever the built-in analysis saw.
    let merged = this.findings
    for (const result of results) if (result.supersedesPatterns) merged = withoutCleanSinkFindings(merged, result.supersedesPatterns.cleanSinks)
    merged = [...merged, ...results.filter((result) => !result.supersedesPatterns).flatMap((result) => result.findings)]
    for (const result of results) if (result.supersedesPatterns) merged = mergeWithPatternFindings(merged, result.findings)
    const findings = [...merged].sort(
      (a, b) =>
        compareText(a.filePath, b.filePath) || a.lineNumber - b.lineNumber || a.columnStart - b.columnStart || compareText(a.ruleId, b.ruleId),
    )
    const summary = results.find((result) => result.summary)?.summary
    const dataFlows: DataFlowTrace[] = results.flatMap((result) => result.traces)
    const report: ScanReport = {
      findings,
      stats: this.stats,
      rulesRun: this.preparation.rulesRun,
      durationMs: Math.round(performance.now() - this.started),
      dataFlows,
      ...(summary ? { summary } : {}),
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
}

/** The repository stage as a worker task. */
const REPOSITORY_TASK = new URL('./repository-stage.ts', import.meta.url).href

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
  const dataflow = names.includes('dataflow')
  // data flow runs at the repository stage, not per file, but the scan runs it all the same
  const running: AnalyzerName[] = [...set.analyzers.map((analyzer) => analyzer.name), ...(dataflow ? (['dataflow'] as const) : [])]
  log('info', `rules loaded: ${set.rulesRun} rules, analyzers ${running.join(', ') || 'none'}`, { rules: set.rulesRun, analyzers: running })
  const taintRules = names.includes('sast') ? rules.filter(isTaintRule) : []
  for (const rule of taintRules) {
    for (const problem of rule.semgrep ? checkTaintRule(rule.semgrep, rule.language) : []) log('error', `rule ${rule.id} does not run: ${problem.message}`, { ruleId: rule.id })
  }
  const repository: RepositoryAnalyzer[] = []
  if (dataflow) repository.push(new DataFlowAnalyzer(detector, { leftOut: [], packageApiSources: options.packageApiSources ?? 'auto' }))
  if (taintRules.length > 0) repository.push(new TaintAnalyzer(taintRules, detector))
  if (options.summary) repository.push(new SummaryAnalyzer({ maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES }))
  return {
    names: running,
    rules,
    analysis: new FileAnalysis(set.analyzers, detector, metrics),
    rulesRun: set.rulesRun,
    metrics,
    detector,
    repository: inRunOrder(repository),
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
    const selected: SelectedFile[] = []
    // compiled output waits for every path: whether it is read depends on the rest of its package
    const compiled: Array<{ path: string; content: Buffer; folder: string }> = []
    const otherPaths: string[] = []
    const tsconfigs = new Map<string, string>()
    for await (const source of sources) {
      options.signal?.throwIfAborted()
      const path = normalizeRelativePath(source.path)
      session.stats.filesTotal++
      const folder = compiledFolderOf(path, ignored)
      if (folder !== null) {
        compiled.push({ path, content: source.content, folder })
        continue
      }
      const isIgnored = isInIgnoredDir(path, ignored)
      if (!isIgnored) otherPaths.push(path)
      if (!isIgnored && isTsconfigPath(path)) tsconfigs.set(path, source.content.toString('utf8'))
      const file = await session.select({ path, ignored: isIgnored, read: async () => source.content })
      if (file) selected.push(file)
    }
    const decisions = decideCompiledFolders(compiled.map((file) => file.folder), otherPaths, (path) => tsconfigs.get(path))
    for (const decision of decisions) session.reportCompiledFolder(decision, false)
    const read = new Set(decisions.filter((decision) => decision.scan).map((decision) => decision.folder))
    for (const { path, content, folder } of compiled) {
      const file = await session.select({ path, ignored: !read.has(folder), read: async () => content })
      if (file) selected.push(file)
    }
    await session.analyzeAll(selected)
  } finally {
    await session.close()
  }
  return session.report()
}

/** Files read at once by the select stage of scanDirectory. */
const PARALLEL_READS = 8

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
    const compiledFolders: string[] = []
    const skipsInCompiled: Array<{ path: string; reason: SkipReason; detail: string | undefined; folder: string }> = []
    const walked = await walkDirectory(root, {
      ignoredDirs: new Set(options.ignoredDirs ?? DEFAULT_IGNORED_DIRS),
      ...(options.signal ? { signal: options.signal } : {}),
      onCompiledFolder: (path) => compiledFolders.push(path),
      onSkip: (path, reason, detail, folder) => (folder === undefined ? session.skip(path, reason, detail, false) : skipsInCompiled.push({ path, reason, detail, folder })),
    })
    const decisions = await decideCompiledFoldersOnDisk(root, compiledFolders, walked)
    for (const decision of decisions) session.reportCompiledFolder(decision, true)
    const read = new Set(decisions.filter((decision) => decision.scan).map((decision) => decision.folder))
    for (const skip of skipsInCompiled) if (read.has(skip.folder)) session.skip(skip.path, skip.reason, skip.detail, false)
    const files = walked.filter((file) => file.compiledFolder === undefined || read.has(file.compiledFolder))
    session.stats.filesTotal = files.length
    session.bootWorkers(files.length)
    await session.prepare()
    await session.startExecutor()
    session.log('info', `analyzing ${files.length} files`, { files: files.length })
    const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
    // Every file is read before analysis starts (reading is cheap), in the walk's order.
    const selected = new Array<SelectedFile | null>(files.length).fill(null)
    let next = 0
    await runBounded(
      async () => {
        options.signal?.throwIfAborted()
        return next < files.length ? next++ : undefined
      },
      () => PARALLEL_READS,
      async (index) => {
        const file = files[index]
        if (file) selected[index] = await session.select({ path: file.path, ignored: false, read: () => readWithin(file.absolutePath, maxBytes) })
      },
    )
    await session.analyzeAll(selected.filter((file): file is SelectedFile => file !== null))
  } finally {
    await session.close()
  }
  return session.report()
}

/** The compiled folders' decisions from the walked paths and the package's tsconfig files on disk. */
async function decideCompiledFoldersOnDisk(root: string, folders: readonly string[], walked: readonly WalkedFile[]): Promise<CompiledFolderDecision[]> {
  if (folders.length === 0) return []
  const otherPaths = walked.filter((file) => file.compiledFolder === undefined).map((file) => file.path)
  const tsconfigs = new Map<string, string>()
  for (const path of otherPaths.filter(isTsconfigPath)) {
    const text = await readFile(join(root, path), 'utf8').catch(() => null)
    if (text !== null) tsconfigs.set(path, text)
  }
  return decideCompiledFolders(folders, otherPaths, (path) => tsconfigs.get(path))
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
