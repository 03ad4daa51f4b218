/**
 * The repository as one program: every file's facts with its resolved imports, and name
 * resolution across files: what `usersRouter`, `ctrl.show`, `views.detail`, `UserService` or
 * `this.usersService.find` refers to (a definition, a router scope, or a whole module),
 * following exports, re-exports, `module.exports` objects, Python package re-exports, Java
 * field types and same-package classes.
 */
import { libraryForJava, libraryForNpm, libraryForPython } from './catalog.ts'
import type { Library } from './catalog.ts'
import { innermostDefinitions } from './extract/common.ts'
import type { Manifest } from './manifests.ts'
import type { DefinitionFact, FileFacts } from './model.ts'
import { Resolver } from './resolve.ts'
import type { ImportResolution, ResolvedBinding } from './resolve.ts'

export type Target = { kind: 'definition'; file: string; index: number } | { kind: 'scope'; file: string; name: string } | { kind: 'module'; file: string }

const MAX_HOPS = 8

export class Program {
  readonly files = new Map<string, FileFacts>()
  readonly resolutions = new Map<string, ImportResolution[]>()
  private readonly bindings = new Map<string, Map<string, ResolvedBinding>>()
  private readonly origins = new Map<string, Map<string, string>>()
  private readonly parents = new Map<string, number[]>()
  private readonly classesByName = new Map<string, Array<{ file: string; index: number }>>()
  private readonly modelNames = new Map<string, Set<string>>()
  private readonly libraries = new Map<string, Set<Library>>()
  private readonly resolver: Resolver
  private readonly names = new Map<string, { top: Map<string, number>; methods: Map<string, number> }>()

  constructor(
    facts: readonly FileFacts[],
    readonly manifests: readonly Manifest[],
  ) {
    for (const file of facts) this.files.set(file.path, file)
    const resolver = new Resolver(this.files, manifests)
    this.resolver = resolver
    for (const file of facts) {
      const resolutions = resolver.resolveAll(file)
      this.resolutions.set(file.path, resolutions)
      const bindings = new Map<string, ResolvedBinding>()
      const origins = new Map<string, string>()
      const libraries = new Set<Library>()
      resolutions.forEach((resolution, position) => {
        for (const [local, binding] of resolution.bindings) bindings.set(local, binding)
        const fact = file.imports[position]
        if (resolution.internal.length > 0 || !fact) return
        for (const binding of fact.bindings) origins.set(binding.local, fact.level ? `.${fact.specifier}` : fact.specifier)
        const library = libraryOf(file, fact.specifier)
        if (library) libraries.add(library)
      })
      this.bindings.set(file.path, bindings)
      this.origins.set(file.path, origins)
      this.libraries.set(file.path, libraries)
      file.definitions.forEach((definition, index) => {
        if (definition.kind === 'class') this.classesByName.set(definition.simple, [...(this.classesByName.get(definition.simple) ?? []), { file: file.path, index }])
      })
      if (file.models.length > 0) this.modelNames.set(file.path, new Set(file.models.map((model) => model.name)))
    }
  }

  /** The file of a dotted Python module (`api.urls`), nearest to `from`. */
  pythonModule(dotted: string, from: string): string | undefined {
    return this.resolver.pythonModule(dotted, from)
  }

  /** Catalog libraries a file imports from outside the repository. */
  librariesOf(file: string): ReadonlySet<Library> {
    return this.libraries.get(file) ?? new Set()
  }

  /** External module a local name was imported from (`child_process`, `requests`), if any. */
  externalOrigin(file: string, name: string): string | undefined {
    return this.origins.get(file)?.get(name)
  }

  binding(file: string, name: string): ResolvedBinding | undefined {
    return this.bindings.get(file)?.get(name)
  }

  definition(file: string, index: number): DefinitionFact | undefined {
    return this.files.get(file)?.definitions[index]
  }

  /** Index of the definition enclosing each definition (-1 at top level). */
  parentsOf(file: string): number[] {
    let parents = this.parents.get(file)
    if (!parents) {
      const definitions = this.files.get(file)?.definitions ?? []
      parents = innermostDefinitions(
        definitions,
        definitions.map((definition) => definition.start - 1),
      ).map((parent, index) => {
        const outer = definitions[parent]
        const inner = definitions[index]
        return outer && inner && outer.end >= inner.end ? parent : -1
      })
      this.parents.set(file, parents)
    }
    return parents
  }

  isModel(file: string, name: string): boolean {
    return this.modelNames.get(file)?.has(name) ?? false
  }

  /** A top-level (module-level) function, class or exported handler named `name`. */
  /** Per file: top-level definitions by name, and methods by `Class.name` (first declaration wins). */
  private namesOf(file: string): { top: Map<string, number>; methods: Map<string, number> } {
    let names = this.names.get(file)
    if (!names) {
      names = { top: new Map(), methods: new Map() }
      const parents = this.parentsOf(file)
      const definitions = this.files.get(file)?.definitions ?? []
      definitions.forEach((definition, index) => {
        if (definition.owner && definition.kind === 'method') {
          const key = `${definition.owner}.${definition.simple}`
          if (!names?.methods.has(key)) names?.methods.set(key, index)
        } else if (definition.kind !== 'method' && (parents[index] ?? -1) === -1 && !names?.top.has(definition.simple)) names?.top.set(definition.simple, index)
      })
      this.names.set(file, names)
    }
    return names
  }

