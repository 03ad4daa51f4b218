/**
 * The repository summary: what the service understands about a repository, recomputed by
 * every full scan from the scanned files and the data-flow analyzer's traces.
 *
 * Pipeline: collect files (the scan's own selection, tests set aside) -> one syntax tree per
 * code file, read into facts -> resolve imports into one program -> routes with their auth,
 * entry points, exits, import graph, call chains -> eight bounded, deterministic sections.
 * See docs/summary.md.
 *
 * In a scan, SummaryAnalyzer is the last repository analyzer: it reads every source the scan is
 * given as it goes by (observe), the facts of each code file from the scan's own tree while it
 * is alive (collect), and builds the summary with the traces of the analyzers before it.
 */
import { ensureLanguagesRegistered } from '../core/languages.ts'
import type { FileLanguage } from '../core/languages.ts'
import type { DataFlowTrace } from '../core/types.ts'
import type { RepositoryAnalyzer, RepositoryContext, RepositoryResult, RepositorySetup, StallDecision } from '../core/analyzer.ts'
import type { SourceFile } from '../core/source-file.ts'
import { DEFAULT_MAX_FILE_BYTES } from '../scan/file-selection.ts'
import { analyzeFiles, factsFromTree, readsWhole } from './analyze.ts'
import { SourceCollector, collectSources } from './collect.ts'
import type { CodeFile, CollectedRepository } from './collect.ts'
import type { FileFacts } from './model.ts'
import { allModels, collectEntries, libraryUsage } from './context.ts'
import type { SummaryContext } from './context.ts'
import { ExitClassifier } from './exits.ts'
import { buildGraph } from './graph.ts'
import { parseManifest } from './manifests.ts'
import type { Manifest } from './manifests.ts'
import { FULL_ANALYSIS_LINES, headerOnlyFiles } from './plan.ts'
import { Program } from './program.ts'
import { RouteAssembler } from './routes.ts'
import { architecturePattern } from './sections/architecture.ts'
import { authLogicSummary } from './sections/auth.ts'
import { businessLogicFlows } from './sections/business-flows.ts'
import { dataFlowAnalysis } from './sections/data-flow.ts'
import { crossFileDependencies } from './sections/dependencies.ts'
import { ragContext } from './sections/rag.ts'
import { securityContext } from './sections/security.ts'
import { trustBoundaries } from './sections/trust-boundaries.ts'
import { scanConfigSignals } from './signals.ts'

const CONFIG_FILE = /(?:^|\/)(?:application[\w-]*\.(?:properties|ya?ml)|\.env(?:\.[\w-]+)?)$/

export interface RepositorySummaryData {
  architecturePattern: string
  authLogicSummary: string
  trustBoundaries: Record<string, unknown>
  businessLogicFlows: Record<string, unknown>
  crossFileDependencies: Record<string, unknown>
  ragContext: string
  securityContext: string
  dataFlowAnalysis: Record<string, unknown>
}

export interface SummaryOptions {
  /** Traces from the data-flow analyzer, sanitized ones included. */
  dataFlows?: DataFlowTrace[]
  signal?: AbortSignal
  /** Files larger than this are left out. Default: the scan's limit (1 MiB). */
  maxFileBytes?: number
  /** Called as the summary moves on: before each file's facts are read (with its path), and between stages. */
  onProgress?(label: string): void
}

/**
 * Summarizes a repository from its files (`path` repository-relative with forward slashes).
 * Same input, byte-identical output; every list is sorted and bounded (see limits.ts).
 */
export async function summarizeRepository(
  sources: AsyncIterable<{ path: string; content: Buffer }> | Iterable<{ path: string; content: Buffer }>,
  options: SummaryOptions = {},
): Promise<RepositorySummaryData> {
  ensureLanguagesRegistered()
  return summarizeCollected(await collectSources(sources, options), options)
}

