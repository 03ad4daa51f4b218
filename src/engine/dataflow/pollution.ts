/**
 * Prototype pollution as data flow (CWE-1321), for languages whose objects inherit through a
 * prototype a property name reaches (SemanticsSpec.prototypeWrites): which keys of a write can
 * reach `Object.prototype`, and which values say a key or object cannot.
 *
 * Vocabulary: a *prototype key* is `__proto__`, `constructor` or `prototype`; the *write key* of
 * `a[x][y] = v` is `y`, its *first-level key* `x` (with `x` = `__proto__`, `a[x]` is
 * Object.prototype itself and `y` any property of every object). Writes under constant keys put
 * attacker values somewhere, but never on a prototype: only keys count.
 *
 * A *shared-prototype write* can change a prototype other objects inherit from: a nested write,
 * a write into an object reached by an untrusted key (`o = o[k]` walks of set-by-path helpers),
 * or a write in a function that hands such an object on (`merge(target[k], source[k])`: a
 * recursive merge). A single `o[k] = v` with `k` = `__proto__` replaces the prototype of `o`
 * alone; with `constructor` it writes an own property. Against a shared-prototype write a guard
 * must exclude `__proto__` and `constructor` (`prototype` is reached through `constructor`); a
 * single write needs `__proto__` excluded.
 */
import { topLevelAlternatives } from '../text/regex-syntax.ts'
import { pathOf } from './ir.ts'
import type { Expr, FunctionDef, Stmt, Target } from './ir.ts'
import { sinkKindBit } from './kinds.ts'
import type { SourceKind } from './kinds.ts'
import type { SinkSpec } from './spec.ts'
import { parseRegexLiteral } from './redos.ts'
import { cleanedWhere } from './values.ts'
import type { Fact, Step, Val } from './values.ts'

export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** The qualified name given to objects made without a prototype (`Object.create(null)`). */
export const NULL_PROTOTYPE = '<null-prototype object>'

/** The qualified name given to a value read under an untrusted key (`o[k]`): it may be a prototype. */
export const REACHED_BY_KEY = '<object reached by an untrusted key>'

// Guard progress, kept in a fact's cleaned bits above the sink kinds' bits: a key compared with
// `__proto__`, and one compared with `constructor`. Both together clean the `prototype` kind.
const PROTO_EXCLUDED = 1 << 29
const CONSTRUCTOR_EXCLUDED = 1 << 30
const PROTOTYPE_BIT = sinkKindBit('prototype')

/** The guard-progress bits a deny list or comparison holding these keys gives. */
export function exclusionMask(keys: Iterable<string>): number {
  let mask = 0
  for (const key of keys) mask |= key === '__proto__' ? PROTO_EXCLUDED : key === 'constructor' ? CONSTRUCTOR_EXCLUDED : 0
  return mask
}

/** A key's facts, after a guard excluded some prototype keys: both excluded clean the prototype kind. */
export function completeExclusion(value: Val, step: Step): Val {
  const both = PROTO_EXCLUDED | CONSTRUCTOR_EXCLUDED
  return cleanedWhere(value, (fact) => (fact.cleaned & both) === both, PROTOTYPE_BIT, step)
}

/**
 * Whether a fact still counts at a write: a single write needs only `__proto__` excluded, and a
 * parameter's `length` (`part = list.length` to append) is a number, no property name.
 */
export function countsAtWrite(fact: Fact, shared: boolean): boolean {
  if (fact.origin.type === 'param' && fact.origin.path.split('.').at(-1) === 'length') return false
  return shared || (fact.cleaned & PROTO_EXCLUDED) === 0
}

/** Whether a key with these data may still spell a prototype key an object walk reaches. */
export function mayWalkToPrototype(key: Val): boolean {
  return mayBePrototypeKey(key) && key.facts.some((fact) => (fact.cleaned & PROTOTYPE_BIT) === 0)
}

/** The value read under an untrusted key (`o[k]`), marked as possibly a prototype. */
export function reachedByKey(read: Val, key: Val): Val {
  if (key.constant !== undefined || !mayWalkToPrototype(key) || read.qname !== null) return read
  return { ...read, qname: REACHED_BY_KEY }
}

const descending = new WeakMap<FunctionDef, ReadonlySet<string>>()

/**
 * Whether a function hands an object it reached by a computed key of `written` (an access path:
 * `target`, `this`) to another call as its first argument, beside one reached by a computed key
 * of another object (`merge(target[key], source[key])`, `var sub = target[key], val = src[key];
 * extend(sub, val)`), or to itself (`set(obj[head], rest, value)`). That is how recursive merges
 * and path setters descend into the object they write; a
 * predicate (`isObject(target[key])`) or a callback given an entry (`dispose(list[i], key)`)
 * merges nothing into it, and a walk over the source only (`step(source[key], ...)` writing into
 * a fresh result) reaches nothing shared.
 */
export function descendsByKey(fn: FunctionDef, written: string): boolean {
  let known = descending.get(fn)
  if (known === undefined) {
    known = descentsOf(fn.body(), fn.name)
    descending.set(fn, known)
  }
  return known.has(written)
}

