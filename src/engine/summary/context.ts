/**
 * Everything the summary sections are written from, computed once: the program with its
 * routes, every kind of entry point (routes, consumers, schedulers, CLIs, mains, scripts,
 * declared executables), the import graph, and where each catalog library is imported and
 * called.
 */
import type { Library } from './catalog.ts'
import { libraryForJava, libraryForNpm, libraryForPython } from './catalog.ts'
import type { CollectedRepository } from './collect.ts'
import type { ImportGraph } from './graph.ts'
import type { Manifest } from './manifests.ts'
import type { EntryKind, FileFacts, SignalFact, TextFile } from './model.ts'
import type { Program } from './program.ts'
import { normalizeRepoPath as normalize } from '../core/repo-paths.ts'
import type { RouteInfo } from './routes.ts'
import { calleeRoot } from './syntax.ts'
import { at, sortByKeys } from './text.ts'

export interface EntryPoint {
  kind: 'http' | EntryKind
  name: string
  file: string
  line: number
  target: { file: string; index: number } | null
  route?: RouteInfo
}

export interface LibraryUse {
  library: Library
  /** `file:line` of imports */
  imports: string[]
  /** `file:line callee` of calls into the library */
  calls: Array<{ at: string; callee: string }>
}

export interface SummaryContext {
  collected: CollectedRepository
  manifests: Manifest[]
  program: Program
  routes: RouteInfo[]
  entries: EntryPoint[]
  graph: ImportGraph
  libraries: Map<string, LibraryUse>
  /** Signals of configuration files (properties, YAML, dotenv), which are not code. */
  configSignals: Array<SignalFact & { file: string }>
  /** Framework-language files beyond the analysis budget, read for their imports only. */
  importsOnly: number
  /** Every data model: ORM classes in code and Prisma schema models. */
  models: Array<{ name: string; orm: string; file: string; line: number }>
}

