/**
 * Program-wide state of one analysis: function summaries (computed once, with symbolic
 * parameters), module environments (each file's top level run once), import and type
 * resolution across files, and the source-to-sink paths found. interpreter.ts does the
 * per-function work and calls back here for everything that crosses a function or a file.
 */
import type { ClassDef, FieldDef, FunctionDef, ImportBinding, ImportDecl, Site } from './ir.ts'
import { DEFAULT_SINK_SCOPES, sinkKindBit } from './kinds.ts'
import type { SinkKind } from './kinds.ts'
import type { FileUnit, Program } from './program.ts'
import type { SinkSpec } from './spec.ts'
import type { TaintOverlay } from './overlay.ts'
import { FunctionRun } from './interpreter.ts'
import { backtrackingSink, judgeRegex, lengthBoundOf } from './redos.ts'
import { State } from './state.ts'
import { parentDir } from '../core/repo-paths.ts'
import { CLEAN, deepFacts, readField, sanitizerFor, val, withField } from './values.ts'
import type { Fact, Step, Val } from './values.ts'

/** A sink reached: which catalog entry, where, through which callee. */
export interface SinkHit {
  readonly spec: SinkSpec
  readonly site: Site
  /** the callee or target as written: `cursor.execute`, `ctx.body` */
  readonly callee: string
  /**
   * A regular expression run (`re.test(s)`): a sink only if recheck judges its pattern
   * super-linear. Judging costs up to a second a pattern, and most runs never see untrusted text,
   * so it waits until a source reaches the run (record); `spec` is the kind's placeholder till then.
   */
  readonly regexRun?: { readonly literal: string; readonly method: string }
}

/** A parameter of a summarized function that reaches a sink inside it. */
export interface ParamSink {
  readonly fact: Fact
  readonly hit: SinkHit
  /** the sink was configured safely (hardened parser): the path is sanitized */
  readonly safe: Step | null
}

export interface Summary {
  readonly returns: Val
  readonly sinks: readonly ParamSink[]
  /** the receiver's value at exit (fields a method or constructor set) */
  readonly receiverOut: Val | null
}

export interface TraceRecord {
  readonly fact: Fact
  readonly hit: SinkHit
  readonly sanitized: boolean
  readonly sanitizer: Step | null
}

export const ENGINE_LIMITS = {
  /** nested summary computations before a call is treated as unknown */
  summaryDepth: 14,
  /** nested inline analyses of callbacks and local functions */
  inlineDepth: 3,
  /** source-to-sink paths kept (the rest are counted) */
  traces: 20_000,
  /** an interface is resolved to its implementation only when there is exactly this many */
  implementors: 1,
  /** parameter-to-sink entries kept per summary */
  sinksPerSummary: 200,
}

export class AbortError extends Error {
  constructor() {
    super('data-flow analysis aborted')
    this.name = 'AbortError'
  }
}

export class Engine {
  private readonly summaries = new Map<string, Summary | 'running'>()
  private readonly modules = new Map<string, State>()
  private readonly imports = new Map<string, Val>()
  private readonly implementations = new Map<string, ClassDef | null>()
  private depth = 0
  readonly traces = new Map<string, TraceRecord>()
  droppedTraces = 0
  /**
   * Every sink call the analysis evaluated, by site and kind, and whether some data that is not
   * sanitized for it (from a source, a parameter or an out-of-scope source) reached it: a sink
   * that stayed clean lets the scan drop pattern findings there (merge.ts).
   */
  readonly sinkSites = new Map<string, { site: Site; kind: SinkKind; dirty: boolean }>()
  /** function literals analyzed in place (with their closure); not analyzed again on their own */
  readonly inlined = new Set<string>()
  private work = 0
  /** functions whose result carries untrusted input they read themselves (request helpers), in summary order */
  readonly sourceReaders: FunctionDef[] = []

  constructor(
    readonly program: Program,
    private readonly signal?: AbortSignal,
    /** a user taint rule's matches (overlay.ts): the analysis runs for that rule */
    readonly overlay: TaintOverlay | null = null,
  ) {}

  /** Called often; throws once the caller aborted. */
  tick(): void {
    if ((++this.work & 63) === 0 && this.signal?.aborted) throw new AbortError()
  }

  unitOf(path: string): FileUnit {
    const unit = this.program.unit(path)
    if (!unit) throw new Error(`no data-flow unit for ${path}`)
    return unit
  }

