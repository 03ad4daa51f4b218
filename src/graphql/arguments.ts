/** Argument checks shared by resolvers (the REST adapter has already applied the same rules). */
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
