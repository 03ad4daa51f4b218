/**
 * Turns the paths the engine recorded into DataFlowTrace objects (every path, sanitized ones
 * included) and into findings: one per sink and category that some unsanitized path reaches,
 * built like the pattern rules' findings (findings.ts) with the trace as explanation and
 * `dataFlow`.
 */
import type { DataFlowStep, DataFlowTrace, Finding } from '../core/types.ts'
import { buildFinding, capLine, fingerprintOf, normalizeMatchedText, occurrenceIndexes, quoteCode } from '../core/findings.ts'
import { languageFromPath } from '../core/languages.ts'
import type { FileLanguage } from '../core/languages.ts'
import type { SecretsDetector } from '../secrets/bridge.ts'
import { SourceFile } from '../core/source-file.ts'
import type { Site } from './ir.ts'
import type { TraceRecord } from './engine.ts'
import { SINK_KIND_INFO, SOURCE_KIND_INFO } from './kinds.ts'
import type { Step } from './values.ts'
import { weakCheckSentence } from './weak-checks.ts'

export const DATAFLOW_MODEL = 'parapet-dataflow/1.0'
const CONFIDENCE = 0.9
/** Only a library's callers decide whether its arguments are attacker data (library.ts). */
const LIBRARY_CONFIDENCE = 0.6

/** Redacted source lines of the analyzed files, for steps and findings. */
export class FileTexts {
  private readonly files = new Map<string, SourceFile>()

  constructor(
    private readonly texts: ReadonlyMap<string, string>,
    private readonly detector: SecretsDetector | null,
  ) {}

  file(path: string): SourceFile {
    let file = this.files.get(path)
    if (!file) {
      const language: FileLanguage | null = languageFromPath(path)
      if (!language) throw new Error(`no language for ${path}`)
      file = new SourceFile(path, language, this.texts.get(path) ?? '', this.detector)
      this.files.set(path, file)
    }
    return file
  }

  /** One line, trimmed and redacted. */
  line(path: string, line: number): string {
    return capLine((this.file(path).displayLines()[line] ?? '').trim())
  }
}

export function stepAt(texts: FileTexts, site: Site, note: string): DataFlowStep {
  return { filePath: site.path, lineNumber: site.line + 1, code: texts.line(site.path, site.line), note }
}

/** Steps without immediate repeats (two notes about the same line in a row read as noise). */
export function pathSteps(texts: FileTexts, steps: readonly Step[]): DataFlowStep[] {
  const result: DataFlowStep[] = []
  for (const step of steps) {
    const converted = stepAt(texts, step.site, step.note)
    const previous = result.at(-1)
    if (previous && previous.filePath === converted.filePath && previous.lineNumber === converted.lineNumber && previous.note === converted.note) continue
    result.push(converted)
  }
  return result
}

export function toTrace(texts: FileTexts, record: TraceRecord): DataFlowTrace {
  const { fact, hit } = record
  if (fact.origin.type !== 'source') throw new Error('only source facts make traces')
  const source = fact.origin
  const info = SINK_KIND_INFO[hit.spec.kind]
  const sinkNote = hit.callee === 'return' ? hit.spec.note : `${hit.spec.note} of ${hit.callee}${hit.spec.assign ? '' : '()'}`
  return {
    source: { ...stepAt(texts, source.site, `${source.what} (${SOURCE_KIND_INFO[source.kind].label})`), kind: source.kind },
    sink: { ...stepAt(texts, hit.site, sinkNote), kind: hit.spec.kind, cwe: hit.spec.cwe ?? info.cwe },
    steps: pathSteps(texts, fact.steps),
    sanitized: record.sanitized,
    sanitizer: record.sanitizer ? stepAt(texts, record.sanitizer.site, record.sanitizer.note) : null,
  }
}

export function where(step: DataFlowStep): string {
  return `${step.filePath}:${step.lineNumber}`
}

function explain(trace: DataFlowTrace, others: number): string {
  const info = SINK_KIND_INFO[trace.sink.kind as keyof typeof SINK_KIND_INFO]
  const lead = info.reportAtSource ? 'A predictable value' : 'Untrusted data'
  const lines = [
    `${lead} from ${trace.source.note} at ${where(trace.source)} reaches ${info.noun} (${trace.sink.note}) at ${where(trace.sink)} without passing a sanitizer or check for ${info.category}.`,
    '',
    'Path:',
    `1. ${where(trace.source)} \`${quoteCode(trace.source.code)}\`: source, ${trace.source.note}`,
    ...trace.steps.map((step, index) => `${index + 2}. ${where(step)} \`${quoteCode(step.code)}\`: ${step.note}`),
    `${trace.steps.length + 2}. ${where(trace.sink)} \`${quoteCode(trace.sink.code)}\`: sink, ${trace.sink.note}`,
  ]
  if (others > 0) lines.push('', `${others} other untrusted source${others === 1 ? '' : 's'} reach${others === 1 ? 'es' : ''} the same sink.`)
  return lines.join('\n')
}

