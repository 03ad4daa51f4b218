/**
 * Whole-file regex prefilters. A rule's `regex` (on the matched node, a related node or a
 * captured metavariable) must match some node's text, hence some part of the file. Translated
 * to a JavaScript RegExp with every assertion removed (anchors, word boundaries), it becomes a
 * necessary condition on the file text that is checked before the file is parsed.
 *
 * Sound by construction: removing assertions and keeping only a contiguous part of a sequence
 * only widen what the expression matches. Sequences are split at repeated groups that contain
 * a repetition themselves, so a prefilter cannot backtrack catastrophically over a large file.
 * Anything the translator does not understand yields no filter.
 */

class Unsupported extends Error {}

/** Characters that must stay escaped in a JavaScript `u`-mode regex. */
const JS_SYNTAX = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/'])
const KEPT_LETTER_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'n', 'r', 't', 'f', 'v'])
const ZERO_WIDTH_ESCAPES = new Set(['b', 'B', 'A', 'z'])

interface Atom {
  /** JavaScript source of the atom without its quantifier */
  source: string
  quantifier: string
  group: Alternation | null
}

type Sequence = Atom[]
type Alternation = Sequence[]

class Parser {
  private index = 0

  constructor(
    private readonly text: string,
    private readonly dotAll: boolean,
  ) {}

  parse(): Alternation {
    const result = this.alternation()
    if (this.index < this.text.length) throw new Unsupported('unbalanced')
    return result
  }

  private alternation(): Alternation {
    const branches: Alternation = [this.sequence()]
    while (this.text[this.index] === '|') {
      this.index++
      branches.push(this.sequence())
    }
    return branches
  }

  private sequence(): Sequence {
    const atoms: Sequence = []
    while (this.index < this.text.length && this.text[this.index] !== '|' && this.text[this.index] !== ')') {
      const atom = this.atom()
      if (atom) {
        atom.quantifier = this.quantifier()
        atoms.push(atom)
      } else if (this.quantifier() !== '') {
        throw new Unsupported('quantified assertion')
      }
    }
    return atoms
  }

  private quantifier(): string {
    const start = this.index
    const char = this.text[this.index]
    if (char === '*' || char === '+' || char === '?') this.index++
    else if (char === '{') {
      const match = /^\{\d*(?:,\d*)?\}/.exec(this.text.slice(this.index))
      if (!match) throw new Unsupported('brace')
      this.index += match[0].length
    } else return ''
    if (this.text[this.index] === '?') this.index++
    return this.text.slice(start, this.index)
  }

  /** One atom, or null for an assertion (dropped). */
  private atom(): Atom | null {
    const char = this.text[this.index] as string
    if (char === '^' || char === '$') {
      this.index++
      return null
    }
    if (char === '.') {
      this.index++
      return { source: this.dotAll ? '[\\s\\S]' : '[^\\n]', quantifier: '', group: null }
    }
    if (char === '[') return { source: this.characterClass(), quantifier: '', group: null }
    if (char === '(') return this.group()
    if (char === '\\') return this.escape()
    this.index++
    return { source: JS_SYNTAX.has(char) ? `\\${char}` : char, quantifier: '', group: null }
  }

  private escape(): Atom | null {
    const next = this.text[this.index + 1]
    if (next === undefined) throw new Unsupported('trailing backslash')
    this.index += 2
    if (ZERO_WIDTH_ESCAPES.has(next)) return null
    if (KEPT_LETTER_ESCAPES.has(next)) return { source: `\\${next}`, quantifier: '', group: null }
    if (next === 'x') {
      const hex = /^[0-9a-fA-F]{2}/.exec(this.text.slice(this.index))
      if (!hex) throw new Unsupported('hex escape')
      this.index += 2
      return { source: `\\x${hex[0]}`, quantifier: '', group: null }
    }
    if (/[A-Za-z0-9]/.test(next)) throw new Unsupported(`escape \\${next}`)
    return { source: JS_SYNTAX.has(next) ? `\\${next}` : next, quantifier: '', group: null }
  }

