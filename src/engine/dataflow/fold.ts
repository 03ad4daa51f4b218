/**
 * Constant folding: the value of an operator on known constants (so `limit * 3 > 20` with
 * `limit = 9` decides a branch), and the known constant start of built strings (a URL whose
 * scheme and host are fixed).
 */
import type { Const } from './ir.ts'
import { MAX_CHOICES, choicesOf } from './values.ts'
import type { Choice, Val } from './values.ts'

function foldNumbers(op: string, left: number, right: number): Const | undefined {
  switch (op) {
    case '+':
      return left + right
    case '-':
      return left - right
    case '*':
      return left * right
    case '/':
      return right === 0 ? undefined : left / right
    case '//':
      return right === 0 ? undefined : Math.floor(left / right)
    case '%':
      return right === 0 ? undefined : left % right
    case '**':
      return left ** right
    case '<':
      return left < right
    case '<=':
      return left <= right
    case '>':
      return left > right
    case '>=':
      return left >= right
    default:
      return undefined
  }
}

/** `left op right` when both are known; undefined when unknown or not foldable. */
export function foldBinary(op: string, left: Const | undefined, right: Const | undefined, equal: readonly string[], notEqual: readonly string[]): Const | undefined {
  if (left === undefined || right === undefined) return undefined
  if (equal.includes(op)) return left === right
  if (notEqual.includes(op)) return left !== right
  if (typeof left === 'number' && typeof right === 'number') return foldNumbers(op, left, right)
  if (op === '+' && (typeof left === 'string' || typeof right === 'string')) return `${String(left)}${String(right)}`
  return undefined
}

/** The constant start of a template: its leading constant pieces and the next piece's prefix. */
export function templatePrefix(parts: readonly Val[]): string | null {
  let prefix = ''
  for (const part of parts) {
    if (typeof part.constant === 'string' || typeof part.constant === 'number') {
      prefix += String(part.constant)
      continue
    }
    prefix += part.prefix ?? ''
    break
  }
  return prefix === '' ? null : prefix
}

/** The constant start of `left` followed by `right` (string building). */
export function concatPrefix(left: Val, right: Val): string | null {
  if (typeof left.constant === 'string') return left.constant + (right.prefix ?? '')
  return left.prefix
}

/** A replacement of every `search` in `text`, when every language agrees on the result (a single match, or a plain all-replace). */
function replaceConstant(text: string, search: string, replacement: string, all: boolean): string | undefined {
  if (search === '') return undefined
  const count = text.split(search).length - 1
  if (count > 1 && !all) return undefined
  return text.split(search).join(replacement)
}

function sliceIndex(value: Const | undefined, length: number): number | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) return undefined
  return value < 0 ? Math.max(length + value, 0) : Math.min(value, length)
}

/**
 * `"ABC".charAt(1)`, `"a b".strip()`, `"x".equals(y)`: a string method on a known constant with
 * known arguments, as Java, JavaScript and Python agree on it; undefined when unknown or when
 * the languages differ (JavaScript's `replace` of a string changes only its first match).
 */
