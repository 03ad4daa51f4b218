/**
 * The abstract values the interpreter computes. A value carries taint facts (where its data may
 * come from, by which steps, and which sink kinds it has been cleaned for), known fields (object
 * members, dict keys, list positions written with constant keys), a known constant, and what it
 * refers to (a function, class, instance, module or declared type) for resolving calls.
 *
 * A fact's origin is either a real source, or a parameter of the function being summarized
 * (`param i` plus a field path): summaries are computed once with symbolic parameters and
 * instantiated at every call with the caller's arguments.
 */
import type { ClassDef, Const, FunctionDef, Site } from './ir.ts'
import type { SourceKind, SourceScope } from './kinds.ts'

export const LIMITS = {
  factsPerValue: 12,
  stepsPerFact: 40,
  fieldsPerValue: 48,
  fieldDepth: 3,
}

export interface Step {
  readonly site: Site
  readonly note: string
}

export type Origin =
  | {
      readonly type: 'source'
      readonly kind: SourceKind
      readonly scope: SourceScope
      readonly what: string
      readonly site: Site
      /** its values can be objects or lists, not only strings (a JSON body): they can carry query operators */
      readonly structured?: boolean
    }
  /** index into the function's parameters; -1 is the receiver (`this` / `self`) */
  | { readonly type: 'param'; readonly index: number; readonly path: string }

export interface Fact {
  readonly origin: Origin
  readonly steps: readonly Step[]
  /** bit set of sink kinds this data has been cleaned for (kinds.ts) */
  readonly cleaned: number
  /** sanitizers and guards on the path, with the sink kinds each cleaned for */
  readonly sanitizers: readonly Sanitizing[]
  /** passed through path normalization (a later prefix check then counts as a guard) */
  readonly normalized: boolean
  readonly key: string
}

export interface Sanitizing {
  readonly mask: number
  readonly step: Step
}

export type Ref =
  | { readonly t: 'function'; readonly fn: FunctionDef; readonly receiver: Val | null }
  | { readonly t: 'class'; readonly cls: ClassDef }
  | { readonly t: 'instance'; readonly cls: ClassDef }
  | { readonly t: 'module'; readonly path: string }
  /** a declared type name, resolved to a class when a method is called on the value */
  | { readonly t: 'type'; readonly name: string; readonly path: string }

export interface Val {
  readonly facts: readonly Fact[]
  readonly fields: ReadonlyMap<string, Val> | null
  /** known constant value; undefined when unknown */
  readonly constant: Const | undefined
  readonly ref: Ref | null
  /** qualified name of the API object the value is (`subprocess.run`), for catalog matching */
  readonly qname: string | null
  /** known constant start of a string value (`https://api.example.com/` + input) */
  readonly prefix: string | null
  /**
   * Strings the value may be (a may-set: branches, fallbacks and configuration values whose
   * other possibilities are unknown), for checks that ask "can this be MD5?" (fold.ts).
   */
  readonly choices?: readonly Choice[]
}

/** A string a value may be, and where it came from when not from the code (a config file key). */
export interface Choice {
  readonly value: string
  readonly from: string | null
}

export const CLEAN: Val = { facts: [], fields: null, constant: undefined, ref: null, qname: null, prefix: null }

export function constantVal(value: Const): Val {
  return { ...CLEAN, constant: value, prefix: typeof value === 'string' ? value : null }
}

function commonPrefix(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return null
  let length = 0
  while (length < a.length && length < b.length && a[length] === b[length]) length++
  return length === 0 ? null : a.slice(0, length)
}

export function val(parts: Partial<Val>): Val {
  return { ...CLEAN, ...parts }
}

function originKey(origin: Origin): string {
  return origin.type === 'source' ? `s:${origin.site.key}:${origin.kind}` : `p:${origin.index}:${origin.path}`
}

export function makeFact(origin: Origin, steps: readonly Step[], cleaned: number, sanitizers: readonly Sanitizing[], normalized: boolean): Fact {
  return { origin, steps, cleaned, sanitizers, normalized, key: `${originKey(origin)}|${cleaned}|${normalized ? 1 : 0}` }
}

/** The sanitizer step that cleaned a fact for the sink kinds in `mask`, if any. */
export function sanitizerFor(fact: Fact, mask: number): Step | null {
  return fact.sanitizers.find((entry) => (entry.mask & mask) !== 0)?.step ?? null
}

export function sourceFact(kind: SourceKind, scope: SourceScope, what: string, site: Site, structured = false): Fact {
  return makeFact({ type: 'source', kind, scope, what, site, ...(structured ? { structured } : {}) }, [], 0, [], false)
}

