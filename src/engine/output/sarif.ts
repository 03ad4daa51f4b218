/**
 * SARIF 2.1.0 rendering of a scan report, for code-scanning UIs (GitHub code scanning and
 * others): one run, the Parapet driver with a descriptor per reported rule, one result per
 * finding with a relative location and Parapet's fingerprint, and the source-to-sink path of a
 * data-flow finding as a code flow. Callers may annotate each result with its state against a
 * baseline and its suppressions. `sarifFingerprints` reads the fingerprints back from such a
 * log, to compare a later scan with it.
 */
import type { DataFlowStep, DataFlowTrace, Finding, RuleDocument, Severity } from '../core/types.ts'
import type { ScanReport } from '../scan/scan.ts'
import { ENGINE_VERSION } from '../core/version.ts'

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json'

/** The key of Parapet's fingerprint in a result's `partialFingerprints`. */
export const FINGERPRINT_KEY = 'parapet/v1'

type SarifLevel = 'error' | 'warning' | 'note'

export interface SarifMessage {
  text: string
  markdown?: string
}

export interface SarifReportingDescriptor {
  id: string
  name: string
  shortDescription: SarifMessage
  fullDescription: SarifMessage
  help: SarifMessage
  defaultConfiguration: { level: SarifLevel }
  properties: { tags: string[]; 'security-severity': string; precision: string; 'problem.severity': string }
}

export interface SarifRegion {
  startLine: number
  startColumn: number
  endLine: number
  endColumn?: number
  snippet: { text: string }
}

export interface SarifArtifactLocation {
  uri: string
  uriBaseId: string
}

/**
 * One step of a code flow (SARIF §3.38). `kinds` uses the standard's vocabulary (§3.38.8):
 * ["acquire", "taint"] where untrusted data enters, ["taint", "danger"] where it is used.
 */
export interface SarifThreadFlowLocation {
  location: {
    physicalLocation: { artifactLocation: SarifArtifactLocation; region: { startLine: number; snippet: { text: string } } }
    message: SarifMessage
  }
  kinds?: string[]
}

/** A data-flow path (SARIF §3.36, one thread flow, §3.37). */
export interface SarifCodeFlow {
  message: SarifMessage
  threadFlows: Array<{ locations: SarifThreadFlowLocation[] }>
}

/** A result's state relative to a baseline (SARIF §3.27.24). */
export type SarifBaselineState = 'new' | 'unchanged' | 'updated' | 'absent'

/** A suppression of a result (SARIF §3.35): in the code, or outside it (e.g. a triage decision). */
export interface SarifSuppression {
  kind: 'external' | 'inSource'
  status?: 'accepted' | 'underReview' | 'rejected'
  justification?: string
}

/** What a caller adds to a finding's result; the field names are SARIF's. */
export interface SarifResultAnnotations {
  baselineState?: SarifBaselineState
  suppressions?: SarifSuppression[]
}

export interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: SarifLevel
  message: SarifMessage
  locations: Array<{ physicalLocation: { artifactLocation: SarifArtifactLocation; region: SarifRegion } }>
  codeFlows?: SarifCodeFlow[]
  partialFingerprints: Record<string, string>
  baselineState?: SarifBaselineState
  suppressions?: SarifSuppression[]
  properties: Record<string, unknown>
}

export interface SarifLog {
  $schema: string
  version: '2.1.0'
  runs: Array<{
    tool: { driver: { name: string; version: string; semanticVersion: string; rules: SarifReportingDescriptor[] } }
    columnKind: 'utf16CodeUnits'
    results: SarifResult[]
    invocations: Array<{ executionSuccessful: boolean }>
    properties: Record<string, unknown>
  }>
}

export interface SarifOptions {
  /** Rule documents, for descriptions of SAST rules (otherwise derived from findings). */
  rules?: RuleDocument[]
  /** Per finding: its baseline state and suppressions, if the caller knows them. */
  annotate?: (finding: Finding) => SarifResultAnnotations | undefined
  /** Extra run properties (e.g. what a comparison with a baseline found). */
  runProperties?: Record<string, unknown>
}

