/**
 * Stores a scan's findings as issues, in batches, carrying triage over: a finding whose
 * fingerprint matches an issue of the repository's previous completed scan inherits its
 * false_positive, exploitable, severity and notes.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Finding } from '../src/engine/index.ts'
import { orgOf } from '../src/db/org-scope.ts'
import type { SeverityLevel } from '../src/modules/issues/issue.entity.ts'
import { NOTES_OF_ISSUE_JSON, toNoteRecords, type IssueNoteRecord, type IssueNoteRow } from '../src/modules/issues/issue.records.ts'
import { Scan } from '../src/modules/scans/scan.entity.ts'

const BATCH_SIZE = 500

interface Triage {
  falsePositive: boolean
  exploitable: boolean | null
  severity: SeverityLevel
  notes: IssueNoteRecord[]
}

export async function storeFindings(em: EntityManager, scan: Scan, findings: Finding[], onBatch: (stored: number) => void): Promise<number> {
  const triage = await previousTriage(em, scan)
  let stored = 0
  for (let start = 0; start < findings.length; start += BATCH_SIZE) {
    const batch = findings.slice(start, start + BATCH_SIZE)
    const issues = batch.map((finding) => issueRow(scan, finding, triage.get(finding.fingerprint)))
    const notes = batch.flatMap((finding, index) =>
      (triage.get(finding.fingerprint)?.notes ?? []).map((note) => ({ id: randomUUID(), org_id: scan.orgId, issue_id: issues[index]?.id, text: note.text, author: note.author, created_at: note.createdAt })),
    )
    await em.getConnection().getKnex().transaction(async (trx) => {
      await trx.raw(INSERT_ISSUES_SQL, [JSON.stringify(issues)])
      if (notes.length > 0) await trx.raw(INSERT_NOTES_SQL, [JSON.stringify(notes)])
    })
    stored += batch.length
    onBatch(stored)
  }
  return stored
}

/**
 * One statement per batch, its rows passed as one JSON parameter that PostgreSQL takes apart:
 * binding 31 columns x 500 rows through the ORM (which inlines every value into the SQL text)
 * cost seconds of CPU per 10,000 findings. Raw SQL: org_id comes from the scan, read through the
 * organization's scope (docs/org-scoping.md, rule 4).
 */
const ISSUE_COLUMNS = `id, org_id, repo_id, scan_id, fingerprint, rule_id, file_path, line_number, column_start, column_end, category,
  severity, confidence, title, description, explanation, code_snippet, context_before, context_after, remediation, remediation_code,
  cwe_ids, owasp_category, cvss_score, tags, model_used, data_flow, false_positive, exploitable, created_at, updated_at`
const INSERT_ISSUES_SQL = `insert into issues (${ISSUE_COLUMNS}) select ${ISSUE_COLUMNS} from json_populate_recordset(null::issues, ?::json)`
const NOTE_COLUMNS = 'id, org_id, issue_id, text, author, created_at'
const INSERT_NOTES_SQL = `insert into issue_notes (${NOTE_COLUMNS}) select ${NOTE_COLUMNS} from json_populate_recordset(null::issue_notes, ?::json)`

/** The issues row of a finding, keyed by column name. */
function issueRow(scan: Scan, finding: Finding, inherited: Triage | undefined) {
  const now = new Date()
  return {
    id: randomUUID(),
    org_id: scan.orgId,
    repo_id: scan.repository.id,
    scan_id: scan.id,
    fingerprint: finding.fingerprint,
    rule_id: finding.ruleId,
    file_path: finding.filePath,
    line_number: finding.lineNumber,
    column_start: finding.columnStart,
    column_end: finding.columnEnd,
    category: finding.category,
    severity: inherited?.severity ?? finding.severity,
    confidence: finding.confidence,
    title: finding.title,
    description: finding.description,
    explanation: finding.explanation,
    code_snippet: finding.codeSnippet,
    context_before: finding.contextBefore,
    context_after: finding.contextAfter,
    remediation: finding.remediation,
    remediation_code: finding.remediationCode,
    cwe_ids: finding.cweIds,
    owasp_category: finding.owaspCategory,
    cvss_score: finding.cvssScore,
    tags: finding.tags,
    model_used: finding.modelUsed,
    data_flow: finding.dataFlow ?? null,
    false_positive: inherited?.falsePositive ?? false,
    exploitable: inherited?.exploitable ?? null,
    created_at: now,
    updated_at: now,
  }
}

// Four columns and the notes of each of the previous scan's issues, without hydrating thousands of
// entities; raw SQL binds the organization (docs/org-scoping.md, rule 4).
const PREVIOUS_TRIAGE_SQL = `
  select i.fingerprint, i.false_positive as "falsePositive", i.exploitable, i.severity, ${NOTES_OF_ISSUE_JSON} as notes
  from issues i where i.scan_id = ? and i.org_id = ?`

type TriageRow = Omit<Triage, 'notes'> & { fingerprint: string; notes: IssueNoteRow[] | null }

/** Triage of the repository's latest completed scan before this one, by fingerprint. */
async function previousTriage(em: EntityManager, scan: Scan): Promise<Map<string, Triage>> {
  const previous = await em.findOne(
    Scan,
    { repository: scan.repository.id, status: 'completed', id: { $ne: scan.id }, createdAt: { $lte: scan.createdAt } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  )
  const triage = new Map<string, Triage>()
  if (!previous) return triage
  const rows = await em.getConnection().execute<TriageRow[]>(PREVIOUS_TRIAGE_SQL, [previous.id, orgOf(em)])
  for (const row of rows) {
    triage.set(row.fingerprint, { falsePositive: row.falsePositive, exploitable: row.exploitable, severity: row.severity, notes: toNoteRecords(row.notes) })
  }
  return triage
}
