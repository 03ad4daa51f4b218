/**
 * Suppression comments: `parapet-ignore` (or `nosemgrep`, for code already annotated for
 * Semgrep), optionally narrowed to rules with `parapet-ignore: rule.one, rule.two`, in a
 * comment on the finding's first line or on a comment line just above it.
 */
import type { CommentSyntax } from '../core/languages.ts'

const MARKER = /\b(?:parapet-ignore|nosemgrep)\b(?:[ \t]*:[ \t]*([A-Za-z0-9_.\-/]+(?:[ \t]*,[ \t]*[A-Za-z0-9_.\-/]+)*))?/

/** Rule ids a suppression names; `all` when it names none. */
export type SuppressionScope = 'all' | Set<string>

/** The suppression on a line when it sits inside a comment, or null. */
export function suppressionOnLine(line: string, comments: CommentSyntax): SuppressionScope | null {
  const match = MARKER.exec(line)
  if (!match) return null
  if (!isInComment(line, match.index, comments)) return null
  const ids = match[1]
  if (!ids) return 'all'
  return new Set(ids.split(',').map((id) => id.trim()).filter((id) => id !== ''))
}

function isInComment(line: string, position: number, comments: CommentSyntax): boolean {
  const before = line.slice(0, position)
  if (comments.line.some((marker) => before.includes(marker))) return true
  if (comments.block.some(([open]) => before.includes(open))) return true
  // Continuation lines of a block comment (` * parapet-ignore`).
  return comments.block.length > 0 && /^\s*\*/.test(before)
}

function isCommentOnlyLine(line: string, comments: CommentSyntax): boolean {
  const trimmed = line.trimStart()
  return (
    comments.line.some((marker) => trimmed.startsWith(marker)) ||
    comments.block.some(([open]) => trimmed.startsWith(open)) ||
    (comments.block.length > 0 && trimmed.startsWith('*'))
  )
}

/** Decides suppression for findings of one file. */
export class SuppressionIndex {
  private readonly cache = new Map<number, SuppressionScope | null>()

  constructor(
    private readonly lines: string[],
    private readonly comments: CommentSyntax,
  ) {}

  /** Whether a finding of `ruleId` whose first line is `lineNumber` (1-based) is suppressed. */
  isSuppressed(ruleId: string, lineNumber: number): boolean {
    if (covers(this.scopeAt(lineNumber - 1), ruleId)) return true
    const above = this.lines[lineNumber - 2]
    return above !== undefined && isCommentOnlyLine(above, this.comments) && covers(this.scopeAt(lineNumber - 2), ruleId)
  }

  private scopeAt(index: number): SuppressionScope | null {
    if (!this.cache.has(index)) {
      const line = this.lines[index]
      this.cache.set(index, line === undefined ? null : suppressionOnLine(line, this.comments))
    }
    return this.cache.get(index) ?? null
  }
}

function covers(scope: SuppressionScope | null, ruleId: string): boolean {
  return scope === 'all' || (scope !== null && scope.has(ruleId))
}

/** Cheap pre-check: files without any marker skip the per-finding work. */
export function mayContainSuppressions(text: string): boolean {
  return text.includes('parapet-ignore') || text.includes('nosemgrep')
}
