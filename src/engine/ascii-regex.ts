/**
 * Rule regexes are compiled by ast-grep (Rust `regex`) on every match call, and Unicode-aware
 * classes make that slow: `\w`, `\s`, `\b` expand to thousands of ranges (a rule with a few
 * of them takes over a millisecond to compile, more than parsing a file). Source code is
 * overwhelmingly ASCII, so the engine matches these classes as their ASCII versions; this is
 * part of the rule format (docs/rules.md) and makes such regexes 10-30x cheaper to compile.
 * Where possible Unicode mode is switched off entirely, which also makes `(?i)` cheap.
 */

import { Lang, parse } from '@ast-grep/napi'
import type { SgNode } from '@ast-grep/napi'

const OUTSIDE_CLASS: Record<string, string> = {
  w: '[0-9A-Za-z_]',
  W: '[^0-9A-Za-z_]',
  d: '[0-9]',
  D: '[^0-9]',
  s: '[\\t\\n\\v\\f\\r ]',
  S: '[^\\t\\n\\v\\f\\r ]',
  b: '(?-u:\\b)',
  B: '(?-u:\\B)',
}

const INSIDE_CLASS: Record<string, string> = {
  w: '0-9A-Za-z_',
  d: '0-9',
  s: '\\t\\n\\v\\f\\r ',
}

/** The regex with Perl classes and word boundaries replaced by their ASCII forms. */
export function asciiRegex(source: string): string {
  let result = ''
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string
    if (char === '\\' && i + 1 < source.length) {
      const next = source[i + 1] as string
      const replacement = inClass ? INSIDE_CLASS[next] : OUTSIDE_CLASS[next]
      result += replacement ?? `\\${next}`
      i++
      continue
    }
    if (!inClass && char === '[') {
      inClass = true
      result += char
      // `[]...]` and `[^]...]` start with a literal `]`.
      if (source[i + 1] === '^') result += source[++i]
      if (source[i + 1] === ']') result += source[++i]
      continue
    }
    if (inClass && char === ']') inClass = false
    result += char
  }
  return result
}

const fastForms = new Map<string, string>()
let probeRoot: SgNode | null = null

/**
 * The cheapest form of a regex that keeps its ASCII meaning: ASCII classes, and Unicode mode
 * off altogether (ASCII-only case folding) unless the regex could then match invalid UTF-8
 * (`.`, negated classes), which ast-grep refuses.
 */
export function fastRegex(source: string): string {
  let fast = fastForms.get(source)
  if (fast === undefined) {
    const ascii = asciiRegex(source)
    fast = compiles(`(?-u)${ascii}`) ? `(?-u)${ascii}` : ascii
    fastForms.set(source, fast)
  }
  return fast
}

function compiles(regex: string): boolean {
  probeRoot ??= parse(Lang.JavaScript, '').root()
  try {
    probeRoot.findAll({ rule: { regex } })
    return true
  } catch {
    return false
  }
}

/** A deep copy of a rule, constraints or utils object with every `regex:` value made fast. */
export function withAsciiRegexes<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withAsciiRegexes(item)) as T
  if (typeof value !== 'object' || value === null) return value
  const copy: Record<string, unknown> = {}
  for (const [key, child] of Object.entries(value)) {
    copy[key] = key === 'regex' && typeof child === 'string' ? fastRegex(child) : withAsciiRegexes(child)
  }
  return copy as T
}
