/**
 * Words a file must contain for a Semgrep search formula to match, so that SastAnalyzer skips
 * (and does not parse) files a rule cannot match, as it does for ast-grep rules
 * (preconditions.ts). A pattern's names outside strings and metavariables occur in any code it
 * matches, and also in a file that reaches the code through an import alias: the import names
 * the module (`from subprocess import call` holds `subprocess` and `call`). Java's implicit
 * `java.lang` is the exception, so those two words are not required.
 *
 * `patterns` requires the words of its positive and `pattern-inside` terms; `pattern-either`
 * requires one of its alternatives' longest words; negative terms, regexes and metavariable
 * filters require nothing.
 */
import type { Precondition } from '../sast/preconditions.ts'
import type { SemgrepFormula } from './types.ts'

const WORD = /[A-Za-z_][A-Za-z0-9_]*/g
/** Words kept per pattern: the longest are the rarest, and a few are as selective as many. */
const MAX_WORDS = 3

export function semgrepPrecondition(formula: SemgrepFormula | undefined): Precondition {
  if (!formula) return []
  switch (formula.kind) {
    case 'pattern':
      return patternWords(formula.pattern).map((word) => [word])
    case 'regex':
      return []
    case 'either': {
      const alternatives = formula.of.map((inner) => semgrepPrecondition(inner))
      if (alternatives.some((clauses) => clauses.length === 0)) return []
      // Each alternative requires its first clause; one of those clauses' words is then required.
      return [[...new Set(alternatives.flatMap((clauses) => clauses[0] as string[]))]]
    }
    case 'patterns':
      return formula.clauses.flatMap((clause) => (clause.kind === 'positive' || clause.kind === 'inside' ? semgrepPrecondition(clause.formula) : []))
  }
}

/** The pattern's longest names outside string literals, metavariables and typed-metavariable types. */
function patternWords(pattern: string): string[] {
  const code = pattern
    .replace(/("""|'''|"|'|`)(?:\\[\s\S]|(?!\1)[\s\S])*?\1/g, ' ')
    .replace(/\$(?:\.\.\.)?[A-Za-z_][A-Za-z0-9_]*/g, ' ')
    // typed metavariables: `(String )$X`, `($X : string)` (the metavariable is already gone)
    .replace(/\(\s*[A-Za-z_][\w.<>[\], ?]*\s+\)/g, ' ')
    .replace(/\(\s*:\s*[\w.*[\]<>]+\s*\)/g, ' ')
    .replace(/\bjava\s*\.\s*lang\s*\./g, ' ')
  const words = [...new Set(code.match(WORD) ?? [])]
  return words.sort((a, b) => b.length - a.length || (a < b ? -1 : 1)).slice(0, MAX_WORDS)
}
