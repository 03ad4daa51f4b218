/**
 * Character statistics used to tell random key material from words, identifiers and
 * placeholders: Shannon entropy, character classes, repetition and sequential runs.
 * Every function here runs over one candidate value, never over a whole file.
 */

/** Shannon entropy in bits per character of `value` (0 for the empty string). */
export function shannonEntropy(value: string): number {
  const length = value.length
  if (length === 0) return 0
  const counts = new Map<number, number>()
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i)
    counts.set(code, (counts.get(code) ?? 0) + 1)
  }
  let entropy = 0
  for (const count of counts.values()) {
    const p = count / length
    entropy -= p * Math.log2(p)
  }
  return entropy
}

export interface CharClasses {
  lower: boolean
  upper: boolean
  digit: boolean
  symbol: boolean
  /** how many of the four classes occur */
  count: number
}

export function charClasses(value: string): CharClasses {
  const lower = /[a-z]/.test(value)
  const upper = /[A-Z]/.test(value)
  const digit = /[0-9]/.test(value)
  const symbol = /[^A-Za-z0-9]/.test(value)
  return { lower, upper, digit, symbol, count: +lower + +upper + +digit + +symbol }
}

export function isHexString(value: string): boolean {
  return /^[0-9a-fA-F]+$/.test(value)
}

/**
 * Share of adjacent character pairs that step by +1 or -1 (`abcd`, `4321`): high for
 * keyboard-mash placeholders like `1234567890abcdef`, about 1/30 for random text.
 */
export function sequentialRatio(value: string): number {
  if (value.length < 2) return 0
  let sequential = 0
  for (let i = 1; i < value.length; i++) {
    const step = value.charCodeAt(i) - value.charCodeAt(i - 1)
    if (step === 1 || step === -1) sequential++
  }
  return sequential / (value.length - 1)
}

/** Length of the longest run of one repeated character. */
export function longestRun(value: string): number {
  let longest = value.length > 0 ? 1 : 0
  let run = 1
  for (let i = 1; i < value.length; i++) {
    run = value.charCodeAt(i) === value.charCodeAt(i - 1) ? run + 1 : 1
    if (run > longest) longest = run
  }
  return longest
}

/** True for values made of one short unit repeated (`abcabcabc`, `xyxyxy`, `aaaa`). */
export function isShortPeriodRepetition(value: string): boolean {
  if (value.length < 4) return false
  for (let period = 1; period <= 4 && period * 2 <= value.length; period++) {
    let repeats = true
    for (let i = period; i < value.length; i++) {
      if (value.charCodeAt(i) !== value.charCodeAt(i - period)) {
        repeats = false
        break
      }
    }
    if (repeats) return true
  }
  return false
}
