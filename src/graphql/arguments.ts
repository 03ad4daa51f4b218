/** Argument checks shared by resolvers (the REST adapter has already applied the same rules). */
import { BadRequestError } from '../errors.ts'

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value)
}

/** A well-formed identifier, lower-cased; a malformed one is a 400 naming the resource. */
export function parseId(value: string, resource: string): string {
  if (!isUuid(value)) throw new BadRequestError(`Invalid ${resource} identifier format`)
  return value.toLowerCase()
}
