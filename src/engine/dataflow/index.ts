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
import { Engine } from './engine.ts'
import { specFor } from './languages/index.ts'
import { Program } from './program.ts'
import type { FileInput, FileUnit } from './program.ts'
import { DATAFLOW_MODEL, FileTexts, buildFindings, toTrace } from './report.ts'

export { DATAFLOW_MODEL } from './report.ts'
export { mergeWithPatternFindings, spansOverlap } from './merge.ts'
export { dataFlowLanguages } from './languages/index.ts'
export { AbortError as DataFlowAbortError } from './engine.ts'

export interface DataFlowResult {
  findings: Finding[]
  /** every source-to-sink path found, sanitized ones included */
  traces: DataFlowTrace[]
}

export interface DataFlowOptions {
  signal?: AbortSignal
  /** redacts secrets in snippets and trace lines (the scan passes its detector) */
  secrets?: SecretsDetector | null
}

/** Whether the file's language has a data-flow spec. */
export function supportsDataFlow(path: string): boolean {
  const language = languageFromPath(path)
  return language !== null && specFor(language) !== null
}

export function analyzeDataFlow(files: { path: string; text: string }[], options: DataFlowOptions = {}): DataFlowResult {
  ensureLanguagesRegistered()
  const inputs: FileInput[] = files.filter((file) => supportsDataFlow(file.path))
  const program = new Program(inputs)
  const engine = new Engine(program, options.signal)
  for (const path of program.paths()) {
    const unit = program.unit(path)
    if (!unit || !unit.mentionsAny(unit.spec.sourceWords)) continue
    analyzeEntries(engine, unit)
    program.release(unit)
  }
  const texts = new FileTexts(new Map(inputs.map((file) => [file.path, file.text])), options.secrets ?? null)
  const candidates = [...engine.traces.values()].map((record) => ({ record, trace: toTrace(texts, record) }))
  return { findings: buildFindings(texts, candidates), traces: candidates.map((candidate) => candidate.trace) }
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
    const named = words.some((word) => text.includes(word))
    if (named || hasParamSources(unit, fn)) engine.summaryOf(fn)
  }
}

function hasParamSources(unit: FileUnit, fn: ReturnType<FileUnit['lowerer']['functionAt']>): boolean {
  if (unit.catalog.paramSources.length === 0) return false
  return fn.params.some((param, index) => unit.catalog.paramSourcesFor(fn, param, index).length > 0)
}

export { DATAFLOW_MODEL as MODEL }
