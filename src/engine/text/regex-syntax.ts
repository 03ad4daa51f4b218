/**
 * Reading the structure of a regex source: where a character class ends and which branches an
 * alternation has at its top level. Rules' regexes are Rust `regex` syntax, as ast-grep runs
 * them (the word prefilter in sast/preconditions.ts, the ASCII search form in
 * text/ascii-regex.ts); the regex literals data flow judges for backtracking are JavaScript's
 * (dataflow/redos.ts). The two differ only in their classes: Rust nests them and reads a
 * leading `]` as a literal, JavaScript does neither.
 */

export type RegexDialect = 'rust' | 'javascript'

/** The position of the `]` closing the class opened at `open` (nested classes included). */
export function skipCharacterClass(text: string, open: number): number {
  let i = open + 1
  if (text[i] === '^') i++
  if (text[i] === ']') i++ // a leading `]` is literal
  for (; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === '[') i = skipCharacterClass(text, i) // nested classes (Rust syntax)
    else if (text[i] === ']') return i
  }
  return text.length
}

/** The position of the `]` closing the JavaScript class opened at `open` (`[]` is an empty class). */
function skipJavaScriptClass(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++
    else if (text[i] === ']') return i
  }
  return text.length
}

/** The top-level `|` branches of a regex (groups and classes are skipped, escapes kept whole). */
export function topLevelAlternatives(source: string, dialect: RegexDialect = 'rust'): string[] {
  const skipClass = dialect === 'rust' ? skipCharacterClass : skipJavaScriptClass
  const alternatives: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    if (char === '\\') i++
    else if (char === '[') i = skipClass(source, i)
    else if (char === '(') depth++
    else if (char === ')') depth--
    else if (char === '|' && depth === 0) {
      alternatives.push(source.slice(start, i))
      start = i + 1
    }
  }
  alternatives.push(source.slice(start))
  return alternatives
}
