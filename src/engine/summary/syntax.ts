/**
 * Helpers over ast-grep nodes shared by the language extractors. Every call into a node
 * crosses into native code, so these read as little as possible (one `text()` rather than a
 * walk over children) and extractors call them only on nodes they already know matter.
 */
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import { fastRegex } from '../text/ascii-regex.ts'

export function startLine(node: SgNode): number {
  return node.range().start.line + 1
}

/** The value of a string literal node in any supported language, or null for anything else. */
export function literalString(node: SgNode | null | undefined): string | null {
  if (!node) return null
  const kind = node.kind()
  if (kind !== 'string' && kind !== 'string_literal' && kind !== 'template_string' && kind !== 'interpreted_string_literal' && kind !== 'raw_string_literal') {
    return null
  }
  return unquote(node.text())
}

/** Strips quotes (and Python string prefixes); null for interpolated strings. */
export function unquote(text: string): string | null {
  const match = /^[rRbBuU]{0,2}("""|'''|"|'|`)([\s\S]*)\1$/.exec(text)
  if (!match) return null
  const body = match[2] ?? ''
  if (match[1] === '`' && body.includes('${')) return null
  return body
}

/** Named, non-comment children of a node (arguments, list elements). */
export function namedChildren(node: SgNode | null | undefined): SgNode[] {
  if (!node) return []
  return node.children().filter((child) => child.isNamed() && child.kind() !== 'comment')
}

/** Arguments of a call (JavaScript `arguments`, Python `argument_list`, Java `argument_list`). */
export function callArguments(call: SgNode): SgNode[] {
  return namedChildren(call.field('arguments'))
}

/** Text flattened to one line, bounded. */
export function flatText(node: SgNode, max = 160): string {
  const text = node.text()
  const flat = text.length > max * 4 ? text.slice(0, max * 4) : text
  const single = flat.replace(/\s+/g, ' ').trim()
  return single.length <= max ? single : `${single.slice(0, max - 1)}…`
}

/** Root identifier of a dotted callee: `svc` in `svc.users.find`, `this` in `this.repo.save`. */
export function calleeRoot(callee: string): string {
  const match = /^[\w$]+/.exec(callee)
  return match ? match[0] : ''
}

/** Last segment of a dotted callee: `find` in `svc.users.find`. */
export function calleeMethod(callee: string): string {
  const match = /([\w$]+)\s*$/.exec(callee)
  return match?.[1] ?? ''
}

/**
 * A rule with every `regex` in its cheapest ASCII form: ast-grep compiles a rule's regexes
 * for each file it matches, and Unicode classes (`\w`, `\b`) make that slower than parsing.
 */
export function fastRule(config: NapiConfig): NapiConfig {
  const convert = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(convert)
    if (typeof value !== 'object' || value === null) return value
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === 'regex' && typeof inner === 'string' ? fastRegex(inner) : convert(inner)]))
  }
  return convert(config) as NapiConfig
}

export interface CallSpan {
  start: number
  end: number
}

/**
 * Callee texts of calls from their spans alone (ast-grep's Node binding reports offsets in
 * UTF-16 code units, so they index JavaScript strings directly): the text from the call's start to the `(`
 * that opens its arguments. Calls chained on calls (`a.b(x).c(y)`) share their start; the
 * shorter one is inside the longer, whose callee continues after it. Returns null where the
 * callee is not a plain dotted chain (subscripts, generics, parenthesized callees): the caller
 * then asks the syntax tree.
 */
export function calleesFromSpans(text: string, spans: readonly CallSpan[]): Array<string | null> {
  const order = spans.map((_, index) => index).sort((a, b) => (spans[a] as CallSpan).start - (spans[b] as CallSpan).start || (spans[a] as CallSpan).end - (spans[b] as CallSpan).end)
  const result = new Array<string | null>(spans.length).fill(null)
  let previous: { start: number; end: number; callee: string | null } | null = null
  for (const index of order) {
    const span = spans[index] as CallSpan
    const start = span.start
    const end = span.end
    const chained = previous && previous.start === span.start && previous.callee !== null ? previous : null
    const from = chained ? chained.end : start
    const open = chainEnd(text, from, end)
    const raw = open === -1 ? '' : text.slice(start, open)
    // `new X().y()`: the chain starts with a constructor call, which this reading does not follow.
    const callee = open === -1 || /^(?:new|await|typeof|void)\s/.test(raw) ? null : shorten(raw.replace(/\s+/g, ''))
    result[index] = callee
    previous = { start: span.start, end, callee }
  }
  return result
}

/** Long chains keep their root and their last member, which is what callees are read for. */
function shorten(callee: string): string {
  return callee.length <= 300 ? callee : `${callee.slice(0, 140)}…${callee.slice(-140)}`
}

/** Index of the `(` ending a dotted chain that starts at `from`, or -1. */
function chainEnd(text: string, from: number, limit: number): number {
  for (let index = from; index < limit; index++) {
    const code = text.charCodeAt(index)
    if (code === 40) return index
    const plain = (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36 || code === 46 || code === 63 || code === 32 || code === 9 || code === 10 || code === 13
    if (!plain) return -1
  }
  return -1
}
