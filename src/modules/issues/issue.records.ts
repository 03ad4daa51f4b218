/**
 * The read side of issues. Every issue a client sees (lists, one issue, triage results, scan
 * results, the summary's recent issues) comes from one statement that joins the issue's
 * repository and scan and aggregates its notes, as plain records: a page of 100 issues is the
 * API's hottest path, and hydrating entities for it cost more than the SQL. Writes go through the
 * entities in issue.service.ts.
 *
 * Raw SQL binds the organization itself (docs/org-scoping.md, rule 4): every table joined here is
 * matched on the issue's org_id, and the issue on the caller's.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { orgOf } from '../../db/org-scope.ts'
import type { ScanStatus } from '../scans/scan.entity.ts'
import type { BaselineState, SeverityLevel } from './issue.entity.ts'

export interface IssueNoteRecord {
  text: string
  author: string
  createdAt: Date
}

export interface IssueRecord {
  id: string
  scanId: string
  repoId: string
  ruleId: string
  fingerprint: string
  filePath: string
  lineNumber: number
  columnStart: number | null
  columnEnd: number | null
  category: string
  severity: SeverityLevel
  confidence: number | null
  title: string
  description: string | null
  explanation: string | null
  codeSnippet: string | null
  contextBefore: string | null
  contextAfter: string | null
  remediation: string | null
  remediationCode: string | null
  cweIds: string[]
  owaspCategory: string | null
  cvssScore: number | null
  tags: string[]
  modelUsed: string | null
  dataFlow: Record<string, unknown> | null
  falsePositive: boolean
  exploitable: boolean | null
  /** relative to the repository's previous completed scan when the issue's scan stored it */
  baselineState: BaselineState
  firstSeenAt: Date
  firstSeenScanId: string
  notes: IssueNoteRecord[]
  createdAt: Date
  updatedAt: Date
  repoName: string
  scanStatus: ScanStatus
  scanCreatedAt: Date
}

/** Which issues to read; every condition is ANDed with the caller's organization and active repositories. */
export interface IssueSelection {
  ids?: readonly string[]
  severity?: readonly SeverityLevel[]
  category?: readonly string[]
  falsePositive?: boolean
  /** not yet triaged: not a false positive, exploitable unknown */
  untriaged?: boolean
  scanId?: string
  scanIds?: readonly string[]
  /** issues whose fingerprint is not among this scan's issues (with scanId: what that scan fixed) */
  absentFromScanId?: string
  repoId?: string
  /** only issues of each repository's latest completed scan: the current state of the code */
  latest?: boolean
  baselineState?: BaselineState
  /** partial, case-insensitive match */
  filePathContains?: string
  createdAfter?: Date
  createdBefore?: Date
}

const ORDERS = {
  newest: 'i.created_at desc, i.id asc',
  location: 'i.file_path asc, i.line_number asc, i.id asc',
} as const

export type IssueSortField = 'createdAt' | 'severity' | 'filePath' | 'ruleId' | 'category' | 'title'
export type SortDirection = 'asc' | 'desc'

/** A client's order for a list; issues equal on the field keep the newest-first order. */
export interface IssueSort {
  field: IssueSortField
  direction: SortDirection
}

// severity sorts by rank, not by name: ascending goes from info to critical
const SEVERITY_RANK = `case i.severity when 'critical' then 5 when 'high' then 4 when 'medium' then 3 when 'low' then 2 else 1 end`
const SORT_KEYS: Record<IssueSortField, readonly string[]> = {
  createdAt: ['i.created_at'],
  severity: [SEVERITY_RANK],
  filePath: ['i.file_path', 'i.line_number'],
  ruleId: ['i.rule_id'],
  category: ['i.category'],
  title: ['i.title'],
}

function orderOf(order: keyof typeof ORDERS | IssueSort): string {
  if (typeof order === 'string') return ORDERS[order]
  // fixed SQL chosen by the field's name; the direction is one of two words
  const direction = order.direction === 'asc' ? 'asc' : 'desc'
  return `${SORT_KEYS[order.field].map((key) => `${key} ${direction}`).join(', ')}, ${ORDERS.newest}`
}

export interface ReadOptions {
  order?: keyof typeof ORDERS | IssueSort
  limit?: number
  offset?: number
}

/** The notes of issue `i` (its triage entries with a text), oldest first, as a JSON array (null when it has none). */
export const NOTES_OF_ISSUE_JSON = `(select json_agg(json_build_object('text', n.text, 'author', n.author, 'createdAt', n.created_at) order by n.created_at, n.id)
     from issue_notes n where n.issue_id = i.id and n.org_id = i.org_id and n.text <> '')`