/** The access paths whose sub-objects, reached by a computed key, a function hands on. */
function descentsOf(body: readonly Stmt[], self: string | null): ReadonlySet<string> {
  const reached = new Map<string, string>()
  const calls: Array<Extract<Expr, { t: 'call' }>> = []
  const computedIndexOf = (expr: Expr): string | null => (expr.t === 'index' && expr.index.t !== 'literal' ? pathOf(expr.object) : null)
  const noteReached = (target: Target, value: Expr | null): void => {
    const parent = value ? computedIndexOf(value) : null
    if (target.t === 'name' && parent !== null) reached.set(target.name, parent)
  }
  const visitExpr = (expr: Expr | null, depth: number): void => {
    if (!expr || depth > 40) return
    switch (expr.t) {
      case 'call':
        calls.push(expr)
        visitExpr(expr.callee, depth + 1)
        for (const arg of expr.args) visitExpr(arg.value, depth + 1)
        return
      case 'assign':
        noteReached(expr.target, expr.value)
        visitExpr(expr.value, depth + 1)
        return
      case 'member':
        return visitExpr(expr.object, depth + 1)
      case 'index':
        visitExpr(expr.object, depth + 1)
        return visitExpr(expr.index, depth + 1)
      case 'binary':
        visitExpr(expr.left, depth + 1)
        return visitExpr(expr.right, depth + 1)
      case 'unary':
        return visitExpr(expr.operand, depth + 1)
      case 'conditional':
        visitExpr(expr.test, depth + 1)
        visitExpr(expr.then, depth + 1)
        return visitExpr(expr.else, depth + 1)
      case 'list':
      case 'template':
      case 'other':
        for (const part of expr.t === 'list' ? expr.elements : expr.parts) visitExpr(part, depth + 1)
        return
      case 'dict':
        for (const entry of expr.entries) visitExpr(entry.value, depth + 1)
        return
      default:
        return
    }
  }
  const visit = (stmts: readonly Stmt[], depth: number): void => {
    if (depth > 20) return
    for (const stmt of stmts) {
      switch (stmt.t) {
        case 'expr':
          visitExpr(stmt.expr, 0)
          break
        case 'assign':
          noteReached(stmt.target, stmt.value)
          visitExpr(stmt.value, 0)
          break
        case 'return':
          visitExpr(stmt.value, 0)
          break
        case 'if':
          visitExpr(stmt.test, 0)
          visit(stmt.then, depth + 1)
          visit(stmt.else, depth + 1)
          break
        case 'loop':
          visit(stmt.init, depth + 1)
          visit(stmt.body, depth + 1)
          break
        case 'switch':
          for (const item of stmt.cases) visit(item.body, depth + 1)
          break
        case 'try':
          visit(stmt.body, depth + 1)
          for (const handler of stmt.handlers) visit(handler.body, depth + 1)
          visit(stmt.finally, depth + 1)
          break
        case 'block':
          visit(stmt.body, depth + 1)
          break
        default:
          break
      }
    }
  }
  visit(body, 0)
  const parentOf = (expr: Expr | undefined): string | null => (expr ? (computedIndexOf(expr) ?? (expr.t === 'name' ? (reached.get(expr.name) ?? null) : null)) : null)
  const parents = new Set<string>()
  for (const call of calls) {
    const target = parentOf(call.args[0]?.value)
    // A function looked up by a key (`combine[key](current, value)`) is the caller's own merge.
    if (call.callee.t === 'index') continue
    if (target === null) continue
    // Calling itself on the target's sub-object walks it (`set(obj[head], rest, value)`).
    const recursive = self !== null && call.callee.t === 'name' && call.callee.name === self
    if (recursive || call.args.slice(1).some((arg) => ![null, target].includes(parentOf(arg.value)))) parents.add(target)
  }
  return parents
}

/** A computed key of a write and the object it indexes. */
export interface KeyedWrite {
  readonly object: Expr
  readonly key: Expr
  /** the write key (`a[k] = v`), or the first level of a nested write */
  readonly written: boolean
}

/** The write key of `a[k] = v` and the first-level key of `a[x][y] = v` or `a[x].y = v`. */
export function prototypeKeys(target: Extract<Target, { t: 'member' | 'index' }>): KeyedWrite[] {
  const keys: KeyedWrite[] = target.t === 'index' ? [{ object: target.object, key: target.index, written: true }] : []
  let first: KeyedWrite | null = null
  let object = target.object
  for (let depth = 0; depth < 8 && (object.t === 'index' || object.t === 'member'); depth++) {
    if (object.t === 'index') first = { object: object.object, key: object.index, written: false }
    object = object.object
  }
  if (first && first.key !== keys[0]?.key) keys.push(first)
  return keys.filter(({ key }) => key.t !== 'literal')
}

