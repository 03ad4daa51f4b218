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

/**
 * Where recheck runs. Its native build (the optional `recheck-<os>-<arch>` package: one helper
 * process per analyzing process, spoken to from a worker thread) judges a pattern five to ten
 * times faster than its JavaScript build, so fewer patterns reach the time bound, whose verdicts
 * follow the machine's load; without that package the JavaScript build runs in this thread.
 * Never Java (recheck's other backend) and never the network. recheck reads these settings at
 * each call; a setting given from outside wins.
 */
function chooseRecheckBackend(): void {
  if (process.env.RECHECK_SYNC_BACKEND || process.env.RECHECK_BACKEND) return
  if (nativeRecheckInstalled()) process.env.RECHECK_BACKEND = 'native'
  else process.env.RECHECK_SYNC_BACKEND = 'pure'
}

function nativeRecheckInstalled(): boolean {
  const os = ({ linux: 'linux', darwin: 'macos', win32: 'windows' } as Partial<Record<string, string>>)[process.platform]
  if (!os || (process.arch !== 'x64' && process.arch !== 'arm64')) return false
  try {
    createRequire(import.meta.url).resolve(`recheck-${os}-${process.arch}/package.json`)
    return true
  } catch {
    return false
  }
}

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
  /** the polynomial's degree; null when exponential */
  readonly degree: number | null
  /** an input that makes matching slow, as a JavaScript expression (`'a'.repeat(31) + '\x00'`) */
  readonly attack: string
}

/**
 * recheck is loaded the first time a pattern is judged: it is a 3 MB module that takes a tenth of
 * a second to load, and most processes (the command's, every worker's) never judge one. Its
 * first check runs cold (and starts the native helper) and costs up to a second more than later
 * ones, whatever the pattern, so a throwaway check warms it up first: otherwise the first pattern
 * a process judges would lose that much of its time bound and could be called safe where later
 * ones are not.
 */
let recheck: typeof Recheck | null = null

function loadRecheck(): typeof Recheck {
  if (!recheck) {
    chooseRecheckBackend()
    recheck = createRequire(import.meta.url)('recheck') as typeof Recheck
    recheck.checkSync('^(a|a)*$', '', { checker: 'automaton', timeout: REGEX_CHECK_TIMEOUT_MS })
  }
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
  const exponential = diagnostics.complexity.type === 'exponential'
  const complexity = exponential ? 'exponential' : diagnostics.complexity.summary
  const degree = diagnostics.complexity.type === 'polynomial' ? diagnostics.complexity.degree : null
  return { complexity, degree, attack: diagnostics.attack.pattern }
}

/**
 * Length bounds: a check that text is at most N characters long (`if (s.length > 100) return`)
 * marks its data with the bit of the smallest of these bounds at or above N, in a fact's cleaned
 * bits above the sink kinds' (pollution.ts keeps its guard progress at bits 29 and 30).
 */
const LENGTH_BOUNDS: ReadonlyArray<{ readonly length: number; readonly bit: number }> = [
  { length: 100, bit: 1 << 21 },
  { length: 1000, bit: 1 << 22 },
  { length: 10_000, bit: 1 << 23 },
]

/**
 * Backtracking steps a match may take and still be no denial of service: about a second of
 * matching in V8 (measured: a quadratic pattern over 10,000 characters, 10^8 steps, takes 0.6 s).
 */
const TOLERABLE_STEPS = 1.5e8

/** The bit a check bounding text at `length` characters gives its data (0: no bound worth keeping). */
export function lengthBoundBit(length: number): number {
  return LENGTH_BOUNDS.find((bound) => length <= bound.length)?.bit ?? 0
}

/** The smallest length bound a fact carries, with the mask of its bit, or null. */
export function lengthBoundOf(cleanedBits: number): { readonly length: number; readonly mask: number } | null {
  const bound = LENGTH_BOUNDS.find(({ bit }) => (cleanedBits & bit) !== 0)
  return bound ? { length: bound.length, mask: bound.bit } : null
}

/**
 * The longest text the pattern matches in tolerable time, among the bounds kept: a polynomial of
 * degree d takes about n^d steps on n characters; an exponential one is slow on any bound kept.
 */
function tolerableLength(verdict: BacktrackingVerdict): number | undefined {
  const degree = verdict.degree
  if (degree === null) return undefined
  return LENGTH_BOUNDS.filter(({ length }) => length ** degree <= TOLERABLE_STEPS).at(-1)?.length
}

/**
 * The sink of one vulnerable regex run by one method: its note is the whole explanation. Only
 * remote data counts: a slow match on one's own command-line arguments denies no one else.
 */
export function backtrackingSink(literal: string, method: string, verdict: BacktrackingVerdict): SinkSpec {
  const note = `${literal} run by ${method}(): ${verdict.complexity} backtracking, e.g. on ${verdict.attack}`
  let spec = sinks.get(note)
  if (!spec) {
    const tolerable = tolerableLength(verdict)
    spec = { kind: 'backtracking', note, sources: ['remote'], ...(tolerable === undefined ? {} : { safeWithinLength: tolerable }) }
    if (sinks.size < MAX_CACHED_VERDICTS) sinks.set(note, spec)
  }
  return spec
}
