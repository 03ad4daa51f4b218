/**
 * The text being scanned plus lazily built views of it: a lowercase copy for
 * case-insensitive keyword prefilters and a line-start index for offset -> line/column.
 * Each view is computed at most once per file, and only when a detector needs it.
 */

export class ScanText {
  readonly text: string
  private lowerCache: string | undefined
  private lineStartsCache: number[] | undefined

  constructor(text: string) {
    this.text = text
  }

  get lower(): string {
    this.lowerCache ??= this.text.toLowerCase()
    return this.lowerCache
  }

  /** True when the text contains one of the keywords (case-sensitive). */
  includesAny(keywords: readonly string[]): boolean {
    return keywords.some((keyword) => this.text.includes(keyword))
  }

  /** True when the lowercased text contains one of the (lowercase) keywords. */
  includesAnyIgnoringCase(keywords: readonly string[]): boolean {
    const lower = this.lower
    return keywords.some((keyword) => lower.includes(keyword))
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
