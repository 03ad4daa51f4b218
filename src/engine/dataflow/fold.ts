/**
 * Constant folding: the value of an operator on known constants (so `limit * 3 > 20` with
 * `limit = 9` decides a branch), and the known constant start of built strings (a URL whose
 * scheme and host are fixed).
 */
import type { Const } from './ir.ts'
import type { Val } from './values.ts'

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