export function levelOf(severity: Severity): SarifLevel {
  return severity === 'critical' || severity === 'high' ? 'error' : severity === 'medium' ? 'warning' : 'note'
}

/** SARIF precision from a rule's confidence (0..1). */
export function precisionOf(confidence: number): string {
  return confidence >= 0.9 ? 'very-high' : confidence >= 0.7 ? 'high' : confidence >= 0.4 ? 'medium' : 'low'
}

function descriptorName(title: string): string {
  return title
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((word) => (word[0]?.toUpperCase() ?? '') + word.slice(1))
    .join('')
}

function cweTags(cwe: string[]): string[] {
  return cwe.map((id) => `external/cwe/${id.toLowerCase()}`)
}

function descriptorFor(finding: Finding, rule: RuleDocument | undefined): SarifReportingDescriptor {
  const title = rule?.title ?? finding.title
  const remediation = rule?.remediation ?? finding.remediation
  const full = rule ? [rule.message, rule.note].filter(Boolean).join(' ') : finding.description
  const fix = rule?.fix
  // a user rule may name no CWE, OWASP entry or remediation: only what is known is said
  const references = [...finding.cweIds, ...(finding.owaspCategory ? [finding.owaspCategory] : [])]
  const markdown = [references.length > 0 ? `**${title}** (${references.join(', ')})` : `**${title}**`, '', full]
  if (remediation) markdown.push('', `**Remediation:** ${remediation}`)
  if (fix) markdown.push('', 'Suggested fix:', '', '```', fix, '```')
  const tags = [...new Set(['security', finding.category, ...(rule?.tags ?? finding.tags), ...cweTags(finding.cweIds)])]
  return {
    id: finding.ruleId,
    name: descriptorName(title) || finding.ruleId,
    shortDescription: { text: title },
    fullDescription: { text: full },
    help: { text: remediation ?? full, markdown: markdown.join('\n') },
    defaultConfiguration: { level: levelOf(finding.severity) },
    properties: {
      tags,
      'security-severity': (rule?.cvss ?? finding.cvssScore).toFixed(1),
      precision: precisionOf(rule?.confidence ?? finding.confidence),
      'problem.severity': levelOf(finding.severity) === 'note' ? 'recommendation' : levelOf(finding.severity),
    },
  }
}

function regionOf(finding: Finding): SarifRegion {
  const region: SarifRegion = {
    startLine: finding.lineNumber,
    startColumn: finding.columnStart,
    endLine: finding.endLineNumber,
    snippet: { text: finding.codeSnippet },
  }
  if (finding.endLineNumber === finding.lineNumber) {
    region.endColumn = finding.columnEnd
  } else {
    // Findings carry the end column of the first line only; a multi-line region ends with
    // its last line unless the snippet was shortened.
    const snippetLines = finding.codeSnippet.split('\n')
    const lastLine = snippetLines[snippetLines.length - 1] ?? ''
    if (snippetLines.length === finding.endLineNumber - finding.lineNumber + 1 && !lastLine.endsWith('…')) {
      region.endColumn = lastLine.length + 1
    }
  }
  return region
}

function artifactUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/')
}

function artifactLocation(path: string): SarifArtifactLocation {
  return { uri: artifactUri(path), uriBaseId: '%SRCROOT%' }
}

function threadFlowLocation(step: DataFlowStep, kinds?: string[]): SarifThreadFlowLocation {
  const location: SarifThreadFlowLocation = {
    location: {
      physicalLocation: { artifactLocation: artifactLocation(step.filePath), region: { startLine: step.lineNumber, snippet: { text: step.code } } },
      message: { text: step.note },
    },
  }
  if (kinds) location.kinds = kinds
  return location
}

/** The path of a data-flow finding, source first and sink last, as one code flow. */
function codeFlowOf(trace: DataFlowTrace): SarifCodeFlow {
  return {
    message: { text: `From ${trace.source.note} to ${trace.sink.note}` },
    threadFlows: [
      {
        locations: [
          threadFlowLocation(trace.source, ['acquire', 'taint']),
          ...trace.steps.map((step) => threadFlowLocation(step)),
          threadFlowLocation(trace.sink, ['taint', 'danger']),
        ],
      },
    ],
  }
}

