/**
 * A language spec's security catalog compiled for lookup: sources, sinks, sanitizers, markers,
 * guards and library semantics indexed by the last segment of their qualified-name globs, built
 * once per spec.
 */
import { GlobIndex, globToRegExp } from './glob.ts'
import type { FunctionDef, Param } from './ir.ts'
import { sinkKindsMask } from './kinds.ts'
import type { ConfigurationSpec, GuardSpec, LanguageSpec, MarkerSpec, ParamSourceSpec, RegexRunSpec, RejectionSpec, SanitizerSpec, SinkSpec, SourceSpec, ViewSpec } from './spec.ts'

export interface CollectionWrite {
  readonly key?: number
  readonly value?: number
}

export interface CompiledSanitizer {
  readonly spec: SanitizerSpec
  readonly mask: number
}

export interface CompiledGuard {
  readonly spec: GuardSpec
  readonly mask: number
}

export interface CompiledRejection {
  readonly spec: RejectionSpec
  readonly mask: number
  readonly needle: RegExp
}

export class Catalog {
  readonly sinkCalls = new GlobIndex<SinkSpec>()
  readonly sinkAssigns = new GlobIndex<SinkSpec>()
  readonly returnSinks: ReadonlyArray<{ spec: SinkSpec; decorators: RegExp[] }>
  readonly sourceAccess = new GlobIndex<SourceSpec>()
  readonly sourceCalls = new GlobIndex<SourceSpec>()
  readonly paramSources: ReadonlyArray<{ spec: SourceSpec; param: ParamSourceSpec; matchers: ParamMatchers }>
  readonly sanitizers = new GlobIndex<CompiledSanitizer>()
  readonly markers = new GlobIndex<MarkerSpec>()
  readonly guardCalls = new GlobIndex<CompiledGuard>()
  readonly guardOperators = new Map<string, CompiledGuard[]>()
  readonly noReturn = new GlobIndex<true>()
  readonly cleanCalls = new GlobIndex<true>()
  readonly collectionWrites = new GlobIndex<CollectionWrite>()
  readonly collectionReads = new GlobIndex<{ key: number }>()
  readonly formatters = new GlobIndex<{ template: 'receiver' | number; placeholder: string }>()
  readonly opaqueCallbacks = new GlobIndex<true>()
  readonly mappers = new GlobIndex<true>()
  readonly functionWrappers = new GlobIndex<true>()
  readonly rejectionCalls = new GlobIndex<CompiledRejection>()
  readonly rejectionOperators = new Map<string, CompiledRejection[]>()
  readonly views = new GlobIndex<ViewSpec>()
  readonly escapingTemplates = new GlobIndex<{ mask: number; note: string }>()
  readonly configurations = new GlobIndex<ConfigurationSpec>()
  /** computed-key writes can reach a prototype (see SemanticsSpec.prototypeWrites) */
  readonly prototypeWrites: boolean
  readonly objectMerges = new GlobIndex<true>()
  readonly nullPrototypes = new GlobIndex<true>()
  readonly regexRuns = new GlobIndex<RegexRunSpec>()

