/**
 * Prototype pollution as data flow (CWE-1321), for languages whose objects inherit through a
 * prototype a property name reaches (SemanticsSpec.prototypeWrites): which keys of a write can
 * reach `Object.prototype`, and which values say a key or object cannot.
 *
 * Vocabulary: a *prototype key* is `__proto__`, `constructor` or `prototype`; the *write key* of
 * `a[x][y] = v` is `y`, its *first-level key* `x` (with `x` = `__proto__`, `a[x]` is
 * Object.prototype itself and `y` any property of every object). Writes under constant keys put
 * attacker values somewhere, but never on a prototype: only keys count.
 */
import type { Expr, Target } from './ir.ts'
import type { SourceKind } from './kinds.ts'
import type { SinkSpec } from './spec.ts'
import type { Val } from './values.ts'

export const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])

/** The qualified name given to objects made without a prototype (`Object.create(null)`). */
export const NULL_PROTOTYPE = '<null-prototype object>'

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

/** Whether a value (a deny list: an array or Set literal, a constant) holds a prototype key. */
export function holdsPrototypeKey(value: Val, depth = 0): boolean {
  if (typeof value.constant === 'string' && PROTOTYPE_KEYS.has(value.constant)) return true
  if (depth > 2 || !value.fields) return false
  for (const field of value.fields.values()) if (holdsPrototypeKey(field, depth + 1)) return true
  return false
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

const sinks = new Map<string, SinkSpec>()

/**
 * The sink of one write or merge; its note is the whole sink description (report.ts). Only remote
 * data counts: whoever passes command-line arguments already runs the process.
 */
export function prototypeSink(note: string, exceptSources: readonly SourceKind[] = []): SinkSpec {
  let spec = sinks.get(note)
  if (!spec) {
    spec = { kind: 'prototype', note, sources: ['remote'], exceptSources }
    if (sinks.size < 10_000) sinks.set(note, spec)
  }
  return spec
}
