/**
 * Library mode: in a package that other code imports, the untrusted input is what the caller
 * passes to the exported API. Vocabulary:
 *
 * - a *library package* is a folder with a `package.json` naming an entry (`main`, `module` or
 *   `exports`) whose files start no server (no file both creates a server or framework app and
 *   calls `.listen(` at the start of a line: an application's entry point, not a library's
 *   `app.listen = function ...` helper);
 * - its *entry files* are the files those fields name (or the TypeScript source they are
 *   compiled from), and its *exported functions* what the entry files export: functions,
 *   members of exported objects, public methods and prototype methods of exported classes,
 *   followed through re-exports from other files.
 *
 * Each exported function's summary already says which of its parameters (and which fields of
 * them: an options object's `opts.cmd`) reach a sink inside it or in the helpers it calls; each
 * such path becomes a path from a `library-argument` source naming the exported function. Only
 * the sink kinds that matter when the caller is another program are kept (LIBRARY_SINK_KINDS).
 */
import { parentDir } from '../core/repo-paths.ts'
import { commonJsExports } from './engine.ts'
import type { Engine, Summary } from './engine.ts'
import { FunctionRun } from './interpreter.ts'
import type { FunctionDef, Stmt, Target } from './ir.ts'
import type { SinkKind } from './kinds.ts'
import type { FileInput } from './program.ts'
import { immediateWrapper, umdFactory } from './wrappers.ts'
import { CLEAN, makeFact, paramFact, val } from './values.ts'
import type { Fact, Val } from './values.ts'

/** `auto`: only in library packages; `always`: every file's exports; `never`: off. */
export type LibrarySources = 'auto' | 'always' | 'never'
export const LIBRARY_SOURCES_MODES: readonly LibrarySources[] = ['auto', 'always', 'never']

/**
 * What a caller's data can do harm in when the caller is a program, not an attacker: run a
 * command or code, reach a file, build a query, pollute a prototype shared by other objects, make
 * a regular expression backtrack. Kinds such as logs, HTML or redirects depend on where the caller
 * sends the result; a regular expression built from an argument is what glob and pattern
 * libraries are for (`regex`), unlike a fixed one run over the argument (`backtracking`).
 */
const LIBRARY_SINK_KINDS: ReadonlySet<string> = new Set<SinkKind>(['command', 'code', 'path', 'sql', 'prototype', 'backtracking'])

/**
 * An argument named for what the sink takes is the API's contract, not an injection: `readFile(file)`,
 * `spawn(command)`, `evaluate(expression)`, `execute(query)` do what the caller asked. The names
 * read are the parameter's and those of the fields on the way (`opts.cwd`, `file.url`).
 */
const CONTRACT_NAMES: Partial<Record<string, RegExp>> = {
  path: /path|file|dir|folder|dest|src|cwd|root|start|cache|location|target|pattern|glob/i,
  command: /^(?:cmd|command|commands|args|argv|file|bin|exe|exec|executable|program|shell|script)s?$/i,
  code: /code|expr|script|source|src|fn|func|template|body/i,
  sql: /sql|query|statement|stmt|raw/i,
}

