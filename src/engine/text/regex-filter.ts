/**
 * Whole-file regex prefilters. A rule's mandatory `regex` (on the matched node, a related node
 * or a captured metavariable) must match some node's text, hence some part of the file. With
 * every assertion removed (anchors, word boundaries) it becomes a necessary condition on the
 * file text that is checked before the file is parsed.
 *
 * The filter never runs on a backtracking engine: rule regexes come from tenants, and so do the
 * files, and a JavaScript RegExp can take exponential time on either (`(a|a)*c`, or even
 * quadratic `\w+x` over a long run of letters). The regex is compiled here into a deterministic
 * automaton over a small alphabet (each ASCII character, plus one symbol for every non-ASCII
 * code point), which reads each character of the file once, whatever the regex.
 *
 * Sound by construction: the automaton accepts a superset of what the Rust regex can match
 * somewhere in the text. Assertions are dropped; counted repetitions are widened beyond
 * MAX_COUNT (`x{100}` is checked as `x{8,}`); every non-ASCII code point is one symbol, which a
 * character set contains if it may contain any non-ASCII code point (negated sets, `.`, Perl
 * classes, which Unicode mode could widen, and letters that case-fold to non-ASCII ones).
 * Anything the translator does not understand, and automata over MAX_STATES states, yield no
 * filter.
 */

class Unsupported extends Error {}

/** Symbols: 0..127 are ASCII code points, OTHER is every non-ASCII code point. */
const OTHER = 128
const SYMBOLS = 129

/** Counted repetitions keep their exact bounds up to this count, and are widened beyond it. */
const MAX_COUNT = 8
/** Character sets of the expanded regex (automaton positions), and states of the filter's DFA. */
const MAX_POSITIONS = 1024
const MAX_STATES = 1000

/** Which non-ASCII code points a set holds: none, some of them, or all. */
type NonAscii = 'none' | 'some' | 'all'

interface CharSet {
  ascii: Uint8Array
  nonAscii: NonAscii
}

type Node =
  | { kind: 'set'; set: CharSet }
  | { kind: 'seq'; items: Node[] }
  | { kind: 'alt'; branches: Node[] }
  | { kind: 'repeat'; node: Node; min: number; max: number }

function emptySet(): CharSet {
  return { ascii: new Uint8Array(128), nonAscii: 'none' }
}

function union(target: CharSet, other: CharSet): void {
  for (let code = 0; code < 128; code++) if (other.ascii[code]) target.ascii[code] = 1
  if (other.nonAscii === 'all' || target.nonAscii === 'all') target.nonAscii = 'all'
  else if (other.nonAscii === 'some') target.nonAscii = 'some'
}

function negate(set: CharSet): CharSet {
  const negated = emptySet()
  for (let code = 0; code < 128; code++) negated.ascii[code] = set.ascii[code] ? 0 : 1
  negated.nonAscii = set.nonAscii === 'none' ? 'all' : set.nonAscii === 'all' ? 'none' : 'some'
  return negated
}

function rangeSet(from: number, to: number, caseInsensitive: boolean): CharSet {
  const set = emptySet()
  for (let code = from; code <= Math.min(to, 127); code++) addCode(set, code, caseInsensitive)
  if (to >= 128) set.nonAscii = from <= 128 && to >= 0x10ffff ? 'all' : 'some'
  return set
}

function addCode(set: CharSet, code: number, caseInsensitive: boolean): void {
  if (code >= 128) {
    if (set.nonAscii === 'none') set.nonAscii = 'some'
    return
  }
  set.ascii[code] = 1
  if (!caseInsensitive) return
  const char = String.fromCharCode(code)
  set.ascii[char.toLowerCase().charCodeAt(0)] = 1
  set.ascii[char.toUpperCase().charCodeAt(0)] = 1
  // Unicode simple case folding maps KELVIN SIGN to k and LONG S to s.
  if (/[ks]/i.test(char) && set.nonAscii === 'none') set.nonAscii = 'some'
}

const PERL_CLASSES: Record<string, () => CharSet> = {
  d: () => withSomeNonAscii(rangeSet(0x30, 0x39, false)),
  w: () => {
    const set = withSomeNonAscii(rangeSet(0x30, 0x39, false))
    union(set, rangeSet(0x41, 0x5a, false))
    union(set, rangeSet(0x61, 0x7a, false))
    set.ascii[0x5f] = 1
    return set
  },
  s: () => {
    const set = withSomeNonAscii(emptySet())
    for (const code of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20]) set.ascii[code] = 1
    return set
  },
}

