/**
 * Combining data-flow findings with pattern-rule findings: where both report the same sink
 * (same file, same category, overlapping spans), the data-flow finding stays, since it carries
 * the path that makes the sink dangerous; everything else is kept.
 */
import type { Category, Finding } from '../core/types.ts'

type Position = readonly [line: number, column: number]

function compare(a: Position, b: Position): number {
  return a[0] - b[0] || a[1] - b[1]
}

function span(finding: Pick<Finding, 'lineNumber' | 'columnStart' | 'endLineNumber' | 'columnEnd'>): { start: Position; end: Position } {
  // columnEnd belongs to the first line; a multi-line match runs to the end of its last line.
  const end: Position = finding.endLineNumber === finding.lineNumber ? [finding.lineNumber, finding.columnEnd] : [finding.endLineNumber, Number.MAX_SAFE_INTEGER]
  return { start: [finding.lineNumber, finding.columnStart], end }
}

/** Whether two findings cover some common code (touching ends do not count). */
export function spansOverlap(a: Pick<Finding, 'lineNumber' | 'columnStart' | 'endLineNumber' | 'columnEnd'>, b: Pick<Finding, 'lineNumber' | 'columnStart' | 'endLineNumber' | 'columnEnd'>): boolean {
  const first = span(a)
  const second = span(b)
  return compare(first.start, second.end) < 0 && compare(second.start, first.end) < 0
}

export function mergeWithPatternFindings(patternFindings: readonly Finding[], dataflowFindings: readonly Finding[]): Finding[] {
  const byFile = new Map<string, Finding[]>()
  for (const finding of dataflowFindings) byFile.set(finding.filePath, [...(byFile.get(finding.filePath) ?? []), finding])
  const kept = patternFindings.filter((finding) => !(byFile.get(finding.filePath) ?? []).some((flow) => flow.category === finding.category && spansOverlap(flow, finding)))
  return [...kept, ...dataflowFindings].sort(
    (a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0) || a.lineNumber - b.lineNumber || a.columnStart - b.columnStart || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0),
  )
}

/** A sink call the data-flow analysis evaluated and that no unsanitized data reached. */
export interface CleanSink {
  readonly filePath: string
  readonly category: Category
  readonly lineNumber: number
  readonly columnStart: number
  readonly endLineNumber: number
  readonly columnEnd: number
}

/**
 * Categories whose pattern rules flag a sink call for what its argument might be (a dynamic
 * eval, a pickle.loads, a shell command, SQL text built by concatenation): where data flow
 * evaluated that very call and found only constants, numbers or sanitized data in its dangerous
 * arguments, the pattern's guess is wrong. A sink data flow did not reach (a function no source
 * flows into) keeps its pattern finding.
 */
const CLEAN_SINK_CATEGORIES: ReadonlySet<Category> = new Set(['code-injection', 'insecure-deserialization', 'command-injection', 'sql-injection'])

/** Pattern findings without those on a clean data-flow sink of their category (same call). */
export function withoutCleanSinkFindings(patternFindings: readonly Finding[], cleanSinks: readonly CleanSink[]): Finding[] {
  if (cleanSinks.length === 0) return [...patternFindings]
  const byFile = new Map<string, CleanSink[]>()
  for (const sink of cleanSinks) if (CLEAN_SINK_CATEGORIES.has(sink.category)) byFile.set(sink.filePath, [...(byFile.get(sink.filePath) ?? []), sink])
  return patternFindings.filter(
    (finding) => !(byFile.get(finding.filePath) ?? []).some((sink) => sink.category === finding.category && sink.lineNumber === finding.lineNumber && spansOverlap(sink, finding)),
  )
}
