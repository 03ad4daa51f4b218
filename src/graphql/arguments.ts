/** Argument checks shared by resolvers (the REST adapter has already applied the same rules) and by both edges. */
import type { Caller } from '../auth/caller.ts'
import { BadRequestError, NotFoundError } from '../errors.ts'

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value)
}

/** A well-formed identifier, lower-cased; a malformed one is a 400 naming the resource. */
export function parseId(value: string, resource: string): string {
  if (!isUuid(value)) throw new BadRequestError(`Invalid ${resource} identifier format`)
  return value.toLowerCase()
}

/** A GraphQL nullable input turned into an optional value. */
export function optional<T>(value: T | null | undefined): T | undefined {
  return value ?? undefined
}

/** Who a note or a record is attributed to. */
export function authorOf(caller: Caller): string {
  return caller.userId ?? 'unknown'
}

/** A row a loader must find (it was reached through a row of the same organization). */
export async function loaded<T>(value: Promise<T | undefined>, what: string): Promise<T> {
  const row = await value
  if (row === undefined) throw new NotFoundError(`${what} not found`)
  return row
}

/** Where a value holds text. */
export type TextPath = (string | number)[]

/**
 * Every string in `value` (plain objects and arrays, at any depth) that holds NUL (U+0000):
 * PostgreSQL cannot store it in text, so both edges refuse it where it enters (REST: 422 at its
 * loc, GraphQL: BAD_USER_INPUT). Walked without recursion: a client chooses the depth.
 */
export function findNulText(value: unknown): TextPath[] {
  const found: TextPath[] = []
  const pending: [unknown, TextPath][] = [[value, []]]
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next
    if (typeof item === 'string') {
      if (item.includes('\u0000')) found.push(path)
    } else if (Array.isArray(item)) {
      item.forEach((element, index) => pending.push([element, [...path, index]]))
    } else if (isPlainObject(item)) {
      for (const [key, element] of Object.entries(item)) pending.push([element, [...path, key]])
    }
  }
  return found.reverse()
}

/** JSON objects and query-string objects (null prototype); not class instances such as uploads. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}