/** Perl classes are ASCII by Parapet's convention; Unicode mode could add non-ASCII members. */
function withSomeNonAscii(set: CharSet): CharSet {
  set.nonAscii = 'some'
  return set
}

function perlClass(letter: string): CharSet | null {
  const make = PERL_CLASSES[letter.toLowerCase()]
  if (!make) return null
  return letter === letter.toLowerCase() ? make() : negate(make())
}

const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b }
const ZERO_WIDTH_ESCAPES = new Set(['b', 'B', 'A', 'z'])

class Parser {
  private index = 0

  constructor(
    private readonly text: string,
    private readonly caseInsensitive: boolean,
    private readonly dotAll: boolean,
  ) {}

  parse(): Node {
    const result = this.alternation()
    if (this.index < this.text.length) throw new Unsupported('unbalanced')
    return result
  }

  private alternation(): Node {
    const branches = [this.sequence()]
    while (this.text[this.index] === '|') {
      this.index++
      branches.push(this.sequence())
    }
    return branches.length === 1 ? (branches[0] as Node) : { kind: 'alt', branches }
  }

  private sequence(): Node {
    const items: Node[] = []
    while (this.index < this.text.length && this.text[this.index] !== '|' && this.text[this.index] !== ')') {
      const atom = this.atom()
      const bounds = this.quantifier()
      if (atom) items.push(bounds ? { kind: 'repeat', node: atom, min: bounds.min, max: bounds.max } : atom)
      else if (bounds) throw new Unsupported('quantified assertion')
    }
    return { kind: 'seq', items }
  }

