/**
 * Finds which of a fixed set of words occur in a text, in a single pass (Aho-Corasick).
 *
 * The rules of one language name a few hundred precondition words. Testing each absent word
 * with `text.includes` reads the whole file once per word, which on large files cost about as
 * much as parsing them; the automaton reads every file once, whatever the number of words.
 *
 * Case-insensitive words (prefixed with CASE_INSENSITIVE, from `(?i)` regexes) run on a second
 * automaton whose alphabet folds case the way ast-grep's regexes do: ASCII letters, plus the two
 * non-ASCII characters that Unicode simple case folding maps to ASCII letters (KELVIN SIGN to
 * `k`, LONG S to `s`). A case-insensitive word with non-ASCII characters counts as present in
 * every file, since JavaScript's and Rust's case rules differ there; it is conservative.
 */
import { CASE_INSENSITIVE } from '../sast/preconditions.ts'

/**
 * A deterministic Aho-Corasick automaton over UTF-16 code units, packed for a tight scan loop:
 * a state is represented by its row offset in `delta` (state number times `width`), and each
 * entry holds the next state's offset times two, plus one when a word ends in that state.
 */
class Automaton {
  /** code unit -> symbol (column); 0 for units in no word */
  readonly symbols: Uint16Array
  readonly delta: Int32Array
  readonly width: number
  /** Words ending in each state (directly or as a suffix), indexed by state number. */
  private readonly outputs: Array<Int32Array | undefined>
  /** States with outputs visited by the current scan. */
  private readonly hits: number[] = []
  /** Per state, the number of the last scan that recorded it in `hits`. */
  private readonly recorded: Int32Array
  private stamp = 0

  constructor(words: Array<{ text: string; id: number }>, fold: boolean) {
    const units = new Map<number, number>()
    for (const { text } of words) for (let i = 0; i < text.length; i++) if (!units.has(text.charCodeAt(i))) units.set(text.charCodeAt(i), units.size + 1)
    const width = units.size + 1
    this.width = width
    this.symbols = new Uint16Array(0x10000)
    for (const [unit, symbol] of units) this.symbols[unit] = symbol
    if (fold) {
      // Every code unit that folds onto a word's (lowercase ASCII) unit reads as that unit.
      for (let upper = 0x41; upper <= 0x5a; upper++) this.symbols[upper] = units.get(upper + 0x20) ?? 0
      this.symbols[0x212a] = units.get(0x6b) ?? 0
      this.symbols[0x017f] = units.get(0x73) ?? 0
    }

    // Trie of the words.
    const children: Array<Map<number, number>> = [new Map()]
    const ending: number[][] = [[]]
    for (const { text, id } of words) {
      let state = 0
      for (let i = 0; i < text.length; i++) {
        const symbol = units.get(text.charCodeAt(i)) as number
        let next = children[state]?.get(symbol)
        if (next === undefined) {
          next = children.length
          children.push(new Map())
          ending.push([])
          children[state]?.set(symbol, next)
        }
        state = next
      }
      ending[state]?.push(id)
    }

    // Breadth-first: failure links, the full transition table, and suffix outputs.
    const states = children.length
    const next = new Int32Array(states * width)
    const failure = new Int32Array(states)
    const outputs: number[][] = ending.map((ids) => [...ids])
    const queue: number[] = []
    for (const [symbol, child] of children[0] ?? []) {
      next[symbol] = child
      queue.push(child)
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head] as number
      const fail = failure[state] as number
      for (const id of outputs[fail] ?? []) outputs[state]?.push(id)
      for (let symbol = 0; symbol < width; symbol++) {
        const child = children[state]?.get(symbol)
        if (child === undefined) {
          next[state * width + symbol] = next[fail * width + symbol] as number
        } else {
          next[state * width + symbol] = child
          failure[child] = next[fail * width + symbol] as number
          queue.push(child)
        }
      }
    }
    this.outputs = outputs.map((ids) => (ids.length > 0 ? Int32Array.from(ids) : undefined))
    this.delta = new Int32Array(states * width)
    for (let index = 0; index < next.length; index++) {
      const target = next[index] as number
      this.delta[index] = target * width * 2 + (this.outputs[target] ? 1 : 0)
    }
    this.recorded = new Int32Array(states)
  }

  /** Starts a scan: forgets the states recorded by the previous one. */
  begin(): void {
    this.hits.length = 0
    if (++this.stamp === 0x7fffffff) {
      this.recorded.fill(0)
      this.stamp = 1
    }
  }

  /** Notes that the scan reached the state at `offset`, where some word ends. */
  hit(offset: number): void {
    const state = offset / this.width
    if (this.recorded[state] === this.stamp) return
    this.recorded[state] = this.stamp
    this.hits.push(state)
  }

  /** Sets `present[id]` for the words of every state the scan recorded. */
  finish(present: Uint8Array): void {
    for (const state of this.hits) {
      const ids = this.outputs[state] as Int32Array
      for (let j = 0; j < ids.length; j++) present[ids[j] as number] = 1
    }
  }
}

