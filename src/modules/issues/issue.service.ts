/**
 * Issues of the caller's organization: listing with the spec's filters (and `latest`, the issues
 * of each repository's latest completed scan, and the baseline state) in the default order or a
 * client's, triage of one issue or up to 100 at once with its history, counts per scan, and the
 * summary. Issues of deactivated repositories are never read.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { groupRowsByKey } from '../../db/group-rows.ts'
import { existsInOtherOrg } from '../../db/org-scope.ts'
import { BadRequestError, ForbiddenError, NotFoundError, ValidationError } from '../../errors.ts'
import { requireRepository } from '../repositories/repository.service.ts'
import { Issue, IssueNote, SEVERITY_LEVELS, type BaselineState, type SeverityLevel } from './issue.entity.ts'
import { countFixedIssuesOfScans, countIssuesOfScansByGroup, countSelectedIssues, countSelectedIssuesByGroup, readIssues, type IssueRecord, type IssueSelection, type IssueSort } from './issue.records.ts'

export const MAX_PER_PAGE = 100
export const MAX_BULK_ISSUES = 100
export const MAX_NOTE_LENGTH = 1000
const RECENT_ISSUES = 10

export type FalsePositiveState = 'no' | 'yes' | 'review'

export interface IssueFilter {
  severity?: SeverityLevel[] | null | undefined
  category?: string[] | null | undefined
  falsePositive?: FalsePositiveState | null | undefined
  scanId?: string | null | undefined
  filePath?: string | null | undefined
  repoId?: string | null | undefined
  createdAfter?: Date | null | undefined
  createdBefore?: Date | null | undefined
  /** only issues of each repository's latest completed scan; ANDed with scanId like any filter */
  latest?: boolean | null | undefined
  baselineState?: BaselineState | null | undefined
}

export interface Pagination {
  page: number
  perPage: number
}

export interface IssuePage {
  issues: IssueRecord[]
  total: number
  page: number
  perPage: number
  totalPages: number
  hasNext: boolean
  hasPrev: boolean
}

export async function listIssues(em: EntityManager, filter: IssueFilter, pagination: Pagination, sort?: IssueSort): Promise<IssuePage> {
  checkPagination(pagination)
  const selection = selectionOf(filter)
  // page and count in parallel; the count skips the page's joins to scans and notes
  const [issues, total] = await Promise.all([
    readIssues(em, selection, { limit: pagination.perPage, offset: (pagination.page - 1) * pagination.perPage, ...(sort && { order: sort }) }),
    countSelectedIssues(em, selection),
  ])
  const totalPages = Math.ceil(total / pagination.perPage)
  return { issues, total, ...pagination, totalPages, hasNext: pagination.page < totalPages, hasPrev: pagination.page > 1 }
}

/** The issues of one repository; another organization's repository is a 403 (spec). */
export async function listRepositoryIssues(em: EntityManager, repoId: string, filter: IssueFilter, pagination: Pagination, sort?: IssueSort): Promise<IssuePage> {
  await requireRepository(em, repoId, { otherOrganization: 'forbidden' })
  return listIssues(em, { ...filter, repoId }, pagination, sort)
}