  private quantifier(): { min: number; max: number } | null {
    const char = this.text[this.index]
    let bounds: { min: number; max: number }
    if (char === '*') bounds = { min: 0, max: Infinity }
    else if (char === '+') bounds = { min: 1, max: Infinity }
    else if (char === '?') bounds = { min: 0, max: 1 }
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.text.slice(this.index, this.index + 24))
      if (!match) throw new Unsupported('brace')
      const min = Number(match[1])
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3])
      this.index += match[0].length - 1
      bounds = { min, max }
    } else return null
    this.index++
    if (this.text[this.index] === '?') this.index++ // laziness changes nothing about whether it matches
    return bounds
  }

  /** One atom, or null for an assertion (dropped). */
  private atom(): Node | null {
    const char = this.text[this.index] as string
    if (char === '^' || char === '$') {
      this.index++
      return null
    }
    if (char === '.') {
      this.index++
      const set = negate(emptySet())
      if (!this.dotAll) set.ascii[0x0a] = 0
      return { kind: 'set', set }
    }
    if (char === '[') return { kind: 'set', set: this.characterClass() }
    if (char === '(') return this.group()
    if (char === '\\') {
      const set = this.escape(false)
      return set ? { kind: 'set', set } : null
    }
    return { kind: 'set', set: this.literal(this.codePoint()) }
  }

  /** The code point at the cursor (a surrogate pair is one), advancing past it. */
  private codePoint(): number {
    const code = this.text.codePointAt(this.index) as number
    this.index += code > 0xffff ? 2 : 1
    return code
  }

  private literal(code: number): CharSet {
    const set = emptySet()
    addCode(set, code, this.caseInsensitive)
    return set
  }

  /** An escape at the cursor: a set, or null for a zero-width assertion (outside classes). */
  private escape(inClass: boolean): CharSet | null {
    const next = this.text[this.index + 1]
    if (next === undefined) throw new Unsupported('trailing backslash')
    this.index += 2
    if (!inClass && ZERO_WIDTH_ESCAPES.has(next)) return null
    const perl = perlClass(next)
    if (perl) return perl
    const control = CONTROL_ESCAPES[next]
    if (control !== undefined) return this.literal(control)
    if (next === 'x') {
      const hex = /^[0-9a-fA-F]{2}/.exec(this.text.slice(this.index, this.index + 2))
      if (!hex) throw new Unsupported('hex escape')
      this.index += 2
      return this.literal(parseInt(hex[0], 16))
    }
    if (/[A-Za-z0-9]/.test(next)) throw new Unsupported(`escape \\${next}`)
    this.index -= 1
    return this.literal(this.codePoint())
  }

  /** One member of a class, as a code point (for ranges) or a set (Perl classes, escapes). */
  private classItem(): { code: number } | { set: CharSet } {
    if (this.text[this.index] !== '\\') return { code: this.codePoint() }
    const next = this.text[this.index + 1]
    if (next !== undefined && !/[A-Za-z0-9]/.test(next)) {
      this.index += 1
      return { code: this.codePoint() }
    }
    const start = this.index
    const set = this.escape(true) as CharSet
    // A single-character escape (\n, \x41) can start or end a range.
    const single = this.text.slice(start, this.index)
    const code = /^\\[nrtfv]$|^\\x/.test(single) ? codeOfEscape(single) : null
    return code === null ? { set } : { code }
  }

  private characterClass(): CharSet {
    this.index++
    let negated = false
    if (this.text[this.index] === '^') {
      negated = true
      this.index++
    }
    const set = emptySet()
    let first = true
    for (;;) {
      const char = this.text[this.index]
      if (char === undefined) throw new Unsupported('unterminated class')
      if (char === ']' && !first) break
      if (char === '[') throw new Unsupported('nested class')
      if ((char === '&' || char === '-' || char === '~') && this.text[this.index + 1] === char && this.text[this.index + 2] !== ']') {
        throw new Unsupported('class set operation')
      }
      first = false
      const item = this.classItem()
      if ('set' in item) {
        union(set, item.set)
        continue
      }
      if (this.text[this.index] === '-' && this.text[this.index + 1] !== ']' && this.text[this.index + 1] !== undefined) {
        this.index++
        const end = this.classItem()
        if ('set' in end) throw new Unsupported('range to a class')
        if (end.code < item.code) throw new Unsupported('reversed range')
        union(set, rangeSet(item.code, end.code, this.caseInsensitive))
      } else {
        union(set, this.literal(item.code))
      }
    }
    this.index++
    return negated ? negate(set) : set
  }

  private group(): Node {
    this.index++
    if (this.text[this.index] === '?') {
      const prefix = /^\?(?::|P?<[A-Za-z_][A-Za-z0-9_]*>)/.exec(this.text.slice(this.index, this.index + 64))
      if (!prefix) throw new Unsupported('group kind')
      this.index += prefix[0].length
    }
    const group = this.alternation()
    if (this.text[this.index] !== ')') throw new Unsupported('unterminated group')
    this.index++
    return group
  }
}

function codeOfEscape(escape: string): number {
  if (escape.startsWith('\\x')) return parseInt(escape.slice(2), 16)
  return CONTROL_ESCAPES[escape[1] as string] as number
}

/**
 * The regex as a position automaton (Glushkov): one state per character set of the expanded
 * regex, no epsilon moves. `follow[p]` are the positions that may come right after `p`; a
 * match starts at a `first` position and ends at a `last` one. Position sets are bitsets.
 */
class Positions {
  /** symbol membership of each position's character set */
  readonly sets: Uint8Array[] = []

  /** Numbers the character sets of `node`, repetitions expanded (and widened past MAX_COUNT). */
  expand(node: Node): Linear {
    switch (node.kind) {
      case 'set':
        if (this.sets.length >= MAX_POSITIONS) throw new Unsupported('too many positions')
        this.sets.push(symbolsOf(node.set))
        return { kind: 'pos', pos: this.sets.length - 1 }
      case 'seq':
        return { kind: 'seq', items: node.items.map((item) => this.expand(item)) }
      case 'alt':
        return { kind: 'alt', items: node.branches.map((branch) => this.expand(branch)) }
      case 'repeat': {
        // Wider bounds only accept more: x{100} is checked as x{8,}.
        const min = Math.min(node.min, MAX_COUNT)
        const max = node.max > MAX_COUNT ? Infinity : node.max
        const items: Linear[] = []
        for (let copy = 0; copy < min; copy++) items.push(this.expand(node.node))
        if (max === Infinity) items.push({ kind: 'star', item: this.expand(node.node) })
        else for (let copy = min; copy < max; copy++) items.push({ kind: 'opt', item: this.expand(node.node) })
        return { kind: 'seq', items }
      }
    }
  }
}

