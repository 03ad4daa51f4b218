/**
 * Import resolution: each import of each file becomes internal files (or a Go/Swift package
 * folder), an external package of some ecosystem, or a platform module; and each imported
 * name becomes the file and exported name it refers to. Per-language conventions: Node
 * resolution with TypeScript's `.js`-means-`.ts`, workspace packages and `@/` aliases; Python
 * packages found from any source root; Java/Kotlin by package and class; Go by go.mod module
 * path; Rust `mod`/`crate::`; C includes; C# namespaces; PHP PSR-4; Ruby and shell relative.
 */
import { builtinModules } from 'node:module'
import { libraryForJava, npmPackageName } from './catalog.ts'
import type { Ecosystem } from './catalog.ts'
import type { Manifest } from './manifests.ts'
import type { FileFacts, ImportFact } from './model.ts'
import { JS_MODULE_EXTENSIONS, joinRepoPath, normalizeRepoPath, parentDir } from '../core/repo-paths.ts'

export interface ResolvedBinding {
  file: string
  /** Exported name, `default`, or `*` for the module itself. */
  name: string
}

export interface ImportResolution {
  specifier: string
  line: number
  /** Internal files, or folders ending in `/` for package-level languages. */
  internal: string[]
  external?: { ecosystem: Ecosystem | 'system'; name: string }
  builtin: boolean
  bindings: Map<string, ResolvedBinding>
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))
const PYTHON_STDLIB = new Set(
  'abc argparse array ast asyncio base64 binascii bisect builtins bz2 calendar cgi cmd codecs collections colorsys concurrent configparser contextlib contextvars copy csv ctypes dataclasses datetime decimal difflib dis email enum errno fcntl filecmp fnmatch fractions functools gc getopt getpass gettext glob gzip hashlib heapq hmac html http imaplib importlib inspect io ipaddress itertools json keyword locale logging lzma mailbox math mimetypes multiprocessing netrc numbers operator optparse os pathlib pdb pickle pkgutil platform plistlib pprint profile pwd queue random re readline reprlib resource secrets select selectors shelve shlex shutil signal site smtplib socket socketserver sqlite3 ssl stat statistics string struct subprocess sys sysconfig tarfile tempfile textwrap threading time timeit tkinter token tokenize tomllib traceback types typing unicodedata unittest urllib uuid venv warnings weakref webbrowser wsgiref xml xmlrpc zipfile zipimport zlib zoneinfo __future__'.split(' '),
)
const RUBY_STDLIB = new Set('json set date time net/http open3 fileutils securerandom digest yaml erb uri csv logger optparse pathname tempfile socket openssl base64 benchmark English etc find forwardable io/console ostruct pp prettyprint shellwords singleton stringio strscan timeout tmpdir zlib'.split(' '))
const SWIFT_PLATFORM = new Set(['Foundation', 'UIKit', 'SwiftUI', 'Combine', 'Dispatch', 'os', 'XCTest', 'AppKit', 'CoreData', 'CoreGraphics', 'Darwin', 'Glibc', 'Security', 'CryptoKit', 'Network'])


function stripExtension(path: string): string {
  return path.replace(/\.[^./]+$/, '')
}

export class Resolver {
  private readonly paths: Set<string>
  private readonly byBasename = new Map<string, string[]>()
  private readonly pythonModules = new Map<string, string[]>()
  private readonly javaTypes = new Map<string, string>()
  private readonly packages = new Map<string, string[]>()
  private readonly npmWorkspaces = new Map<string, string>()
  private readonly goModules: Array<{ module: string; dir: string }> = []
  private readonly psr4: Array<{ prefix: string; dir: string }> = []
  private readonly dirs = new Set<string>()

  constructor(files: ReadonlyMap<string, FileFacts>, manifests: readonly Manifest[]) {
    this.paths = new Set(files.keys())
    for (const path of this.paths) this.indexPath(path)
    for (const facts of files.values()) this.indexFacts(facts)
    for (const manifest of manifests) this.indexManifest(manifest)
  }

  private indexPath(path: string): void {
    const base = path.slice(path.lastIndexOf('/') + 1)
    this.byBasename.set(base, [...(this.byBasename.get(base) ?? []), path])
    for (let dir = parentDir(path); dir; dir = parentDir(dir)) this.dirs.add(dir)
    if (path.endsWith('.py')) {
      // Every suffix of the dotted path is a module name some source root could give it.
      const segments = stripExtension(path).split('/')
      if (segments[segments.length - 1] === '__init__') segments.pop()
      for (let start = 0; start < segments.length; start++) {
        const name = segments.slice(start).join('.')
        if (name) this.pythonModules.set(name, [...(this.pythonModules.get(name) ?? []), path])
      }
    }
  }

