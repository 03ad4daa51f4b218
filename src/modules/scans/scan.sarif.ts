/**
 * The SARIF 2.1.0 log of a completed scan, from its stored issues: the engine renders the results
 * (src/engine/output/sarif.ts, as the CLI does, data-flow traces as code flows), annotated with what only
 * the server knows: each result's state against the scan's base (`new` / `unchanged`), a triage
 * decision of false positive as an external suppression justified by the issue's notes, and the
 * run's identity and base, so that code-scanning tools can follow results from one upload to the next.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { ANALYZERS, type AnalyzerName, type Category, type Finding } from '../../engine/index.ts'
import { languageFromPath } from '../../engine/core/languages.ts'
import { userRuleDefaults } from '../../engine/rules/schema.ts'
import { toSarif, type SarifLog, type SarifResultAnnotations, type SarifSuppression } from '../../engine/output/sarif.ts'
import type { DataFlowTrace } from '../../engine/core/types.ts'
import type { IssueRecord } from '../issues/issue.records.ts'
import { compareScan, completedScanIssues } from './scan.service.ts'

export async function scanSarif(em: EntityManager, id: string): Promise<SarifLog> {
  const { scan, issues } = await completedScanIssues(em, id)
  const comparison = await compareScan(em, scan)
  const issueOf = new Map(issues.map((issue) => [findingOf(issue), issue]))
  const log = toSarif(
    {
      findings: [...issueOf.keys()],
      dataFlows: [],
      // the run's properties are replaced below by what the scan recorded
      stats: { filesTotal: scan.filesTotal, filesScanned: scan.filesScanned, linesScanned: 0, skipped: {}, suppressed: 0, languages: {} },
      rulesRun: 0,
      durationMs: 0,
    },
    { annotate: (finding) => annotationsOf(issueOf.get(finding)) },
  )
  const runs = log.runs.map((run) => ({
    ...run,
    automationDetails: { id: `parapet/${scan.id}`, guid: scan.id },
    ...(scan.baseScanId && { baselineGuid: scan.baseScanId }),
    properties: {
      scanId: scan.id,
      repoId: scan.repository.id,
      scanType: scan.scanType,
      filesTotal: scan.filesTotal,
      filesScanned: scan.filesScanned,
      startedAt: scan.startedAt ?? null,
      completedAt: scan.completedAt ?? null,
      baseScanId: scan.baseScanId ?? null,
      newCount: comparison?.newCount ?? 0,
      unchangedCount: comparison?.unchangedCount ?? 0,
      fixedCount: comparison?.fixedCount ?? 0,
    },
  }))
  return { ...log, runs }
}

function annotationsOf(issue: IssueRecord | undefined): SarifResultAnnotations | undefined {
  if (!issue) return undefined
  return { baselineState: issue.baselineState, ...(issue.falsePositive && { suppressions: [suppressionOf(issue)] }) }
}

/** A false positive is suppressed outside the code, accepted; its notes, oldest first, say why. */
function suppressionOf(issue: IssueRecord): SarifSuppression {
  const justification = issue.notes.map((note) => note.text).join('\n')
  return { kind: 'external', status: 'accepted', ...(justification && { justification }) }
}

/** The analyzer named by `parapet-<analyzer>/<version>`; tenants' rules run in the rule (sast) analyzer. */
function analyzerOf(modelUsed: string | null): AnalyzerName {
  const name = /^parapet-([a-z]+)\//.exec(modelUsed ?? '')?.[1]
  return (ANALYZERS as readonly string[]).includes(name ?? '') ? (name as AnalyzerName) : 'sast'
}

/**
 * A stored issue as the engine's finding. The issue keeps the first line of its match and its
 * snippet: the match ends on the snippet's last line. Values an issue may lack (the engine always
 * gives them) take the defaults of a rule of its severity.
 */
function findingOf(issue: IssueRecord): Finding {
  const snippet = issue.codeSnippet ?? ''
  const columnStart = issue.columnStart ?? 1
  const defaults = userRuleDefaults(issue.severity)
  return {
    ruleId: issue.ruleId,
    analyzer: analyzerOf(issue.modelUsed),
    modelUsed: issue.modelUsed ?? '',
    filePath: issue.filePath,
    language: languageFromPath(issue.filePath) ?? '',
    lineNumber: issue.lineNumber,
    columnStart,
    columnEnd: issue.columnEnd ?? columnStart + (snippet.split('\n')[0]?.length ?? 0),
    endLineNumber: issue.lineNumber + Math.max(0, snippet.split('\n').length - 1),
    category: issue.category as Category,
    severity: issue.severity,
    confidence: issue.confidence ?? defaults.confidence,
    title: issue.title,
    description: issue.description ?? issue.title,
    explanation: issue.explanation ?? '',
    codeSnippet: snippet,
    contextBefore: issue.contextBefore ?? '',
    contextAfter: issue.contextAfter ?? '',
    remediation: issue.remediation,
    remediationCode: issue.remediationCode,
    cweIds: issue.cweIds,
    owaspCategory: issue.owaspCategory,
    cvssScore: issue.cvssScore ?? defaults.cvss,
    tags: issue.tags,
    fingerprint: issue.fingerprint,
    dataFlow: issue.dataFlow as DataFlowTrace | null,
  }
}
