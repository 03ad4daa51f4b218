/**
 * The set of files one analysis sees: each file parsed only when first needed (or its tree
 * taken from the scan's SourceFile when that is still alive), its top level lowered once, and
 * module specifiers (relative JS/TS imports and require, Python dotted and
 * relative imports, Java class imports and packages) resolved to files of the set.
 */
import type { SgNode } from '@ast-grep/napi'
import { languageFromPath } from '../core/languages.ts'
import { SourceFile } from '../core/source-file.ts'
import type { CodeLanguage, FileLanguage } from '../core/languages.ts'
import type { FunctionDef, ImportBinding, ImportDecl, Stmt } from './ir.ts'
import { Lowerer } from './lower.ts'
import { catalogFor } from './catalog.ts'
import type { Catalog } from './catalog.ts'
import { specFor } from './languages/index.ts'
import type { LanguageSpec } from './spec.ts'
import { JS_MODULE_EXTENSIONS, joinRepoPath, normalizeRepoPath, parentDir } from '../core/repo-paths.ts'
import type { DependencyManifests } from './manifests.ts'

export interface FileInput {
  /** repository-relative, forward slashes */
  path: string
  text: string
  /** the scan's file: its tree, when still alive, is used rather than parsed again */
  source?: SourceFile
}

export class FileUnit {
  private tree: SgNode | undefined
  private topLevel: readonly Stmt[] | undefined
  private importIndex: Map<string, { decl: ImportDecl; binding: ImportBinding }> | undefined
  private modules: Set<string> | undefined
  private allFunctions: readonly FunctionDef[] | undefined
  readonly lowerer: Lowerer
  readonly catalog: Catalog
  /** the repository's declared dependency versions (manifests.ts), when the program has them */
  manifests: DependencyManifests | null = null
  /** `export { local as exported }` and `export default`, filled when the top level runs */
  readonly esExports = new Map<string, string>()

  constructor(
    readonly path: string,
    readonly language: CodeLanguage,
    readonly spec: LanguageSpec,
    readonly text: string,
    private readonly source: SourceFile = new SourceFile(path, language, text, null),
  ) {
    this.lowerer = new Lowerer(path, text, spec.syntax, () => this.root)
    this.catalog = catalogFor(spec)
  }

  /** Called with the unit each time it takes a tree (parsed, or the scan's): the program bounds how many stay. */
  onParse: ((unit: FileUnit) => void) | null = null

  /**
   * The file's syntax tree. The unit holds it itself until the program releases it: the scan's
   * tree keeper, which bounds trees by count, would otherwise drop it in the middle of the
   * analysis and have it parsed again (the program bounds its trees by text).
   */
  get root(): SgNode {
    if (!this.tree) {
      this.tree = this.source.root
      this.onParse?.(this)
    }
    return this.tree
  }

  /** Drops the syntax tree (the lowered form stays); it is parsed again if needed. */
  release(): void {
    this.tree = undefined
    this.source.releaseTree()
  }

  /** Top-level statements (function and method bodies stay unlowered until used). */
  top(): readonly Stmt[] {
    this.topLevel ??= this.lowerer.statements(this.root)
    return this.topLevel
  }

  /** Local name -> the import that binds it. */
  importBinding(name: string): { decl: ImportDecl; binding: ImportBinding } | undefined {
    if (!this.importIndex) {
      this.importIndex = new Map()
      for (const stmt of this.top()) {
        if (stmt.t !== 'import') continue
        for (const binding of stmt.decl.bindings) this.importIndex.set(binding.local, { decl: stmt.decl, binding })
      }
    }
    return this.importIndex.get(name)
  }

  /** Wildcard imports (`from m import *`, `import a.b.*`). */
  wildcardImports(): ImportDecl[] {
    return this.top().flatMap((stmt) => (stmt.t === 'import' && stmt.decl.bindings.some((binding) => binding.imported === '*') ? [stmt.decl] : []))
  }

