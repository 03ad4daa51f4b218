/**
 * A scan of a repository and its log entries.
 * States: queued -> running -> completed | failed, and queued | running -> stopped.
 * "Active" means queued or running; the database allows one active scan per repository.
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core'
import { Repository } from '../repositories/repository.entity.ts'

export const SCAN_STATUSES = ['queued', 'running', 'completed', 'failed', 'stopped'] as const
export type ScanStatus = (typeof SCAN_STATUSES)[number]
export const SCAN_TYPES = ['full', 'quick', 'secrets'] as const
export type ScanType = (typeof SCAN_TYPES)[number]

export const Scan = defineEntity({
  name: 'Scan',
  tableName: 'scans',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    repository: p.manyToOne(Repository).fieldName('repo_id'),
    status: p.text().$type<ScanStatus>().default('queued'),
    scanType: p.text().$type<ScanType>().default('full'),
    activeModels: p.json<string[]>().onCreate(() => []),
    taskId: p.text().nullable(),
    /** the stored upload this scan reads */
    contentId: p.uuid().nullable(),
    /** the scan this one was compared with: the repository's previous completed scan when it stored its findings */
    baseScanId: p.uuid().nullable(),
    /** last sign of life of the worker running it */
    heartbeatAt: p.datetime().nullable(),
    progress: p.integer().default(0),
    filesTotal: p.integer().default(0),
    filesScanned: p.integer().default(0),
    issuesCount: p.integer().default(0),
    error: p.text().nullable(),
    createdBy: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    startedAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
})
export type Scan = InferEntity<typeof Scan>

export const LOG_LEVELS = ['debug', 'info', 'warning', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export const ScanLog = defineEntity({
  name: 'ScanLog',
  tableName: 'scan_logs',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    scanId: p.uuid(),
    /** insertion order, assigned by the database */
    seq: p.bigint('number').persist(false),
    timestamp: p.datetime().onCreate(() => new Date()),
    level: p.text().$type<LogLevel>(),
    message: p.text(),
    data: p.json<Record<string, unknown>>().nullable(),
  },
})
export type ScanLog = InferEntity<typeof ScanLog>