  private indexFacts(facts: FileFacts): void {
    if (!facts.packageName) return
    this.packages.set(facts.packageName, [...(this.packages.get(facts.packageName) ?? []), facts.path])
    const stem = stripExtension(facts.path.slice(facts.path.lastIndexOf('/') + 1))
    for (const type of new Set([...facts.typeNames, stem])) this.javaTypes.set(`${facts.packageName}.${type}`, facts.path)
  }

  private indexManifest(manifest: Manifest): void {
    const dir = parentDir(manifest.path)
    if (manifest.ecosystem === 'npm' && manifest.name) this.npmWorkspaces.set(manifest.name, dir)
    if (manifest.ecosystem === 'go' && manifest.modulePath) this.goModules.push({ module: manifest.modulePath, dir })
    for (const [prefix, target] of Object.entries(manifest.psr4 ?? {})) this.psr4.push({ prefix, dir: joinRepoPath(dir, target) ?? target })
  }

  /** Nearest of several candidate files to the importing file (longest shared folder prefix). */
  private nearest(from: string, candidates: readonly string[]): string | undefined {
    let best: string | undefined
    let bestScore = -1
    for (const candidate of [...candidates].sort()) {
      let score = 0
      const a = from.split('/')
      const b = candidate.split('/')
      while (score < a.length && score < b.length && a[score] === b[score]) score++
      if (score > bestScore) {
        best = candidate
        bestScore = score
      }
    }
    return best
  }

  resolveAll(facts: FileFacts): ImportResolution[] {
    return facts.imports.map((fact) => this.resolve(facts, fact))
  }

  resolve(facts: FileFacts, fact: ImportFact): ImportResolution {
    const result: ImportResolution = { specifier: fact.specifier, line: fact.line, internal: [], builtin: false, bindings: new Map() }
    switch (facts.language) {
      case 'javascript':
      case 'typescript':
      case 'tsx':
        this.resolveJs(facts, fact, result)
        break
      case 'python':
        this.resolvePython(facts, fact, result)
        break
      case 'java':
      case 'kotlin':
      case 'scala':
        this.resolveJvm(fact, result)
        break
      default:
        this.resolveOther(facts, fact, result)
    }
    result.internal = [...new Set(result.internal)].filter((path) => path !== facts.path).sort()
    return result
  }

  private jsFile(base: string): string | undefined {
    const candidates = [base, ...JS_MODULE_EXTENSIONS.map((ext) => `${base}${ext}`), ...JS_MODULE_EXTENSIONS.map((ext) => `${base}/index${ext}`)]
    // TypeScript sources import their siblings as `./x.js`.
    const swapped = /\.[cm]?js$/.test(base) ? [base.replace(/\.([cm]?)js$/, '.$1ts'), base.replace(/\.js$/, '.tsx')] : []
    return [...candidates, ...swapped].find((candidate) => this.paths.has(candidate))
  }