/** Models of the code and of Prisma schemas (`model User {`), sorted by file and line. */
export function allModels(program: Program, texts: readonly TextFile[]): SummaryContext['models'] {
  const models = [...program.files.values()].flatMap((facts) => facts.models.map((model) => ({ ...model, file: facts.path })))
  for (const file of texts) {
    if (!file.path.endsWith('.prisma')) continue
    for (const match of file.text.matchAll(/^model\s+(\w+)\s*\{/gm)) {
      models.push({ name: match[1] ?? '', orm: 'Prisma', file: file.path, line: file.text.slice(0, match.index).split('\n').length })
    }
  }
  return sortByKeys(models, (model) => [model.file, model.line, model.name])
}

function libraryOf(facts: FileFacts, specifier: string): Library | undefined {
  if (facts.language === 'python') return libraryForPython(specifier)
  if (facts.language === 'java') return libraryForJava(specifier)
  if (facts.language === 'javascript' || facts.language === 'typescript' || facts.language === 'tsx') return libraryForNpm(specifier)
  return undefined
}

/** Where each catalog library is imported and called. */
export function libraryUsage(program: Program): Map<string, LibraryUse> {
  const uses = new Map<string, LibraryUse>()
  const entry = (library: Library) => {
    let found = uses.get(library.id)
    if (!found) {
      found = { library, imports: [], calls: [] }
      uses.set(library.id, found)
    }
    return found
  }
  for (const facts of program.files.values()) {
    const resolutions = program.resolutions.get(facts.path) ?? []
    facts.imports.forEach((fact, index) => {
      if ((resolutions[index]?.internal.length ?? 0) > 0) return
      const library = libraryOf(facts, fact.specifier)
      const use = library ? entry(library) : undefined
      // One location per file is enough to say where a library comes in.
      if (use && !use.imports.some((location) => location.startsWith(`${facts.path}:`))) use.imports.push(at(facts.path, fact.line))
    })
    for (const call of facts.calls) {
      const origin = program.externalOrigin(facts.path, calleeRoot(call.callee))
      const library = origin ? libraryOf(facts, origin) : undefined
      if (library) entry(library).calls.push({ at: at(facts.path, call.line), callee: call.callee })
    }
  }
  return uses
}

/** Python `if __name__ == '__main__': main()`: the function the block calls, if any. */
function mainTarget(program: Program, facts: FileFacts, line: number): { file: string; index: number } | null {
  for (const call of facts.calls) {
    if (call.owner !== -1 || call.line < line || call.line > line + 20) continue
    const target = program.resolveReference(facts.path, call.callee)
    if (target?.kind === 'definition') return { file: target.file, index: target.index }
  }
  return null
}

export function collectEntries(program: Program, routes: readonly RouteInfo[], manifests: readonly Manifest[]): EntryPoint[] {
  const entries: EntryPoint[] = routes.map((route) => ({ kind: 'http', name: `${route.method} ${route.path}`, file: route.file, line: route.line, target: route.target, route }))
  for (const facts of program.files.values()) {
    for (const entry of facts.entries) {
      let target: { file: string; index: number } | null = entry.handler >= 0 ? { file: facts.path, index: entry.handler } : null
      if (!target && entry.handlerRef) {
        const resolved = program.resolveReference(facts.path, entry.handlerRef)
        if (resolved?.kind === 'definition') target = { file: resolved.file, index: resolved.index }
      }
      if (!target && entry.kind === 'main' && facts.language === 'python') target = mainTarget(program, facts, entry.line)
      entries.push({ kind: entry.kind, name: entry.name, file: facts.path, line: entry.line, target })
    }
    if (facts.language === 'bash') entries.push({ kind: 'script', name: 'shell script', file: facts.path, line: 1, target: null })
  }
  for (const manifest of manifests) {
    const dir = manifest.path.includes('/') ? manifest.path.slice(0, manifest.path.lastIndexOf('/')) : ''
    for (const declared of manifest.entryPoints) {
      const entry = declaredEntry(program, manifest, dir, declared)
      if (entry) entries.push(entry)
    }
  }
  return sortByKeys(mergeCommandLines(entries), (entry) => [entry.kind === 'http' ? 0 : 1, entry.kind, entry.file, entry.line, entry.name])
}

/** One command-line entry per file: a declared `bin`, the parser and the `main` found in it are the same program. */
function mergeCommandLines(entries: EntryPoint[]): EntryPoint[] {
  const byFile = new Map<string, EntryPoint>()
  const merged: EntryPoint[] = []
  for (const entry of sortByKeys([...entries], (item) => [item.file, item.line, item.name])) {
    if (entry.kind !== 'cli' && entry.kind !== 'main') {
      merged.push(entry)
      continue
    }
    const existing = byFile.get(entry.file)
    if (!existing) {
      byFile.set(entry.file, entry)
      merged.push(entry)
      continue
    }
    existing.name = `${existing.name}; ${entry.name}`
    existing.target ??= entry.target
    if (entry.kind === 'main') existing.kind = 'main'
  }
  return merged
}

/** npm `bin` files and Python `module:function` console scripts. */
function declaredEntry(program: Program, manifest: Manifest, dir: string, declared: { name: string; target: string }): EntryPoint | null {
  if (manifest.ecosystem === 'npm') {
    const file = normalize(dir ? `${dir}/${declared.target}` : declared.target)
    return file && program.files.has(file) ? { kind: 'cli', name: `bin ${declared.name}`, file, line: 1, target: null } : null
  }
  const [module, func] = declared.target.split(':')
  const file = module ? program.pythonModule(module.trim(), manifest.path) : undefined
  if (!file) return null
  const target = func ? program.local(file, func.trim()) : undefined
  const definition = target?.kind === 'definition' ? program.definition(target.file, target.index) : undefined
  return { kind: 'cli', name: `console script ${declared.name}`, file, line: definition?.line ?? 1, target: target?.kind === 'definition' ? { file: target.file, index: target.index } : null }
}