  /** The summary of a function, or null while it is being computed (recursion) or too deep. */
  summaryOf(fn: FunctionDef): Summary | null {
    const known = this.summaries.get(fn.id)
    if (known === 'running') return null
    if (known) return known
    if (this.depth >= ENGINE_LIMITS.summaryDepth) return null
    this.tick()
    this.summaries.set(fn.id, 'running')
    this.depth++
    try {
      const summary = new FunctionRun(this, this.unitOf(fn.path), fn, null, 0).summarize()
      this.summaries.set(fn.id, summary)
      if (deepFacts(summary.returns).some((fact) => fact.origin.type === 'source')) this.sourceReaders.push(fn)
      return summary
    } catch (error) {
      this.summaries.delete(fn.id)
      throw error
    } finally {
      this.depth--
    }
  }

  hasSummary(fn: FunctionDef): boolean {
    return this.summaries.has(fn.id)
  }

  /** A file's top-level environment; runs the top level on first use (partial while running). */
  moduleState(unit: FileUnit): State {
    const known = this.modules.get(unit.path)
    if (known) return known
    const state = new State()
    if (unit.spec.syntax.commonJsExports) {
      const exportsObject = val({ fields: new Map() })
      state.vars.set('module', val({ fields: new Map([['exports', exportsObject]]) }))
      state.vars.set('exports', exportsObject)
    }
    this.modules.set(unit.path, state)
    new FunctionRun(this, unit, null, null, 0).runModule(state)
    return state
  }

  /** What a module exports under `name` (`default` for default exports), or null. */
  exported(path: string, name: string): Val | null {
    const unit = this.program.unit(path)
    if (!unit) return null
    const vars = this.moduleState(unit).vars
    const local = unit.esExports.get(name)
    if (local !== undefined) return vars.get(local) ?? this.importedName(unit, local)
    if (unit.spec.syntax.commonJsExports) {
      const moduleExports = commonJsExports(vars.get('module') ?? CLEAN, vars.get('exports') ?? CLEAN)
      if (name === 'default') return moduleExports
      const fromCommonJs = moduleExports.fields?.get(name)
      if (fromCommonJs) return fromCommonJs
    }
    return vars.get(name) ?? (unit.spec.syntax.packageScope ? this.packageValue(unit, name) : null)
  }

  /** A top-level import by its local name (`import { a } from './m'; export { a }`), or null. */
  private importedName(unit: FileUnit, local: string): Val | null {
    const imported = unit.importBinding(local)
    return imported ? this.importValue(unit, imported.decl, imported.binding) : null
  }

  /** The value an import binds: a project module's export, a module, or an external API name. */
  importValue(unit: FileUnit, decl: ImportDecl, binding: ImportBinding): Val {
    const key = `${unit.path}\u0000${decl.module}\u0000${binding.local}\u0000${binding.imported ?? ''}`
    const known = this.imports.get(key)
    if (known) return known
    // Placeholder first: import cycles read it instead of recursing forever.
    this.imports.set(key, val({ qname: qualified(decl.module, binding.imported) }))
    const value = this.resolveImport(unit, decl, binding)
    this.imports.set(key, value)
    return value
  }

  private resolveImport(unit: FileUnit, decl: ImportDecl, binding: ImportBinding): Val {
    const qname = qualified(decl.module, binding.imported)
    if (unit.spec.syntax.moduleResolution === 'java') {
      const cls = binding.imported ? this.classByName(unit, binding.imported) : null
      return cls ? val({ ref: { t: 'class', cls }, qname }) : val({ qname })
    }
    if (binding.imported === null && unit.spec.syntax.moduleResolution === 'python' && binding.local !== decl.module && decl.module.startsWith(`${binding.local}.`)) {
      // `import a.b` binds the package `a`; `a.b.f()` reaches the submodule as a member of it.
      const root = this.program.resolveModule(unit, binding.local)
      return val({ ref: root ? { t: 'module', path: root } : null, qname: binding.local })
    }
    const target = this.program.resolveModule(unit, decl.module)
    if (binding.imported === null) return val({ ref: target ? { t: 'module', path: target } : null, qname: decl.module })
    if (target) {
      const exported = this.exported(target, binding.imported)
      if (exported) return exported
    }
    // `from pkg import mod` where mod is a file of the package
    const submodule = this.program.resolveModule(unit, `${decl.module}${decl.module.endsWith('.') ? '' : '.'}${binding.imported}`)
    if (submodule && unit.spec.syntax.moduleResolution === 'python') return val({ ref: { t: 'module', path: submodule }, qname })
    return val({ qname })
  }

