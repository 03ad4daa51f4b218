/**
 * Turns a located match into a complete Finding: location, snippet and context cut from the
 * file's redacted lines, and a fingerprint that survives code moving around in the file.
 */
import { createHash } from 'node:crypto'
import type { Finding } from './types.ts'
import type { SourceFile } from './source-file.ts'

/** A match position; lines and columns 0-based, columns and offsets in UTF-16 units. */
export interface MatchSpan {
  startLine: number
  startColumn: number
  endLine: number
  endColumn: number
}

/** What a rule (or another analyzer) says about a finding, beyond where it is. */
export type FindingMetadata = Pick<
  Finding,
  | 'ruleId' | 'analyzer' | 'modelUsed' | 'category' | 'severity' | 'confidence' | 'title' | 'description'
  | 'explanation' | 'remediation' | 'remediationCode' | 'cweIds' | 'owaspCategory' | 'cvssScore' | 'tags'
>

export const CONTEXT_LINES = 3
const MAX_SNIPPET_LINES = 12
const MAX_LINE_LENGTH = 400

/** Caps one line; very long lines (data blobs) would bloat every report. */
export function capLine(line: string): string {
  return line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}…` : line
}

function joinLines(lines: string[]): string {
  return lines.map(capLine).join('\n')
}

/** The matched lines; long matches keep their head and say how much was cut. */
export function snippetOf(lines: string[], span: MatchSpan): string {
  const last = lastLineOf(span)
  const matched = lines.slice(span.startLine, last + 1)
  if (matched.length <= MAX_SNIPPET_LINES) return joinLines(matched)
  const kept = matched.slice(0, MAX_SNIPPET_LINES)
  return `${joinLines(kept)}\n… (${matched.length - MAX_SNIPPET_LINES} more lines)`
}

/** A match that ends at column 0 only swallowed the previous line's newline. */
function lastLineOf(span: MatchSpan): number {
  return span.endLine > span.startLine && span.endColumn === 0 ? span.endLine - 1 : span.endLine
}

export function buildFinding(file: SourceFile, span: MatchSpan, metadata: FindingMetadata, fingerprint: string): Finding {
  const lines = file.displayLines()
  const last = lastLineOf(span)
  const firstLineLength = (file.lines[span.startLine] ?? '').length
  const columnEnd = last === span.startLine ? (span.endLine === last ? span.endColumn : firstLineLength) : firstLineLength
  return {
    ruleId: metadata.ruleId,
    analyzer: metadata.analyzer,
    modelUsed: metadata.modelUsed,
    filePath: file.path,
    language: file.language,
    lineNumber: span.startLine + 1,
    columnStart: span.startColumn + 1,
    columnEnd: Math.max(columnEnd, span.startColumn) + 1,
    endLineNumber: last + 1,
    category: metadata.category,
    severity: metadata.severity,
    confidence: metadata.confidence,
    title: file.redactText(metadata.title),
    description: file.redactText(metadata.description),
    explanation: file.redactText(metadata.explanation),
    codeSnippet: snippetOf(lines, span),
    contextBefore: joinLines(lines.slice(Math.max(0, span.startLine - CONTEXT_LINES), span.startLine)),
    contextAfter: joinLines(lines.slice(last + 1, last + 1 + CONTEXT_LINES)),
    remediation: metadata.remediation === null ? null : file.redactText(metadata.remediation),
    remediationCode: metadata.remediationCode === null ? null : file.redactText(metadata.remediationCode),
    cweIds: metadata.cweIds,
    owaspCategory: metadata.owaspCategory,
    cvssScore: metadata.cvssScore,
    tags: metadata.tags,
    fingerprint,
  }
}

/**
 * Whitespace-insensitive form of matched code, so reformatting keeps the fingerprint:
 * whitespace runs collapse to one space, which is dropped next to punctuation.
 */
export function normalizeMatchedText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ (?=[^\w$])|(?<=[^\w$]) /g, '')
}

/**
 * sha256 over rule id, path, normalized matched text and the occurrence index of that
 * (rule, text) pair in the file. The line number is deliberately left out: code added above
 * a finding must not make it look new.
 */
export function fingerprintOf(ruleId: string, path: string, normalizedText: string, occurrence: number): string {
  return createHash('sha256').update(['parapet/v1', ruleId, path, normalizedText, String(occurrence)].join('\u0000')).digest('hex')
}

/**
 * Numbers identical (rule, normalized text) matches of one file in order of position and
 * returns each match's occurrence index, in input order.
 */
export function occurrenceIndexes(matches: Array<{ ruleId: string; normalizedText: string; offset: number }>): number[] {
  const order = matches.map((match, index) => ({ match, index })).sort((a, b) => a.match.offset - b.match.offset)
  const seen = new Map<string, number>()
  const result = new Array<number>(matches.length).fill(0)
  for (const { match, index } of order) {
    const key = `${match.ruleId}\u0000${match.normalizedText}`
    const occurrence = seen.get(key) ?? 0
    seen.set(key, occurrence + 1)
    result[index] = occurrence
  }
  return result
}

/** Shortens matched code for use inside a sentence. */
export function quoteCode(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}
