/**
 * Input validation at the REST edge: zod schemas for path, query and body, and the one function
 * that maps every failing field to the spec's 422 body in the style of pydantic v2
 * (`{"detail":[{"loc":["query","per_page"],"msg":"...","type":"less_than_equal"}]}`).
 * A malformed identifier in a path is not a 422 but a 400 (`badRequest` issue parameter).
 * Whatever a row's schema says, text holding NUL is refused (PostgreSQL cannot store it),
 * integers fit GraphQL's Int and dates PostgreSQL's range: every value a row lets through can
 * run its operation, so a bad value is a 4xx here and never a failure further down.
 */
import { z } from 'zod'
import { BadRequestError, ValidationError, type ValidationIssue } from '../../errors.ts'
import { findNulText, isUuid } from '../../graphql/arguments.ts'
import { EARLIEST_DATE, isStorableDate, LATEST_DATE } from '../../graphql/scalars.ts'

export type Location = 'path' | 'query' | 'body'

/** A UUID path parameter; malformed ones answer 400 "Invalid <resource> identifier format". */
export function idParam(resource: string) {
  return z
    .string()
    .superRefine((value, context) => {
      if (!isUuid(value)) {
        context.addIssue({ code: 'custom', message: `Invalid ${resource} identifier format`, params: { badRequest: true } })
      }
    })
    .meta({ format: 'uuid', description: `${resource} identifier` })
}

// GraphQL's Int, which every integer a route passes on becomes
const INT_MIN = -(2 ** 31)
const INT_MAX = 2 ** 31 - 1

/** An integer query parameter within bounds, and always within GraphQL's 32-bit Int. */
export function queryInteger(bounds: { min?: number; max?: number } = {}) {
  return z.coerce
    .number({ error: 'Input should be a valid integer, unable to parse string as an integer' })
    .int()
    .min(Math.max(bounds.min ?? INT_MIN, INT_MIN))
    .max(Math.min(bounds.max ?? INT_MAX, INT_MAX))
}

/** Parses `input` at `location`, throwing BadRequestError or ValidationError with every issue. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, location: Location): z.infer<Schema> {
  const result = schema.safeParse(input)
  const nulText = findNulText(input)
  if (result.success && nulText.length === 0) return result.data
  const schemaIssues = result.success ? [] : result.error.issues
  const badRequest = schemaIssues.find((issue) => issue.code === 'custom' && issue.params?.['badRequest'])
  if (badRequest) throw new BadRequestError(badRequest.message)
  const issues = schemaIssues.map((issue) => toValidationIssue(issue, location, input))
  const reported = new Set(issues.map((issue) => JSON.stringify(issue.loc)))
  for (const path of nulText) {
    const loc = [location, ...path]
    if (!reported.has(JSON.stringify(loc))) issues.push({ loc, msg: 'Input should not contain NUL (U+0000) characters', type: 'value_error' })
  }
  throw new ValidationError(issues)
}

function toValidationIssue(issue: z.core.$ZodIssue, location: Location, input: unknown): ValidationIssue {
  const loc = [location, ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))]
  const received = valueAt(input, issue.path)
  if (issue.code !== 'unrecognized_keys' && isMissing(input, issue.path)) return { loc, msg: 'Field required', type: 'missing' }
  switch (issue.code) {
    case 'invalid_type':
      return typeIssue(loc, issue.expected)
    case 'too_small':
      return boundIssue(loc, issue.origin, 'min', issue.minimum, issue.inclusive ?? true, received)
    case 'too_big':
      return boundIssue(loc, issue.origin, 'max', issue.maximum, issue.inclusive ?? true, received)
    case 'invalid_value':
      return { loc, msg: `Input should be ${issue.values.map((value) => `'${String(value)}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`, type: 'enum' }
    case 'invalid_format':
      if (issue.format === 'uuid') return { loc, msg: 'Input should be a valid UUID', type: 'uuid_parsing' }
      if (issue.format === 'datetime' || issue.format === 'date') return { loc, msg: 'Input should be a valid datetime or date', type: 'datetime_from_date_parsing' }
      return { loc, msg: issue.message, type: 'string_pattern_mismatch' }
    case 'unrecognized_keys':
      return { loc, msg: `Extra inputs are not permitted: ${issue.keys.join(', ')}`, type: 'extra_forbidden' }
    case 'custom':
      return { loc, msg: issue.message, type: typeof issue.params?.['type'] === 'string' ? issue.params['type'] : 'value_error' }
    default:
      return { loc, msg: issue.message, type: 'value_error' }
  }
}

function typeIssue(loc: ValidationIssue['loc'], expected: string): ValidationIssue {
  switch (expected) {
    case 'number':
    case 'int':
      return { loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' }
    case 'boolean':
      return { loc, msg: 'Input should be a valid boolean', type: 'bool_parsing' }
    case 'string':
      return { loc, msg: 'Input should be a valid string', type: 'string_type' }
    case 'array':
      return { loc, msg: 'Input should be a valid list', type: 'list_type' }
    case 'object':
      return { loc, msg: 'Input should be a valid dictionary or object to extract fields from', type: 'model_attributes_type' }
    default:
      return { loc, msg: `Input should be a valid ${expected}`, type: `${expected}_type` }
  }
}

function boundIssue(loc: ValidationIssue['loc'], origin: string, side: 'min' | 'max', limit: number | bigint, inclusive: boolean, received: unknown): ValidationIssue {
  const count = Array.isArray(received) ? received.length : typeof received === 'string' ? received.length : undefined
  if (origin === 'string') {
    return side === 'min'
      ? { loc, msg: `String should have at least ${limit} character${limit === 1 ? '' : 's'}`, type: 'string_too_short' }
      : { loc, msg: `String should have at most ${limit} character${limit === 1 ? '' : 's'}`, type: 'string_too_long' }
  }
  if (origin === 'array') {
    return side === 'min'
      ? { loc, msg: `List should have at least ${limit} item${limit === 1 ? '' : 's'} after validation, not ${count ?? 0}`, type: 'too_short' }
      : { loc, msg: `List should have at most ${limit} item${limit === 1 ? '' : 's'} after validation, not ${count ?? 0}`, type: 'too_long' }
  }
  if (side === 'min') {
    return inclusive
      ? { loc, msg: `Input should be greater than or equal to ${limit}`, type: 'greater_than_equal' }
      : { loc, msg: `Input should be greater than ${limit}`, type: 'greater_than' }
  }
  return inclusive
    ? { loc, msg: `Input should be less than or equal to ${limit}`, type: 'less_than_equal' }
    : { loc, msg: `Input should be less than ${limit}`, type: 'less_than' }
}

/** The field is absent from the input (not merely invalid): its parent exists and lacks the key. */
function isMissing(input: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return input === undefined
  const parent = valueAt(input, path.slice(0, -1))
  const key = path[path.length - 1] as PropertyKey
  if (parent === undefined) return true
  return parent !== null && typeof parent === 'object' && (!(key in parent) || (parent as Record<PropertyKey, unknown>)[key] === undefined)
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<PropertyKey, unknown>)[key]
  }
  return value
}