  private topLevel(file: string, name: string): number {
    return this.namesOf(file).top.get(name) ?? -1
  }

  private method(file: string, className: string, name: string): number {
    return this.namesOf(file).methods.get(`${className}.${name}`) ?? -1
  }

  /** What a name exported by (or defined at the top of) a module refers to. */
  exported(file: string, name: string, hops = 0): Target | undefined {
    const facts = this.files.get(file)
    if (!facts || hops > MAX_HOPS) return undefined
    if (name === '*') return { kind: 'module', file }
    for (const entry of facts.exports) {
      if (entry.name !== name && entry.name !== '*') continue
      if (entry.from) {
        const resolution = this.resolutions.get(file)?.find((candidate) => candidate.specifier === entry.from)
        const target = resolution?.internal[0]
        const found = target ? this.exported(target, entry.name === '*' ? name : entry.local, hops + 1) : undefined
        if (found) return found
        continue
      }
      if (entry.instanceOf) {
        const type = this.resolveType(file, entry.instanceOf, hops + 1)
        if (type) return type
      }
      if (entry.local) {
        const local = this.local(file, entry.local, hops + 1)
        if (local) return local
      }
    }
    const local = this.local(file, name, hops + 1)
    if (local) return local
    return name === 'default' ? { kind: 'module', file } : undefined
  }

  /** A name as seen inside a file: a scope, a top-level definition, or an import. */
  local(file: string, name: string, hops = 0): Target | undefined {
    const facts = this.files.get(file)
    if (!facts || hops > MAX_HOPS) return undefined
    if (facts.scopes.some((scope) => scope.name === name)) return { kind: 'scope', file, name }
    const index = this.topLevel(file, name)
    if (index !== -1) return { kind: 'definition', file, index }
    const binding = this.binding(file, name)
    if (binding) return this.exported(binding.file, binding.name, hops + 1)
    return undefined
  }

  /** A class by name: imported, in the same file, in the same package, or unique in the repository. */
  resolveType(file: string, type: string, hops = 0): Target | undefined {
    const local = this.local(file, type, hops)
    if (local?.kind === 'definition') return local
    const facts = this.files.get(file)
    const candidates = this.classesByName.get(type) ?? []
    const samePackage = candidates.filter((candidate) => facts?.packageName && this.files.get(candidate.file)?.packageName === facts.packageName)
    const pick = samePackage.length === 1 ? samePackage[0] : candidates.length === 1 ? candidates[0] : undefined
    return pick ? { kind: 'definition', file: pick.file, index: pick.index } : undefined
  }

  /** A member of a target: a method of a class, an export of a module. */
  member(target: Target, name: string): Target | undefined {
    if (target.kind === 'module') return this.exported(target.file, name)
    if (target.kind !== 'definition') return undefined
    const definition = this.definition(target.file, target.index)
    if (definition?.kind !== 'class') return undefined
    const index = this.method(target.file, definition.simple, name)
    if (index !== -1) return { kind: 'definition', file: target.file, index }
    // Inherited methods: follow base classes declared in the repository.
    for (const base of definition.bases ?? []) {
      const parent = this.resolveType(target.file, base.replace(/^.*\./, ''))
      const found = parent && parent.file !== target.file ? this.member(parent, name) : undefined
      if (found) return found
    }
    return undefined
  }

  /**
   * A dotted reference as written in a file (`usersRouter`, `ctrl.show`, `views.detail`,
   * `this.usersService.find`, `self.method`), from inside definition `owner`.
   */
  resolveReference(file: string, reference: string, owner = -1): Target | undefined {
    const facts = this.files.get(file)
    if (!facts) return undefined
    const parts = reference.replace(/\(.*$/s, '').split('.').filter(Boolean)
    let first = parts.shift()
    if (!first) return undefined
    if (first === 'this' || first === 'self' || first === 'cls') {
      const className = this.definition(file, owner)?.owner ?? this.enclosingClass(file, owner)
      const next = parts.shift()
      if (!next) return undefined
      if (className) {
        const index = this.method(file, className, next)
        if (index !== -1 && parts.length === 0) return { kind: 'definition', file, index }
      }
      const type = facts.fieldTypes[next]
      if (!type) return undefined
      let target = this.resolveType(file, type)
      for (const part of parts) target = target ? this.member(target, part) : undefined
      return target
    }
    let target = this.local(file, first)
    if (!target) {
      const type = facts.fieldTypes[first] ?? facts.instances.find((instance) => instance.local === first)?.type
      target = type ? this.resolveType(file, type) : this.resolveType(file, first)
    }
    for (const part of parts) {
      if (!target) return undefined
      target = this.member(target, part)
    }
    return target
  }

  private enclosingClass(file: string, index: number): string | undefined {
    const parents = this.parentsOf(file)
    for (let at = index; at !== -1 && at !== undefined; at = parents[at] ?? -1) {
      const definition = this.definition(file, at)
      if (definition?.kind === 'class') return definition.simple
      if (definition?.owner) return definition.owner
    }
    return undefined
  }
}

/** The catalog entry for an external import, by the file's language. */
function libraryOf(file: FileFacts, specifier: string): Library | undefined {
  if (file.language === 'python') return libraryForPython(specifier)
  if (file.language === 'java' || file.language === 'kotlin' || file.language === 'scala') return libraryForJava(specifier)
  if (file.language === 'javascript' || file.language === 'typescript' || file.language === 'tsx') return libraryForNpm(specifier)
  return undefined
}
