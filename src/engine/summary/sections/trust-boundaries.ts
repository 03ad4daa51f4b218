/**
 * `trustBoundaries`: where untrusted data enters (HTTP routes with their auth, message
 * consumers, schedulers, WebSockets, command lines and scripts; environment, argv, stdin and
 * file reads) and where data leaves (databases, outbound HTTP, shell, file system), each
 * with its location.
 */
import type { EntryPoint, SummaryContext } from '../context.ts'
import { capped, LIMITS } from '../limits.ts'
import { EXIT_KINDS } from '../model.ts'
import type { InputKind } from '../model.ts'
import { at, compareText, sortByKeys } from '../text.ts'

function entryJson(context: SummaryContext, entry: EntryPoint): Record<string, unknown> {
  const definition = entry.target ? context.program.definition(entry.target.file, entry.target.index) : undefined
  return {
    name: entry.name,
    file: entry.file,
    line: entry.line,
    handler: definition && entry.target ? { name: definition.name, file: entry.target.file, line: definition.line } : null,
  }
}

function routesJson(context: SummaryContext): Record<string, unknown> {
  const list = capped(context.routes, LIMITS.routes)
  return {
    items: list.items.map((route) => ({
      method: route.method,
      path: route.path,
      framework: route.framework,
      file: route.file,
      line: route.line,
      handler: route.handler,
      auth: route.auth,
      authBy: route.authBy,
      ...(route.public ? { public: true } : {}),
    })),
    omitted: list.omitted,
  }
}

function entriesOfKind(context: SummaryContext, kinds: readonly string[]): Record<string, unknown> {
  const list = capped(
    context.entries.filter((entry) => kinds.includes(entry.kind)),
    LIMITS.entries,
  )
  return { items: list.items.map((entry) => ({ kind: entry.kind, ...entryJson(context, entry) })), omitted: list.omitted }
}

function inputsJson(context: SummaryContext): Record<string, unknown> {
  const byKind = new Map<InputKind, Map<string, string[]>>()
  for (const facts of context.program.files.values()) {
    for (const input of facts.inputs) {
      const names = byKind.get(input.kind) ?? new Map<string, string[]>()
      names.set(input.name, [...(names.get(input.name) ?? []), at(facts.path, input.line)])
      byKind.set(input.kind, names)
    }
  }
  const result: Record<string, unknown> = {}
  for (const kind of ['environment', 'argv', 'stdin', 'file'] as const) {
    const names = [...(byKind.get(kind) ?? new Map<string, string[]>())].sort((a, b) => compareText(a[0], b[0]))
    const list = capped(names, LIMITS.inputsPerKind)
    result[kind] = {
      items: list.items.map(([name, locations]) => ({ name, count: locations.length, locations: [...locations].sort(compareText).slice(0, LIMITS.locationsPerInput) })),
      omitted: list.omitted,
    }
  }
  return result
}

function exitsJson(context: SummaryContext): Record<string, unknown> {
  const result: Record<string, unknown> = {}
  for (const kind of EXIT_KINDS) {
    const all: Array<{ api: string; file: string; line: number; function: string | null }> = []
    for (const facts of context.program.files.values()) {
      for (const exit of facts.exits) {
        if (exit.kind === kind) all.push({ api: exit.api, file: facts.path, line: exit.line, function: facts.definitions[exit.owner]?.name ?? null })
      }
    }
    const list = capped(
      sortByKeys(all, (item) => [item.file, item.line, item.api]),
      LIMITS.exitsPerKind,
    )
    result[kind] = { count: all.length, items: list.items, omitted: list.omitted }
  }
  return result
}

export function trustBoundaries(context: SummaryContext): Record<string, unknown> {
  const unauthenticated = context.routes.filter((route) => !route.auth)
  const exits = exitsJson(context)
  const inputs = inputsJson(context)
  const countOf = (value: unknown) => (value as { count?: number }).count ?? 0
  return {
    summary: {
      httpRoutes: context.routes.length,
      unauthenticatedRoutes: unauthenticated.length,
      messageConsumers: context.entries.filter((entry) => entry.kind === 'consumer').length,
      scheduledJobs: context.entries.filter((entry) => entry.kind === 'scheduled').length,
      websockets: context.entries.filter((entry) => entry.kind === 'websocket').length,
      commandLine: context.entries.filter((entry) => entry.kind === 'cli' || entry.kind === 'main' || entry.kind === 'script').length,
      exits: Object.fromEntries(EXIT_KINDS.map((kind) => [kind, countOf(exits[kind])])),
    },
    httpRoutes: routesJson(context),
    messageConsumers: entriesOfKind(context, ['consumer']),
    scheduledJobs: entriesOfKind(context, ['scheduled']),
    websockets: entriesOfKind(context, ['websocket']),
    commandLine: entriesOfKind(context, ['cli', 'main', 'script']),
    inputs,
    exits,
  }
}
