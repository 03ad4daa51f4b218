/**
 * The `dataflow` analyzer: follows untrusted input (HTTP request data, command-line arguments,
 * and environment or file contents where a sink says so) through assignments, string building,
 * collections, fields, calls and imports to the sinks where it is dangerous, and reports each
 * sink reached without a sanitizer or guard for its kind. See docs/dataflow.md.
 *
 * analyzeDataFlow takes every file of the supported languages at once (calls are followed across
 * files); supportsDataFlow says which files those are. DataFlowAnalyzer is the same analysis as
 * a scan's repository analyzer (core/analyzer.ts).
 */
import type { DataFlowTrace, Finding } from '../core/types.ts'
import type { RepositoryAnalyzer, RepositoryContext, RepositoryResult, RepositorySetup, StallDecision } from '../core/analyzer.ts'
import type { FileLanguage } from '../core/languages.ts'
import type { SourceFile } from '../core/source-file.ts'
import { ensureLanguagesRegistered, languageFromPath } from '../core/languages.ts'
import type { SecretsDetector } from '../secrets/bridge.ts'
import { AbortError, Engine } from './engine.ts'
import type { TraceRecord } from './engine.ts'
import { bareSpecFor } from './languages/bare.ts'
import type { TaintOverlay } from './overlay.ts'
import type { FunctionDef } from './ir.ts'
import { specFor } from './languages/index.ts'
import { Program } from './program.ts'
import type { FileInput, FileUnit } from './program.ts'
import { FileTexts, buildFindings, toTrace } from './report.ts'
import { algorithmFindings, attachConfig, isRepositoryConfig, mentionsAlgorithmApi } from './crypto.ts'
import { SINK_KIND_INFO } from './kinds.ts'
import { spansOverlap } from './merge.ts'
import type { CleanSink } from './merge.ts'
import { mentionsPasswordHashing } from './passwords.ts'
import { DependencyManifests, isDependencyManifest } from './manifests.ts'
import { exportedFunctions, libraryEntryFiles, recordLibraryPaths } from './library.ts'
import type { LibrarySources } from './library.ts'

export { DATAFLOW_MODEL } from './report.ts'
export { mergeWithPatternFindings, spansOverlap, withoutCleanSinkFindings } from './merge.ts'
export type { CleanSink } from './merge.ts'
export { dataFlowLanguages } from './languages/index.ts'
export { AbortError as DataFlowAbortError } from './engine.ts'
export { LIBRARY_SOURCES_MODES } from './library.ts'
export type { LibrarySources } from './library.ts'
export { TaintOverlay } from './overlay.ts'
export type { FileOverlay } from './overlay.ts'
export { FileTexts, pathSteps, stepAt, where } from './report.ts'
export type { Program } from './program.ts'

export interface DataFlowResult {
  findings: Finding[]
  /** every source-to-sink path found, sanitized ones included */
  traces: DataFlowTrace[]
  /** files whose analysis failed (an unexpected construct); the others are still analyzed */
  errors: Array<{ path: string; message: string }>
  /** sink calls the analysis evaluated that no unsanitized data reached (see merge.ts) */
  cleanSinks?: CleanSink[]
}

export interface DataFlowOptions {
  signal?: AbortSignal
  /** Called with each file's path before it is analyzed, and once before the report is built. */
  onProgress?(label: string): void
  /** redacts secrets in snippets and trace lines (the scan passes its detector) */
  secrets?: SecretsDetector | null
  /** whether the parameters of exported functions are sources (library.ts); default `auto` */
  packageApiSources?: LibrarySources
}

/** Whether the file's language has a data-flow spec. */
export function supportsDataFlow(path: string): boolean {
  const language = languageFromPath(path)
  return language !== null && specFor(language) !== null
}

export function analyzeDataFlow(files: readonly FileInput[], options: DataFlowOptions = {}): DataFlowResult {
  const steps = analysisSteps(files, options)
  let step = steps.next()
  while (!step.done) step = steps.next()
  return step.value
}

/**
 * The same analysis, giving the event loop a turn between files. Syntax trees and nodes of
 * @ast-grep/napi are freed by finalizers that only run when the event loop turns, so a long
 * synchronous run holds every tree it touched until it returns; this variant keeps memory flat.
 */
