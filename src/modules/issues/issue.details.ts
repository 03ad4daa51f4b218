/**
 * What an issue's page shows, derived from the stored record so every client reads it the same
 * way: the code around the finding with its line numbers, its CWE and OWASP entries with their
 * pages, and its data-flow path as typed steps instead of free-form JSON.
 */
import type { IssueRecord } from './issue.records.ts'

export interface CodeLine {
  number: number
  text: string
  inMatch: boolean
}

/** The marker the engine puts in place of a long match's remaining lines (src/engine/core/findings.ts). */
const SHORTENED_MATCH = /^… \((\d+) more lines\)$/

/**
 * The stored context before the match is up to CONTEXT_LINES lines ending just above the
 * match, so its line count, not the constant, gives the first number; an empty context before
 * line 1 is no line at all, while an empty context later is one empty line.
 */
export function codeLinesOf(issue: Pick<IssueRecord, 'lineNumber' | 'contextBefore' | 'codeSnippet' | 'contextAfter'>): CodeLine[] {
  const before = issue.lineNumber > 1 && issue.contextBefore !== null ? issue.contextBefore.split('\n') : []
  const lines: CodeLine[] = before.map((text, index) => ({ number: issue.lineNumber - before.length + index, text, inMatch: false }))
  let next = issue.lineNumber
  for (const text of issue.codeSnippet?.split('\n') ?? []) {
    const shortened = SHORTENED_MATCH.exec(text)
    if (shortened) {
      next += Number(shortened[1])
      continue
    }
    lines.push({ number: next, text, inMatch: true })
    next += 1
  }
  for (const text of issue.contextAfter ? issue.contextAfter.split('\n') : []) {
    lines.push({ number: next, text, inMatch: false })
    next += 1
  }
  return lines
}

export interface Reference {
  kind: 'CWE' | 'OWASP'
  id: string
  title: string | null
  url: string | null
}

// the pages of the OWASP Top 10 2021, the edition the built-in rules cite
const OWASP_2021_PAGES: Record<string, string> = {
  A01: 'A01_2021-Broken_Access_Control',
  A02: 'A02_2021-Cryptographic_Failures',
  A03: 'A03_2021-Injection',
  A04: 'A04_2021-Insecure_Design',
  A05: 'A05_2021-Security_Misconfiguration',
  A06: 'A06_2021-Vulnerable_and_Outdated_Components',
  A07: 'A07_2021-Identification_and_Authentication_Failures',
  A08: 'A08_2021-Software_and_Data_Integrity_Failures',
  A09: 'A09_2021-Security_Logging_and_Monitoring_Failures',
  A10: 'A10_2021-Server-Side_Request_Forgery_%28SSRF%29',
}

function cweReference(id: string): Reference {
  const number = /^CWE-(\d+)$/i.exec(id.trim())?.[1]
  return { kind: 'CWE', id, title: null, url: number ? `https://cwe.mitre.org/data/definitions/${number}.html` : null }
}

/** "A03:2021 - Injection" (the rules' form) is the entry A03:2021, titled Injection. */
function owaspReference(category: string): Reference {
  const [code = category, ...rest] = category.split(/\s+-\s+/)
  const title = rest.join(' - ').trim() || null
  const edition = /^(A\d{2}):2021$/.exec(code.trim())
  const page = edition?.[1] ? OWASP_2021_PAGES[edition[1]] : undefined
  return { kind: 'OWASP', id: code.trim(), title, url: page ? `https://owasp.org/Top10/${page}/` : null }
}

export function referencesOf(issue: Pick<IssueRecord, 'cweIds' | 'owaspCategory'>): Reference[] {
  const references = issue.cweIds.map(cweReference)
  if (issue.owaspCategory?.trim()) references.push(owaspReference(issue.owaspCategory))
  return references
}

export interface TraceStep {
  filePath: string
  lineNumber: number
  code: string
  note: string
}

export interface DataFlowTrace {
  source: TraceStep & { kind: string }
  steps: TraceStep[]
  sink: TraceStep & { kind: string }
  sanitized: boolean
  sanitizer: TraceStep | null
}

/** The stored trace (the engine's DataFlowTrace as JSON), or null when the issue has none or it lacks its ends. */
export function traceOf(issue: Pick<IssueRecord, 'dataFlow'>): DataFlowTrace | null {
  const flow = issue.dataFlow
  if (!flow) return null
  const source = endOf(flow['source'])
  const sink = endOf(flow['sink'])
  if (!source || !sink) return null
  const steps = Array.isArray(flow['steps']) ? flow['steps'].map(stepOf).filter((step): step is TraceStep => step !== null) : []
  return { source, steps, sink, sanitized: flow['sanitized'] === true, sanitizer: stepOf(flow['sanitizer']) }
}

function stepOf(value: unknown): TraceStep | null {
  if (!value || typeof value !== 'object') return null
  const step = value as Record<string, unknown>
  if (typeof step['filePath'] !== 'string' || typeof step['lineNumber'] !== 'number') return null
  return { filePath: step['filePath'], lineNumber: step['lineNumber'], code: String(step['code'] ?? ''), note: String(step['note'] ?? '') }
}

function endOf(value: unknown): (TraceStep & { kind: string }) | null {
  const step = stepOf(value)
  return step && { ...step, kind: String((value as Record<string, unknown>)['kind'] ?? '') }
}