  /** `require('./x')` / `require('x')`. */
  requireValue(unit: FileUnit, specifier: string): Val {
    const target = this.program.resolveModule(unit, specifier)
    if (!target) return val({ qname: specifier })
    return this.exported(target, 'default') ?? val({ ref: { t: 'module', path: target }, qname: specifier })
  }

  private readonly packageValues = new Map<string, Val | null>()

  /** Go: a top-level name declared by another file of the same folder (package), or null. */
  packageValue(unit: FileUnit, name: string): Val | null {
    const folder = parentDir(unit.path)
    const key = `${folder}\u0000${name}`
    const known = this.packageValues.get(key)
    if (known !== undefined) return known
    this.packageValues.set(key, null)
    let found: Val | null = null
    for (const path of this.program.pathsIn(folder)) {
      const other = path === unit.path ? null : this.program.unit(path)
      if (!other || other.spec !== unit.spec || !other.text.includes(name)) continue
      found = this.moduleState(other).vars.get(name) ?? null
      if (found) break
    }
    this.packageValues.set(key, found)
    return found
  }

  private readonly packageMethods = new Map<string, Map<string, FunctionDef>>()

  /**
   * Go: the method `name` declared for type `type` (`*T`, `T`, or `pkg.T` of an imported package
   * of the repository) in the package of the file that wrote the type, or null.
   */
  packageMethod(unit: FileUnit, type: string, name: string): FunctionDef | null {
    const bare = type.replace(/^\*+/, '')
    const dot = bare.indexOf('.')
    let folder = parentDir(unit.path)
    if (dot !== -1) {
      const imported = unit.importBinding(bare.slice(0, dot))
      const target = imported ? this.program.resolveModule(unit, imported.decl.module) : null
      if (!target) return null
      folder = parentDir(target)
    }
    let methods = this.packageMethods.get(folder)
    if (!methods) {
      methods = new Map()
      this.packageMethods.set(folder, methods)
      for (const path of this.program.pathsIn(folder)) {
        const other = this.program.unit(path)
        if (!other || other.spec !== unit.spec) continue
        for (const fn of other.functions()) {
          const receiverType = fn.receiver?.type?.replace(/^\*+/, '')
          if (receiverType && fn.name) methods.set(`${receiverType}.${fn.name}`, fn)
        }
      }
    }
    return methods.get(`${dot === -1 ? bare : bare.slice(dot + 1)}.${name}`) ?? null
  }

  /** A class named in `unit` (declared, imported, or found by Java's rules), or null. */
  classByName(unit: FileUnit, name: string): ClassDef | null {
    const simple = name.replace(/\[\]$/, '')
    if (simple.includes('.')) return this.qualifiedClass(unit, simple)
    const local = this.moduleState(unit).vars.get(simple)
    if (local?.ref?.t === 'class') return local.ref.cls
    if (unit.spec.syntax.moduleResolution === 'java') {
      const path = this.program.resolveJavaClass(unit, simple)
      const target = path && path !== unit.path ? this.program.unit(path) : null
      const found = target ? this.moduleState(target).vars.get(simple) : undefined
      if (found?.ref?.t === 'class') return found.ref.cls
      // `import com.acme.Outer.Inner;`: a nested class of an imported project class
      const imported = unit.importBinding(simple)
      const nestedImport = imported && imported.binding.imported === simple ? this.qualifiedClass(unit, `${imported.decl.module}.${simple}`) : null
      return nestedImport ?? this.nestedInUnit(unit, simple)
    }
    const imported = unit.importBinding(simple)
    if (imported) {
      const value = this.importValue(unit, imported.decl, imported.binding)
      if (value.ref?.t === 'class') return value.ref.cls
    }
    return this.nestedInUnit(unit, simple)
  }

  private readonly qualifiedClasses = new Map<string, ClassDef | null>()