export function paramFact(index: number, path = ''): Fact {
  return makeFact({ type: 'param', index, path }, [], 0, [], false)
}

/** Union of fact lists, one fact per (origin, cleaned, normalized), capped. */
export function mergeFacts(a: readonly Fact[], b: readonly Fact[]): readonly Fact[] {
  if (b.length === 0) return a
  if (a.length === 0) return b
  const result = [...a]
  for (const fact of b) {
    if (result.length >= LIMITS.factsPerValue) break
    if (!result.some((existing) => existing.key === fact.key)) result.push(fact)
  }
  return result
}

export function isTainted(value: Val): boolean {
  return deepFacts(value).length > 0
}

/** Facts of the value and of every known field (what a sink taking the whole value sees). */
export function deepFacts(value: Val, depth = 0): readonly Fact[] {
  if (!value.fields || depth >= LIMITS.fieldDepth) return value.facts
  let facts = value.facts
  for (const field of value.fields.values()) facts = mergeFacts(facts, deepFacts(field, depth + 1))
  return facts
}

export function join(a: Val, b: Val): Val {
  if (a === b) return a
  return {
    facts: mergeFacts(a.facts, b.facts),
    fields: joinFields(a, b),
    constant: a.constant !== undefined && a.constant === b.constant ? a.constant : undefined,
    ref: a.ref ?? b.ref,
    qname: a.qname ?? b.qname,
    prefix: commonPrefix(a.prefix, b.prefix),
    ...joinChoices(a, b),
  }
}

/** Most strings a value is remembered to possibly be. */
export const MAX_CHOICES = 8

/** The strings a value may be: its constant, or its remembered choices. */
export function choicesOf(value: Val): readonly Choice[] {
  if (typeof value.constant === 'string') return [{ value: value.constant, from: null }]
  return value.choices ?? []
}

/** Union of what either side may be (an unknown side adds nothing: a may-set). */
function joinChoices(a: Val, b: Val): { choices?: readonly Choice[] } {
  const left = choicesOf(a)
  const right = choicesOf(b)
  if (left.length === 0 && right.length === 0) return {}
  const result = [...left]
  for (const choice of right) if (result.length < MAX_CHOICES && !result.some((known) => known.value === choice.value && known.from === choice.from)) result.push(choice)
  return { choices: result }
}

function joinFields(a: Val, b: Val): ReadonlyMap<string, Val> | null {
  if (!a.fields && !b.fields) return null
  const result = new Map<string, Val>()
  const keys = new Set([...(a.fields?.keys() ?? []), ...(b.fields?.keys() ?? [])])
  for (const key of keys) {
    if (result.size >= LIMITS.fieldsPerValue) break
    result.set(key, join(readField(a, key), readField(b, key)))
  }
  return result
}

/** A parameter fact read through a field gets the longer path; real sources stay as they are. */
function projectFact(fact: Fact, key: string): Fact {
  if (fact.origin.type !== 'param') return fact
  const depth = fact.origin.path === '' ? 0 : fact.origin.path.split('.').length
  if (depth >= LIMITS.fieldDepth) return fact
  const path = fact.origin.path === '' ? key : `${fact.origin.path}.${key}`
  return makeFact({ type: 'param', index: fact.origin.index, path }, fact.steps, fact.cleaned, fact.sanitizers, fact.normalized)
}

/** The value of one key: known, or whatever the whole value may hold. */
export function readField(value: Val, key: string): Val {
  const known = value.fields?.get(key)
  if (known) return known
  if (value.facts.length === 0) return CLEAN
  return { ...CLEAN, facts: value.facts.map((fact) => projectFact(fact, key)) }
}

/** The value of an unknown key: anything the value holds. */
export function readAny(value: Val): Val {
  const facts = deepFacts(value)
  return facts.length === 0 ? CLEAN : { ...CLEAN, facts }
}

export function withField(value: Val, key: string, field: Val): Val {
  const fields = new Map(value.fields ?? [])
  if (!fields.has(key) && fields.size >= LIMITS.fieldsPerValue) return smear(value, field)
  fields.set(key, field)
  return { ...value, fields, constant: undefined, prefix: null }
}

/** A write under an unknown key: the value may now hold the written data anywhere. */
export function smear(value: Val, written: Val): Val {
  const facts = deepFacts(written)
  if (facts.length === 0) return value
  return { ...value, facts: mergeFacts(value.facts, facts), constant: undefined, prefix: null }
}