export async function analyzeDataFlowAsync(files: readonly FileInput[], options: DataFlowOptions = {}): Promise<DataFlowResult> {
  return runYielding(analysisSteps(files, options))
}

/** Runs an analysis written as steps to its result, giving the event loop a turn every few milliseconds. */
export async function runYielding<T>(steps: Generator<void, T>): Promise<T> {
  let step = steps.next()
  let last = performance.now()
  while (!step.done) {
    if (performance.now() - last > YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      last = performance.now()
    }
    step = steps.next()
  }
  return step.value
}

const YIELD_EVERY_MS = 25

/** Data-flow analyses started again without the file that stalled the previous one. */
const MAX_STALL_RETRIES = 2

export interface DataFlowSetup {
  /** files left out after they stalled an earlier attempt */
  leftOut: string[]
  packageApiSources?: LibrarySources
}

/**
 * The built-in data-flow analysis as a repository analyzer: it reads the files of the languages
 * it has a spec for, the repository's configuration (crypto.ts) and its dependency manifests
 * (manifests.ts). Under a time limit, a file that stalls it is left out and the analysis starts
 * again without it, a few times at most; after that the scan has no data-flow findings.
 */
export class DataFlowAnalyzer implements RepositoryAnalyzer {
  readonly name = 'dataflow' as const
  readonly stageLabel = 'the data-flow analysis'
  readonly countsAsScanned = true
  private readonly files: SourceFile[] = []
  private readonly leftOut: string[]
  private readonly packageApiSources: LibrarySources

  constructor(
    private readonly secrets: SecretsDetector | null,
    setup: DataFlowSetup = { leftOut: [] },
  ) {
    this.leftOut = [...setup.leftOut]
    this.packageApiSources = setup.packageApiSources ?? 'auto'
  }

  accepts(file: { path: string; language: FileLanguage }): boolean {
    if (this.leftOut.includes(file.path)) return false
    return supportsDataFlow(file.path) || isRepositoryConfig(file.path) || isDependencyManifest(file.path)
  }

  collect(file: SourceFile): void {
    this.files.push(file)
  }

  async analyze(context: RepositoryContext): Promise<RepositoryResult> {
    context.log({ level: 'info', message: `data-flow analysis of ${this.files.length} files` })
    const started = performance.now()
    const inputs = this.files.map((file) => ({ path: file.path, text: file.text, source: file }))
    const result = await analyzeDataFlowAsync(inputs, { ...(context.signal ? { signal: context.signal } : {}), onProgress: context.onProgress, secrets: this.secrets, packageApiSources: this.packageApiSources })
    for (const failure of result.errors) context.log({ level: 'warning', message: `data-flow analysis left out ${failure.path}: ${failure.message}`, data: { path: failure.path } })
    const sanitized = result.traces.filter((trace) => trace.sanitized).length
    context.log({
      level: 'info',
      message: `data-flow analysis found ${result.findings.length} flows to sinks (${sanitized} more sanitized)`,
      data: { findings: result.findings.length, sanitized, durationMs: Math.round(performance.now() - started) },
    })
    return { analyzer: this.name, findings: result.findings, traces: result.traces, suppressed: 0, supersedesPatterns: { cleanSinks: result.cleanSinks ?? [] } }
  }

  stalled(subject: string, message: string, collected: boolean): StallDecision {
    if (this.leftOut.length >= MAX_STALL_RETRIES || !collected) return { abandon: true, log: { level: 'warning', message: `data-flow analysis abandoned: ${message}`, data: { path: subject } } }
    this.leftOut.push(subject)
    return { retryWithout: subject, log: { level: 'warning', message: `data-flow analysis left out ${subject}: ${message}; the analysis starts again without it`, data: { path: subject } } }
  }

  setup(): RepositorySetup {
    const input: DataFlowSetup = { leftOut: this.leftOut, packageApiSources: this.packageApiSources }
    return { analyzer: this.name, input }
  }
}