  /**
   * A dotted class name: `Outer.Inner` (nested at any depth, Outer found as any class name is),
   * `com.acme.Db` or `com.acme.Outer.Inner` (Java, fully qualified, no import needed), or
   * `models.User` through an imported module.
   */
  qualifiedClass(unit: FileUnit, dotted: string): ClassDef | null {
    const key = `${unit.path}\u0000${dotted}`
    const known = this.qualifiedClasses.get(key)
    if (known !== undefined) return known
    this.qualifiedClasses.set(key, null)
    const parts = dotted.split('.')
    const walk = (start: ClassDef | null, rest: readonly string[]): ClassDef | null => {
      let cls = start
      for (const part of rest) cls = cls ? this.nestedClass(cls, part) : null
      return cls
    }
    let found: ClassDef | null = null
    const first = parts[0] ?? ''
    if (unit.spec.syntax.moduleResolution === 'java') {
      // The longest prefix that names a project file's class; the rest are nested classes.
      for (let length = parts.length; length >= 2 && !found; length--) {
        const path = this.program.resolveJavaFile(parts.slice(0, length).join('.'))
        const target = path ? this.program.unit(path) : null
        const top = target ? this.moduleState(target).vars.get(parts[length - 1] ?? '') : undefined
        if (top?.ref?.t === 'class') found = walk(top.ref.cls, parts.slice(length))
      }
      if (!found && /^[A-Z]/.test(first)) found = walk(this.classByName(unit, first), parts.slice(1))
    } else {
      const local = this.moduleState(unit).vars.get(first)
      const imported = local ? null : unit.importBinding(first)
      const value = local ?? (imported ? this.importValue(unit, imported.decl, imported.binding) : null)
      if (value?.ref?.t === 'class') found = walk(value.ref.cls, parts.slice(1))
      else if (value?.ref?.t === 'module' && parts.length >= 2) {
        const exported = this.exported(value.ref.path, parts[1] ?? '')
        if (exported?.ref?.t === 'class') found = walk(exported.ref.cls, parts.slice(2))
      }
    }
    this.qualifiedClasses.set(key, found)
    return found
  }

  /** A class declared in `cls` (or inherited from a superclass's body), by simple name. */
  nestedClass(cls: ClassDef, name: string, depth = 0): ClassDef | null {
    const own = cls.classes.get(name)
    if (own) return own
    if (depth > 5) return null
    const unit = this.program.unit(cls.path)
    for (const superName of unit ? cls.superclasses : []) {
      const superclass = this.classByName(unit as FileUnit, superName)
      const found = superclass ? this.nestedClass(superclass, name, depth + 1) : null
      if (found) return found
    }
    return null
  }

  /** A class visible by simple name inside `cls`: nested in it or in a class enclosing it. */
  classInScope(cls: ClassDef, name: string): ClassDef | null {
    let current: ClassDef | null = cls
    for (let depth = 0; current && depth < 8; depth++, current = current.outer) {
      const found = current.classes.get(name)
      if (found) return found
    }
    return null
  }

  private readonly nestedIndex = new Map<string, Map<string, ClassDef | null>>()

  /** A nested class of this file named `name`, when exactly one class of the file has that name. */
  private nestedInUnit(unit: FileUnit, name: string): ClassDef | null {
    let index = this.nestedIndex.get(unit.path)
    if (!index) {
      index = new Map()
      this.nestedIndex.set(unit.path, index)
      const pending: ClassDef[] = []
      for (const value of this.moduleState(unit).vars.values()) if (value.ref?.t === 'class' && value.ref.cls.path === unit.path) pending.push(...value.ref.cls.classes.values())
      const seen = new Set<ClassDef>()
      for (let cls = pending.pop(); cls; cls = pending.pop()) {
        if (seen.has(cls)) continue
        seen.add(cls)
        index.set(cls.name, index.has(cls.name) ? null : cls)
        pending.push(...cls.classes.values())
      }
    }
    return index.get(name) ?? null
  }

  /** A method of a class or of its superclasses; for an interface, of its one implementation. */
  findMethod(cls: ClassDef, name: string, depth = 0): FunctionDef | null {
    const own = cls.methods.get(name)
    if (own && !(cls.isInterface && isAbstract(own))) return own
    if (depth > 5) return null
    const unit = this.program.unit(cls.path)
    if (unit) {
      for (const superName of cls.superclasses) {
        const superclass = this.classByName(unit, superName)
        const found = superclass ? this.findMethod(superclass, name, depth + 1) : null
        if (found) return found
      }
    }
    if (cls.isInterface || (own && isAbstract(own))) {
      const implementation = this.implementationOf(cls)
      return implementation ? this.findMethod(implementation, name, depth + 1) : null
    }
    return own ?? null
  }

  /** A field declared by a class or its superclasses. */
  findField(cls: ClassDef, name: string, depth = 0): FieldDef | null {
    const own = cls.fields.get(name)
    if (own) return own
    if (depth > 5) return null
    const unit = this.program.unit(cls.path)
    for (const superName of cls.superclasses) {
      const superclass = unit ? this.classByName(unit, superName) : null
      const found = superclass ? this.findField(superclass, name, depth + 1) : null
      if (found) return found
    }
    return null
  }