export function foldStringMethod(method: string, text: string, args: readonly (Const | undefined)[]): Const | undefined {
  if (args.some((arg) => arg === undefined)) return undefined
  const [first, second] = args
  switch (method) {
    case 'toUpperCase':
    case 'toLocaleUpperCase':
    case 'upper':
      return args.length === 0 ? text.toUpperCase() : undefined
    case 'toLowerCase':
    case 'toLocaleLowerCase':
    case 'lower':
    case 'casefold':
      return args.length === 0 ? text.toLowerCase() : undefined
    case 'trim':
    case 'strip':
      return args.length === 0 ? text.trim() : undefined
    case 'trimStart':
    case 'lstrip':
      return args.length === 0 ? text.trimStart() : undefined
    case 'trimEnd':
    case 'rstrip':
      return args.length === 0 ? text.trimEnd() : undefined
    case 'toString':
    case 'intern':
      return args.length === 0 ? text : undefined
    case 'charAt': {
      const index = typeof first === 'number' && Number.isInteger(first) ? first : undefined
      return index === undefined || index < 0 || index >= text.length ? undefined : text.charAt(index)
    }
    case 'substring':
    case 'slice': {
      const start = sliceIndex(first, text.length)
      const end = args.length > 1 ? sliceIndex(second, text.length) : text.length
      if (start === undefined || end === undefined) return undefined
      if (method === 'substring' && (typeof first === 'number' && first < 0)) return undefined
      return start <= end ? text.slice(start, end) : method === 'substring' ? undefined : ''
    }
    case 'concat':
      return args.every((arg) => typeof arg === 'string') ? text + args.join('') : undefined
    case 'replace':
    case 'replaceAll': {
      if (typeof first !== 'string' || typeof second !== 'string' || args.length !== 2) return undefined
      // Java's replaceAll takes a regular expression: only a plain one folds.
      if (method === 'replaceAll' && /[\\^$.|?*+()[\]{}]/.test(first)) return undefined
      return replaceConstant(text, first, second, method === 'replaceAll')
    }
    case 'equals':
      return args.length === 1 ? text === first : undefined
    case 'equalsIgnoreCase':
      return args.length === 1 && typeof first === 'string' ? text.toLowerCase() === first.toLowerCase() : undefined
    case 'startsWith':
    case 'startswith':
      return args.length === 1 && typeof first === 'string' ? text.startsWith(first) : undefined
    case 'endsWith':
    case 'endswith':
      return args.length === 1 && typeof first === 'string' ? text.endsWith(first) : undefined
    case 'contains':
    case 'includes':
      return args.length === 1 && typeof first === 'string' ? text.includes(first) : undefined
    case 'isEmpty':
      return args.length === 0 ? text.length === 0 : undefined
    case 'length':
      return args.length === 0 ? text.length : undefined
    case 'format':
      return formatBraces(text, args)
    default:
      return undefined
  }
}

/** Python's `"{} {}".format(a, b)` and `"{0}".format(a)` with constant arguments (no format specs). */
function formatBraces(text: string, args: readonly (Const | undefined)[]): string | undefined {
  let next = 0
  let failed = false
  const result = text.replace(/\{\{|\}\}|\{(\d*)\}|\{[^}]*\}/g, (token, position: string | undefined) => {
    if (token === '{{') return '{'
    if (token === '}}') return '}'
    if (position === undefined) {
      failed = true
      return ''
    }
    const index = position === '' ? next++ : Number(position)
    const arg = args[index]
    if (arg === undefined) failed = true
    return pythonText(arg ?? null)
  })
  return failed ? undefined : result
}

function pythonText(value: Const): string {
  if (value === null) return 'None'
  if (value === true) return 'True'
  if (value === false) return 'False'
  return String(value)
}

/** `String.valueOf(x)`, `str(x)`, `String(x)` of a constant, written in the language's form. */
export function foldToString(value: Const, python: boolean): string {
  return python ? pythonText(value) : String(value)
}

/**
 * The strings a concatenation of parts may be (`PREFIX + ALG`, `${family}-${bits}`): every
 * combination of the parts' possible strings, when each part has some and the combinations stay
 * few; where a part came from a config file, the result says so.
 */
export function concatChoices(parts: readonly Val[]): readonly Choice[] | undefined {
  let result: Choice[] = [{ value: '', from: null }]
  let varied = false
  for (const part of parts) {
    const options = typeof part.constant === 'number' || typeof part.constant === 'boolean' ? [{ value: String(part.constant), from: null }] : choicesOf(part)
    if (options.length === 0) return undefined
    if (options.length > 1 || options.some((option) => option.from !== null)) varied = true
    if (result.length * options.length > MAX_CHOICES) return undefined
    result = result.flatMap((head) => options.map((option) => ({ value: head.value + option.value, from: head.from ?? option.from })))
  }
  // Plain constants already fold to `constant`; choices matter only where something varied.
  return varied ? result : undefined
}