  /** Whether the file imports a module whose name starts with one of `names`. */
  importsAny(names: readonly string[]): boolean {
    if (!this.modules) {
      this.modules = new Set(this.top().flatMap((stmt) => (stmt.t === 'import' ? [stmt.decl.module] : [])))
      for (const match of this.text.matchAll(/require\(\s*['"]([^'"]+)['"]\s*\)/g)) this.modules.add(match[1] ?? '')
      for (const module of this.modulesInText()) this.modules.add(module)
    }
    for (const module of this.modules) {
      if (names.some((name) => module === name || module.startsWith(`${name}.`) || module.startsWith(`${name}/`))) return true
    }
    return false
  }

  /**
   * Modules named away from the top level: Python imports inside functions or under `try:`,
   * and Java packages of fully-qualified class names used without an import
   * (`new javax.naming.directory.InitialDirContext(env)`).
   */
  private modulesInText(): string[] {
    switch (this.spec.syntax.moduleResolution) {
      case 'python':
        return [...this.text.matchAll(/^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import\b|import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*))/gm)].flatMap((match) =>
          match[1] !== undefined ? [match[1]] : (match[2] ?? '').split(',').map((part) => part.trim().split(/\s+/)[0] ?? ''),
        )
      case 'java':
        return [...this.text.matchAll(/(?<![\w$.])([a-z_][\w$]*(?:\.[a-z_][\w$]*)+)\.[A-Z]/g)].map((match) => match[1] ?? '')
      default:
        return []
    }
  }

  /** Nodes of every function kind in the file (found natively, without walking the tree here). */
  private functionNodes(): SgNode[] {
    const kinds = functionKinds(this.language, this.spec, this.root)
    return kinds.length === 0 ? [] : this.root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } })
  }

  /**
   * Every function of the file, lowered (bodies excepted), in the order of the text. Kept: the
   * analysis asks once per root and once per helper round, and without the list each asking
   * parsed a released tree again only to find the functions it had already lowered.
   */
  functions(): readonly FunctionDef[] {
    this.allFunctions ??= this.functionNodes().map((node) => this.lowerer.functionAt(node))
    return this.allFunctions
  }

  mentionsAny(words: readonly string[]): boolean {
    return words.some((word) => this.text.includes(word))
  }
}

const FUNCTION_KINDS = new Map<CodeLanguage, string[]>()

/**
 * The spec's function kinds that this language's grammar has: one spec serves several grammars
 * (JavaScript and TypeScript), and ast-grep rejects a rule naming an unknown kind.
 */
function functionKinds(language: CodeLanguage, spec: LanguageSpec, root: SgNode): string[] {
  let kinds = FUNCTION_KINDS.get(language)
  if (!kinds) {
    kinds = Object.entries(spec.syntax.nodes)
      .filter(([, rule]) => rule.as === 'function')
      .map(([kind]) => kind)
      .filter((kind) => {
        try {
          root.find({ rule: { kind } })
          return true
        } catch {
          return false
        }
      })
    FUNCTION_KINDS.set(language, kinds)
  }
  return kinds
}

/**
 * The text whose syntax trees are kept at once, in UTF-16 code units. Trees cost far more memory
 * than the lowered form (a Python tree takes about 27 bytes per character of text: some 100 MB
 * at the bound), and far more time to make again than to keep: a body lowered after its file's tree was
 * dropped parses the file again. A bound on text rather than on files keeps many small files
 * and few large ones alike.
 */
const PARSED_TEXT = 4_000_000


export class Program {
  private readonly inputs = new Map<string, FileInput>()
  private readonly units = new Map<string, FileUnit | null>()
  private readonly byBaseName = new Map<string, string[]>()
  private readonly resolved = new Map<string, string | null>()
  /** units holding a tree, least recently parsed first */
  private readonly parsedOrder = new Set<FileUnit>()
  /** units holding a tree whose entry points are done: the first to give it up */
  private readonly finished = new Set<FileUnit>()
  private parsedText = 0
  private readonly bySuffix = new Map<string, string | null>()
  /** set before the first unit is made (index.ts) */
  manifests: DependencyManifests | null = null