/** The rule id of a data-flow finding in a file: dataflow.<file language>.<category>. */
export function dataFlowRuleId(path: string, category: string): string {
  return `dataflow.${languageFromPath(path) ?? 'unknown'}.${category}`
}

interface Candidate {
  record: TraceRecord
  trace: DataFlowTrace
}

/** Prefers the shortest path, then the earliest source, so the choice is stable. */
function preferred(a: Candidate, b: Candidate): number {
  return (
    a.trace.steps.length - b.trace.steps.length ||
    (a.trace.source.filePath < b.trace.source.filePath ? -1 : a.trace.source.filePath > b.trace.source.filePath ? 1 : 0) ||
    a.trace.source.lineNumber - b.trace.source.lineNumber
  )
}

export function buildFindings(texts: FileTexts, candidates: readonly Candidate[]): Finding[] {
  const bySink = new Map<string, Candidate[]>()
  for (const candidate of candidates) {
    if (candidate.record.sanitized) continue
    const category = SINK_KIND_INFO[candidate.record.hit.spec.kind].category
    const key = `${reportedSite(candidate.record).key}|${category}`
    const list = bySink.get(key) ?? []
    list.push(candidate)
    bySink.set(key, list)
  }
  const groups = [...bySink.values()].map((group) => group.sort(preferred))
  const byFile = new Map<string, Candidate[][]>()
  for (const group of groups) {
    const path = reportedSite((group[0] as Candidate).record).path
    byFile.set(path, [...(byFile.get(path) ?? []), group])
  }
  const findings: Finding[] = []
  for (const [path, fileGroups] of byFile) findings.push(...fileFindings(texts, path, fileGroups))
  return findings.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.lineNumber - b.lineNumber || a.columnStart - b.columnStart))
}

function fileFindings(texts: FileTexts, path: string, groups: Candidate[][]): Finding[] {
  const file = texts.file(path)
  const entries = groups.map((group) => {
    const best = group[0] as Candidate
    const { hit } = best.record
    const info = SINK_KIND_INFO[hit.spec.kind]
    const ruleId = dataFlowRuleId(path, info.category)
    const site = reportedSite(best.record)
    return { group, best, info, ruleId, normalized: normalizeMatchedText(site.text), offset: site.start }
  })
  const occurrences = occurrenceIndexes(entries.map((entry) => ({ ruleId: entry.ruleId, normalizedText: entry.normalized, offset: entry.offset })))
  return entries.map((entry, index) => {
    const { best, info, ruleId, group } = entry
    const { hit } = best.record
    const site = reportedSite(best.record)
    const trace = best.trace
    const sourceKinds = [...new Set(group.map((candidate) => candidate.trace.source.kind))]
    const crossFile = trace.source.filePath !== trace.sink.filePath
    const finding = buildFinding(
      file,
      { startLine: site.line, startColumn: site.column, endLine: site.endLine, endColumn: site.endColumn },
      {
        ruleId,
        analyzer: 'dataflow',
        modelUsed: DATAFLOW_MODEL,
        category: info.category,
        severity: info.severity,
        confidence: sourceKinds.every((kind) => kind === 'library-argument') ? LIBRARY_CONFIDENCE : CONFIDENCE,
        title: info.title,
        description: info.reportAtSource
          ? `${capitalize(trace.source.note)} reaches ${info.noun} (${trace.sink.note}) at ${where(trace.sink)}.`
          : `${capitalize(trace.source.note)} reaches ${info.noun} (${trace.sink.note}) at line ${trace.sink.lineNumber} without sanitization.${hit.spec.kind === 'redirect' || hit.spec.kind === 'url' ? (weakCheckSentence(trace.steps) ?? '') : ''}`,
        explanation: explain(trace, group.length - 1),
        remediation: info.remediation,
        remediationCode: null,
        cweIds: [trace.sink.cwe],
        owaspCategory: info.owasp,
        cvssScore: info.cvss,
        tags: ['dataflow', 'taint', hit.spec.kind, ...sourceKinds, ...(crossFile ? ['cross-file'] : [])],
      },
      fingerprintOf(ruleId, path, entry.normalized, occurrences[index] ?? 0),
    )
    return { ...finding, dataFlow: trace }
  })
}

/** Where a path's finding stands: at the sink, or at the source for kinds reported there. */
function reportedSite(record: TraceRecord): Site {
  const origin = record.fact.origin
  return SINK_KIND_INFO[record.hit.spec.kind].reportAtSource && origin.type === 'source' ? origin.site : record.hit.site
}

function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]?.toUpperCase() + text.slice(1)
}

export type { Candidate }