type Linear =
  | { kind: 'pos'; pos: number }
  | { kind: 'seq'; items: Linear[] }
  | { kind: 'alt'; items: Linear[] }
  | { kind: 'star'; item: Linear }
  | { kind: 'opt'; item: Linear }

interface Shape {
  nullable: boolean
  first: Uint32Array
  last: Uint32Array
}

class Glushkov {
  readonly words: number
  readonly follow: Uint32Array[]

  constructor(readonly size: number) {
    this.words = Math.ceil(size / 32) || 1
    this.follow = Array.from({ length: size }, () => this.empty())
  }

  empty(): Uint32Array {
    return new Uint32Array(this.words)
  }

  /** nullable, first and last of `node`, filling `follow` on the way. */
  shape(node: Linear): Shape {
    switch (node.kind) {
      case 'pos': {
        const only = this.empty()
        only[node.pos >>> 5] = 1 << (node.pos & 31)
        return { nullable: false, first: only, last: only }
      }
      case 'seq': {
        const first = this.empty()
        let last = this.empty()
        let nullable = true
        for (const item of node.items) {
          const part = this.shape(item)
          // whatever may end the prefix may be followed by what starts this item
          this.forEach(last, (position) => orInto(this.follow[position] as Uint32Array, part.first))
          if (nullable) orInto(first, part.first)
          if (part.nullable) orInto(last, part.last)
          else last = Uint32Array.from(part.last)
          nullable &&= part.nullable
        }
        return { nullable, first, last }
      }
      case 'alt': {
        const first = this.empty()
        const last = this.empty()
        let nullable = false
        for (const item of node.items) {
          const part = this.shape(item)
          orInto(first, part.first)
          orInto(last, part.last)
          nullable ||= part.nullable
        }
        return { nullable, first, last }
      }
      case 'star': {
        const part = this.shape(node.item)
        this.forEach(part.last, (position) => orInto(this.follow[position] as Uint32Array, part.first))
        return { nullable: true, first: part.first, last: part.last }
      }
      case 'opt': {
        const part = this.shape(node.item)
        return { nullable: true, first: part.first, last: part.last }
      }
    }
  }

  forEach(bits: Uint32Array, visit: (position: number) => void): void {
    for (let word = 0; word < bits.length; word++) {
      let value = bits[word] as number
      while (value !== 0) {
        const bit = 31 - Math.clz32(value & -value)
        visit(word * 32 + bit)
        value &= value - 1
      }
    }
  }
}

function keyOf(bits: Uint32Array): string {
  let key = ''
  for (let word = 0; word < bits.length; word++) key += `${bits[word]},`
  return key
}

function orInto(target: Uint32Array, source: Uint32Array): void {
  for (let word = 0; word < target.length; word++) target[word] = (target[word] as number) | (source[word] as number)
}

function symbolsOf(set: CharSet): Uint8Array {
  const symbols = new Uint8Array(SYMBOLS)
  symbols.set(set.ascii)
  symbols[OTHER] = set.nonAscii === 'none' ? 0 : 1
  return symbols
}

/** Marks a transition into an accepting state: the search stops there. */
const ACCEPT = -1

/**
 * A necessary condition on a file's text, as a DFA searching for the regex anywhere in it.
 * `key` identifies equal filters (the regex they come from).
 */
export class RegexFilter {
  constructor(
    readonly key: string,
    /** symbol class of each symbol (ASCII code, OTHER) */
    private readonly classOf: Uint8Array,
    /** state * width + class -> next state * width, or ACCEPT */
    private readonly table: Int32Array,
  ) {}

  /** Whether the regex may match somewhere in `text`: one table step per character. */
  test(text: string): boolean {
    const { classOf, table } = this
    const other = classOf[OTHER] as number
    let state = 0
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index)
      let symbol: number
      if (code < 128) symbol = classOf[code] as number
      else {
        symbol = other
        // A surrogate pair is one code point.
        if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
          const low = text.charCodeAt(index + 1)
          if (low >= 0xdc00 && low <= 0xdfff) index++
        }
      }
      state = table[state + symbol] as number
      if (state === ACCEPT) return true
    }
    return false
  }
}

/**
 * Subset construction of the search automaton: a state is the set of positions that may have
 * just matched. A match may start anywhere, so `first` positions are always candidates.
 */
