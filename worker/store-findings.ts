/**
 * Stores a scan's findings as issues, in batches, and follows them across scans. The scan is
 * compared with the repository's previous completed scan (its base, recorded on the scan): a
 * finding whose fingerprint matches an issue of the base is `unchanged` and inherits its
 * false_positive, exploitable, severity, triage history (notes included) and first sighting; any other is `new`, first seen
 * in the earliest earlier completed scan of the repository that held its fingerprint (a finding
 * that comes back after a fix), or else in this scan.
 */
import { randomUUID } from 'node:crypto'
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Finding } from '../src/engine/index.ts'
import { orgOf } from '../src/db/org-scope.ts'
import type { SeverityLevel } from '../src/modules/issues/issue.entity.ts'
import { TRIAGE_ENTRIES_OF_ISSUE_JSON, type TriageEntryRow } from '../src/modules/issues/issue.records.ts'
import { Scan } from '../src/modules/scans/scan.entity.ts'

const BATCH_SIZE = 500

interface Triage {
  falsePositive: boolean
  exploitable: boolean | null
  severity: SeverityLevel
  /** the base issue's triage entries, copied to the new issue */
  entries: TriageEntryRow[]
}

/** Where a fingerprint first appeared in the repository. */
interface FirstSighting {
  scanId: string
  at: Date
}

/** What an issue of the base passes on to the finding with its fingerprint. */
interface Inherited extends Triage {
  firstSeen: FirstSighting
}

export async function storeFindings(em: EntityManager, scan: Scan, findings: Finding[], onBatch: (stored: number) => void): Promise<number> {
  const base = await baseScanOf(em, scan)
  await em.nativeUpdate(Scan, { id: scan.id }, { baseScanId: base?.id ?? null })
  const inherited = base ? await inheritedByFingerprint(em, base) : new Map<string, Inherited>()
  let stored = 0
  for (let start = 0; start < findings.length; start += BATCH_SIZE) {
    const batch = findings.slice(start, start + BATCH_SIZE)
    const earlier = await earlierSightings(em, scan, batch.map((finding) => finding.fingerprint).filter((fingerprint) => !inherited.has(fingerprint)))
    const issues = batch.map((finding) => issueRow(scan, finding, inherited.get(finding.fingerprint), earlier.get(finding.fingerprint)))
    const notes = batch.flatMap((finding, index) =>
      (inherited.get(finding.fingerprint)?.entries ?? []).map((entry) => ({
        id: randomUUID(),
        org_id: scan.orgId,
        issue_id: issues[index]?.id,
        text: entry.text,
        author: entry.author,
        false_positive: entry.falsePositive,
        exploitable: entry.exploitable,
        severity: entry.severity,
        created_at: entry.createdAt,
      })),
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
  cwe_ids, owasp_category, cvss_score, tags, model_used, data_flow, false_positive, exploitable, baseline_state, first_seen_at, first_seen_scan_id,
  created_at, updated_at`
const INSERT_ISSUES_SQL = `insert into issues (${ISSUE_COLUMNS}) select ${ISSUE_COLUMNS} from json_populate_recordset(null::issues, ?::json)`
const NOTE_COLUMNS = 'id, org_id, issue_id, text, author, false_positive, exploitable, severity, created_at'
const INSERT_NOTES_SQL = `insert into issue_notes (${NOTE_COLUMNS}) select ${NOTE_COLUMNS} from json_populate_recordset(null::issue_notes, ?::json)`

/** The issues row of a finding, keyed by column name. */
function issueRow(scan: Scan, finding: Finding, inherited: Inherited | undefined, earlier: FirstSighting | undefined) {
  const now = new Date()
  const firstSeen = inherited?.firstSeen ?? earlier ?? { scanId: scan.id, at: now }
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
    baseline_state: inherited ? 'unchanged' : 'new',
    first_seen_at: firstSeen.at,
    first_seen_scan_id: firstSeen.scanId,
    created_at: now,
    updated_at: now,
  }
}

/**
 * The repository's latest completed scan created before this one. Scans of a repository never run
 * at once (one queued or running scan per repository), so every earlier scan has ended by now and
 * creation order is the order in which they saw the code.
 */
async function baseScanOf(em: EntityManager, scan: Scan): Promise<Scan | null> {
  return em.findOne(
    Scan,
    { repository: scan.repository.id, status: 'completed', id: { $ne: scan.id }, createdAt: { $lte: scan.createdAt } },
    { orderBy: { createdAt: 'desc', id: 'desc' } },
  )
}

// Four columns, the first sighting and the triage entries of each of the base's issues, without hydrating
// thousands of entities; raw SQL binds the organization (docs/org-scoping.md, rule 4).
const BASE_ISSUES_SQL = `
  select i.fingerprint, i.false_positive as "falsePositive", i.exploitable, i.severity, i.first_seen_scan_id as "firstSeenScanId",
    i.first_seen_at as "firstSeenAt", ${TRIAGE_ENTRIES_OF_ISSUE_JSON} as entries
  from issues i where i.scan_id = ? and i.org_id = ?`

type BaseIssueRow = Omit<Triage, 'entries'> & { fingerprint: string; firstSeenScanId: string; firstSeenAt: string; entries: TriageEntryRow[] | null }

/** Triage and first sighting of the base's issues, by fingerprint. */
async function inheritedByFingerprint(em: EntityManager, base: Scan): Promise<Map<string, Inherited>> {
  const rows = await em.getConnection().execute<BaseIssueRow[]>(BASE_ISSUES_SQL, [base.id, orgOf(em)])
  return new Map(
    rows.map((row) => [
      row.fingerprint,
      {
        falsePositive: row.falsePositive,
        exploitable: row.exploitable,
        severity: row.severity,
        entries: row.entries ?? [],
        firstSeen: { scanId: row.firstSeenScanId, at: new Date(row.firstSeenAt) },
      },
    ]),
  )
}

// The earliest sighting among the repository's earlier completed scans, per fingerprint; the
// fingerprints arrive as one JSON array (a batch holds up to 500). Raw SQL binds the organization.
const EARLIER_SIGHTINGS_SQL = `
  select distinct on (i.fingerprint) i.fingerprint, i.first_seen_scan_id as "scanId", i.first_seen_at as "at"
  from issues i join scans s on s.id = i.scan_id and s.org_id = i.org_id
  where i.org_id = ? and i.repo_id = ? and i.fingerprint in (select json_array_elements_text(?::json))
    and s.status = 'completed' and s.id <> ? and s.created_at <= ?
  order by i.fingerprint, i.first_seen_at, i.first_seen_scan_id`

/** Where fingerprints absent from the base appeared before, if they did. */
async function earlierSightings(em: EntityManager, scan: Scan, fingerprints: string[]): Promise<Map<string, FirstSighting>> {
  if (fingerprints.length === 0) return new Map()
  const rows = await em
    .getConnection()
    .execute<{ fingerprint: string; scanId: string; at: string }[]>(EARLIER_SIGHTINGS_SQL, [orgOf(em), scan.repository.id, JSON.stringify(fingerprints), scan.id, scan.createdAt])
  return new Map(rows.map((row) => [row.fingerprint, { scanId: row.scanId, at: new Date(row.at) }]))
}
