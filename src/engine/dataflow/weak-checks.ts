/**
 * Checks that look like an allow-list of hosts but only test a substring of the URL:
 * `url.includes("example.com")`, `url.indexOf(host) !== -1`, `url.startsWith("https://example.com")`
 * (no `/` after the host), `url.endsWith("example.com")` (no `.` before the domain), a regular
 * expression without `^`, `allowed.some(a => url.includes(a))`. They clean nothing (an attacker's
 * `https://evil.test/?example.com` passes them); the interpreter records them as a step of the
 * checked value, so a redirect or request it reaches says which check was too weak.
 *
 * Proper checks are not matched: `allowed.includes(host)` tests membership of the value in a
 * list (the value is the argument, not the receiver), `new URL(u).host === "example.com"`
 * compares whole hosts.
 */
import type { Expr } from './ir.ts'

/** Prefix of the step note, read back by the report to point the finding at the check. */
export const WEAK_CHECK_NOTE = 'checked only by substring'

export interface WeakCheck {
  /** the expression whose text the check looks into */
  readonly subject: Expr
  /** the check as written, shortened */
  readonly what: string
}

const SUBSTRING_METHODS = new Set(['includes', 'contains', 'indexOf', 'search', 'match', 'find'])
const PREFIX_METHODS = new Set(['startsWith', 'startswith'])
const SUFFIX_METHODS = new Set(['endsWith', 'endswith'])
/** `x.indexOf(a) !== -1` and the like: operator and constant meaning "found". */
const FOUND_COMPARISONS: Record<string, (n: number) => boolean> = {
  '!==': (n) => n === -1,
  '!=': (n) => n === -1,
  '>': (n) => n === -1,
  '>=': (n) => n === 0,
}
const HOST_PROPERTIES = new Set(['host', 'hostname', 'origin'])
const ITERATING_METHODS = new Set(['some', 'find', 'every', 'filter', 'any'])

/** The constant string an expression evaluates to, if known. */
export type ConstantText = (expr: Expr) => string | null

/**
 * The weak check `test` makes when it holds (`polarity` true) or fails, or null. `names` are
 * the callback's own parameters, which are the list's entries, not the checked value.
 */
export function weakCheckOf(test: Expr, polarity: boolean, constantOf: ConstantText, names: ReadonlySet<string> = new Set()): WeakCheck | null {
  if (test.t === 'unary' && (test.op === '!' || test.op === 'not')) return weakCheckOf(test.operand, !polarity, constantOf, names)
  if (test.t === 'binary') {
    const found = FOUND_COMPARISONS[test.op]
    const constant = test.right.t === 'unary' && test.right.op === '-' && test.right.operand.t === 'literal' ? -Number(test.right.operand.value) : test.right.t === 'literal' ? test.right.value : null
    if (found && polarity && typeof constant === 'number' && found(constant) && test.left.t === 'call') return methodCheck(test.left, constantOf, names, test, true)
    if ((test.op === '===' || test.op === '==') && !polarity && constant === -1 && test.left.t === 'call') return methodCheck(test.left, constantOf, names, test, true)
    return null
  }
  if (test.t !== 'call' || !polarity) return null
  const callee = test.callee
  if (callee.t === 'member' && ITERATING_METHODS.has(callee.property)) {
    const fn = test.args[0]?.value
    if (fn?.t !== 'function') return null
    const body = fn.fn.body()
    const only = body.length === 1 ? body[0] : undefined
    if (only?.t !== 'return' || !only.value) return null
    const params = new Set(fn.fn.params.map((param) => param.name).filter((name): name is string => name !== null))
    const inner = weakCheckOf(only.value, true, constantOf, params)
    return inner ? { subject: inner.subject, what: shorten(test.site.text) } : null
  }
  return methodCheck(test, constantOf, names, test, false)
}