  constructor(
    files: readonly FileInput[],
    /** the spec of each file language: the built-in ones, or bare ones for a user taint rule (languages/bare.ts) */
    private readonly specOf: (language: FileLanguage) => LanguageSpec | null = specFor,
  ) {
    for (const file of files) {
      this.inputs.set(file.path, file)
      const base = file.path.slice(file.path.lastIndexOf('/') + 1)
      const list = this.byBaseName.get(base) ?? []
      list.push(file.path)
      this.byBaseName.set(base, list)
    }
  }

  paths(): string[] {
    return [...this.inputs.keys()]
  }

  private byFolder: Map<string, string[]> | undefined

  /** The files directly in a folder. */
  pathsIn(folder: string): readonly string[] {
    if (!this.byFolder) {
      this.byFolder = new Map()
      for (const path of this.inputs.keys()) {
        const dir = parentDir(path)
        this.byFolder.set(dir, [...(this.byFolder.get(dir) ?? []), path])
      }
    }
    return this.byFolder.get(folder) ?? []
  }

  has(path: string): boolean {
    return this.inputs.has(path)
  }

  /** The unit of a file in a language with a data-flow spec, created on first use. */
  unit(path: string): FileUnit | null {
    const known = this.units.get(path)
    if (known !== undefined) return known
    const input = this.inputs.get(path)
    const language = input ? languageFromPath(path) : null
    const spec = language ? this.specOf(language) : null
    const unit = input && spec && language ? new FileUnit(path, language as CodeLanguage, spec, input.text, input.source?.language === language ? input.source : undefined) : null
    if (unit) unit.onParse = (parsed) => this.trackParsed(parsed)
    if (unit) unit.manifests = this.manifests
    this.units.set(path, unit)
    return unit
  }

  /**
   * Keeps the trees of at most PARSED_TEXT of text alive, releasing those of finished units
   * first, then the least recently parsed ones; the unit just parsed keeps its tree.
   */
  private trackParsed(unit: FileUnit): void {
    if (!this.finished.delete(unit) && !this.parsedOrder.has(unit)) this.parsedText += unit.text.length
    this.parsedOrder.delete(unit)
    this.parsedOrder.add(unit)
    for (const order of [this.finished, this.parsedOrder]) {
      for (const oldest of order) {
        if (this.parsedText <= PARSED_TEXT) return
        if (oldest !== unit) this.dropTree(oldest)
      }
    }
  }

  /** A unit's entry points are done: its tree goes first when the bound is reached. */
  release(unit: FileUnit): void {
    if (this.parsedOrder.delete(unit)) this.finished.add(unit)
  }

  private dropTree(unit: FileUnit): void {
    unit.release()
    this.parsedOrder.delete(unit)
    this.finished.delete(unit)
    this.parsedText -= unit.text.length
  }

  /** The file a module specifier names, from `from`'s point of view, or null (external). */
  resolveModule(from: FileUnit, module: string): string | null {
    const key = `${from.path}\u0000${module}`
    const known = this.resolved.get(key)
    if (known !== undefined) return known
    let result: string | null
    switch (from.spec.syntax.moduleResolution) {
      case 'node':
        result = this.resolveNode(from.path, module)
        break
      case 'python':
        result = this.resolvePython(from.path, module)
        break
      case 'java':
        result = this.resolveJava(module)
        break
      case 'go':
        result = this.resolveGo(module)
        break
    }
    this.resolved.set(key, result)
    return result
  }

  private firstExisting(candidates: Array<string | null>): string | null {
    for (const candidate of candidates) if (candidate !== null && this.inputs.has(candidate)) return candidate
    return null
  }

  private resolveNode(from: string, module: string): string | null {
    if (!module.startsWith('.') && !module.startsWith('/')) return null
    const base = module.startsWith('/') ? normalizeRepoPath(module) : joinRepoPath(parentDir(from), module)
    if (base === null) return null
    // TypeScript ESM imports name the compiled file: `./util.js` is `./util.ts` in the sources.
    const stem = /\.(m|c)?js$/.test(base) ? base.replace(/\.(m|c)?js$/, '') : null
    return this.firstExisting([
      base,
      ...JS_MODULE_EXTENSIONS.map((ext) => base + ext),
      ...(stem === null ? [] : JS_MODULE_EXTENSIONS.map((ext) => stem + ext)),
      ...JS_MODULE_EXTENSIONS.map((ext) => `${base}/index${ext}`),
    ])
  }

