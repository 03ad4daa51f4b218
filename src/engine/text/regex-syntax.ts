/**
 * Reading the structure of a rule's regex source (Rust `regex` syntax, as ast-grep runs it):
 * where a character class ends and which branches an alternation has at its top level. Shared
 * by the word prefilter (sast/preconditions.ts) and the ASCII search form (text/ascii-regex.ts).
 */

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

/** The top-level `|` branches of a regex (groups and classes are skipped). */
export function topLevelAlternatives(source: string): string[] {
  const alternatives: string[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < source.length; i++) {
    const char = source[i]
    if (char === '\\') i++
    else if (char === '[') i = skipCharacterClass(source, i)
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