/** The summary of files already read (collect.ts); `known`: facts read from a scan's trees. */
async function summarizeCollected(collected: CollectedRepository, options: SummaryOptions, known?: ReadonlyMap<string, FileFacts>): Promise<RepositorySummaryData> {
  ensureLanguagesRegistered()
  const manifests = collected.texts.map(parseManifest).filter((manifest): manifest is Manifest => manifest !== null)
  const importsOnly = headerOnlyFiles(collected.code)
  for (const file of collected.code) if (importsOnly.has(file.path)) file.importsOnly = true
  const facts = await analyzeFiles(collected.code, options.signal, options.onProgress, known)
  options.signal?.throwIfAborted()
  options.onProgress?.('the summary of the whole repository')
  const program = new Program(facts, manifests)
  const classifier = new ExitClassifier(program)
  for (const file of facts) {
    const { exits, inputs } = classifier.classify(file)
    file.exits = exits
    file.inputs.push(...inputs)
  }
  const routes = new RouteAssembler(program).assemble()
  const context: SummaryContext = {
    collected,
    manifests,
    program,
    routes,
    entries: collectEntries(program, routes, manifests),
    graph: buildGraph(facts, program.resolutions),
    libraries: libraryUsage(program),
    configSignals: collected.texts
      .filter((file) => CONFIG_FILE.test(file.path))
      .flatMap((file) => scanConfigSignals(file.text).map((signal) => ({ ...signal, file: file.path }))),
    importsOnly: importsOnly.size,
    models: allModels(program, collected.texts),
  }
  options.signal?.throwIfAborted()
  const architecture = architecturePattern(context)
  return {
    architecturePattern: architecture,
    authLogicSummary: authLogicSummary(context),
    trustBoundaries: trustBoundaries(context),
    businessLogicFlows: businessLogicFlows(context),
    crossFileDependencies: crossFileDependencies(context),
    ragContext: ragContext(context, architecture),
    securityContext: securityContext(context),
    dataFlowAnalysis: dataFlowAnalysis(context, options.dataFlows ?? []),
  }
}

export interface SummarySetup {
  maxFileBytes: number
  /** what the scan's process observed: the analyzer in a worker reads no source itself */
  collected?: CollectedRepository
}

/**
 * The summary as a repository analyzer. Facts are read at collect time, from the tree the
 * per-file analyzers parsed, as long as the files read so far fit the whole-file budget
 * (plan.ts); a file the final plan reads for its imports only is read again then, and files the
 * scan did not select (or beyond the budget) are parsed by the summary itself.
 */
export class SummaryAnalyzer implements RepositoryAnalyzer {
  readonly name = 'summary' as const
  readonly stageLabel = 'the repository summary'
  readonly countsAsScanned = false
  private readonly collector: SourceCollector
  private readonly observed: CollectedRepository | null
  private codeByPath: Map<string, CodeFile> | null = null
  private readonly known = new Map<string, FileFacts>()
  private linesRead = 0

  constructor(private readonly setupInput: SummarySetup = { maxFileBytes: DEFAULT_MAX_FILE_BYTES }) {
    this.collector = new SourceCollector(setupInput.maxFileBytes)
    this.observed = setupInput.collected ?? null
  }

  observe(path: string, content: Buffer | number): void {
    this.collector.add(path, content)
  }

  private collected(): CollectedRepository {
    return this.observed ?? this.collector.result()
  }

  private codeFile(path: string): CodeFile | undefined {
    if (this.observed) {
      this.codeByPath ??= new Map(this.observed.code.map((file) => [file.path, file]))
      return this.codeByPath.get(path)
    }
    return this.collector.codeAt(path)
  }

  accepts(file: { path: string; language: FileLanguage }): boolean {
    const code = this.codeFile(file.path)
    return code !== undefined && code.language === file.language && readsWhole(code)
  }

  collect(file: SourceFile): void {
    const code = this.codeFile(file.path)
    if (!code || code.text !== file.text || this.linesRead + code.lines > FULL_ANALYSIS_LINES) return
    this.linesRead += code.lines
    this.known.set(code.path, factsFromTree(code, file.root))
  }

  async analyze(context: RepositoryContext): Promise<RepositoryResult> {
    const started = performance.now()
    const dataFlows = context.earlier.flatMap((result) => result.traces)
    const summary = await summarizeCollected(
      this.collected(),
      { dataFlows, maxFileBytes: this.setupInput.maxFileBytes, onProgress: context.onProgress, ...(context.signal ? { signal: context.signal } : {}) },
      this.known,
    )
    context.log({ level: 'info', message: 'repository summary built', data: { durationMs: Math.round(performance.now() - started) } })
    return { analyzer: this.name, findings: [], traces: [], suppressed: 0, summary }
  }

  stalled(subject: string, message: string): StallDecision {
    return { abandon: true, log: { level: 'warning', message: `Repository summary not updated: ${message}`, data: { path: subject } } }
  }

  setup(): RepositorySetup {
    const input: SummarySetup = { maxFileBytes: this.setupInput.maxFileBytes, collected: this.collected() }
    return { analyzer: this.name, input }
  }
}