  private resolvePython(from: string, module: string): string | null {
    const dots = /^\.*/.exec(module)?.[0].length ?? 0
    const rest = module.slice(dots).split('.').filter(Boolean).join('/')
    const candidates = (dir: string | null) => (dir === null ? [] : rest === '' ? [joinRepoPath(dir, '__init__.py')] : [joinRepoPath(dir, `${rest}.py`), joinRepoPath(dir, `${rest}/__init__.py`)])
    if (dots > 0) {
      let dir: string | null = parentDir(from)
      for (let level = 1; level < dots && dir !== null; level++) dir = dir === '' ? null : parentDir(dir)
      return this.firstExisting(candidates(dir))
    }
    // Absolute: the nearest enclosing folder that has the module wins (a source root).
    let dir = parentDir(from)
    for (;;) {
      const found = this.firstExisting(candidates(dir))
      if (found) return found
      if (dir === '') break
      dir = parentDir(dir)
    }
    return this.uniqueSuffix(rest, [`/${rest}.py`, `/${rest}/__init__.py`])
  }

  /** `com.acme.db.Repo`: the file declaring that class (by its path). */
  /**
   * Go: the folder an import path ends with (`example.com/app/internal/db` -> `internal/db`, the
   * longest such folder), as its first file: a package is all the files of its folder.
   */
  private resolveGo(module: string): string | null {
    let best: string | null = null
    for (const path of this.inputs.keys()) {
      if (!path.endsWith('.go')) continue
      const folder = parentDir(path)
      if (folder === '' || !(module === folder || module.endsWith(`/${folder}`))) continue
      if (best === null || folder.length > parentDir(best).length || (folder === parentDir(best) && path < best)) best = path
    }
    return best
  }

  private resolveJava(module: string): string | null {
    const path = module.replace(/\./g, '/')
    const base = module.slice(module.lastIndexOf('.') + 1)
    return this.byBaseName.get(`${base}.java`)?.find((candidate) => candidate === `${path}.java` || candidate.endsWith(`/${path}.java`)) ?? null
  }

  /** Java: the file declaring the fully-qualified class `com.acme.db.Repo`, or null. */
  resolveJavaFile(qualifiedName: string): string | null {
    return this.resolveJava(qualifiedName)
  }

  /** Java: the file of class `name` seen from `from` (same package, imports, unique name). */
  resolveJavaClass(from: FileUnit, name: string): string | null {
    const candidates = this.byBaseName.get(`${name}.java`) ?? []
    if (candidates.length === 0) return null
    const samePackage = candidates.find((candidate) => parentDir(candidate) === parentDir(from.path))
    if (samePackage) return samePackage
    const imported = from.importBinding(name)
    if (imported) {
      const path = this.resolveJava(`${imported.decl.module}.${name}`)
      if (path) return path
    }
    for (const decl of from.wildcardImports()) {
      const path = this.resolveJava(`${decl.module}.${name}`)
      if (path) return path
    }
    return candidates.length === 1 ? (candidates[0] ?? null) : null
  }

  /** The one file ending like this module, if exactly one does (searched once per module). */
  private uniqueSuffix(module: string, suffixes: string[]): string | null {
    const known = this.bySuffix.get(module)
    if (known !== undefined) return known
    // A path ending like a suffix has the suffix's file name: only the files of that name are looked at.
    const candidates = new Set(suffixes.flatMap((suffix) => this.byBaseName.get(suffix.slice(suffix.lastIndexOf('/') + 1)) ?? []))
    const found = [...candidates].filter((path) => suffixes.some((suffix) => path.endsWith(suffix) || `/${path}` === suffix))
    const result = found.length === 1 ? (found[0] ?? null) : null
    this.bySuffix.set(module, result)
    return result
  }
}