/** SQL sinks count in files that use a database client (`raw()` is also an AST builder's method). */
const DATABASE_CLIENT = /(?:require\(\s*|from\s+)['"](?:mysql2?|pg|pg-promise|postgres|sqlite3?|better-sqlite3|knex|sequelize|mssql|tedious|oracledb|typeorm|@mikro-orm\/[\w-]+|kysely|slonik|@prisma\/client)(?:\/[\w/-]*)?['"]/

/** How far into exported objects the analysis looks for functions (`exports.api.v1.run`). */
const EXPORT_DEPTH = 3

const SERVER_CREATION = /\b(?:express|koa|fastify|restify|hapi|connect)\s*\(|require\(\s*['"](?:express|fastify|connect|restify)['"]\s*\)\s*\(|new\s+Koa\s*\(|\bcreateServer\s*\(|Hapi\.server\s*\(/
const TOP_LEVEL_LISTEN = /^[ \t]{0,4}[\w$.]+(?:\([^)]*\))?\.listen\s*\(/m
const ENTRY_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.jsx', '.tsx', '/index.js', '/index.mjs', '/index.cjs', '/index.ts']
const COMPILED_FOLDER = /^(?:dist|build|lib|out)\//

interface LibraryPackage {
  readonly folder: string
  readonly entries: readonly string[]
}

/** The entry files whose exports take library input, for the mode. */
export function libraryEntryFiles(mode: LibrarySources, manifests: readonly FileInput[], sources: readonly FileInput[]): string[] {
  if (mode === 'never') return []
  if (mode === 'always') return sources.map((file) => file.path)
  return libraryPackages(manifests, sources).flatMap((pkg) => pkg.entries)
}

/** Packages with an entry and no server start, each with the entry files it has among `sources`. */
export function libraryPackages(manifests: readonly FileInput[], sources: readonly FileInput[]): LibraryPackage[] {
  const declared = manifests.filter((file) => /(?:^|\/)package\.json$/.test(file.path) && !file.path.includes('node_modules/'))
  // Each source belongs to the package of its nearest package.json: grouped once, as a tree of
  // thousands of packages (a node_modules) would otherwise cost packages x sources x packages.
  const owned = sourcesByPackage(new Set(declared.map((file) => parentDir(file.path))), sources)
  const result: LibraryPackage[] = []
  for (const file of declared) {
    const folder = parentDir(file.path)
    const specifiers = entrySpecifiers(file.text)
    if (specifiers.length === 0) continue
    const own = owned.get(folder) ?? []
    if (own.some((source) => startsServer(source.text))) continue
    const paths = new Set(own.map((source) => source.path))
    const entries = new Set<string>()
    for (const specifier of specifiers) {
      const found = resolveEntry(folder, specifier, paths)
      if (found) entries.add(found)
    }
    if (entries.size > 0) result.push({ folder, entries: [...entries] })
  }
  return result
}

/** The sources under each package folder, by the nearest one above them (in their order). */
function sourcesByPackage(folders: ReadonlySet<string>, sources: readonly FileInput[]): Map<string, FileInput[]> {
  const owned = new Map<string, FileInput[]>()
  for (const source of sources) {
    let folder = parentDir(source.path)
    while (!folders.has(folder) && folder !== '') folder = parentDir(folder)
    if (!folders.has(folder)) continue
    const list = owned.get(folder)
    if (list) list.push(source)
    else owned.set(folder, [source])
  }
  return owned
}

/** Whether a file starts a server: it creates one (or a framework app) and calls `.listen(` at its top. */
export function startsServer(text: string): boolean {
  return SERVER_CREATION.test(text) && TOP_LEVEL_LISTEN.test(text)
}

/** `main`, `module` and every path of `exports` (conditions and subpaths), as written. */
function entrySpecifiers(manifest: string): string[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(manifest)
  } catch {
    return []
  }
  if (!parsed || typeof parsed !== 'object') return []
  const fields = parsed as Record<string, unknown>
  const result: string[] = []
  for (const key of ['main', 'module']) if (typeof fields[key] === 'string') result.push(fields[key] as string)
  collectExportPaths(fields.exports, result, 0)
  return result.filter((specifier) => !specifier.includes('*') && !specifier.endsWith('.json'))
}

function collectExportPaths(value: unknown, into: string[], depth: number): void {
  if (depth > 5 || value === null || value === undefined) return
  if (typeof value === 'string') into.push(value)
  else if (Array.isArray(value)) for (const item of value) collectExportPaths(item, into, depth + 1)
  else if (typeof value === 'object') for (const item of Object.values(value)) collectExportPaths(item, into, depth + 1)
}

/**
 * The analyzed file an entry names: as written with the usual extensions, else the TypeScript
 * or `src/` file a compiled `dist/`, `build/`, `lib/` or `out/` file comes from.
 */
function resolveEntry(folder: string, specifier: string, sources: ReadonlySet<string>): string | null {
  const relative = normalize(specifier)
  if (relative === null) return null
  const candidates = [relative]
  const bare = relative.replace(/\.(?:c|m)?js$/, '')
  if (COMPILED_FOLDER.test(relative)) candidates.push(bare.replace(COMPILED_FOLDER, 'src/'), bare.replace(COMPILED_FOLDER, ''))
  candidates.push(bare)
  for (const candidate of candidates) {
    for (const extension of ENTRY_EXTENSIONS) {
      const path = `${folder === '' ? '' : `${folder}/`}${candidate}${extension}`.replace(/\/\//g, '/')
      if (sources.has(path)) return path
    }
  }
  return null
}

function normalize(specifier: string): string | null {
  const parts: string[] = []
  for (const part of specifier.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') return null
    parts.push(part)
  }
  return parts.join('/')
}

/** An exported function and the name a caller reaches it by (`run`, `Client#query`). */
export interface ExportedFunction {
  readonly fn: FunctionDef
  readonly name: string
  /** for a prototype method, the prototype: `this.other()` inside it calls its sibling */
  readonly prototype?: Val
}

/** The functions an entry file exports, under their exported names. */
export function exportedFunctions(engine: Engine, path: string): ExportedFunction[] {
  const unit = engine.program.unit(path)
  if (!unit) return []
  // The top level's run fills the ES export table.
  const topLevel = engine.moduleState(unit).vars
  const found = new Map<string, ExportedFunction>()
  for (const name of new Set(['default', ...unit.esExports.keys()])) {
    const value = engine.exported(path, name)
    const complete = value && name === 'default' ? withAliasFields(value, exportAliases(unit.top()), topLevel) : value
    if (complete) collect(withLaterFields(complete, topLevel), name === 'default' ? '' : name, 0, found, defaultName(path))
  }
  if (found.size === 0) {
    const factory = umdFactory(unit.top())
    const made = factory ? engine.summaryOf(factory)?.returns : undefined
    if (made) collect(made, '', 0, found, defaultName(path))
  }
  if (found.size === 0) {
    const wrapper = immediateWrapper(unit.top())
    const end = wrapper ? new FunctionRun(engine, unit, wrapper, null, 0).endState() : null
    const exported = end ? commonJsExports(end.vars.get('module') ?? CLEAN, end.vars.get('exports') ?? CLEAN) : null
    if (exported) collect(exported, '', 0, found, defaultName(path))
  }
  return [...found.values()]
}

/**
 * Top-level variables holding the object `module.exports` holds: `var cs = module.exports = {}`,
 * `const api = {}; module.exports = api`. Members given through them later (`cs.get.hwb = ...`)
 * are exported too, though the analysis gives them to the variable only.
 */
function exportAliases(top: readonly Stmt[]): string[] {
  const aliases: string[] = []
  for (const stmt of top) {
    if (stmt.t !== 'assign' || !stmt.value) continue
    if (isModuleExports(stmt.target) && stmt.value.t === 'name') aliases.push(stmt.value.name)
    if (stmt.target.t === 'name' && stmt.value.t === 'assign' && isModuleExports(stmt.value.target)) aliases.push(stmt.target.name)
  }
  return aliases
}

function isModuleExports(target: Target): boolean {
  return target.t === 'member' && target.property === 'exports' && target.object.t === 'name' && target.object.name === 'module'
}

function withAliasFields(value: Val, aliases: readonly string[], topLevel: ReadonlyMap<string, Val>): Val {
  let result = value
  for (const alias of aliases) {
    const fields = topLevel.get(alias)?.fields
    if (fields) result = { ...result, fields: new Map([...(result.fields ?? []), ...fields]) }
  }
  return result
}

/**
 * `module.exports = flatten; flatten.unflatten = unflatten`: the export took the function before
 * the top level gave it members; the function's variable at the end of the top level has them.
 */
function withLaterFields(value: Val, topLevel: ReadonlyMap<string, Val>): Val {
  const ref = value.ref
  if (ref?.t !== 'function' || !ref.fn.name) return value
  const later = topLevel.get(ref.fn.name)
  if (later?.ref?.t !== 'function' || later.ref.fn !== ref.fn || !later.fields) return value
  return { ...value, fields: new Map([...later.fields, ...(value.fields ?? [])]) }
}

/**
 * `name`: how a caller reaches the value, empty for a module's default export (named after the
 * function or class, else `fallback`, the file); `prototype`: the prototype a method was found on.
 */
function collect(value: Val, name: string, depth: number, found: Map<string, ExportedFunction>, fallback: string, prototype?: Val): void {
  const ref = value.ref
  const own = name || (ref?.t === 'function' ? ref.fn.name : ref?.t === 'class' ? ref.cls.name : null) || fallback
  if (ref?.t === 'function' && !found.has(ref.fn.id)) found.set(ref.fn.id, { fn: ref.fn, name: own, ...(prototype ? { prototype } : {}) })
  if (ref?.t === 'class') {
    for (const [method, fn] of ref.cls.methods) {
      if (isPrivateName(method) || found.has(fn.id)) continue
      found.set(fn.id, { fn, name: method === 'constructor' ? `new ${own}` : `${own}#${method}` })
    }
  }
  if (depth >= EXPORT_DEPTH) return
  for (const [key, field] of value.fields ?? []) {
    if (isPrivateName(key)) continue
    if (key === 'prototype') {
      for (const [method, fn] of field.fields ?? []) if (!isPrivateName(method)) collect(fn, `${own}#${method}`, depth + 1, found, fallback, field)
    } else collect(field, name === '' && ref?.t !== 'function' && ref?.t !== 'class' ? key : `${own}.${key}`, depth + 1, found, fallback)
  }
}

function isPrivateName(name: string): boolean {
  return name.startsWith('_') || name.startsWith('#') || name.startsWith('\u0000')
}

/** `lib/run.js` exported as a whole: the caller names it after the file. */
function defaultName(path: string): string {
  const file = path.slice(path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '')
  return file === 'index' ? (parentDir(path).split('/').at(-1) || 'default') : file
}

/**
 * Records, for each exported function, the paths from its parameters to the library sink kinds
 * as paths from a `library-argument` source at the parameter.
 */
export function recordLibraryPaths(engine: Engine, exported: ExportedFunction): void {
  const summary = exported.prototype ? runAsMethod(engine, exported.fn, exported.prototype) : engine.summaryOf(exported.fn)
  if (!summary) return
  for (const { fact, hit, safe } of summary.sinks) {
    if (fact.origin.type !== 'param' || fact.origin.index < 0 || !LIBRARY_SINK_KINDS.has(hit.spec.kind)) continue
    // A caller's keys written once into an object change that object only (pollution.ts).
    if (hit.spec.kind === 'prototype' && !hit.spec.sharedPrototype) continue
    if (hit.spec.kind === 'backtracking' && !isCallerText(fact.origin.path)) continue
    // Which program to run is the caller's to choose; its data is injected only where a shell parses it.
    if (hit.spec.programName) continue
    // Past the declared parameters: a position of `arguments`.
    const param = exported.fn.params[fact.origin.index]
    const name = param ? (param.name ?? `#${fact.origin.index + 1}`) : `arguments[${fact.origin.index}]`
    if (isContract(hit.spec.kind, [param?.name ?? '', ...fact.origin.path.split('.')])) continue
    if (hit.spec.kind === 'sql' && !DATABASE_CLIENT.test(engine.unitOf(hit.site.path).text)) continue
    engine.record(libraryFact(fact, exported, name, param?.site ?? exported.fn.site), hit, safe)
  }
}

/**
 * A regex runs on what the caller passed when it runs on the argument or an element of it (`args[0]`,
 * a `split` part); on a named field (`root.raws.before`, `config.rawName`) it runs on an object
 * graph the package built or keeps, more often than on a caller's text.
 */
function isCallerText(fieldPath: string): boolean {
  return fieldPath.split('.').every((segment) => segment === '' || /^-?\d+$/.test(segment))
}

function isContract(kind: string, names: readonly string[]): boolean {
  const contract = CONTRACT_NAMES[kind]
  return contract !== undefined && names.some((name) => contract.test(name))
}

/** A prototype method run with its prototype as `this`, parameters symbolic as in a summary. */
function runAsMethod(engine: Engine, fn: FunctionDef, prototype: Val): Summary {
  const receiver: Val = { ...prototype, facts: [paramFact(-1)] }
  const args = new Map(fn.params.map((_, index) => [index, val({ facts: [paramFact(index)] })] as const))
  return new FunctionRun(engine, engine.unitOf(fn.path), fn, null, 0).runWith(receiver, args)
}

function libraryFact(fact: Fact, exported: ExportedFunction, param: string, site: FunctionDef['site']): Fact {
  const path = fact.origin.type === 'param' ? fact.origin.path : ''
  const argument = path === '' ? `argument \`${param}\`` : `field \`${path}\` of argument \`${param}\``
  const what = `${argument} of exported function \`${exported.name}\` (${exported.fn.path})`
  return makeFact({ type: 'source', kind: 'library-argument', scope: 'remote', what, site }, fact.steps, fact.cleaned, fact.sanitizers, fact.normalized)
}