function determinize(key: string, positions: Positions, root: Linear): RegexFilter | null {
  const glushkov = new Glushkov(positions.sets.length)
  const { nullable, first, last } = glushkov.shape(root)
  if (nullable) return null // matches the empty string: every file passes

  // Per symbol, the positions whose set holds it; symbols held by the same positions share a
  // class (and a table column).
  const bySymbol = Array.from({ length: SYMBOLS }, () => glushkov.empty())
  positions.sets.forEach((set, position) => {
    for (let symbol = 0; symbol < SYMBOLS; symbol++) {
      if (!set[symbol]) continue
      const mask = bySymbol[symbol] as Uint32Array
      mask[position >>> 5] = (mask[position >>> 5] as number) | (1 << (position & 31))
    }
  })
  const classes = new Map<string, number>()
  const holding: Uint32Array[] = []
  const classOf = new Uint8Array(SYMBOLS)
  for (let symbol = 0; symbol < SYMBOLS; symbol++) {
    const mask = bySymbol[symbol] as Uint32Array
    const key = keyOf(mask)
    let id = classes.get(key)
    if (id === undefined) {
      id = holding.length
      classes.set(key, id)
      holding.push(mask)
    }
    classOf[symbol] = id
  }
  const width = holding.length

  const ids = new Map<string, number>([[keyOf(glushkov.empty()), 0]])
  const pending = [glushkov.empty()]
  const rows: Int32Array[] = []
  const candidates = glushkov.empty()
  const next = glushkov.empty()
  for (let done = 0; done < pending.length; done++) {
    candidates.set(first)
    glushkov.forEach(pending[done] as Uint32Array, (position) => orInto(candidates, glushkov.follow[position] as Uint32Array))
    const row = new Int32Array(width)
    for (let cls = 0; cls < width; cls++) {
      const mask = holding[cls] as Uint32Array
      let accepting = false
      let empty = true
      for (let word = 0; word < next.length; word++) {
        const bits = (candidates[word] as number) & (mask[word] as number)
        next[word] = bits
        if (bits !== 0) empty = false
        if ((bits & (last[word] as number)) !== 0) accepting = true
      }
      if (accepting) {
        row[cls] = ACCEPT
        continue
      }
      if (empty) continue // back to the initial state (0)
      const key = keyOf(next)
      let id = ids.get(key)
      if (id === undefined) {
        if (ids.size >= MAX_STATES) return null
        id = ids.size
        ids.set(key, id)
        pending.push(Uint32Array.from(next))
      }
      row[cls] = id * width
    }
    rows.push(row)
  }
  const table = new Int32Array(rows.length * width)
  rows.forEach((row, index) => table.set(row, index * width))
  return new RegexFilter(key, classOf, table)
}

/**
 * Filters already built, by regex: rules share regexes, and a filter is immutable. A long-lived
 * worker sees every scan's extra rules, so the memory is bounded by forgetting all at a size.
 */
const builtFilters = new Map<string, RegexFilter | null>()
const MAX_BUILT_FILTERS = 4096

/**
 * A filter that passes every text containing a node the Rust regex matches, or null when the
 * regex cannot be translated or the filter would pass everything.
 */
export function regexFilter(rustRegex: string): RegexFilter | null {
  let filter = builtFilters.get(rustRegex)
  if (filter === undefined) {
    filter = buildRegexFilter(rustRegex)
    if (builtFilters.size >= MAX_BUILT_FILTERS) builtFilters.clear()
    builtFilters.set(rustRegex, filter)
  }
  return filter
}

function buildRegexFilter(rustRegex: string): RegexFilter | null {
  let body = rustRegex
  let caseInsensitive = false
  let dotAll = false
  const leading = /^\(\?([a-zA-Z-]+)\)/.exec(body)
  if (leading) {
    const enabled = (leading[1] ?? '').split('-')[0] ?? ''
    if (/[^ismuU]/.test(enabled)) return null
    caseInsensitive = enabled.includes('i')
    dotAll = enabled.includes('s')
    body = body.slice(leading[0].length)
  }
  try {
    const positions = new Positions()
    const root = positions.expand(new Parser(body, caseInsensitive, dotAll).parse())
    return determinize(rustRegex, positions, root)
  } catch (error) {
    if (error instanceof Unsupported) return null
    throw error
  }
}