/** A comma-separated list in a query string (a repeated parameter is accepted too). */
export function commaList<Item extends z.ZodType<unknown, string>>(item: Item) {
  return z
    .preprocess(
      (value) => (Array.isArray(value) ? value.join(',') : value),
      z.string().transform((text) => text.split(',').map((part) => part.trim()).filter(Boolean)).pipe(z.array(item)),
    )
    .meta({ type: 'string', description: 'comma-separated list' })
}

/** An ISO 8601 date or date-time in a query string, between the years 1 and 9999. */
export function queryDate() {
  return z.string().transform((text, context) => {
    const date = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) ? new Date(text) : new Date(Number.NaN)
    if (Number.isNaN(date.getTime())) {
      context.addIssue({ code: 'custom', message: 'Input should be a valid datetime or date', params: { type: 'datetime_from_date_parsing' } })
      return z.NEVER
    }
    if (!isStorableDate(date)) {
      context.addIssue({ code: 'custom', message: `Input should be between ${EARLIEST_DATE.toISOString()} and ${LATEST_DATE.toISOString()}`, params: { type: 'datetime_parsing' } })
      return z.NEVER
    }
    return date
  }).meta({ type: 'string', format: 'date-time', description: 'ISO 8601 date or date-time' })
}

/** A query-string integer-or-boolean flag with named values, e.g. false_positive=0|1|2|true|false. */
export function queryChoice<Value extends string>(choices: Record<string, Value>) {
  return z.string().transform((text, context) => {
    const value = choices[text.toLowerCase()]
    if (value === undefined) {
      context.addIssue({ code: 'custom', message: `Input should be ${Object.keys(choices).join(', ')}`, params: { type: 'enum' } })
      return z.NEVER
    }
    return value
  }).meta({ type: 'string', enum: Object.keys(choices) })
}

/** A query-string boolean: true or false (1 and 0 too, as pydantic takes them), any case. */
export function queryBoolean() {
  return queryFlag({ true: true, '1': true, false: false, '0': false })
}

function queryFlag(values: Record<string, boolean>) {
  return z.string().transform((text, context) => {
    const value = values[text.toLowerCase()]
    if (value === undefined) {
      context.addIssue({ code: 'custom', message: 'Input should be a valid boolean, unable to interpret input', params: { type: 'bool_parsing' } })
      return z.NEVER
    }
    return value
  }).meta({ type: 'boolean' })
}

/** GraphQL variables name enum values in capitals. */
export function enumName(value: string): string {
  return value.toUpperCase()
}
