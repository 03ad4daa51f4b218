/**
 * Semgrep rules as Parapet runs them: the plain-data form a Semgrep rule file is compiled to
 * (parse.ts), carried on a RuleDocument to the analysis workers and evaluated there over
 * ast-grep syntax trees (search mode) or by the data-flow engine (taint mode). Everything here is
 * JSON: rules travel to worker processes as data.
 */

/** A pattern formula, after Semgrep's operators (`pattern`, `patterns`, `pattern-either`, ...). */
export type SemgrepFormula =
  /** `pattern:` — code with metavariables, `...`, `<... e ...>`; `line` is the YAML line of the operator */
  | { readonly kind: 'pattern'; readonly pattern: string; readonly line: number }
  /** `pattern-regex:` — a regex over the file's text; named groups bind `$NAME` metavariables */
  | { readonly kind: 'regex'; readonly regex: string; readonly line: number }
  /** `pattern-either:` — any of the formulas */
  | { readonly kind: 'either'; readonly of: readonly SemgrepFormula[]; readonly line: number }
  /** `patterns:` — positive formulas intersected, then the clauses applied in Semgrep's order */
  | { readonly kind: 'patterns'; readonly clauses: readonly SemgrepClause[]; readonly line: number }

/** One entry of a `patterns:` list. */
export type SemgrepClause =
  | { readonly kind: 'positive'; readonly formula: SemgrepFormula }
  | { readonly kind: 'not'; readonly formula: SemgrepFormula }
  | { readonly kind: 'inside'; readonly formula: SemgrepFormula }
  | { readonly kind: 'not-inside'; readonly formula: SemgrepFormula }
  | { readonly kind: 'not-regex'; readonly regex: string; readonly line: number }
  | { readonly kind: 'metavariable-regex'; readonly metavariable: string; readonly regex: string; readonly line: number }
  | {
      readonly kind: 'metavariable-pattern'
      readonly metavariable: string
      readonly formula: SemgrepFormula
      /** another language for the captured text (e.g. SQL in a Python string); absent: the rule's */
      readonly language?: string
      readonly line: number
    }
  /** `comparison` is Semgrep's expression language (`$X > 1024`, `int($P) < 1024 and $Q == "a"`, `re.match(...)`) */
  | { readonly kind: 'metavariable-comparison'; readonly comparison: string; readonly metavariable?: string; readonly line: number }
  | { readonly kind: 'focus'; readonly metavariables: readonly string[]; readonly line: number }

/** A taint specification entry (`pattern-sources` and the like): a formula and its options. */
export interface SemgrepTaintSpec {
  readonly formula: SemgrepFormula
  /** Semgrep's `exact: true` (the whole match, not any subexpression, is the source/sink/sanitizer) */
  readonly exact?: boolean
  /** sanitizers: `by-side-effect: true` */
  readonly bySideEffect?: boolean
  readonly line: number
}

export interface SemgrepPropagator {
  readonly formula: SemgrepFormula
  /** metavariables naming where taint comes from and goes to */
  readonly from: string
  readonly to: string
  readonly line: number
}

export interface SemgrepTaint {
  readonly sources: readonly SemgrepTaintSpec[]
  readonly sinks: readonly SemgrepTaintSpec[]
  readonly sanitizers: readonly SemgrepTaintSpec[]
  readonly propagators: readonly SemgrepPropagator[]
}

/** What a Semgrep rule compiles to, on RuleDocument.semgrep. */
export interface SemgrepRule {
  readonly mode: 'search' | 'taint'
  /** search mode */
  readonly formula?: SemgrepFormula
  /** taint mode */
  readonly taint?: SemgrepTaint
  /** `paths:` globs, relative to the repository root, as Semgrep matches them */
  readonly paths?: { readonly include?: readonly string[]; readonly exclude?: readonly string[] }
  /** the rule's YAML line, for diagnostics */
  readonly line: number
}

/** A match of a formula: a byte range of the file and what its metavariables captured. */
export interface SemgrepMatch {
  /** UTF-16 indexes into the file text (as ast-grep's range().index), end exclusive */
  readonly start: number
  readonly end: number
  readonly bindings: Readonly<Record<string, SemgrepBinding>>
}

export interface SemgrepBinding {
  readonly start: number
  readonly end: number
  readonly text: string
}
