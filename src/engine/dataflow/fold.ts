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