/** The analysis as steps: one per file that can hold a source, then the report. */
function* analysisSteps(files: readonly FileInput[], options: DataFlowOptions): Generator<void, DataFlowResult> {
  ensureLanguagesRegistered()
  const inputs: FileInput[] = files.filter((file) => supportsDataFlow(file.path))
  const program = new Program(inputs)
  attachConfig(program, files.filter((file) => isRepositoryConfig(file.path)))
  program.manifests = new DependencyManifests(files.filter((file) => isDependencyManifest(file.path)))
  const engine = new Engine(program, options.signal)
  const errors: DataFlowResult['errors'] = []
  yield* analyzeFiles(engine, program.paths(), options, errors, (unit) => (mayHoldSource(unit) ? (fn) => namesSource(unit, fn) || hasParamSources(unit, fn) : null))
  yield* helperEntries(engine, program, options, errors)
  const manifests = files.filter((file) => isDependencyManifest(file.path))
  yield* libraryEntries(engine, libraryEntryFiles(options.packageApiSources ?? 'auto', manifests, inputs), options, errors)
  options.onProgress?.('the data-flow report')
  const texts = new FileTexts(new Map(inputs.map((file) => [file.path, file.text])), options.secrets ?? null)
  const candidates = [...engine.traces.values()].map((record) => ({ record, trace: toTrace(texts, record) }))
  const flows = buildFindings(texts, candidates)
  // A weak algorithm a password flows into is reported once, as the flow (it has the path).
  const algorithms = algorithmFindings(engine, texts).filter((hit) => !flows.some((flow) => flow.filePath === hit.filePath && flow.category === hit.category && spansOverlap(flow, hit)))
  const findings = [...flows, ...algorithms]
  findings.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.lineNumber - b.lineNumber || a.columnStart - b.columnStart))
  return { findings, traces: candidates.map((candidate) => candidate.trace), errors, cleanSinks: cleanSinksOf(engine) }
}

/**
 * The files of the languages the data-flow engine can lower (Go included), with bare specs
 * (languages/bare.ts): what user taint rules run on. The lowered form does not depend on the rule,
 * so one program serves every rule of a scan.
 */
export function bareProgram(files: readonly FileInput[]): Program {
  ensureLanguagesRegistered()
  return new Program(
    files.filter((file) => {
      const language = languageFromPath(file.path)
      return language !== null && bareSpecFor(language) !== null
    }),
    bareSpecFor,
  )
}

/** The paths a user taint rule found (overlay.ts), sanitized ones included. */
export interface OverlayResult {
  records: TraceRecord[]
  errors: DataFlowResult['errors']
}

/**
 * One user taint rule over a bare program (bareProgram): the rule's sources, sinks, sanitizers
 * and propagators only. The
 * roots are the files where a source matched, the entry points their top level and the functions
 * holding a source match; then, as for the built-in analysis, the functions calling a helper that
 * returns source data. Steps as in analysisSteps: one per root file.
 */
export function* overlaySteps(program: Program, overlay: TaintOverlay, options: DataFlowOptions = {}): Generator<void, OverlayResult> {
  const engine = new Engine(program, options.signal, overlay)
  const errors: DataFlowResult['errors'] = []
  yield* analyzeFiles(engine, overlay.roots(), options, errors, (unit) => (fn) => overlay.hasSourceWithin(unit.path, fn.start, fn.end))
  yield* helperEntries(engine, program, options, errors)
  return { records: [...engine.traces.values()].filter((record) => record.hit.spec === overlay.sinkSpec), errors }
}

/**
 * Analyzes files one step each: the top level of every file `entriesOf` accepts, and the functions
 * its answer picks as entry points (other functions are analyzed when these call them).
 */
function* analyzeFiles(
  engine: Engine,
  paths: Iterable<string>,
  options: DataFlowOptions,
  errors: DataFlowResult['errors'],
  entriesOf: (unit: FileUnit) => ((fn: FunctionDef) => boolean) | null,
): Generator<void> {
  for (const path of paths) {
    if (options.signal?.aborted) throw new AbortError()
    const unit = engine.program.unit(path)
    const isEntry = unit ? entriesOf(unit) : null
    if (!unit || !isEntry) continue
    options.onProgress?.(path)
    try {
      engine.moduleState(unit)
      for (const fn of unit.functions()) {
        if (engine.inlined.has(fn.id) || engine.hasSummary(fn)) continue
        if (isEntry(fn)) engine.summaryOf(fn)
      }
    } catch (error) {
      // One file the engine cannot follow must not cost the findings of all the others.
      if (error instanceof AbortError) throw error
      errors.push({ path, message: error instanceof Error ? error.message : String(error) })
    }
    engine.program.release(unit)
    yield
  }
}

