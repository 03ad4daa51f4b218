/**
 * The analyzer seam: a named, versioned producer of findings for one file at a time. The scan
 * pipeline owns file selection, suppression, deduplication and redaction; an analyzer only
 * says what it sees in a file. Adding the data-flow analyzer means implementing this and
 * registering it in index.ts.
 */
import type { AnalyzerName, Finding } from './types.ts'
import type { FileLanguage } from './languages.ts'
import type { SourceFile } from './source-file.ts'

/** Analyzers this engine version implements (ANALYZERS also names planned ones). */
export const AVAILABLE_ANALYZERS = ['sast', 'secrets', 'dataflow'] as const satisfies readonly AnalyzerName[]

export interface Analyzer {
  readonly name: AnalyzerName
  readonly version: string
  /** Whether the analyzer reads files of this language at all. */
  accepts(language: FileLanguage): boolean
  /** Cheap check run before anything expensive: false means analyze() would find nothing. */
  mayApply?(file: SourceFile): boolean
  analyze(file: SourceFile): Finding[]
  /** Rules (or detectors) the analyzer applies, for ScanReport.rulesRun. */
  readonly ruleCount: number
}

/** `parapet-sast/1.0` and the like. */
export function modelName(name: AnalyzerName, version: string): string {
  return `parapet-${name}/${version}`
}
