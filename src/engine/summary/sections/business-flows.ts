/**
 * `businessLogicFlows`: for each entry point, the functions its handler reaches (across
 * files) and the data stores, outbound calls, commands and files at the end of those chains.
 */
import type { SummaryContext } from '../context.ts'
import { CallGraph, FLOW_LIMITS } from '../flows.ts'
import { capped, LIMITS } from '../limits.ts'
import { at } from '../text.ts'

export function businessLogicFlows(context: SummaryContext): Record<string, unknown> {
  const graph = new CallGraph(context.program)
  const withHandlers = context.entries.filter((entry) => entry.target)
  const list = capped(withHandlers, LIMITS.flows)
  const byExitKind: Record<string, number> = {}
  let reachingExits = 0
  const flows = list.items.map((entry) => {
    const target = entry.target as { file: string; index: number }
    const definition = context.program.definition(target.file, target.index)
    // Inline handlers are named after their entry point (`GET /products handler`), not their local path.
    const flow = graph.walk(target.file, target.index, definition?.kind === 'handler' ? `${entry.name} handler` : undefined)
    if (flow.reaches.length > 0) reachingExits++
    for (const kind of new Set(flow.reaches.map((exit) => exit.kind))) byExitKind[kind] = (byExitKind[kind] ?? 0) + 1
    return {
      entry: entry.name,
      kind: entry.kind,
      at: at(entry.file, entry.line),
      ...(entry.route ? { auth: entry.route.auth } : {}),
      handler: definition ? `${definition.kind === 'handler' ? `${entry.name} handler` : definition.name} (${at(target.file, definition.line)})` : null,
      calls: flow.steps,
      reaches: flow.reaches,
      truncated: flow.truncated,
    }
  })
  return {
    summary: {
      entryPoints: context.entries.length,
      withResolvedHandler: withHandlers.length,
      reachingExits,
      entriesReachingByExitKind: byExitKind,
    },
    limits: { depth: FLOW_LIMITS.depth, functionsPerFlow: FLOW_LIMITS.nodesPerFlow, exitsPerFlow: FLOW_LIMITS.exitsPerFlow, flows: LIMITS.flows },
    flows,
    omitted: list.omitted,
    unresolvedHandlers: context.entries.filter((entry) => !entry.target && entry.kind === 'http').slice(0, 50).map((entry) => `${entry.name} (${at(entry.file, entry.line)})`),
  }
}