/** Library mode (library.ts): the exported functions of each entry file, one step per file. */
function* libraryEntries(engine: Engine, paths: readonly string[], options: DataFlowOptions, errors: DataFlowResult['errors']): Generator<void> {
  for (const path of paths) {
    if (options.signal?.aborted) throw new AbortError()
    options.onProgress?.(path)
    try {
      for (const exported of exportedFunctions(engine, path)) recordLibraryPaths(engine, exported)
    } catch (error) {
      if (error instanceof AbortError) throw error
      errors.push({ path, message: error instanceof Error ? error.message : String(error) })
    }
    yield
  }
}

/** A file that can hold a source: it names a source, a weak algorithm's API or password hashing. */
function mayHoldSource(unit: FileUnit): boolean {
  return unit.mentionsAny(unit.spec.sourceWords) || mentionsAlgorithmApi(unit.spec.name, unit.text) || mentionsPasswordHashing(unit.text)
}

/** A function whose text names a source (or a weak algorithm or password hashing). */
function namesSource(unit: FileUnit, fn: FunctionDef): boolean {
  const text = unit.text.slice(fn.start, fn.end)
  return unit.spec.sourceWords.some((word) => text.includes(word)) || mentionsAlgorithmApi(unit.spec.name, text) || mentionsPasswordHashing(text)
}

/** Rounds of helper-entry search: a handler reading input through a helper of a helper... */
const HELPER_ROUNDS = 6

/**
 * Entry points that read untrusted input only through a project helper (`Req.read(req, "q")`,
 * `arg("name")`): functions, in any file, that name a function whose summary returns source
 * data. Each round looks only for the helpers found by the previous one, so a file is scanned
 * textually once per round (a handful), never once per helper.
 */
function* helperEntries(engine: Engine, program: Program, options: DataFlowOptions, errors: DataFlowResult['errors']): Generator<void> {
  let done = 0
  for (let round = 0; round < HELPER_ROUNDS && done < engine.sourceReaders.length; round++) {
    const names = new Set<string>()
    for (const fn of engine.sourceReaders.slice(done)) {
      const name = helperName(engine, fn)
      if (name) names.add(name)
    }
    done = engine.sourceReaders.length
    if (names.size === 0) break
    const called = new RegExp(`(?<![\\w$])(?:${[...names].map(escapeRegExp).join('|')})\\s*\\(`)
    yield* analyzeFiles(engine, program.paths(), options, errors, (unit) => (called.test(unit.text) ? (fn) => called.test(unit.text.slice(fn.start, fn.end)) : null))
  }
}

/** The name a function is called by: its own, or the variable or key an anonymous one is bound to. */
function helperName(engine: Engine, fn: FunctionDef): string | null {
  if (fn.name) return fn.name
  const before = engine.unitOf(fn.path).text.slice(Math.max(0, fn.start - 80), fn.start)
  return /([A-Za-z_$][\w$]*)\s*[:=]\s*(?:async\s*)?(?:function\s*)?$/.exec(before)?.[1] ?? null
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function hasParamSources(unit: FileUnit, fn: FunctionDef): boolean {
  if (unit.catalog.paramSources.length === 0) return false
  // Positions count without an explicit receiver (`self`), as when the function is analyzed.
  const offset = unit.spec.syntax.explicitSelf && fn.owner && !fn.isStatic ? 1 : 0
  return fn.params.slice(offset).some((param, position) => unit.catalog.paramSourcesFor(fn, param, position).length > 0)
}


/** The evaluated sink calls that stayed clean, as spans in the findings' numbering (1-based). */
function cleanSinksOf(engine: Engine): CleanSink[] {
  const result: CleanSink[] = []
  for (const { site, kind, dirty } of engine.sinkSites.values()) {
    if (dirty) continue
    result.push({
      filePath: site.path,
      category: SINK_KIND_INFO[kind].category,
      lineNumber: site.line + 1,
      columnStart: site.column + 1,
      endLineNumber: site.endLine + 1,
      columnEnd: site.endLine === site.line ? site.endColumn + 1 : Number.MAX_SAFE_INTEGER,
    })
  }
  return result
}