  constructor(readonly spec: LanguageSpec) {
    for (const sink of spec.sinks) {
      if (sink.call) this.sinkCalls.add(sink.call, sink)
      if (sink.assign) this.sinkAssigns.add(sink.assign, sink)
    }
    this.returnSinks = spec.sinks.flatMap((sink) => (sink.returnFrom ? [{ spec: sink, decorators: sink.returnFrom.functionDecorators.map(globToRegExp) }] : []))
    for (const source of spec.sources) {
      if (source.access) this.sourceAccess.add(source.access, source)
      if (source.call) this.sourceCalls.add(source.call, source)
    }
    this.paramSources = spec.sources.flatMap((source) => (source.param ? [{ spec: source, param: source.param, matchers: compileParamMatchers(source.param) }] : []))
    for (const sanitizer of spec.sanitizers) this.sanitizers.add(sanitizer.call, { spec: sanitizer, mask: sinkKindsMask(sanitizer.cleans) })
    for (const marker of spec.markers ?? []) this.markers.add(marker.call, marker)
    for (const guard of spec.guards) {
      const compiled = { spec: guard, mask: sinkKindsMask(guard.cleans) }
      if (guard.call) this.guardCalls.add(guard.call, compiled)
      for (const operator of guard.operator ?? []) this.guardOperators.set(operator, [...(this.guardOperators.get(operator) ?? []), compiled])
    }
    const semantics = spec.semantics
    if (semantics.noReturn) this.noReturn.add(semantics.noReturn, true)
    if (semantics.cleanCalls) this.cleanCalls.add(semantics.cleanCalls, true)
    for (const write of semantics.collectionWrites ?? []) this.collectionWrites.add(write.call, write)
    for (const read of semantics.collectionReads ?? []) this.collectionReads.add(read.call, read)
    for (const formatter of semantics.formatters ?? []) this.formatters.add(formatter.call, formatter)
    if (semantics.opaqueCallbacks) this.opaqueCallbacks.add(semantics.opaqueCallbacks, true)
    if (semantics.mappers) this.mappers.add(semantics.mappers, true)
    if (semantics.functionWrappers) this.functionWrappers.add(semantics.functionWrappers, true)
    for (const view of semantics.views ?? []) this.views.add(view.call, view)
    for (const rejection of spec.rejections ?? []) {
      const compiled = { spec: rejection, mask: sinkKindsMask(rejection.cleans), needle: new RegExp(rejection.needle) }
      if (rejection.call) this.rejectionCalls.add(rejection.call, compiled)
      for (const operator of rejection.operator ?? []) this.rejectionOperators.set(operator, [...(this.rejectionOperators.get(operator) ?? []), compiled])
    }
    for (const template of semantics.escapingTemplates ?? []) this.escapingTemplates.add(template.call, { mask: sinkKindsMask(template.cleans), note: template.note })
    for (const configuration of semantics.configurations ?? []) this.configurations.add(configuration.call, configuration)
    this.prototypeWrites = semantics.prototypeWrites !== undefined
    if (semantics.prototypeWrites) {
      this.objectMerges.add(semantics.prototypeWrites.merges, true)
      this.nullPrototypes.add(semantics.prototypeWrites.nullPrototype, true)
    }
    for (const run of semantics.regexRuns ?? []) this.regexRuns.add(run.call, run)
  }

  /** Source specs whose parameter rule makes `param` (at `index`, receiver excluded) untrusted. */
  paramSourcesFor(fn: FunctionDef, param: Param, index: number): SourceSpec[] {
    return this.paramSources.filter(({ param: rule, matchers }) => paramMatches(rule, matchers, fn, param, index)).map(({ spec }) => spec)
  }

  /** Whether a function's decorators make its return value a response of this sink. */
  returnSinksFor(fn: FunctionDef): SinkSpec[] {
    if (fn.decorators.length === 0) return []
    return this.returnSinks.filter(({ decorators }) => fn.decorators.some((name) => decorators.some((regex) => regex.test(name)))).map(({ spec }) => spec)
  }
}

interface ParamMatchers {
  decorators: RegExp[] | null
  functionDecorators: RegExp[] | null
  functionNames: RegExp[] | null
  file: RegExp | null
  exceptDefaults: RegExp | null
}

function compileParamMatchers(rule: ParamSourceSpec): ParamMatchers {
  return {
    decorators: rule.decorators ? rule.decorators.map(globToRegExp) : null,
    functionDecorators: rule.functionDecorators ? rule.functionDecorators.map(globToRegExp) : null,
    functionNames: rule.functionNames ? rule.functionNames.map(globToRegExp) : null,
    file: rule.fileMatches ? new RegExp(rule.fileMatches) : null,
    exceptDefaults: rule.exceptDefaults ? new RegExp(rule.exceptDefaults) : null,
  }
}

function anyMatches(regexes: RegExp[], names: readonly string[]): boolean {
  return names.some((name) => regexes.some((regex) => regex.test(name)))
}

function paramMatches(rule: ParamSourceSpec, matchers: ParamMatchers, fn: FunctionDef, param: Param, index: number): boolean {
  if (rule.index !== undefined && rule.index !== index) return false
  if (matchers.functionNames && !anyMatches(matchers.functionNames, [fn.name ?? ''])) return false
  if (matchers.functionDecorators && !anyMatches(matchers.functionDecorators, fn.decorators)) return false
  if (matchers.decorators && !anyMatches(matchers.decorators, param.decorators)) return false
  if (matchers.file && !matchers.file.test(fn.path)) return false
  if (rule.exceptNames?.includes(param.name ?? '')) return false
  if (param.type !== null && rule.exceptTypes?.some((type) => param.type === type || param.type?.endsWith(`.${type}`))) return false
  if (rule.types && !rule.types.includes(param.type ?? '')) return false
  if (matchers.exceptDefaults && param.fallbackText !== null && matchers.exceptDefaults.test(param.fallbackText)) return false
  return true
}

const catalogs = new WeakMap<LanguageSpec, Catalog>()

export function catalogFor(spec: LanguageSpec): Catalog {
  let catalog = catalogs.get(spec)
  if (!catalog) {
    catalog = new Catalog(spec)
    catalogs.set(spec, catalog)
  }
  return catalog
}
