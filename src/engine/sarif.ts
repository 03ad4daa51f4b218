/**
 * SARIF 2.1.0 rendering of a scan report, for code-scanning UIs (GitHub code scanning and
 * others): one run, the Parapet driver with a descriptor per reported rule, one result per
 * finding with a relative location and Parapet's fingerprint.
 */
import type { Finding, RuleDocument, Severity } from './types.ts'
import type { ScanReport } from './scan.ts'
import { ENGINE_VERSION } from './version.ts'

export const SARIF_SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json'

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

export interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: SarifLevel
  message: SarifMessage
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: SarifRegion } }>
  partialFingerprints: Record<string, string>
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
    return {
      ruleId: finding.ruleId,
      ruleIndex,
      level: levelOf(finding.severity),
      message: { text: finding.description },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: artifactUri(finding.filePath), uriBaseId: '%SRCROOT%' },
            region: regionOf(finding),
          },
        },
      ],
      partialFingerprints: { 'parapet/v1': finding.fingerprint },
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
        properties: { stats: report.stats, rulesRun: report.rulesRun, durationMs: report.durationMs },
      },
    ],
  }
}
