/**
 * The repository stage of a scan: the repository analyzers (core/analyzer.ts) run in their
 * fixed order, each seeing the results of those before it. In the scanning thread, they
 * collected their files during the per-file stage; in a worker process (analyzeRepositoryTask,
 * run on the scan's AnalysisPool while the per-file jobs run on the others), they are rebuilt
 * from their setups and collect the files here, from their texts.
 */
import { REPOSITORY_ANALYZERS } from '../core/analyzer.ts'
import type { LogEvent, RepositoryAnalyzer, RepositoryResult, RepositorySetup } from '../core/analyzer.ts'
import type { FileLanguage } from '../core/languages.ts'
import { SourceFile, TreeKeeper } from '../core/source-file.ts'
import { DataFlowAnalyzer } from '../dataflow/index.ts'
import type { DataFlowSetup } from '../dataflow/index.ts'
import { loadSecretsDetector } from '../secrets/bridge.ts'
import type { SecretsDetector } from '../secrets/bridge.ts'
import { TaintAnalyzer } from '../semgrep/taint.ts'
import type { TaintSetup } from '../semgrep/taint.ts'
import { SummaryAnalyzer } from '../summary/index.ts'
import type { SummarySetup } from '../summary/index.ts'
import type { WorkerTaskFunction } from './analysis-worker.ts'

/**
 * Syntax trees kept alive between the per-file and the repository stages (and in the repository
 * worker): a scan in one process (under 100 files by default) parses each file once.
 */
export const TREES_KEPT = 100

export function makeRepositoryAnalyzer(setup: RepositorySetup, secrets: SecretsDetector | null): RepositoryAnalyzer {
  switch (setup.analyzer) {
    case 'dataflow':
      return new DataFlowAnalyzer(secrets, setup.input as DataFlowSetup)
    case 'taint':
      return new TaintAnalyzer((setup.input as TaintSetup).rules, secrets)
    case 'summary':
      return new SummaryAnalyzer(setup.input as SummarySetup)
  }
}

/** In the order they must run (REPOSITORY_ANALYZERS). */
export function inRunOrder(analyzers: readonly RepositoryAnalyzer[]): RepositoryAnalyzer[] {
  return [...analyzers].sort((a, b) => REPOSITORY_ANALYZERS.indexOf(a.name) - REPOSITORY_ANALYZERS.indexOf(b.name))
}

export interface RepositoryStageOptions {
  signal?: AbortSignal
  onProgress(label: string): void
  log(event: LogEvent): void
}

/** Runs the analyzers in order; each reports its stage label before it starts. */
export async function runRepositoryAnalyzers(analyzers: readonly RepositoryAnalyzer[], options: RepositoryStageOptions): Promise<RepositoryResult[]> {
  const results: RepositoryResult[] = []
  for (const analyzer of inRunOrder(analyzers)) {
    options.signal?.throwIfAborted()
    options.onProgress(analyzer.stageLabel)
    results.push(
      await analyzer.analyze({ ...(options.signal ? { signal: options.signal } : {}), onProgress: options.onProgress, log: options.log, earlier: [...results] }),
    )
  }
  return results
}

export interface RepositoryTaskInput {
  setups: RepositorySetup[]
  /** the selected files some of these analyzers accept */
  files: Array<{ path: string; language: FileLanguage; text: string }>
}

export interface RepositoryTaskOutput {
  results: RepositoryResult[]
  /** the analyzers' log lines, in order, for the scan to pass on */
  logs: LogEvent[]
  treesParsed: number
}

/**
 * The repository stage as a worker task. Progress: an analyzer's stage label whenever the work
 * moves to another analyzer, then the file or step it is on; the scan's time limit counts
 * between two reports and, on a stall, the last stage label says whose it was.
 */
export const analyzeRepositoryTask: WorkerTaskFunction<RepositoryTaskInput, RepositoryTaskOutput> = async (input, progress) => {
  // the worker loaded the detector when it started: this is its cached instance
  const { detector } = await loadSecretsDetector()
  const analyzers = inRunOrder(input.setups.map((setup) => makeRepositoryAnalyzer(setup, detector)))
  const keeper = new TreeKeeper(TREES_KEPT)
  let stage: RepositoryAnalyzer | null = null
  for (const file of input.files) {
    const source = new SourceFile(file.path, file.language, file.text, detector, keeper)
    let announced = false
    for (const analyzer of analyzers) {
      if (!analyzer.accepts(file)) continue
      if (stage !== analyzer) {
        stage = analyzer
        progress(analyzer.stageLabel)
        announced = false
      }
      if (!announced) progress(file.path)
      announced = true
      analyzer.collect(source)
    }
  }
  const logs: LogEvent[] = []
  const results = await runRepositoryAnalyzers(analyzers, { onProgress: progress, log: (event) => logs.push(event) })
  return { results, logs, treesParsed: keeper.counter.treesParsed }
}