/** Copies the caller's annotations field by field, so a result stays plain JSON. */
function annotateResult(result: SarifResult, annotations: SarifResultAnnotations | undefined): void {
  if (annotations?.baselineState) result.baselineState = annotations.baselineState
  if (annotations?.suppressions) {
    result.suppressions = annotations.suppressions.map(({ kind, status, justification }) => ({
      kind,
      ...(status ? { status } : {}),
      ...(justification !== undefined ? { justification } : {}),
    }))
  }
}

export function toSarif(report: ScanReport, options: SarifOptions = {}): SarifLog {
  const rulesById = new Map((options.rules ?? []).map((rule) => [rule.id, rule]))
  const descriptors: SarifReportingDescriptor[] = []
  const indexById = new Map<string, number>()
  const results: SarifResult[] = report.findings.map((finding) => {
    let ruleIndex = indexById.get(finding.ruleId)
    if (ruleIndex === undefined) {
      ruleIndex = descriptors.length
      descriptors.push(descriptorFor(finding, rulesById.get(finding.ruleId)))
      indexById.set(finding.ruleId, ruleIndex)
    }
    const result: SarifResult = {
      ruleId: finding.ruleId,
      ruleIndex,
      level: levelOf(finding.severity),
      message: { text: finding.description },
      locations: [{ physicalLocation: { artifactLocation: artifactLocation(finding.filePath), region: regionOf(finding) } }],
      ...(finding.dataFlow ? { codeFlows: [codeFlowOf(finding.dataFlow)] } : {}),
      partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint },
      properties: {
        severity: finding.severity,
        category: finding.category,
        confidence: finding.confidence,
        cvss: finding.cvssScore,
        cwe: finding.cweIds,
        owasp: finding.owaspCategory,
        analyzer: finding.analyzer,
        modelUsed: finding.modelUsed,
      },
    }
    annotateResult(result, options.annotate?.(finding))
    return result
  })
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Parapet',
            version: ENGINE_VERSION,
            semanticVersion: ENGINE_VERSION,
            rules: descriptors,
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
        invocations: [{ executionSuccessful: true }],
        properties: { stats: report.stats, rulesRun: report.rulesRun, durationMs: report.durationMs, ...options.runProperties },
      },
    ],
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The Parapet fingerprints of the results of a SARIF 2.1.0 log (ours, from the CLI or the
 * server), for a comparison with a later scan. Results marked `absent` were not in the scan that
 * wrote the log, so they are not part of it. Throws, saying what is wrong, on anything that is
 * not such a log: a log of another tool has results but none of our fingerprints.
 */
export function sarifFingerprints(log: unknown): Set<string> {
  if (!isObject(log) || log.version !== '2.1.0' || !Array.isArray(log.runs)) {
    throw new Error('not a SARIF 2.1.0 log (expected an object with "version": "2.1.0" and "runs")')
  }
  const fingerprints = new Set<string>()
  let results = 0
  for (const [runIndex, run] of log.runs.entries()) {
    if (!isObject(run)) throw new Error(`runs[${runIndex}] is not an object`)
    if (run.results === undefined || run.results === null) continue
    if (!Array.isArray(run.results)) throw new Error(`runs[${runIndex}].results is not an array`)
    for (const [resultIndex, result] of run.results.entries()) {
      if (!isObject(result)) throw new Error(`runs[${runIndex}].results[${resultIndex}] is not an object`)
      if (result.baselineState === 'absent') continue
      results += 1
      const fingerprint = isObject(result.partialFingerprints) ? result.partialFingerprints[FINGERPRINT_KEY] : undefined
      if (typeof fingerprint === 'string' && fingerprint !== '') fingerprints.add(fingerprint)
    }
  }
  if (results > 0 && fingerprints.size === 0) {
    throw new Error(`none of its ${results} results has a Parapet fingerprint (partialFingerprints "${FINGERPRINT_KEY}")`)
  }
  return fingerprints
}
