/**
 * Small text and ordering helpers shared by the summary: code-point string order (never the
 * locale's, so output is identical on every machine), line lookup, and bounded strings.
 */

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** Sorts in place by the given keys, numbers ascending and strings in code-point order. */
export function sortByKeys<T>(items: T[], key: (item: T) => Array<string | number>): T[] {
  return items.sort((a, b) => {
    const ka = key(a)
    const kb = key(b)
    for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
      const x = ka[i]
      const y = kb[i]
      if (x === y) continue
      if (x === undefined) return -1
      if (y === undefined) return 1
      if (typeof x === 'number' && typeof y === 'number') return x - y
      return compareText(String(x), String(y))
    }
    return 0
  })
}

export function uniqueSorted(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareText)
}

/** One line, at most `max` characters (an ellipsis marks a cut). */
export function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`
}

/** Offsets where each line starts, for mapping string offsets to 1-based lines. */
export function lineStarts(text: string): number[] {
  const starts = [0]
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1)
  return starts
}

export function lineAt(starts: readonly number[], offset: number): number {
  let low = 0
  let high = starts.length - 1
  while (low < high) {
    const mid = (low + high + 1) >> 1
    if ((starts[mid] ?? 0) <= offset) low = mid
    else high = mid - 1
  }
  return low + 1
}

export function countLines(text: string): number {
  if (text.length === 0) return 0
  let count = 1
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++
  return text.endsWith('\n') ? count - 1 : count
}

/** `file:line` */
export function at(file: string, line: number): string {
  return `${file}:${line}`
}

/** Cuts a multi-line text at a line boundary so it fits in `maxBytes` of UTF-8. */
export function fitBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text
  const lines = text.split('\n')
  const kept: string[] = []
  let size = 0
  const marker = '[… cut to fit the size limit]'
  const budget = maxBytes - Buffer.byteLength(marker) - 1
  for (const line of lines) {
    const bytes = Buffer.byteLength(line) + 1
    if (size + bytes > budget) break
    kept.push(line)
    size += bytes
  }
  kept.push(marker)
  return kept.join('\n')
}

/** Joins names for prose: `a`, `a and b`, `a, b and c`. */
export function listProse(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? ''
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`
}

/** The start of a node's text (up to `max` characters), from its character range in `text`. */
export function textHead(text: string, range: { start: { index: number }; end: { index: number } }, max = 400): string {
  return text.slice(range.start.index, Math.min(range.end.index, range.start.index + max))
}