/** Every triage entry of issue `i`, oldest first, with what it set: what a later scan's issue inherits. */
export const TRIAGE_ENTRIES_OF_ISSUE_JSON = `(select json_agg(json_build_object('text', n.text, 'author', n.author, 'createdAt', n.created_at,
       'falsePositive', n.false_positive, 'exploitable', n.exploitable, 'severity', n.severity) order by n.created_at, n.id)
     from issue_notes n where n.issue_id = i.id and n.org_id = i.org_id)`

/** A note as NOTES_OF_ISSUE_JSON gives it: the timestamp is JSON text. */
export interface IssueNoteRow {
  text: string
  author: string
  createdAt: string
}

/** A triage entry as TRIAGE_ENTRIES_OF_ISSUE_JSON gives it. */
export interface TriageEntryRow extends IssueNoteRow {
  falsePositive: boolean | null
  exploitable: boolean | null
  severity: SeverityLevel | null
}

export function toNoteRecords(notes: IssueNoteRow[] | null): IssueNoteRecord[] {
  return notes?.map((note) => ({ text: note.text, author: note.author, createdAt: new Date(note.createdAt) })) ?? []
}

// Aliases give the record's property names, so rows need no renaming pass.
const RECORD_COLUMNS = `
  i.id, i.scan_id as "scanId", i.repo_id as "repoId", i.rule_id as "ruleId", i.fingerprint, i.file_path as "filePath",
  i.line_number as "lineNumber", i.column_start as "columnStart", i.column_end as "columnEnd", i.category, i.severity,
  i.confidence, i.title, i.description, i.explanation, i.code_snippet as "codeSnippet", i.context_before as "contextBefore",
  i.context_after as "contextAfter", i.remediation, i.remediation_code as "remediationCode", i.cwe_ids as "cweIds",
  i.owasp_category as "owaspCategory", i.cvss_score as "cvssScore", i.tags, i.model_used as "modelUsed",
  i.data_flow as "dataFlow", i.false_positive as "falsePositive", i.exploitable, i.baseline_state as "baselineState",
  i.first_seen_at as "firstSeenAt", i.first_seen_scan_id as "firstSeenScanId", i.created_at as "createdAt",
  i.updated_at as "updatedAt", r.repo_name as "repoName", s.status as "scanStatus", s.created_at as "scanCreatedAt",
  ${NOTES_OF_ISSUE_JSON} as notes`

const FROM_ACTIVE_REPOSITORIES = `
  from issues i
  join repositories r on r.id = i.repo_id and r.org_id = i.org_id and r.is_active`

interface Where {
  sql: string
  params: unknown[]
}

function whereOf(em: EntityManager, selection: IssueSelection): Where {
  const conditions = ['i.org_id = ?']
  const params: unknown[] = [orgOf(em)]
  const add = (condition: string, ...values: unknown[]) => {
    conditions.push(condition)
    params.push(...values)
  }
  // a list binding expands to one parameter per element: `in (?)`
  if (selection.ids) add('i.id in (?)', selection.ids)
  if (selection.severity?.length) add('i.severity in (?)', selection.severity)
  if (selection.category?.length) add('i.category in (?)', selection.category)
  if (selection.falsePositive !== undefined) add('i.false_positive = ?', selection.falsePositive)
  if (selection.untriaged) add('not i.false_positive and i.exploitable is null')
  if (selection.scanId) add('i.scan_id = ?', selection.scanId)
  if (selection.scanIds) add('i.scan_id in (?)', selection.scanIds)
  if (selection.absentFromScanId) add('not exists (select 1 from issues c where c.scan_id = ? and c.org_id = i.org_id and c.fingerprint = i.fingerprint)', selection.absentFromScanId)
  if (selection.repoId) add('i.repo_id = ?', selection.repoId)
  if (selection.latest) add(LATEST_SCANS_CONDITION, orgOf(em))
  if (selection.baselineState) add('i.baseline_state = ?', selection.baselineState)
  // backslash is LIKE's default escape character
  if (selection.filePathContains) add('i.file_path ilike ?', `%${escapeLike(selection.filePathContains)}%`)
  if (selection.createdAfter) add('i.created_at > ?', selection.createdAfter)
  if (selection.createdBefore) add('i.created_at < ?', selection.createdBefore)
  return { sql: `where ${conditions.join(' and ')}`, params }
}