  private characterClass(): string {
    let source = '['
    this.index++
    if (this.text[this.index] === '^') {
      source += '^'
      this.index++
    }
    let first = true
    for (;;) {
      const char = this.text[this.index]
      if (char === undefined) throw new Unsupported('unterminated class')
      if (char === ']' && !first) break
      if (char === '[') throw new Unsupported('nested class')
      if ((char === '&' || char === '-' || char === '~') && this.text[this.index + 1] === char && this.text[this.index + 2] !== ']') {
        throw new Unsupported('class set operation')
      }
      if (char === '\\') {
        const next = this.text[this.index + 1]
        if (next === undefined) throw new Unsupported('trailing backslash')
        if (/[A-Za-z0-9]/.test(next) && !KEPT_LETTER_ESCAPES.has(next)) throw new Unsupported(`escape \\${next}`)
        source += /[A-Za-z0-9]/.test(next) || JS_SYNTAX.has(next) || next === '-' ? `\\${next}` : next
        this.index += 2
      } else {
        source += char === ']' ? '\\]' : char === '/' ? '\\/' : char
        this.index++
      }
      first = false
    }
    this.index++
    return `${source}]`
  }

  private group(): Atom {
    this.index++
    if (this.text[this.index] === '?') {
      const rest = this.text.slice(this.index)
      const prefix = /^\?(?::|P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(rest)
      if (!prefix) throw new Unsupported('group kind')
      this.index += prefix[0].length
    }
    const group = this.alternation()
    if (this.text[this.index] !== ')') throw new Unsupported('unterminated group')
    this.index++
    return { source: '', quantifier: '', group }
  }
}

function containsQuantifier(alternation: Alternation): boolean {
  return alternation.some((sequence) => sequence.some((atom) => atom.quantifier !== '' || (atom.group !== null && containsQuantifier(atom.group))))
}

/** Rough selectivity of a segment: its literal characters (groups count for one). */
function weight(segment: Sequence): number {
  return segment.reduce((sum, atom) => sum + (atom.group ? 1 : /^(?:[^\\[]|\\[^A-Za-z0-9])$/.test(atom.source) && atom.quantifier === '' ? 1 : 0), 0)
}

/**
 * JavaScript source of an alternation. A repeated group that contains a repetition splits a
 * sequence; each part is a contiguous piece of any match, so the most selective part alone is
 * a sound (and backtracking-safe) filter for the sequence.
 */
function emit(alternation: Alternation): string {
  return alternation
    .map((sequence) => {
      const segments: Sequence[] = [[]]
      for (const atom of sequence) {
        if (atom.group && atom.quantifier !== '' && containsQuantifier(atom.group)) segments.push([])
        else segments[segments.length - 1]?.push(atom)
      }
      const best = segments.reduce((a, b) => (weight(b) > weight(a) ? b : a))
      return best.map((atom) => (atom.group ? `(?:${emit(atom.group)})` : atom.source) + atom.quantifier).join('')
    })
    .join('|')
}

/**
 * A RegExp that matches somewhere in any text containing a node the Rust regex matches, or
 * null when the regex cannot be translated or the filter would accept everything.
 */
export function regexFilter(rustRegex: string): RegExp | null {
  let body = rustRegex
  let flags = 'u'
  const leading = /^\(\?([a-zA-Z-]+)\)/.exec(body)
  if (leading) {
    const enabled = (leading[1] ?? '').split('-')[0] ?? ''
    if (/[^ismuU]/.test(enabled)) return null
    if (enabled.includes('i')) flags += 'i'
    if (enabled.includes('s')) flags += 's'
    body = body.slice(leading[0].length)
  }
  try {
    const source = emit(new Parser(body, flags.includes('s')).parse())
    if (source === '') return null
    const filter = new RegExp(source, flags)
    return filter.test('') ? null : filter
  } catch (error) {
    if (process.env.PARAPET_DEBUG_FILTERS) console.error(rustRegex, error)
    return null
  }
}
