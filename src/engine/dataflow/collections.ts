/**
 * Lists with known positions: a list built in the function (`[a, b]`, `new ArrayList<>()`,
 * `List.of(...)`) keeps its length as a field, so adds, inserts and removals at constant
 * positions move the elements exactly (`l.add("a"); l.add(x); l.remove(0)` leaves x at 0). A
 * list whose length is not known any more (joined from branches of different lengths, changed
 * at an unknown position, handed to a library call) is a bag: any position may hold anything
 * it ever held. Appends do not move what is already there, so a list whose first position was
 * known on every path keeps it through appends of unknown length (`args = [program]`, pushes in
 * branches, `args.shift()` is still the program).
 */
import type { Const } from './ir.ts'
import { CLEAN, LIMITS, deepFacts, mergeFacts, readAny, readField, smear } from './values.ts'
import type { Val } from './values.ts'

/** The field holding a list's known length (not a key any language can write). */
export const LENGTH = '#length'
/** Set (true) while position 0 holds the same element on every path; joins keep it only when both sides have it. */
const FIRST_KNOWN = '#first'

export function listOf(elements: readonly Val[]): Val {
  // A long literal is a bag: positions past the field limit would be dropped.
  if (elements.length >= LIMITS.fieldsPerValue) return elements.reduce((acc, element) => smear(acc, element), CLEAN)
  const fields = new Map<string, Val>()
  elements.forEach((element, index) => fields.set(String(index), element))
  fields.set(LENGTH, { ...CLEAN, constant: elements.length })
  if (elements.length > 0) fields.set(FIRST_KNOWN, { ...CLEAN, constant: true })
  return { ...CLEAN, fields }
}

/** How many positions `arguments` has at least, declared parameters or not (`function () { ... arguments[2] }`). */
const ARGUMENT_POSITIONS = 4

/**
 * A function's `arguments`: a list of unknown length whose first positions are the call's
 * arguments (parameters or not); an unknown index reads any of them.
 */
export function argumentsList(parameterCount: number, argument: (index: number) => Val): Val {
  const fields = new Map<string, Val>()
  let facts = CLEAN.facts
  for (let index = 0; index < Math.max(parameterCount, ARGUMENT_POSITIONS); index++) {
    const value = argument(index)
    fields.set(String(index), value)
    facts = mergeFacts(facts, deepFacts(value))
  }
  return { ...CLEAN, fields, facts }
}

/** The length of a list whose every position is known, or undefined. */
export function exactLength(value: Val): number | undefined {
  if (value.facts.length > 0) return undefined
  const length = value.fields?.get(LENGTH)?.constant
  return typeof length === 'number' ? length : undefined
}

function elements(value: Val, length: number): Val[] {
  return Array.from({ length }, (_, index) => readField(value, String(index)))
}

function rebuilt(value: Val, items: readonly Val[]): Val {
  return { ...listOf(items), ref: value.ref, qname: value.qname }
}

/** The list as a bag: its data anywhere, no positions, no length. */
export function bag(value: Val): Val {
  if (!value.fields) return value
  return { ...value, facts: deepFacts(value), fields: null, constant: undefined, prefix: null }
}

/** The list without its known length (positions already written stay). */
export function inexact(value: Val): Val {
  if (!value.fields?.has(LENGTH)) return value
  const fields = new Map(value.fields)
  fields.delete(LENGTH)
  return { ...value, fields }
}

function position(index: Const | undefined, length: number, inclusive: boolean): number | undefined {
  if (typeof index !== 'number' || !Number.isInteger(index)) return undefined
  const resolved = index < 0 ? length + index : index
  return resolved >= 0 && (inclusive ? resolved <= length : resolved < length) ? resolved : undefined
}

/** `l.add(x)`, `l.append(x)`, `l.push(a, b)` */
export function listAppend(value: Val, items: readonly Val[]): Val {
  const length = exactLength(value)
  if (length === undefined) return items.reduce((acc, item) => smear(inexact(acc), item), value)
  return rebuilt(value, [...elements(value, length), ...items])
}

/** `l.add(i, x)`, `l.insert(i, x)`, `l.unshift(x)` (position 0) */
export function listInsert(value: Val, index: Const | undefined, item: Val): Val {
  const length = exactLength(value)
  const at = length === undefined ? undefined : position(index, length, true)
  if (length === undefined || at === undefined) return smear(bag(value), item)
  const items = elements(value, length)
  items.splice(at, 0, item)
  return rebuilt(value, items)
}

/** `l.set(i, x)`: the old element and the new list. */
export function listSet(value: Val, index: Const | undefined, item: Val): { list: Val; old: Val } {
  const length = exactLength(value)
  const at = length === undefined ? undefined : position(index, length, false)
  if (length === undefined || at === undefined) return { list: smear(bag(value), item), old: readAny(value) }
  const items = elements(value, length)
  const old = items[at] ?? CLEAN
  items[at] = item
  return { list: rebuilt(value, items), old }
}

/** `l.remove(i)`, `l.pop(i)`, `l.pop()` (index -1), `l.shift()` (index 0): the element and the rest. */
export function listRemoveAt(value: Val, index: Const | undefined): { list: Val; removed: Val } {
  const length = exactLength(value)
  const at = length === undefined ? undefined : position(index, length, false)
  if (length === undefined || at === undefined) return { list: bag(value), removed: readAny(value) }
  const items = elements(value, length)
  const [removed] = items.splice(at, 1)
  return { list: rebuilt(value, items), removed: removed ?? CLEAN }
}

/** `l.shift()` of a list of unknown length whose first element is known on every path: that element, or null. */
export function listShiftKnownFirst(value: Val): { list: Val; removed: Val } | null {
  const first = value.fields?.get('0')
  if (!first || readField(value, FIRST_KNOWN).constant !== true) return null
  return { list: bag(value), removed: first }
}

/** `l.remove("a")`: the first element equal to a constant, when every element before it is known. */
export function listRemoveValue(value: Val, target: Const | undefined): Val {
  const length = exactLength(value)
  if (length === undefined || target === undefined) return bag(value)
  const items = elements(value, length)
  for (let index = 0; index < items.length; index++) {
    const constant = items[index]?.constant
    if (constant === undefined) return bag(value)
    if (constant === target) {
      items.splice(index, 1)
      return rebuilt(value, items)
    }
  }
  return value
}

/** The field of a list position written from its end (`l[-1]`), when the length is known. */
export function positionKey(value: Val, key: Const): string {
  const length = exactLength(value)
  if (typeof key !== 'number' || key >= 0 || length === undefined) return String(key)
  return String(length + key)
}

/** `l.addAll(other)`, `l.extend(other)`, `l.concat(other)` */
export function listExtend(value: Val, other: Val): Val {
  const length = exactLength(other)
  if (length === undefined) return smear(inexact(value), bag(other))
  return listAppend(value, elements(other, length))
}

/** `l.splice(start, count, ...items)`: the removed elements (as a list) and the rest. */
export function listSplice(value: Val, start: Const | undefined, count: Const | undefined, items: readonly Val[]): { list: Val; removed: Val } {
  const length = exactLength(value)
  const at = length === undefined ? undefined : position(start, length, true)
  if (length === undefined || at === undefined || (count !== undefined && (typeof count !== 'number' || count < 0))) {
    return { list: items.reduce((acc, item) => smear(acc, item), bag(value)), removed: bag(value) }
  }
  const all = elements(value, length)
  const removed = all.splice(at, count === undefined ? length - at : count, ...items)
  return { list: rebuilt(value, all), removed: listOf(removed) }
}