/**
 * A fixed vocabulary of precondition words (case-insensitive ones prefixed with
 * CASE_INSENSITIVE), each with a numeric id (0, 1, ... in order of first appearance), and the
 * scan that tells which occur in a text.
 */
export class WordScanner {
  private readonly ids = new Map<string, number>()
  private readonly exact: Automaton | null
  private readonly folded: Automaton | null
  /** Ids of words treated as present in every text (see above). */
  private readonly always: number[] = []

  constructor(words: Iterable<string>) {
    const exact: Array<{ text: string; id: number }> = []
    const folded: Array<{ text: string; id: number }> = []
    for (const word of words) {
      if (this.ids.has(word)) continue
      const id = this.ids.size
      this.ids.set(word, id)
      const caseInsensitive = word.startsWith(CASE_INSENSITIVE)
      const text = caseInsensitive ? word.slice(CASE_INSENSITIVE.length).toLowerCase() : word
      if (text === '' || (caseInsensitive && /[^\x00-\x7f]/.test(text))) this.always.push(id)
      else (caseInsensitive ? folded : exact).push({ text, id })
    }
    this.exact = exact.length > 0 ? new Automaton(exact, false) : null
    this.folded = folded.length > 0 ? new Automaton(folded, true) : null
  }

  get size(): number {
    return this.ids.size
  }

  /** The id of a word of the vocabulary. */
  idOf(word: string): number {
    const id = this.ids.get(word)
    if (id === undefined) throw new Error(`word not in the scanner's vocabulary: ${JSON.stringify(word)}`)
    return id
  }

  /** One flag per word id: 1 when the word occurs in `text`. */
  scan(text: string): Uint8Array {
    const present = new Uint8Array(this.ids.size)
    const { exact, folded } = this
    if (exact && folded) scanBoth(text, exact, folded)
    else if (exact) scanOne(text, exact)
    else if (folded) scanOne(text, folded)
    exact?.finish(present)
    folded?.finish(present)
    for (const id of this.always) present[id] = 1
    return present
  }
}

// The scan loops are the hot path of precondition checks: plain locals and typed arrays only.

function scanOne(text: string, automaton: Automaton): void {
  automaton.begin()
  const { symbols, delta } = automaton
  let state = 0
  for (let i = 0; i < text.length; i++) {
    const entry = delta[state + (symbols[text.charCodeAt(i)] as number)] as number
    state = entry >> 1
    if ((entry & 1) === 1) automaton.hit(state)
  }
}

function scanBoth(text: string, first: Automaton, second: Automaton): void {
  first.begin()
  second.begin()
  const symbols1 = first.symbols
  const delta1 = first.delta
  const symbols2 = second.symbols
  const delta2 = second.delta
  let state1 = 0
  let state2 = 0
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    const entry1 = delta1[state1 + (symbols1[unit] as number)] as number
    state1 = entry1 >> 1
    if ((entry1 & 1) === 1) first.hit(state1)
    const entry2 = delta2[state2 + (symbols2[unit] as number)] as number
    state2 = entry2 >> 1
    if ((entry2 & 1) === 1) second.hit(state2)
  }
}
