/**
 * The analyzer seams. A scan runs in stages: select files -> per-file analyzers -> repository
 * analyzers -> merge and report (scan/scan.ts). The pipeline owns file selection, suppression,
 * deduplication and redaction; an analyzer only says what it sees.
 *
 * Vocabulary:
 * - FileAnalyzer: one file at a time (`sast`, `secrets`); may run in any worker process.
 * - RepositoryAnalyzer: told about every selected file it accepts (collect), in the process
 *   where that file's SourceFile lives, then run once over the whole repository (analyze).
 *   Repository analyzers run in a fixed order and each sees the results of those before it
 *   (the summary reads the data-flow traces).
 * - stage label: what a repository analyzer reports as progress before it starts; under a
 *   time limit, the last label seen says which analyzer stalled.
 */
import type { AnalyzerName, DataFlowTrace, Finding } from './types.ts'
import type { FileLanguage } from './languages.ts'
import type { SourceFile } from './source-file.ts'
import type { CleanSink } from '../dataflow/merge.ts'
import type { RepositorySummaryData } from '../summary/index.ts'

/** Analyzers this engine version implements (ANALYZERS also names planned ones). */
export const AVAILABLE_ANALYZERS = ['sast', 'secrets', 'dataflow'] as const satisfies readonly AnalyzerName[]

export type LogLevel = 'debug' | 'info' | 'warning' | 'error'
export interface LogEvent {
  level: LogLevel
  message: string
  data?: Record<string, unknown>
}

export interface FileAnalyzer {
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

/** The per-file analyzer, under its earlier name. */
export type Analyzer = FileAnalyzer

/** Repository analyzers, in the order they run. */
export const REPOSITORY_ANALYZERS = ['dataflow', 'taint', 'summary'] as const
export type RepositoryAnalyzerName = (typeof REPOSITORY_ANALYZERS)[number]

export interface RepositoryContext {
  signal?: AbortSignal
  /** Called with each file's path (or a step's label) before the analyzer works on it. */
  onProgress(label: string): void
  log(event: LogEvent): void
  /** Results of the analyzers that ran before this one, in order. */
  earlier: readonly RepositoryResult[]
}

export interface RepositoryResult {
  analyzer: RepositoryAnalyzerName
  findings: Finding[]
  /** source-to-sink paths, sanitized ones included */
  traces: DataFlowTrace[]
  /** findings the analyzer itself dropped for suppression comments */
  suppressed: number
  /**
   * Its findings replace pattern findings on the same sink, and pattern findings on the sinks it
   * saw clean are dropped (dataflow/merge.ts).
   */
  supersedesPatterns?: { cleanSinks: CleanSink[] }
  summary?: RepositorySummaryData
}

/** What a repository analyzer does when, in a worker under a time limit, it stalls. */
export type StallDecision = { retryWithout: string; log: LogEvent } | { abandon: true; log: LogEvent }

export interface RepositoryAnalyzer {
  readonly name: RepositoryAnalyzerName
  /** Reported as progress before the analyzer works; names it in a time limit's message. */
  readonly stageLabel: string
  /**
   * Whether the analyzer reads this selected file. `countsAsScanned`: a file only this analyzer
   * reads still counts as scanned (data flow reads configuration files no per-file analyzer does).
   */
  accepts(file: { path: string; language: FileLanguage }): boolean
  readonly countsAsScanned: boolean
  /** Every source the scan is given, selected or not, before selection (the summary counts what it leaves out). */
  observe?(path: string, content: Buffer | number): void
  collect(file: SourceFile): void
  analyze(context: RepositoryContext): Promise<RepositoryResult>
  /**
   * Stalled on `subject` (a file, or a step's label) past the time limit: `collected` says
   * whether the subject is one of its files.
   */
  stalled(subject: string, message: string, collected: boolean): StallDecision
  /** What rebuilds the analyzer in a worker process (scan/repository-stage.ts), with what it observed. */
  setup(): RepositorySetup
}

/** A repository analyzer as it travels to a worker: its name and its own input. */
export interface RepositorySetup {
  analyzer: RepositoryAnalyzerName
  input: unknown
}

/** `parapet-sast/1.0` and the like. */
export function modelName(name: AnalyzerName, version: string): string {
  return `parapet-${name}/${version}`
}
