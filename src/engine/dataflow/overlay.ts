/**
 * A user taint rule laid over the data-flow engine: where the rule's sources, sinks, sanitizers
 * and propagators matched, as text ranges of each file. The interpreter asks it about every
 * expression it evaluates (by the expression's range), so the user's specifications get the
 * engine's whole precision (branches, string building, collections, summaries across files)
 * without being translated into catalog names. One overlay is one rule; the engine runs once
 * per overlay with a language spec whose built-in catalog is empty (languages/bare.ts).
 */
import type { SinkKind } from './kinds.ts'
import type { SinkSpec } from './spec.ts'

/** A text range of a file: UTF-16 offsets, end exclusive (as ir.ts `Site`). */
export interface TextRange {
  readonly start: number
  readonly end: number
}

export interface OverlaySource extends TextRange {
  /** what the source is, for traces: the matched code */
  readonly label: string
  /** `by-side-effect`: the matched l-value stays tainted after this point; `only`: the occurrence itself is not */
  readonly bySideEffect: boolean | 'only'
}

export interface OverlaySink extends TextRange {
  /**
   * `exact: true`, or a match focused on a metavariable: only the matched expression is the
   * sink. Otherwise a matched call's arguments are (`sink(...)`), or the matched expression.
   */
  readonly exact: boolean
  readonly label: string
}

export interface OverlaySanitizer extends TextRange {
  readonly label: string
  /** the matched l-value (or a matched call's l-value arguments) is clean from here on */
  readonly bySideEffect: boolean | 'only'
}

export interface OverlayPropagator extends TextRange {
  readonly from: TextRange
  readonly to: TextRange
  readonly label: string
}

export interface FileOverlay {
  readonly sources: readonly OverlaySource[]
  readonly sinks: readonly OverlaySink[]
  readonly sanitizers: readonly OverlaySanitizer[]
  readonly propagators: readonly OverlayPropagator[]
}

/**
 * The sink kind user taint is carried on: the one bit no built-in conversion clears
 * (`sinkKindsMask('all')` leaves it out, so a declared `int` does not clean it either, as in
 * Semgrep), and no source kind of the bare spec reaches. Findings take nothing from the kind:
 * they are the rule's (semgrep/taint.ts).
 */
export const USER_SINK_KIND: SinkKind = 'randomness'

/** What one range of a file is to the rule. */
export interface OverlayEntry {
  sources: OverlaySource[]
  sinks: OverlaySink[]
  sanitizers: OverlaySanitizer[]
  propagators: OverlayPropagator[]
}

function keyOf(range: TextRange): string {
  return `${range.start}:${range.end}`
}

export class TaintOverlay {
  private readonly byFile = new Map<string, Map<string, OverlayEntry>>()
  /** ranges whose values propagators need (their `from` and `to`) */
  private readonly wanted = new Map<string, Set<string>>()
  /** the sink the engine records paths to: identity tells user paths from any other */
  readonly sinkSpec: SinkSpec

  constructor(
    readonly ruleId: string,
    readonly files: ReadonlyMap<string, FileOverlay>,
  ) {
    this.sinkSpec = { kind: USER_SINK_KIND, note: `sink of ${ruleId}`, sources: ['remote'] }
    for (const [path, overlay] of files) {
      const entries = new Map<string, OverlayEntry>()
      const entry = (range: TextRange): OverlayEntry => {
        const key = keyOf(range)
        let found = entries.get(key)
        if (!found) {
          found = { sources: [], sinks: [], sanitizers: [], propagators: [] }
          entries.set(key, found)
        }
        return found
      }
      for (const source of overlay.sources) entry(source).sources.push(source)
      for (const sink of overlay.sinks) entry(sink).sinks.push(sink)
      for (const sanitizer of overlay.sanitizers) entry(sanitizer).sanitizers.push(sanitizer)
      const wanted = new Set<string>()
      for (const propagator of overlay.propagators) {
        entry(propagator).propagators.push(propagator)
        wanted.add(keyOf(propagator.from))
      }
      this.byFile.set(path, entries)
      this.wanted.set(path, wanted)
    }
  }

  /** What the rule says about exactly this range of the file, or null. */
  at(path: string, start: number, end: number): OverlayEntry | null {
    return this.byFile.get(path)?.get(`${start}:${end}`) ?? null
  }

  /** Whether a propagator reads the value of this range. */
  wants(path: string, start: number, end: number): boolean {
    return this.wanted.get(path)?.has(`${start}:${end}`) ?? false
  }

  /** Files where a source matched: the roots of the analysis. */
  roots(): string[] {
    return [...this.files].filter(([, overlay]) => overlay.sources.length > 0).map(([path]) => path)
  }

  /** Whether a source match lies inside this range of the file (a function to analyze as an entry point). */
  hasSourceWithin(path: string, start: number, end: number): boolean {
    return this.files.get(path)?.sources.some((source) => source.start >= start && source.end <= end) ?? false
  }
}
