/**
 * The repository summary: what the service understands about a repository, recomputed by
 * every full scan from the scanned files and the data-flow analyzer's traces.
 *
 * Pipeline: collect files (the scan's own selection, tests set aside) -> one syntax tree per
 * code file, read into facts -> resolve imports into one program -> routes with their auth,
 * entry points, exits, import graph, call chains -> eight bounded, deterministic sections.
 * See docs/summary.md.
 */
import { ensureLanguagesRegistered } from '../core/languages.ts'
import type { DataFlowTrace } from '../core/types.ts'
import { analyzeFiles } from './analyze.ts'
import { collectSources } from './collect.ts'
import { allModels, collectEntries, libraryUsage } from './context.ts'
import type { SummaryContext } from './context.ts'
import { ExitClassifier } from './exits.ts'
import { buildGraph } from './graph.ts'
import { parseManifest } from './manifests.ts'
import type { Manifest } from './manifests.ts'
import { headerOnlyFiles } from './plan.ts'
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
  const collected = await collectSources(sources, options)
  const manifests = collected.texts.map(parseManifest).filter((manifest): manifest is Manifest => manifest !== null)
  const importsOnly = headerOnlyFiles(collected.code)
  for (const file of collected.code) if (importsOnly.has(file.path)) file.importsOnly = true
  const facts = await analyzeFiles(collected.code, options.signal, options.onProgress)
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