// Each repository's latest completed scan by creation order, the order in which the base of a scan
// is chosen (worker/store-findings.ts); scans of deactivated repositories are left to the join.
const LATEST_SCANS_CONDITION = `i.scan_id in (
    select distinct on (l.repo_id) l.id from scans l where l.org_id = ? and l.status = 'completed' order by l.repo_id, l.created_at desc, l.id desc)`

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`)
}

type IssueRow = Omit<IssueRecord, 'notes' | 'firstSeenAt' | 'createdAt' | 'updatedAt' | 'scanCreatedAt'> & {
  notes: IssueNoteRow[] | null
  firstSeenAt: string
  createdAt: string
  updatedAt: string
  scanCreatedAt: string
}

/** The selected issues, in the given order, as records. */
export async function readIssues(em: EntityManager, selection: IssueSelection, options: ReadOptions = {}): Promise<IssueRecord[]> {
  if (selection.ids?.length === 0) return []
  const where = whereOf(em, selection)
  const paging = [options.limit !== undefined ? 'limit ?' : '', options.offset ? 'offset ?' : ''].join(' ')
  const pagingParams = [options.limit, options.offset || undefined].filter((value) => value !== undefined)
  const rows = await em.getConnection().execute<IssueRow[]>(
    `select ${RECORD_COLUMNS} ${FROM_ACTIVE_REPOSITORIES}
     join scans s on s.id = i.scan_id and s.org_id = i.org_id
     ${where.sql} order by ${orderOf(options.order ?? 'newest')} ${paging}`,
    [...where.params, ...pagingParams],
  )
  return rows.map(toRecord)
}

/** How many issues the selection holds; reads the (org_id, severity, repo_id) index when it can. */
export async function countSelectedIssues(em: EntityManager, selection: IssueSelection): Promise<number> {
  const where = whereOf(em, selection)
  const [row] = await em.getConnection().execute<{ total: number }[]>(`select count(*)::int as total ${FROM_ACTIVE_REPOSITORIES} ${where.sql}`, where.params)
  return row?.total ?? 0
}

export interface IssueGroupCount {
  severity: SeverityLevel
  category: string
  falsePositive: boolean
  baselineState: BaselineState
  count: number
}

/** How many selected issues there are per severity, category, false-positive flag and baseline state. */
export async function countSelectedIssuesByGroup(em: EntityManager, selection: IssueSelection): Promise<IssueGroupCount[]> {
  const where = whereOf(em, selection)
  return em.getConnection().execute<IssueGroupCount[]>(
    `select i.severity, i.category, i.false_positive as "falsePositive", i.baseline_state as "baselineState", count(*)::int as count
     ${FROM_ACTIVE_REPOSITORIES} ${where.sql}
     group by i.severity, i.category, i.false_positive, i.baseline_state`,
    where.params,
  )
}

export interface ScanIssueGroupCount extends IssueGroupCount {
  scanId: string
}

/** How many issues each of the scans holds per severity, false-positive flag and baseline state. */
export async function countIssuesOfScansByGroup(em: EntityManager, scanIds: readonly string[]): Promise<ScanIssueGroupCount[]> {
  if (scanIds.length === 0) return []
  const where = whereOf(em, { scanIds })
  return em.getConnection().execute<ScanIssueGroupCount[]>(
    `select i.scan_id as "scanId", i.severity, i.false_positive as "falsePositive", i.baseline_state as "baselineState", count(*)::int as count
     ${FROM_ACTIVE_REPOSITORIES} ${where.sql}
     group by i.scan_id, i.severity, i.false_positive, i.baseline_state`,
    where.params,
  )
}

/**
 * How many issues of each scan's base the scan no longer has (what it fixed). Each base issue
 * looks its fingerprint up in the scan through the (repo_id, fingerprint) index.
 */
export async function countFixedIssuesOfScans(em: EntityManager, scanIds: readonly string[]): Promise<{ scanId: string; count: number }[]> {
  if (scanIds.length === 0) return []
  return em.getConnection().execute<{ scanId: string; count: number }[]>(
    `select s.id as "scanId", count(*)::int as count
     from scans s join issues b on b.scan_id = s.base_scan_id and b.org_id = s.org_id
     where s.org_id = ? and s.id in (?)
       and not exists (select 1 from issues c where c.repo_id = b.repo_id and c.fingerprint = b.fingerprint and c.scan_id = s.id and c.org_id = s.org_id)
     group by s.id`,
    [orgOf(em), scanIds],
  )
}

/** Timestamps arrive as PostgreSQL text (the ORM's connection keeps them unparsed). */
function toRecord(row: IssueRow): IssueRecord {
  return {
    ...row,
    notes: toNoteRecords(row.notes),
    firstSeenAt: new Date(row.firstSeenAt),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
    scanCreatedAt: new Date(row.scanCreatedAt),
  }
}