function mapFacts(value: Val, map: (fact: Fact) => Fact, depth = 0): Val {
  if (value.facts.length === 0 && !value.fields) return value
  let fields: Map<string, Val> | null = null
  if (value.fields && depth < LIMITS.fieldDepth) {
    fields = new Map()
    for (const [key, field] of value.fields) fields.set(key, mapFacts(field, map, depth + 1))
  }
  return { ...value, facts: value.facts.map(map), fields: fields ?? value.fields }
}

function appendSteps(steps: readonly Step[], more: readonly Step[]): readonly Step[] {
  if (more.length === 0) return steps
  const all = [...steps, ...more]
  // Keep where it started and where it ended up; the middle of a very long path adds little.
  if (all.length <= LIMITS.stepsPerFact) return all
  const head = Math.floor(LIMITS.stepsPerFact / 4)
  return [...all.slice(0, head), ...all.slice(all.length - (LIMITS.stepsPerFact - head))]
}

export function withStep(value: Val, step: Step): Val {
  if (!isTainted(value)) return value
  return mapFacts(value, (fact) => makeFact(fact.origin, appendSteps(fact.steps, [step]), fact.cleaned, fact.sanitizers, fact.normalized))
}

/** Marks every fact cleaned for `mask` (a sanitizer or guard applied to the value). */
export function cleaned(value: Val, mask: number, step: Step, onlyNormalized = false): Val {
  return mapFacts(value, (fact) => {
    if (onlyNormalized && !fact.normalized) return fact
    if ((fact.cleaned & mask) === mask) return fact
    return makeFact(fact.origin, appendSteps(fact.steps, [step]), fact.cleaned | mask, [...fact.sanitizers, { mask: mask & ~fact.cleaned, step }].slice(0, 6), fact.normalized)
  })
}

/** `cleaned`, for the facts a test selects only. */
export function cleanedWhere(value: Val, select: (fact: Fact) => boolean, mask: number, step: Step): Val {
  return mapFacts(value, (fact) => {
    if (!select(fact) || (fact.cleaned & mask) === mask) return fact
    return makeFact(fact.origin, appendSteps(fact.steps, [step]), fact.cleaned | mask, [...fact.sanitizers, { mask: mask & ~fact.cleaned, step }].slice(0, 6), fact.normalized)
  })
}

export function normalized(value: Val, step: Step): Val {
  return mapFacts(value, (fact) => makeFact(fact.origin, appendSteps(fact.steps, [step]), fact.cleaned, fact.sanitizers, true))
}

/** The caller's data for a callee's parameter fact, joined with what happened inside. */
export function concatFact(outer: Fact, inner: Fact): Fact {
  const steps = appendSteps(outer.steps, inner.steps)
  const sanitizers = [...outer.sanitizers, ...inner.sanitizers.map((entry) => ({ mask: entry.mask & ~outer.cleaned, step: entry.step }))].filter((entry) => entry.mask !== 0)
  return makeFact(outer.origin, steps, outer.cleaned | inner.cleaned, sanitizers.slice(0, 6), outer.normalized || inner.normalized)
}

/** The fact with one more step (an argument passed into a call). */
export function factWithStep(fact: Fact, step: Step): Fact {
  return makeFact(fact.origin, appendSteps(fact.steps, [step]), fact.cleaned, fact.sanitizers, fact.normalized)
}

/**
 * Replaces parameter facts of a callee's value by the caller's data: `bind(index, path)` gives
 * the caller's facts for that parameter and field path (with the call step already added).
 */
export function instantiate(value: Val, bind: (index: number, path: string) => readonly Fact[], depth = 0): Val {
  if (value.facts.length === 0 && !value.fields) return value
  let facts: readonly Fact[] = []
  for (const fact of value.facts) {
    if (fact.origin.type !== 'param') {
      facts = mergeFacts(facts, [fact])
      continue
    }
    facts = mergeFacts(
      facts,
      bind(fact.origin.index, fact.origin.path).map((outer) => concatFact(outer, fact)),
    )
  }
  let fields: Map<string, Val> | null = null
  if (value.fields && depth < LIMITS.fieldDepth) {
    fields = new Map()
    for (const [key, field] of value.fields) fields.set(key, instantiate(field, bind, depth + 1))
  }
  return { ...value, facts, fields: fields ?? value.fields }
}

/** Truthiness of a known constant, or undefined. */
export function truthiness(value: Val): boolean | undefined {
  const constant = value.constant
  if (constant === undefined) return undefined
  if (constant === null) return false
  if (typeof constant === 'string') return constant.length > 0
  if (typeof constant === 'number') return constant !== 0 && !Number.isNaN(constant)
  return constant
}
