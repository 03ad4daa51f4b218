/**
 * The text being scanned plus lazily built views of it: the detectors' keywords found in it, a
 * lowercase copy, and a line-start index for offset -> line/column. Each view is computed at
 * most once per file, and only when a detector needs it.
 */
import { CASE_INSENSITIVE } from '../sast/preconditions.ts'
import { WordScanner } from '../text/word-scanner.ts'

/**
 * Every detector keyword (case-insensitive ones prefixed with CASE_INSENSITIVE), registered by
 * the detectors when they are defined. About seventy detectors test a few keywords each; one
 * scan for all of them reads the file once instead of once per absent keyword.
 */
const keywordIds = new Map<string, number>()
let keywordScanner: WordScanner | null = null

/** Adds keywords to the shared vocabulary (lowercase ones when `ignoreCase`). */
export function registerKeywords(keywords: readonly string[], ignoreCase: boolean): void {
  for (const keyword of keywords) {
    const word = ignoreCase ? CASE_INSENSITIVE + keyword : keyword
    if (keywordIds.has(word)) continue
    keywordIds.set(word, keywordIds.size)
    keywordScanner = null
  }
}

export class ScanText {
  readonly text: string
  private lowerCache: string | undefined
  private lineStartsCache: number[] | undefined
  private keywordsCache: Uint8Array | undefined

  constructor(text: string) {
    this.text = text
  }

  get lower(): string {
    this.lowerCache ??= this.text.toLowerCase()
    return this.lowerCache
  }

  /** True when the text contains one of the keywords (case-sensitive). */
  includesAny(keywords: readonly string[]): boolean {
    return keywords.some((keyword) => this.hasKeyword(keyword, keyword, () => this.text.includes(keyword)))
  }

  /** True when the text, ignoring case, contains one of the (lowercase) keywords. */
  includesAnyIgnoringCase(keywords: readonly string[]): boolean {
    return keywords.some((keyword) => this.hasKeyword(CASE_INSENSITIVE + keyword, keyword, () => this.lower.includes(keyword)))
  }

  /** Registered keywords come from the one-pass scan; others (never registered) are searched for. */
  private hasKeyword(word: string, keyword: string, search: () => boolean): boolean {
    const id = keywordIds.get(word)
    if (id === undefined || keyword === '') return search()
    keywordScanner ??= new WordScanner(keywordIds.keys())
    this.keywordsCache ??= keywordScanner.scan(this.text)
    // The scan predates keywords registered after it was made.
    return id < this.keywordsCache.length ? this.keywordsCache[id] === 1 : search()
  }

  /** 1-based line and column of an offset (column counts UTF-16 code units). */
  position(offset: number): { line: number; column: number } {
    const index = this.lineIndex(offset)
    return { line: index + 1, column: offset - (this.lineStarts()[index] ?? 0) + 1 }
  }

  /** Offset just past the last character of the line holding `offset` (before `\r\n`). */
  lineEnd(offset: number): number {
    const starts = this.lineStarts()
    const next = starts[this.lineIndex(offset) + 1]
    const end = next === undefined ? this.text.length : next - 1
    return end > offset && this.text.charCodeAt(end - 1) === 13 ? end - 1 : end
  }

  lineStart(offset: number): number {
    return this.lineStarts()[this.lineIndex(offset)] ?? 0
  }

  /** The whole line holding `offset`, without its line break. */
  lineAt(offset: number): string {
    return this.text.slice(this.lineStart(offset), this.lineEnd(offset))
  }

  /** 0-based index of the line holding `offset` (binary search over line starts). */
  private lineIndex(offset: number): number {
    const starts = this.lineStarts()
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((starts[middle] ?? 0) <= offset) low = middle
      else high = middle - 1
    }
    return low
  }

  private lineStarts(): number[] {
    if (this.lineStartsCache) return this.lineStartsCache
    const starts = [0]
    let index = this.text.indexOf('\n')
    while (index !== -1) {
      starts.push(index + 1)
      index = this.text.indexOf('\n', index + 1)
    }
    this.lineStartsCache = starts
    return starts
  }
}
