/**
 * ReDoS where the regex runs: a regular expression whose literal the interpreter folded (inline,
 * a constant, a module-level or imported definition, `new RegExp("...")` of constants) is judged
 * by recheck's automaton analysis (ambiguity of its NFA: exponential or polynomial backtracking),
 * and a call running it on untrusted text (`re.test(s)`, `s.replace(re, ...)`) becomes a
 * `backtracking` sink whose note names the complexity and an attack string.
 *
 * Vocabulary: a *regex literal* is the text `/source/flags`, as regex literals fold (lower.ts);
 * a *verdict* is what recheck says about one: null when it is linear, unsupported (back
 * references, lookbehind of unknown length) or not decided within the time bound.
 */
import { createRequire } from 'node:module'
import type * as Recheck from 'recheck'
import { topLevelAlternatives } from '../text/regex-syntax.ts'
import type { SinkSpec } from './spec.ts'

// The pure-JavaScript backend checks in this thread: no worker, no native binary, no Java and no
// network. The synchronous entry point reads this setting at each call.
process.env.RECHECK_SYNC_BACKEND ??= 'pure'

/**
 * A pattern comes from the scanned repository (tenant input): the analysis of one may take at
 * most this long, after which it counts as not vulnerable. Verdicts are cached, so a pattern
 * costs this once per process.
 */
export const REGEX_CHECK_TIMEOUT_MS = 1000
/**
 * Longer patterns are not analyzed: the automaton grows with the pattern, and the patterns of
 * ReDoS advisories are far shorter (generated tables such as Unicode ranges are longer).
 */
const MAX_PATTERN_LENGTH = 400
/** An unbounded or large repetition: without one, matching is linear and recheck is not asked. */
const REPETITION = /[*+]|\{\d*,\d*\}|\{\d{2,}\}/
const MAX_CACHED_VERDICTS = 5000

export interface BacktrackingVerdict {
  /** `exponential`, or `2nd degree polynomial` and so on */
  readonly complexity: string
  /** an input that makes matching slow, as a JavaScript expression (`'a'.repeat(31) + '\x00'`) */
  readonly attack: string
}

/**
 * recheck is loaded the first time a pattern is judged: it is a 3 MB module that takes a tenth of
 * a second to load, and most processes (the command's, every worker's) never judge one.
 */
let recheck: typeof Recheck | null = null

function loadRecheck(): typeof Recheck {
  recheck ??= createRequire(import.meta.url)('recheck') as typeof Recheck
  return recheck
}

const verdicts = new Map<string, BacktrackingVerdict | null>()
const sinks = new Map<string, SinkSpec>()

const REGEX_LITERAL = /^\/([\s\S]+)\/([dgimsuvy]*)$/

/** The source and flags of a regex literal's text, or null when the text is no regex literal. */
export function parseRegexLiteral(text: string): { source: string; flags: string } | null {
  const match = REGEX_LITERAL.exec(text)
  return match ? { source: match[1] ?? '', flags: match[2] ?? '' } : null
}

/**
 * `new RegExp(source, flags)` of known strings, as a literal's text. String constants keep their
 * escapes as written (lower.ts), so `"\\d+"` is the pattern `\d+` only once unescaped here.
 */
export function regexLiteralOf(source: string, flags: string | undefined): string | null {
  if (source === '' || !/^[dgimsuvy]*$/.test(flags ?? '')) return null
  return `/${unescapeString(source)}/${flags ?? ''}`
}

const CONTROL_ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', v: '\v', f: '\f', b: '\b', '0': '\0' }

/** A JavaScript string literal's body as the string it denotes (`\\` is one backslash, `\d` is `d`). */
function unescapeString(text: string): string {
  return text.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]+\}|[\s\S])/g, (_, escape: string) => {
    if (escape.length > 1) return String.fromCodePoint(parseInt(escape.replace(/^[xu]\{?|\}$/g, ''), 16))
    return CONTROL_ESCAPES[escape] ?? (escape === '\n' ? '' : escape)
  })
}

/** recheck's verdict on a regex literal: null unless it surely backtracks super-linearly. */
export function judgeRegex(literal: string): BacktrackingVerdict | null {
  const cached = verdicts.get(literal)
  if (cached !== undefined) return cached
  const verdict = analyze(literal)
  if (verdicts.size < MAX_CACHED_VERDICTS) verdicts.set(literal, verdict)
  return verdict
}

function analyze(literal: string): BacktrackingVerdict | null {
  const parsed = parseRegexLiteral(literal)
  if (!parsed || parsed.source.length > MAX_PATTERN_LENGTH || !REPETITION.test(parsed.source)) return null
  const whole = check(parsed.source, parsed.flags)
  if (whole) return whole
  // recheck takes an anchored alternative (`^\s*|\s*$`) for an anchor of the whole pattern, and
  // so misses the unanchored one, tried at every start: the pattern is as slow as its slowest
  // alternative on an input the others reject at once.
  const alternatives = topLevelAlternatives(parsed.source, 'javascript')
  if (alternatives.length < 2) return null
  for (const alternative of alternatives) {
    const verdict = REPETITION.test(alternative) ? check(alternative, parsed.flags) : null
    if (verdict) return verdict
  }
  return null
}

function check(source: string, flags: string): BacktrackingVerdict | null {
  // The automaton checker only: the fuzzing one is randomized and slower, and a verdict must be
  // the same on every scan of the same code.
  const diagnostics = loadRecheck().checkSync(source, flags, { checker: 'automaton', timeout: REGEX_CHECK_TIMEOUT_MS })
  if (diagnostics.status !== 'vulnerable') return null
  const complexity = diagnostics.complexity.type === 'exponential' ? 'exponential' : diagnostics.complexity.summary
  return { complexity, attack: diagnostics.attack.pattern }
}

/**
 * The sink of one vulnerable regex run by one method: its note is the whole explanation. Only
 * remote data counts: a slow match on one's own command-line arguments denies no one else.
 */
export function backtrackingSink(literal: string, method: string, verdict: BacktrackingVerdict): SinkSpec {
  const note = `${literal} run by ${method}(): ${verdict.complexity} backtracking, e.g. on ${verdict.attack}`
  let spec = sinks.get(note)
  if (!spec) {
    spec = { kind: 'backtracking', note, sources: ['remote'] }
    if (sinks.size < MAX_CACHED_VERDICTS) sinks.set(note, spec)
  }
  return spec
}
