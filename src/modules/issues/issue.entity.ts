/** A finding of a scan, and the entries triage appends to it (its history and notes: never overwritten). */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core'
import { Repository } from '../repositories/repository.entity.ts'
import { Scan } from '../scans/scan.entity.ts'

export const SEVERITY_LEVELS = ['critical', 'high', 'medium', 'low', 'info'] as const
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number]
/** an issue's fingerprint was absent from (`new`) or present in (`unchanged`) the repository's previous completed scan */
export const BASELINE_STATES = ['new', 'unchanged'] as const
export type BaselineState = (typeof BASELINE_STATES)[number]

export const Issue = defineEntity({
  name: 'Issue',
  tableName: 'issues',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    /** many-to-one joins are inner joins under the org filter: an issue of an unreadable repository or scan is unreadable too */
    repository: p.manyToOne(Repository).fieldName('repo_id'),
    scan: p.manyToOne(Scan).fieldName('scan_id'),
    fingerprint: p.text(),
    ruleId: p.text(),
    filePath: p.text(),
    lineNumber: p.integer(),
    columnStart: p.integer().nullable(),
    columnEnd: p.integer().nullable(),
    category: p.text(),
    severity: p.text().$type<SeverityLevel>(),
    confidence: p.double().$type<number>().nullable(),
    title: p.text(),
    description: p.text().nullable(),
    explanation: p.text().nullable(),
    codeSnippet: p.text().nullable(),
    contextBefore: p.text().nullable(),
    contextAfter: p.text().nullable(),
    remediation: p.text().nullable(),
    remediationCode: p.text().nullable(),
    cweIds: p.json<string[]>().onCreate(() => []),
    owaspCategory: p.text().nullable(),
    cvssScore: p.double().$type<number>().nullable(),
    tags: p.json<string[]>().onCreate(() => []),
    modelUsed: p.text().nullable(),
    falsePositive: p.boolean().default(false),
    exploitable: p.boolean().nullable(),
    dataFlow: p.json<Record<string, unknown>>().nullable(),
    // the worker sets these three from the previous scan (worker/store-findings.ts); the defaults
    // describe an issue with no history
    baselineState: p.text().$type<BaselineState>().default('new'),
    firstSeenAt: p.datetime().onCreate((issue: { createdAt?: Date }) => issue.createdAt ?? new Date()),
    firstSeenScan: p.manyToOne(Scan).fieldName('first_seen_scan_id').onCreate((issue: { scan: Scan }) => issue.scan),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
})
export type Issue = InferEntity<typeof Issue>

/**
 * One triage of an issue (its history's entry): who, when, what it set (null where it changed
 * nothing) and its note, empty when none was written. The issue's notes are the entries with text.
 */
export const IssueNote = defineEntity({
  name: 'IssueNote',
  tableName: 'issue_notes',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    issue: p.manyToOne(Issue).fieldName('issue_id'),
    text: p.text(),
    author: p.text(),
    falsePositive: p.boolean().nullable(),
    exploitable: p.boolean().nullable(),
    severity: p.text().$type<SeverityLevel>().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
})
export type IssueNote = InferEntity<typeof IssueNote>