function checkPagination({ page, perPage }: Pagination): void {
  const issues = []
  if (!Number.isInteger(page) || page < 1) issues.push({ loc: ['page'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' })
  if (!Number.isInteger(perPage) || perPage < 1) issues.push({ loc: ['per_page'], msg: 'Input should be greater than or equal to 1', type: 'greater_than_equal' })
  if (perPage > MAX_PER_PAGE) issues.push({ loc: ['per_page'], msg: `Input should be less than or equal to ${MAX_PER_PAGE}`, type: 'less_than_equal' })
  if (issues.length > 0) throw new ValidationError(issues)
}

function selectionOf(filter: IssueFilter): IssueSelection {
  if (filter.createdAfter && filter.createdBefore && filter.createdAfter > filter.createdBefore) {
    throw new BadRequestError('created_after must not be later than created_before')
  }
  const selection: IssueSelection = {}
  if (filter.severity?.length) selection.severity = filter.severity
  if (filter.category?.length) selection.category = filter.category
  if (filter.falsePositive === 'yes') selection.falsePositive = true
  if (filter.falsePositive === 'no') selection.falsePositive = false
  if (filter.falsePositive === 'review') selection.untriaged = true
  if (filter.scanId) selection.scanId = filter.scanId
  if (filter.repoId) selection.repoId = filter.repoId
  if (filter.filePath) selection.filePathContains = filter.filePath
  if (filter.createdAfter) selection.createdAfter = filter.createdAfter
  if (filter.createdBefore) selection.createdBefore = filter.createdBefore
  if (filter.latest) selection.latest = true
  if (filter.baselineState) selection.baselineState = filter.baselineState
  return selection
}

export async function getIssue(em: EntityManager, id: string): Promise<IssueRecord> {
  const [issue] = await readIssues(em, { ids: [id] })
  if (issue) return issue
  return refuseMissingIssue(em, id)
}

/** The entity of a visible issue, for triage. */
async function issueForUpdate(em: EntityManager, id: string): Promise<Issue> {
  const issue = await em.findOne(Issue, { id, repository: { isActive: true } })
  return issue ?? refuseMissingIssue(em, id)
}

async function refuseMissingIssue(em: EntityManager, id: string): Promise<never> {
  if (await existsInOtherOrg(em, Issue.meta.className, id)) throw new ForbiddenError('Issue does not belong to your organization')
  throw new NotFoundError('Issue not found')
}

export interface IssueChanges {
  severity?: SeverityLevel | null | undefined
  falsePositive?: boolean | null | undefined
  exploitable?: boolean | null | undefined
  notes?: string | null | undefined
}

/**
 * Refuses an empty change and an unknown severity (the spec's "invalid status"). False positive
 * and exploitable are independent flags: the spec allows both ("false positive and/or
 * exploitable"), e.g. a finding whose rule misfired on code that is exploitable another way.
 */
function checkChanges(changes: IssueChanges): void {
  const { severity, falsePositive, exploitable, notes } = changes
  if (severity == null && falsePositive == null && exploitable == null && !notes?.trim()) {
    throw new BadRequestError('Nothing to update: give severity, false_positive, exploitable or notes')
  }
  if (severity != null && !SEVERITY_LEVELS.includes(severity)) throw new BadRequestError(`Unknown severity "${severity}"`)
  if (notes && notes.length > MAX_NOTE_LENGTH) {
    throw new ValidationError([{ loc: ['notes'], msg: `String should have at most ${MAX_NOTE_LENGTH} characters`, type: 'string_too_long' }])
  }
}

/** Sets what the triage changes and records it in the issue's history (checkChanges refused an empty one). */
function applyChanges(em: EntityManager, issue: Issue, changes: IssueChanges, author: string): void {
  if (changes.severity != null) issue.severity = changes.severity
  if (changes.falsePositive != null) issue.falsePositive = changes.falsePositive
  if (changes.exploitable != null) issue.exploitable = changes.exploitable
  em.create(IssueNote, {
    orgId: issue.orgId,
    issue,
    text: changes.notes?.trim() ?? '',
    author,
    falsePositive: changes.falsePositive ?? null,
    exploitable: changes.exploitable ?? null,
    severity: changes.severity ?? null,
  })
}

/** Each issue's triage entries, oldest first, in the order of `issueIds` (a caller's own issues only). */
export async function triageHistoryOfIssues(em: EntityManager, issueIds: readonly string[]): Promise<IssueNote[][]> {
  const entries = await em.find(IssueNote, { issue: { $in: [...issueIds] } }, { orderBy: { createdAt: 'asc', id: 'asc' } })
  return groupRowsByKey(issueIds, entries, (entry) => entry.issue.id)
}

export async function updateIssue(em: EntityManager, id: string, changes: IssueChanges, author: string): Promise<IssueRecord> {
  checkChanges(changes)
  const issue = await issueForUpdate(em, id)
  applyChanges(em, issue, changes, author)
  await em.flush()
  return getIssue(em, id)
}

export interface BulkUpdateResult {
  updatedCount: number
  failedCount: number
  failedIssues: { issueId: string; error: string }[]
  updatedIssues: IssueRecord[]
}

/**
 * Updates every listed issue the caller can see, in one transaction. A list naming an issue of
 * another organization is refused as a whole (403, nothing updated), as the single-issue route
 * refuses it; ids that exist nowhere are reported in `failedIssues` and the rest is updated.
 */
export async function bulkUpdateIssues(em: EntityManager, ids: string[], changes: IssueChanges, author: string): Promise<BulkUpdateResult> {
  const uniqueIds = [...new Set(ids.map((id) => id.toLowerCase()))]
  if (uniqueIds.length < 1 || uniqueIds.length > MAX_BULK_ISSUES) {
    throw new ValidationError([{ loc: ['issue_ids'], msg: `List should have between 1 and ${MAX_BULK_ISSUES} items`, type: uniqueIds.length < 1 ? 'too_short' : 'too_long' }])
  }
  checkChanges(changes)
  const updatedIds = await em.transactional(async (tx) => {
    const found = await tx.find(Issue, { id: { $in: uniqueIds }, repository: { isActive: true } })
    const missing = uniqueIds.filter((id) => !found.some((issue) => issue.id === id))
    if (missing.length > 0 && (await existsInOtherOrg(tx, Issue.meta.className, missing))) throw new ForbiddenError('Issues do not belong to your organization')
    for (const issue of found) applyChanges(tx, issue, changes, author)
    await tx.flush()
    return new Set(found.map((issue) => issue.id))
  })
  const records = new Map((await readIssues(em, { ids: [...updatedIds] })).map((record) => [record.id, record]))
  const updatedIssues = uniqueIds.flatMap((id) => records.get(id) ?? [])
  const failedIssues = uniqueIds.filter((id) => !updatedIds.has(id)).map((issueId) => ({ issueId, error: 'Issue not found' }))
  return { updatedCount: updatedIds.size, failedCount: failedIssues.length, failedIssues, updatedIssues }
}

export interface IssueCounts {
  totalIssues: number
  issuesBySeverity: Record<SeverityLevel, number>
  issuesByCategory: Record<string, number>
  falsePositiveCount: number
  /** issues whose fingerprint was not in the previous completed scan of their repository */
  newCount: number
  unchangedCount: number
}

export interface IssuesSummary extends IssueCounts {
  recentIssues: IssueRecord[]
}

/** Totals by severity (all five present), category and baseline state, and the false positives among them. */
export async function countIssues(em: EntityManager, scope: { scanId?: string; latest?: boolean } = {}): Promise<IssueCounts> {
  const groups = await countSelectedIssuesByGroup(em, { ...(scope.scanId && { scanId: scope.scanId }), ...(scope.latest && { latest: true }) })
  const counts: IssueCounts = {
    totalIssues: 0,
    issuesBySeverity: Object.fromEntries(SEVERITY_LEVELS.map((level) => [level, 0])) as Record<SeverityLevel, number>,
    issuesByCategory: {},
    falsePositiveCount: 0,
    newCount: 0,
    unchangedCount: 0,
  }
  for (const group of groups) {
    counts.totalIssues += group.count
    counts.issuesBySeverity[group.severity] += group.count
    counts.issuesByCategory[group.category] = (counts.issuesByCategory[group.category] ?? 0) + group.count
    if (group.falsePositive) counts.falsePositiveCount += group.count
    if (group.baselineState === 'new') counts.newCount += group.count
    else counts.unchangedCount += group.count
  }
  counts.issuesByCategory = Object.fromEntries(Object.entries(counts.issuesByCategory).sort(([a], [b]) => a.localeCompare(b)))
  return counts
}

/** The organization's totals and most recent issues; with `latest`, of the current state of the code only. */
export async function summarizeIssues(em: EntityManager, scope: { latest?: boolean } = {}): Promise<IssuesSummary> {
  const selection: IssueSelection = scope.latest ? { latest: true } : {}
  const [counts, recentIssues] = await Promise.all([
    countIssues(em, selection),
    readIssues(em, selection, { limit: RECENT_ISSUES }),
  ])
  return { ...counts, recentIssues }
}

/** A completed scan's issues counted for a chart over scans. */
export interface ScanIssueCounts {
  total: number
  /** every severity, most severe first */
  bySeverity: { severity: SeverityLevel; count: number }[]
  falsePositiveCount: number
  newCount: number
  unchangedCount: number
  /** issues of the scan's base it no longer has */
  fixedCount: number
}

/** The counts of each scan, in the order of `scanIds`, in two statements whatever their number. */
export async function countIssuesOfScans(em: EntityManager, scanIds: readonly string[]): Promise<ScanIssueCounts[]> {
  const [groups, fixed] = await Promise.all([countIssuesOfScansByGroup(em, scanIds), countFixedIssuesOfScans(em, scanIds)])
  const fixedByScan = new Map(fixed.map((row) => [row.scanId, row.count]))
  return groupRowsByKey(scanIds, groups, (group) => group.scanId).map((groupsOfScan, index) => {
    const bySeverity = new Map<SeverityLevel, number>(SEVERITY_LEVELS.map((level) => [level, 0]))
    const counts = { total: 0, falsePositiveCount: 0, newCount: 0, unchangedCount: 0, fixedCount: fixedByScan.get(scanIds[index]!) ?? 0 }
    for (const group of groupsOfScan) {
      counts.total += group.count
      bySeverity.set(group.severity, (bySeverity.get(group.severity) ?? 0) + group.count)
      if (group.falsePositive) counts.falsePositiveCount += group.count
      if (group.baselineState === 'new') counts.newCount += group.count
      else counts.unchangedCount += group.count
    }
    return { ...counts, bySeverity: [...bySeverity].map(([severity, count]) => ({ severity, count })) }
  })
}
