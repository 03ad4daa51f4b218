/**
 * `dataFlowAnalysis`: the data-flow analyzer's traces (sanitized ones included) grouped by
 * the entry point their source belongs to (the route whose handler contains the source, or
 * the source location itself), with sanitized and unsanitized counts per sink kind and CWE.
 */
import type { SummaryContext } from '../context.ts'
import { capped, LIMITS } from '../limits.ts'
import type { RouteInfo } from '../routes.ts'
import type { DataFlowTrace } from '../../core/types.ts'
import { at, compareText, oneLine, sortByKeys } from '../text.ts'

interface Counts {
  sinkKind: string
  cwe: string
  sanitized: number
  unsanitized: number
}

function countsOf(traces: readonly DataFlowTrace[]): Counts[] {
  const byKey = new Map<string, Counts>()
  for (const trace of traces) {
    const key = `${trace.sink.kind}\u0000${trace.sink.cwe}`
    const counts = byKey.get(key) ?? { sinkKind: trace.sink.kind, cwe: trace.sink.cwe, sanitized: 0, unsanitized: 0 }
    if (trace.sanitized) counts.sanitized++
    else counts.unsanitized++
    byKey.set(key, counts)
  }
  return sortByKeys([...byKey.values()], (counts) => [counts.sinkKind, counts.cwe])
}

/** The route whose handler's lines hold the source, if any. */
function routeOf(context: SummaryContext, trace: DataFlowTrace): RouteInfo | undefined {
  const { filePath, lineNumber } = trace.source
  return context.routes.find((route) => {
    if (!route.target || route.target.file !== filePath) return false
    const definition = context.program.definition(route.target.file, route.target.index)
    return definition !== undefined && lineNumber >= definition.line && lineNumber <= definition.endLine
  })
}

function traceJson(trace: DataFlowTrace): Record<string, unknown> {
  return {
    source: { kind: trace.source.kind, at: at(trace.source.filePath, trace.source.lineNumber), code: oneLine(trace.source.code, 120) },
    sink: { kind: trace.sink.kind, cwe: trace.sink.cwe, at: at(trace.sink.filePath, trace.sink.lineNumber), code: oneLine(trace.sink.code, 120) },
    steps: trace.steps.length,
    sanitized: trace.sanitized,
    ...(trace.sanitizer ? { sanitizer: { at: at(trace.sanitizer.filePath, trace.sanitizer.lineNumber), note: oneLine(trace.sanitizer.note, 120) } } : {}),
  }
}

export function dataFlowAnalysis(context: SummaryContext, traces: readonly DataFlowTrace[]): Record<string, unknown> {
  const sorted = sortByKeys([...traces], (trace) => [trace.source.filePath, trace.source.lineNumber, trace.sink.filePath, trace.sink.lineNumber, trace.sink.kind, trace.sink.cwe, trace.sanitized ? 1 : 0])
  const groups = new Map<string, { entry: string; route: RouteInfo | undefined; traces: DataFlowTrace[] }>()
  for (const trace of sorted) {
    const route = routeOf(context, trace)
    const entry = route ? `${route.method} ${route.path}` : `${at(trace.source.filePath, trace.source.lineNumber)} (${trace.source.kind})`
    const group = groups.get(entry) ?? { entry, route, traces: [] }
    group.traces.push(trace)
    groups.set(entry, group)
  }
  const ordered = [...groups.values()].sort((a, b) => countUnsanitized(b) - countUnsanitized(a) || compareText(a.entry, b.entry))
  const list = capped(ordered, LIMITS.dataFlowEntries)
  return {
    summary: {
      flows: traces.length,
      sanitized: traces.filter((trace) => trace.sanitized).length,
      unsanitized: traces.filter((trace) => !trace.sanitized).length,
      entryPoints: groups.size,
    },
    bySink: countsOf(traces),
    byEntryPoint: list.items.map((group) => {
      const flows = capped(group.traces, LIMITS.dataFlowsPerEntry)
      return {
        entry: group.entry,
        ...(group.route ? { route: { method: group.route.method, path: group.route.path, file: group.route.file, line: group.route.line, auth: group.route.auth } } : {}),
        sanitized: group.traces.filter((trace) => trace.sanitized).length,
        unsanitized: countUnsanitized(group),
        bySink: countsOf(group.traces),
        flows: flows.items.map(traceJson),
        omitted: flows.omitted,
      }
    }),
    omitted: list.omitted,
  }
}

function countUnsanitized(group: { traces: DataFlowTrace[] }): number {
  return group.traces.filter((trace) => !trace.sanitized).length
}
