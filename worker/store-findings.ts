/**
 * Stores a scan's findings as issues, in batches, carrying triage over: a finding whose
 * fingerprint matches an issue of the repository's previous completed scan inherits its
 * false_positive, exploitable, severity and notes.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Finding } from '../src/engine/index.ts'
import { Issue, IssueNote, type SeverityLevel } from '../src/modules/issues/issue.entity.ts'
import { Scan } from '../src/modules/scans/scan.entity.ts'

const BATCH_SIZE = 500

interface Triage {
  falsePositive: boolean
  exploitable: boolean | null
  severity: SeverityLevel
  notes: { text: string; author: string; createdAt: Date }[]
}

export async function storeFindings(em: EntityManager, scan: Scan, findings: Finding[], onBatch: (stored: number) => void): Promise<number> {
  const triage = await previousTriage(em, scan)
  let stored = 0
  for (let start = 0; start < findings.length; start += BATCH_SIZE) {
    const batch = findings.slice(start, start + BATCH_SIZE)
    // one multi-row insert per batch (and one for inherited notes): no unit-of-work bookkeeping
    const issues = batch.map((finding) => issueRow(scan, finding, triage.get(finding.fingerprint)))
    const notes = batch.flatMap((finding, index) => (triage.get(finding.fingerprint)?.notes ?? []).map((note) => ({ ...note, issueId: issues[index]?.id as string })))
    await em.transactional(async (tx) => {
      await tx.insertMany(Issue, issues)
      if (notes.length > 0) {
        await tx.insertMany(IssueNote, notes.map((note) => ({ id: randomUUID(), orgId: scan.orgId, issue: note.issueId, text: note.text, author: note.author, createdAt: note.createdAt })))
      }
    })
    stored += batch.length
    onBatch(stored)
  }
  return stored
}

function issueRow(scan: Scan, finding: Finding, inherited: Triage | undefined) {
  const now = new Date()
  return {
    id: randomUUID(),
    orgId: scan.orgId,
    repository: scan.repository.id,
    scan: scan.id,
    fingerprint: finding.fingerprint,
    ruleId: finding.ruleId,
    filePath: finding.filePath,
    lineNumber: finding.lineNumber,
    columnStart: finding.columnStart,
    columnEnd: finding.columnEnd,
    category: finding.category,
    severity: inherited?.severity ?? finding.severity,
    confidence: finding.confidence,
    title: finding.title,
    description: finding.description,
    explanation: finding.explanation,
    codeSnippet: finding.codeSnippet,
    contextBefore: finding.contextBefore,
    contextAfter: finding.contextAfter,
    remediation: finding.remediation,
    remediationCode: finding.remediationCode,
    cweIds: finding.cweIds,
    owaspCategory: finding.owaspCategory,
    cvssScore: finding.cvssScore,
    tags: finding.tags,
    modelUsed: finding.modelUsed,
    dataFlow: finding.dataFlow ? { ...finding.dataFlow } : null,
    falsePositive: inherited?.falsePositive ?? false,
    exploitable: inherited?.exploitable ?? null,
    createdAt: now,
    updatedAt: now,
  }
}

/** Triage of the repository's latest completed scan before this one, by fingerprint. */
async function previousTriage(em: EntityManager, scan: Scan): Promise<Map<string, Triage>> {
  const previous = await em.findOne(
    Scan,
    { repository: scan.repository.id, status: 'completed', id: { $ne: scan.id }, createdAt: { $lte: scan.createdAt } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  )
  const triage = new Map<string, Triage>()
  if (!previous) return triage
  const issues = await em.find(Issue, { scan: previous.id }, { fields: ['id', 'fingerprint', 'falsePositive', 'exploitable', 'severity'] })
  const notes = issues.length ? await em.find(IssueNote, { issue: { $in: issues.map((issue) => issue.id) } }, { orderBy: { createdAt: 'asc', id: 'asc' } }) : []
  for (const issue of issues) triage.set(issue.fingerprint, { falsePositive: issue.falsePositive, exploitable: issue.exploitable ?? null, severity: issue.severity, notes: [] })
  const byIssue = new Map(issues.map((issue) => [issue.id, issue.fingerprint]))
  for (const note of notes) {
    const fingerprint = byIssue.get(note.issue.id)
    if (fingerprint) triage.get(fingerprint)?.notes.push({ text: note.text, author: note.author, createdAt: note.createdAt })
  }
  return triage
}