  /** The class (itself or a superclass) whose body declares a field: its file gives the field's type a meaning. */
  fieldOwner(cls: ClassDef, name: string, depth = 0): ClassDef | null {
    if (cls.fields.has(name)) return cls
    if (depth > 5) return null
    const unit = this.program.unit(cls.path)
    for (const superName of cls.superclasses) {
      const superclass = unit ? this.classByName(unit, superName) : null
      const found = superclass ? this.fieldOwner(superclass, name, depth + 1) : null
      if (found) return found
    }
    return null
  }

  /** The single class of the program that implements an interface (Spring services). */
  private implementationOf(cls: ClassDef): ClassDef | null {
    const known = this.implementations.get(cls.id)
    if (known !== undefined) return known
    this.implementations.set(cls.id, null)
    const found: ClassDef[] = []
    for (const path of this.program.paths()) {
      const unit = this.program.unit(path)
      if (!unit || unit.spec !== this.unitOf(cls.path).spec || !unit.text.includes(cls.name)) continue
      for (const value of this.moduleState(unit).vars.values()) {
        if (value.ref?.t === 'class' && value.ref.cls !== cls && value.ref.cls.superclasses.includes(cls.name)) found.push(value.ref.cls)
      }
    }
    const result = found.length === ENGINE_LIMITS.implementors ? (found[0] ?? null) : null
    this.implementations.set(cls.id, result)
    return result
  }

  /** Notes that a sink call was evaluated; once dirty, a site stays dirty. */
  noteSink(hit: SinkHit, dirty: boolean): void {
    const key = `${hit.site.key}|${hit.spec.kind}`
    const known = this.sinkSites.get(key)
    if (known) known.dirty ||= dirty
    else this.sinkSites.set(key, { site: hit.site, kind: hit.spec.kind, dirty })
  }

  /** Records a path from a real source to a sink (sanitized or not). */
  record(fact: Fact, reached: SinkHit, safe: Step | null): void {
    if (fact.origin.type !== 'source') return
    if (!(reached.spec.sources ?? DEFAULT_SINK_SCOPES).includes(fact.origin.scope)) return
    const hit = reached.regexRun ? judgedRegexRun(reached, reached.regexRun) : reached
    if (!hit) return
    // What makes the fact safe here: cleaning for the sink's kind, or a length the sink tolerates.
    const clearing = boundedWithin(fact, hit.spec.safeWithinLength) ?? sinkKindBit(hit.spec.kind)
    const sanitizer = (fact.cleaned & clearing) !== 0 ? sanitizerFor(fact, clearing) : safe
    const sanitized = (fact.cleaned & clearing) !== 0 || safe !== null
    const key = `${fact.origin.site.key}|${fact.origin.kind}|${hit.site.key}|${hit.spec.kind}|${sanitized ? 1 : 0}`
    if (this.traces.has(key)) return
    if (this.traces.size >= ENGINE_LIMITS.traces) {
      this.droppedTraces++
      return
    }
    this.traces.set(key, { fact, hit, sanitized, sanitizer })
  }
}

/** The mask of a fact's length bound when it is within what the sink tolerates, else null. */
function boundedWithin(fact: Fact, tolerable: number | undefined): number | null {
  const bound = tolerable === undefined ? null : lengthBoundOf(fact.cleaned)
  return bound && bound.length <= (tolerable as number) ? bound.mask : null
}

/** A regex run as the sink recheck's verdict makes it, or null when its pattern is linear (redos.ts). */
function judgedRegexRun(hit: SinkHit, run: NonNullable<SinkHit['regexRun']>): SinkHit | null {
  const verdict = judgeRegex(run.literal)
  return verdict ? { spec: backtrackingSink(run.literal, run.method, verdict), site: hit.site, callee: hit.callee } : null
}

/**
 * `module.exports`, plus what was added through the `exports` alias (`exports.f = ...`): the two
 * start as one object, which the analysis does not alias.
 */
export function commonJsExports(moduleObject: Val, exportsAlias: Val): Val {
  let result = readField(moduleObject, 'exports')
  for (const [key, field] of exportsAlias.fields ?? []) if (!result.fields?.has(key)) result = withField(result, key, field)
  return result
}

function qualified(module: string, imported: string | null): string {
  if (imported === null || imported === 'default' || imported === '*') return module
  return `${module}.${imported}`
}

/** An interface method or abstract declaration: no statements to analyze. */
function isAbstract(fn: FunctionDef): boolean {
  return fn.body().length === 0
}
