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
import { topLevelAlternatives } from './regex-syntax.ts'

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

/**
 * The regex with capturing groups made non-capturing. ast-grep only tests whether a node's
 * text matches, and Rust regexes have no backreferences, so captures are never read; the
 * capture slots cost up to a third of a small alternation's compilation.
 */
export function nonCapturing(source: string): string {
  let result = ''
  let inClass = false
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string
    if (char === '\\' && i + 1 < source.length) {
      result += char + (source[i + 1] as string)
      i++
      continue
    }
    if (inClass) {
      if (char === '[') {
        // A nested class (Rust syntax) or a POSIX class `[:alpha:]`: copy it whole.
        const close = source.indexOf(']', i + 1)
        if (close !== -1) {
          result += source.slice(i, close + 1)
          i = close
          continue
        }
      }
      if (char === ']') inClass = false
      result += char
      continue
    }
    if (char === '[') {
      inClass = true
      result += char
      if (source[i + 1] === '^') result += source[++i]
      if (source[i + 1] === ']') result += source[++i]
      continue
    }
    if (char === '(') {
      const named = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(source.slice(i))
      if (named) {
        result += '(?:'
        i += named[0].length - 1
        continue
      }
      if (source[i + 1] !== '?') {
        result += '(?:'
        continue
      }
    }
    result += char
  }
  return result
}

const fastForms = new Map<string, string>()
let probeRoot: SgNode | null = null

/**
 * The cheapest form of a regex that keeps its ASCII meaning: ASCII classes, and Unicode mode
 * off altogether (ASCII-only case folding) unless the regex could then match invalid UTF-8
 * (`.`, negated classes), which ast-grep refuses; long case-insensitive searches are anchored
 * behind a lazy prefix (see benefitsFromSearchForm).
 */
export function fastRegex(source: string): string {
  let fast = fastForms.get(source)
  if (fast === undefined) {
    // Every form is checked to compile, so a rule whose regexes are valid stays valid.
    const ascii = nonCapturing(asciiRegex(source))
    fast = compiles(`(?-u)${ascii}`) ? `(?-u)${ascii}` : compiles(ascii) ? ascii : source
    if (benefitsFromSearchForm(fast)) {
      const search = `^(?s:.)*?(?:${fast})`
      if (compiles(search)) fast = search
    }
    fastForms.set(source, fast)
  }
  return fast
}

/**
 * Whether `regex` is cheaper to compile as `^(?s:.)*?(?:regex)`. For an unanchored regex, Rust's
 * regex compiler extracts the literals a match can start with to build a search prefilter; for
 * a case-insensitive alternation of words that is every case variant of every word, 0.15 to 0.3
 * ms per compilation, and ast-grep compiles a rule's regexes for every file. ast-grep only asks
 * whether a node's text matches somewhere, which the anchored form with a lazy prefix answers
 * identically, without a prefilter to build. The prefix itself costs about 40 microseconds, so
 * the form is used only for long case-insensitive regexes that are not anchored at the start.
 * Verbose mode (`x`) is left alone: a `#` comment would swallow the closing parenthesis.
 */
function benefitsFromSearchForm(regex: string): boolean {
  if (regex.length < 40 || !/\(\?[a-wyz]*i[a-zA-Z-]*[:)]/.test(regex) || /\(\?[a-zA-Z-]*x/.test(regex)) return false
  const body = regex.replace(/^(?:\(\?[a-zA-Z-]+\))+/, '')
  // A leading punctuation literal (`\$`, `-`) has a single case variant: the prefilter is cheap.
  if (/^(?:\\[^A-Za-z0-9]|[^\\([A-Za-z0-9^])/.test(body)) return false
  return !topLevelAlternatives(body).every((alternative) => alternative.startsWith('^'))
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