  private resolveJs(facts: FileFacts, fact: ImportFact, result: ImportResolution): void {
    const spec = fact.specifier
    let target: string | undefined
    if (spec.startsWith('.') || spec.startsWith('/')) {
      const base = spec.startsWith('/') ? normalizeRepoPath(spec) : joinRepoPath(parentDir(facts.path), spec)
      target = base === null ? undefined : this.jsFile(base)
    } else if (/^[@~#]\//.test(spec)) {
      const rest = spec.slice(2)
      target = this.jsFile(`src/${rest}`) ?? this.jsFile(rest)
    } else {
      const pkg = npmPackageName(spec.replace(/^node:/, ''))
      const workspace = this.npmWorkspaces.get(pkg)
      if (workspace !== undefined) {
        const sub = spec.slice(pkg.length).replace(/^\//, '')
        target = sub ? (this.jsFile(joinRepoPath(workspace, sub) ?? sub) ?? this.jsFile(joinRepoPath(workspace, `src/${sub}`) ?? sub)) : (this.jsFile(joinRepoPath(workspace, 'src/index') ?? 'src/index') ?? this.jsFile(joinRepoPath(workspace, 'index') ?? 'index'))
      } else if (NODE_BUILTINS.has(spec)) result.builtin = true
      else result.external = { ecosystem: 'npm', name: pkg }
    }
    if (target) {
      result.internal.push(target)
      for (const binding of fact.bindings) result.bindings.set(binding.local, { file: target, name: binding.imported })
    }
  }

  pythonModule(dotted: string, from: string): string | undefined {
    const candidates = this.pythonModules.get(dotted)
    return candidates ? this.nearest(from, candidates) : undefined
  }

  private relativePython(facts: FileFacts, level: number, module: string): string | undefined {
    let dir = parentDir(facts.path)
    for (let up = 1; up < level; up++) dir = parentDir(dir)
    const base = module ? joinRepoPath(dir, module.replace(/\./g, '/')) : dir
    if (base === null) return undefined
    return [`${base}.py`, `${base}/__init__.py`].find((candidate) => this.paths.has(candidate))
  }

  private resolvePython(facts: FileFacts, fact: ImportFact, result: ImportResolution): void {
    const level = fact.level ?? 0
    const module = fact.specifier
    const moduleFile = level > 0 ? this.relativePython(facts, level, module) : this.pythonModule(module, facts.path)
    for (const binding of fact.bindings) {
      // `from pkg import sub` may name a submodule rather than a name defined in pkg.
      const sub = level > 0 ? this.relativePython(facts, level, module ? `${module}.${binding.imported}` : binding.imported) : module ? this.pythonModule(`${module}.${binding.imported}`, facts.path) : undefined
      if (sub && binding.imported !== '*') {
        result.internal.push(sub)
        result.bindings.set(binding.local, { file: sub, name: '*' })
      } else if (moduleFile) {
        result.bindings.set(binding.local, { file: moduleFile, name: binding.imported })
      }
    }
    if (moduleFile && (fact.bindings.length === 0 || [...result.bindings.values()].some((binding) => binding.file === moduleFile))) result.internal.push(moduleFile)
    if (result.internal.length > 0 || level > 0) return
    const top = module.split('.')[0] ?? module
    if (PYTHON_STDLIB.has(top)) result.builtin = true
    else result.external = { ecosystem: 'pypi', name: top }
  }

  private resolveJvm(fact: ImportFact, result: ImportResolution): void {
    const spec = fact.specifier
    if (spec.endsWith('.*')) {
      const members = this.packages.get(spec.slice(0, -2))
      if (members) result.internal.push(...members.slice(0, 50))
    } else {
      const file = this.javaTypes.get(spec) ?? this.packages.get(spec)?.[0]
      if (file) {
        result.internal.push(file)
        for (const binding of fact.bindings) result.bindings.set(binding.local, { file, name: binding.imported })
      }
    }
    if (result.internal.length > 0) return
    const name = spec.replace(/\.\*$/, '')
    const library = libraryForJava(name)
    if (/^(?:java|javax|kotlin|scala|sun|jdk)\./.test(name) && !library) result.builtin = true
    else result.external = { ecosystem: 'maven', name: library?.label ?? name.split('.').slice(0, 2).join('.') }
  }

  private resolveOther(facts: FileFacts, fact: ImportFact, result: ImportResolution): void {
    const spec = fact.specifier
    const add = (target: string | undefined) => {
      if (target) result.internal.push(target)
      return target !== undefined
    }
    switch (facts.language) {
      case 'go':
        return this.resolveGo(spec, result)
      case 'rust':
        if (add(this.resolveRust(facts.path, spec))) return
        if (/^(?:std|core|alloc|self|super|crate)\b/.test(spec) || spec.startsWith('mod ')) result.builtin = !spec.startsWith('mod ') && !/^(?:self|super|crate)\b/.test(spec)
        else result.external = { ecosystem: 'cargo', name: spec.split('::')[0] ?? spec }
        return
      case 'c':
      case 'cpp': {
        const local = spec.startsWith('<') ? spec.slice(1, -1) : spec
        const relative = spec.startsWith('<') ? undefined : (joinRepoPath(parentDir(facts.path), local) ?? undefined)
        if (add(relative && this.paths.has(relative) ? relative : this.suffixMatch(facts.path, local))) return
        result.external = { ecosystem: 'system', name: local }
        return
      }
      case 'csharp': {
        const members = this.packages.get(spec)
        if (members) return void result.internal.push(...members.slice(0, 50))
        if (/^(?:System|Microsoft)\b/.test(spec)) result.builtin = true
        else result.external = { ecosystem: 'nuget', name: spec.split('.').slice(0, 2).join('.') }
        return
      }
      case 'swift':
        if (this.dirs.has(`Sources/${spec}`)) return void result.internal.push(`Sources/${spec}/`)
        if (SWIFT_PLATFORM.has(spec)) result.builtin = true
        else result.external = { ecosystem: 'system', name: spec }
        return
      case 'ruby': {
        const base = spec.startsWith('.') ? joinRepoPath(parentDir(facts.path), spec) : null
        const candidates = base ? [`${base}.rb`, base] : [`lib/${spec}.rb`, `${spec}.rb`, `app/${spec}.rb`]
        if (add(candidates.find((candidate) => this.paths.has(candidate)))) return
        if (RUBY_STDLIB.has(spec)) result.builtin = true
        else result.external = { ecosystem: 'gem', name: spec.split('/')[0] ?? spec }
        return
      }
      case 'php':
        return this.resolvePhp(facts, spec, result)
      case 'bash': {
        const target = joinRepoPath(parentDir(facts.path), spec) ?? ''
        if (!add(this.paths.has(target) ? target : this.paths.has(spec.replace(/^\.\//, '')) ? spec.replace(/^\.\//, '') : undefined)) result.external = { ecosystem: 'system', name: spec }
        return
      }
    }
  }

  private suffixMatch(from: string, suffix: string): string | undefined {
    const base = suffix.slice(suffix.lastIndexOf('/') + 1)
    const candidates = (this.byBasename.get(base) ?? []).filter((path) => path === suffix || path.endsWith(`/${suffix}`))
    return candidates.length > 0 ? this.nearest(from, candidates) : undefined
  }

  private resolveGo(spec: string, result: ImportResolution): void {
    for (const { module, dir } of this.goModules) {
      if (spec !== module && !spec.startsWith(`${module}/`)) continue
      const folder = joinRepoPath(dir, spec.slice(module.length).replace(/^\//, '')) ?? ''
      if (folder === '' || this.dirs.has(folder)) {
        result.internal.push(`${folder}/`)
        return
      }
    }
    if (!(spec.split('/')[0] ?? '').includes('.')) result.builtin = true
    else result.external = { ecosystem: 'go', name: spec.split('/').slice(0, 3).join('/') }
  }

  private resolveRust(from: string, spec: string): string | undefined {
    const dir = parentDir(from)
    const stem = stripExtension(from.slice(from.lastIndexOf('/') + 1))
    if (spec.startsWith('mod ')) {
      const name = spec.slice(4)
      const base = /^(?:mod|lib|main)$/.test(stem) ? dir : joinRepoPath(dir, stem)
      return [`${base}/${name}.rs`, `${base}/${name}/mod.rs`].map((path) => normalizeRepoPath(path) ?? path).find((path) => this.paths.has(path))
    }
    const match = /^(crate|self|super)::([\w:]+)/.exec(spec)
    if (!match) return undefined
    const segments = (match[2] ?? '').split('::')
    const crateRoot = match[1] === 'crate' ? this.crateRoot(from) : match[1] === 'super' ? parentDir(dir) : dir
    for (let length = segments.length; length > 0; length--) {
      const base = joinRepoPath(crateRoot, segments.slice(0, length).join('/')) ?? ''
      const found = [`${base}.rs`, `${base}/mod.rs`].find((path) => this.paths.has(path))
      if (found) return found
    }
    return undefined
  }

  private crateRoot(from: string): string {
    const parts = from.split('/')
    const src = parts.lastIndexOf('src')
    return src === -1 ? parentDir(from) : parts.slice(0, src + 1).join('/')
  }

  private resolvePhp(facts: FileFacts, spec: string, result: ImportResolution): void {
    if (spec.endsWith('.php')) {
      const target = joinRepoPath(parentDir(facts.path), spec)
      const found = target && this.paths.has(target) ? target : this.paths.has(spec) ? spec : this.suffixMatch(facts.path, spec.replace(/^\.\//, ''))
      if (found) result.internal.push(found)
      else result.external = { ecosystem: 'system', name: spec }
      return
    }
    for (const { prefix, dir } of this.psr4) {
      if (!spec.startsWith(prefix)) continue
      const path = joinRepoPath(dir, `${spec.slice(prefix.length).replace(/\\/g, '/')}.php`)
      if (path && this.paths.has(path)) return void result.internal.push(path)
    }
    const found = this.suffixMatch(facts.path, `${spec.split('\\').slice(1).join('/')}.php`)
    if (found) result.internal.push(found)
    else result.external = { ecosystem: 'composer', name: spec.split('\\').slice(0, 2).join('\\') }
  }
}
