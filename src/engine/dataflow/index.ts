/**
 * The `dataflow` analyzer: follows untrusted input (HTTP request data, command-line arguments,
 * and environment or file contents where a sink says so) through assignments, string building,
 * collections, fields, calls and imports to the sinks where it is dangerous, and reports each
 * sink reached without a sanitizer or guard for its kind. See docs/dataflow.md.
 *
 * analyzeDataFlow takes every file of the supported languages at once (calls are followed across
 * files); supportsDataFlow says which files those are.
 */
import type { DataFlowTrace, Finding } from '../types.ts'
import { ensureLanguagesRegistered, languageFromPath } from '../languages.ts'
import type { SecretsDetector } from '../secrets-bridge.ts'
import { AbortError, Engine } from './engine.ts'
import type { FunctionDef } from './ir.ts'
import { specFor } from './languages/index.ts'
import { Program } from './program.ts'
import type { FileInput, FileUnit } from './program.ts'
import { FileTexts, buildFindings, toTrace } from './report.ts'
import { algorithmFindings, attachConfig, isRepositoryConfig, mentionsAlgorithmApi } from './crypto.ts'
import { mentionsPasswordHashing } from './passwords.ts'
import { spansOverlap } from './merge.ts'

export { DATAFLOW_MODEL } from './report.ts'
export { mergeWithPatternFindings, spansOverlap } from './merge.ts'
export { dataFlowLanguages } from './languages/index.ts'
export { AbortError as DataFlowAbortError } from './engine.ts'

export interface DataFlowResult {
  findings: Finding[]
  /** every source-to-sink path found, sanitized ones included */
  traces: DataFlowTrace[]
  /** files whose analysis failed (an unexpected construct); the others are still analyzed */
  errors: Array<{ path: string; message: string }>
}

export interface DataFlowOptions {
  signal?: AbortSignal
  /** Called with each file's path before it is analyzed, and once before the report is built. */
  onProgress?(label: string): void
  /** redacts secrets in snippets and trace lines (the scan passes its detector) */
  secrets?: SecretsDetector | null
}

/** Whether the file's language has a data-flow spec. */
export function supportsDataFlow(path: string): boolean {
  const language = languageFromPath(path)
  return language !== null && specFor(language) !== null
}

export function analyzeDataFlow(files: { path: string; text: string }[], options: DataFlowOptions = {}): DataFlowResult {
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
export async function analyzeDataFlowAsync(files: { path: string; text: string }[], options: DataFlowOptions = {}): Promise<DataFlowResult> {
  const steps = analysisSteps(files, options)
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

/** The analysis as steps: one per file that can hold a source, then the report. */
function* analysisSteps(files: { path: string; text: string }[], options: DataFlowOptions): Generator<void, DataFlowResult> {
  ensureLanguagesRegistered()
  const inputs: FileInput[] = files.filter((file) => supportsDataFlow(file.path))
  const program = new Program(inputs)
  attachConfig(program, files.filter((file) => isRepositoryConfig(file.path)))
  const engine = new Engine(program, options.signal)
  const errors: DataFlowResult['errors'] = []
  for (const path of program.paths()) {
    if (options.signal?.aborted) throw new AbortError()
    const unit = program.unit(path)
    if (!unit || !(unit.mentionsAny(unit.spec.sourceWords) || mentionsAlgorithmApi(unit.spec.name, unit.text) || mentionsPasswordHashing(unit.text))) continue
    options.onProgress?.(path)
    try {
      analyzeEntries(engine, unit)
    } catch (error) {
      // One file the engine cannot follow must not cost the findings of all the others.
      if (error instanceof AbortError) throw error
      errors.push({ path, message: error instanceof Error ? error.message : String(error) })
    }
    program.release(unit)
    yield
  }
  options.onProgress?.('the data-flow report')
  const texts = new FileTexts(new Map(inputs.map((file) => [file.path, file.text])), options.secrets ?? null)
  const candidates = [...engine.traces.values()].map((record) => ({ record, trace: toTrace(texts, record) }))
  const flows = buildFindings(texts, candidates)
  // A weak algorithm a password flows into is reported once, as the flow (it has the path).
  const algorithms = algorithmFindings(engine, texts).filter((hit) => !flows.some((flow) => flow.filePath === hit.filePath && flow.category === hit.category && spansOverlap(flow, hit)))
  const findings = [...flows, ...algorithms]
  findings.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.lineNumber - b.lineNumber || a.columnStart - b.columnStart))
  return { findings, traces: candidates.map((candidate) => candidate.trace), errors }
}

/**
 * A file that can hold a source: its top level, and each function whose text names a source or
 * whose parameters are sources. Other functions are analyzed when these call them.
 */
function analyzeEntries(engine: Engine, unit: FileUnit): void {
  engine.moduleState(unit)
  const words = unit.spec.sourceWords
  for (const node of unit.functionNodes()) {
    const fn = unit.lowerer.functionAt(node)
    if (engine.inlined.has(fn.id) || engine.hasSummary(fn)) continue
    const text = unit.text.slice(fn.start, fn.end)
    const named = words.some((word) => text.includes(word)) || mentionsAlgorithmApi(unit.spec.name, text) || mentionsPasswordHashing(text)
    if (named || hasParamSources(unit, fn)) engine.summaryOf(fn)
  }
}

function hasParamSources(unit: FileUnit, fn: FunctionDef): boolean {
  if (unit.catalog.paramSources.length === 0) return false
  // Positions count without an explicit receiver (`self`), as when the function is analyzed.
  const offset = unit.spec.syntax.explicitSelf && fn.owner && !fn.isStatic ? 1 : 0
  return fn.params.slice(offset).some((param, position) => unit.catalog.paramSourcesFor(fn, param, position).length > 0)
}