/** The prototype keys a value (a deny list: an array or Set literal, a constant) holds. */
export function heldPrototypeKeys(value: Val, into = new Set<string>(), depth = 0): Set<string> {
  if (typeof value.constant === 'string' && PROTOTYPE_KEYS.has(value.constant)) into.add(value.constant)
  if (depth > 2 || !value.fields) return into
  for (const field of value.fields.values()) heldPrototypeKeys(field, into, depth + 1)
  return into
}

const NAMED_KEYS: ReadonlyArray<readonly [string, RegExp]> = [
  ['__proto__', /__proto__/],
  ['constructor', /['"`]constructor['"`]/],
]

/** The prototype keys a deny list built elsewhere names in its text (`BLOCKED.has(k)`, `['__proto__', 'constructor'].includes(k)`). */
export function prototypeKeysNamedIn(text: string): string[] {
  return NAMED_KEYS.filter(([, pattern]) => pattern.test(text)).map(([name]) => name)
}

/** Path parameters are named by the route (`/:id`): merging them copies the route's keys. */
export const MERGED_KEYS_EXCEPT: readonly SourceKind[] = ['http-path']

/** Whether a key's known start (`"user_" + name`) still allows a prototype key. */
export function mayBePrototypeKey(key: Val): boolean {
  const prefix = key.prefix
  return prefix === null || [...PROTOTYPE_KEYS].some((name) => name.startsWith(prefix))
}

/** The literal prototype key one side of a comparison is, if it is one. */
export function prototypeKeyLiteral(expr: Expr): string | null {
  return expr.t === 'literal' && typeof expr.value === 'string' && PROTOTYPE_KEYS.has(expr.value) ? expr.value : null
}

/** `k[0]` or `k.charAt(0)`: the key whose first character this reads, if it is that. */
export function firstCharacterOf(expr: Expr): Expr | null {
  if (expr.t === 'index' && expr.index.t === 'literal' && expr.index.value === 0) return expr.object
  const callee = expr.t === 'call' ? expr.callee : null
  const position = expr.t === 'call' && expr.args.length === 1 ? expr.args[0]?.value : undefined
  if (callee?.t === 'member' && callee.property === 'charAt' && position?.t === 'literal' && position.value === 0) return callee.object
  return null
}

/**
 * The starts a regex literal matches whatever follows them: `/^__/` matches every key starting
 * with `__`, so a key it rejects does not start so. Only alternatives that are `^` and plain
 * name characters count (`/^_(_a|b)/` rejects `__proto__`, and gives nothing).
 */
export function startsMatchedBy(literal: string): { starts: string[]; ignoreCase: boolean } {
  const parsed = parseRegexLiteral(literal)
  if (!parsed) return { starts: [], ignoreCase: false }
  const starts = topLevelAlternatives(parsed.source, 'javascript').flatMap((alternative) => /^\^([\w$]+)$/.exec(alternative)?.[1] ?? [])
  return { starts, ignoreCase: parsed.flags.includes('i') }
}

/** What a start test is about: `k.startsWith('__')` and `/^__/.test(k)` hold for every `k` starting with `__`. */
export interface StartTest {
  readonly subject: Expr
  readonly starts: string[]
  readonly ignoreCase: boolean
}

/** The key and starts a call tests (`k.startsWith(s)`, `re.test(k)`), `constantOf` giving the strings it knows. */
export function startTest(test: Extract<Expr, { t: 'call' }>, constantOf: (expr: Expr) => string | null): StartTest | null {
  const callee = test.callee
  const argument = test.args.length === 1 && !test.args[0]?.spread ? test.args[0]?.value : undefined
  if (callee.t !== 'member' || !argument) return null
  if (callee.property === 'startsWith') {
    const start = constantOf(argument)
    return start === null ? null : { subject: callee.object, starts: [start], ignoreCase: false }
  }
  // A string literal is no regex: a regex literal's text starts with `/`.
  if (callee.property !== 'test' || (callee.object.t === 'literal' && !callee.object.site.text.startsWith('/'))) return null
  const literal = constantOf(callee.object)
  return literal === null ? null : { subject: argument, ...startsMatchedBy(literal) }
}

/** The prototype keys a key cannot be once it starts with none of `starts` (`__proto__` for `'__'`). */
export function prototypeKeysStartingWith(starts: readonly string[], ignoreCase = false): string[] {
  const wanted = starts.filter((start) => start !== '').map((start) => (ignoreCase ? start.toLowerCase() : start))
  return [...PROTOTYPE_KEYS].filter((name) => wanted.some((start) => name.startsWith(start)))
}

const sinks = new Map<string, SinkSpec>()

/**
 * The sink of one write or merge; its note is the whole sink description (report.ts). Only remote
 * data counts: whoever passes command-line arguments already runs the process.
 */
export function prototypeSink(note: string, sharedPrototype: boolean, exceptSources: readonly SourceKind[] = []): SinkSpec {
  const cacheKey = `${sharedPrototype ? 'shared' : 'own'}\u0000${note}`
  let spec = sinks.get(cacheKey)
  if (!spec) {
    spec = { kind: 'prototype', note, sources: ['remote'], exceptSources, sharedPrototype }
    if (sinks.size < 10_000) sinks.set(cacheKey, spec)
  }
  return spec
}