function methodCheck(call: Extract<Expr, { t: 'call' }>, constantOf: ConstantText, names: ReadonlySet<string>, whole: Expr, compared: boolean): WeakCheck | null {
  const callee = call.callee
  if (callee.t !== 'member') return null
  const method = callee.property
  const arg = call.args[0]?.value
  if (!arg) return null
  // `/example\.com/.test(url)`: a regular expression literal without a start anchor.
  if (method === 'test') {
    const pattern = callee.object
    if (pattern.t !== 'literal' || typeof pattern.value !== 'string' || !pattern.value.startsWith('/') || pattern.value.startsWith('/^')) return null
    return mentions(arg, names) ? null : { subject: arg, what: shorten(whole.site.text) }
  }
  const subject = callee.object
  if (mentions(subject, names) || subject.t === 'literal' || subject.t === 'list') return null
  // A truthy indexOf() means "not at the start": only comparisons with -1 or 0 are checks.
  if (method === 'indexOf' && !compared) return null
  const text = constantOf(arg)
  if (SUBSTRING_METHODS.has(method)) {
    // `url.match(/^https:\/\/example\.com\//)`: anchored patterns are validators, not substring tests.
    if (text !== null && /^\/\^/.test(text)) return null
    return { subject, what: shorten(whole.site.text) }
  }
  if (PREFIX_METHODS.has(method)) {
    // A path (`/`) or a scheme and host followed by `/` fixes where the URL goes.
    if (text === null || text.startsWith('/') || /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]+\//.test(text)) return null
    return { subject, what: shorten(whole.site.text) }
  }
  if (SUFFIX_METHODS.has(method)) {
    if (text !== null && text.startsWith('.')) return null
    if (text === null && !mentions(arg, names)) return null
    return { subject, what: shorten(whole.site.text) }
  }
  return null
}

function mentions(expr: Expr, names: ReadonlySet<string>): boolean {
  if (names.size === 0) return false
  switch (expr.t) {
    case 'name':
      return names.has(expr.name)
    case 'member':
      return mentions(expr.object, names)
    case 'index':
      return mentions(expr.object, names) || mentions(expr.index, names)
    case 'call':
      return mentions(expr.callee, names) || expr.args.some((arg) => mentions(arg.value, names))
    default:
      return false
  }
}

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  return line.length > 80 ? `${line.slice(0, 77)}...` : line
}

/** The sentence a redirect or request finding adds when its value passed only such a check. */
export function weakCheckSentence(steps: ReadonlyArray<{ readonly note: string; readonly lineNumber: number; readonly code: string }>): string | null {
  const step = steps.find((candidate) => candidate.note.startsWith(WEAK_CHECK_NOTE))
  if (!step) return null
  return ` It passed only a substring check, at line ${step.lineNumber} (\`${step.code}\`), which is not an allow-list: any URL containing the expected text passes it.`
}

/**
 * A whole-host comparison: `new URL(u).host === "example.com"`, `parsed.hostname === HOST`,
 * `ALLOWED_HOSTS.includes(new URL(u).hostname)`, holding on this branch. Returns what it
 * makes safe for redirects and requests: `u` for an inline `new URL(u)`, else the parsed URL's
 * variable.
 */
export function hostCheckSubject(test: Expr, polarity: boolean): Expr | null {
  if (test.t === 'binary') {
    const equal = test.op === '===' || test.op === '==' ? polarity : test.op === '!==' || test.op === '!=' ? !polarity : null
    if (equal !== true) return null
    return parsedUrlOf(test.left) ?? parsedUrlOf(test.right)
  }
  if (test.t === 'call' && polarity && test.callee.t === 'member' && (test.callee.property === 'includes' || test.callee.property === 'has')) {
    const arg = test.args[0]?.value
    return arg ? parsedUrlOf(arg) : null
  }
  return null
}

function parsedUrlOf(expr: Expr): Expr | null {
  if (expr.t !== 'member' || !HOST_PROPERTIES.has(expr.property)) return null
  const object = expr.object
  if (object.t === 'call' && object.isNew && object.callee.t === 'name' && object.callee.name === 'URL') return object.args[0]?.value ?? null
  return object.t === 'name' ? object : null
}
