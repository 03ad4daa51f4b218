/** REST rows of scans: create, list, stop, status, task status, results and logs. */
import { z } from 'zod'
import { AVAILABLE_ANALYZERS } from '../../engine/core/analyzer.ts'
import { defineRoute } from '../../http/rest/route-table.ts'
import { enumName, idParam, queryInteger } from '../../http/rest/validation.ts'
import { ISSUE_FIELDS } from '../issues/issue.routes.ts'
import { SCAN_STATUSES, SCAN_TYPES } from './scan.entity.ts'

export const SCAN_FIELDS = /* GraphQL */ `
  fragment ScanFields on Scan {
    id
    repo_id: repoId
    org_id: orgId
    repo_name: repoName
    branch_name: branchName
    status
    scan_type: scanType
    active_models: activeModels
    task_id: taskId
    progress
    files_total: filesTotal
    files_scanned: filesScanned
    issues_count: issuesCount
    error
    created_by: createdBy
    created_at: createdAt
    started_at: startedAt
    completed_at: completedAt
    updated_at: updatedAt
  }
`
const scanParams = z.object({ scan_id: idParam('scan') })

export const scanRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/scans/:scan_id/stop',
    summary: 'Stop a scan',
    tags: ['scans'],
    params: scanParams,
    operation: `mutation StopScan($id: ID!) { stopScan(id: $id) { message scan_id: scanId status } }`,
    variables: ({ params }) => ({ id: params.scan_id }),
    status: 200,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'post',
    path: '/api/scans/:repo_id',
    summary: 'Create a scan',
    tags: ['scans'],
    params: z.object({ repo_id: idParam('repository') }),
    // free-form members are allowed; scan_type and active_models are the inputs
    body: z
      .object({
        scan_type: z.enum(SCAN_TYPES).optional(),
        active_models: z.array(z.string().meta({ enum: [...AVAILABLE_ANALYZERS, 'dataflow'] })).optional(),
      })
      .optional()
      .default({}),
    operation: `mutation CreateScan($repoId: ID!, $input: CreateScanInput) { createScan(repoId: $repoId, input: $input) { ...ScanFields } } ${SCAN_FIELDS}`,
    variables: ({ params, body }) => ({ repoId: params.repo_id, input: { scanType: body.scan_type && enumName(body.scan_type), activeModels: body.active_models } }),
    status: 201,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'get',
    path: '/api/scans',
    summary: 'List scans',
    tags: ['scans'],
    query: z.object({
      org_id: z.string().max(200).optional(),
      status: z.enum(SCAN_STATUSES).optional(),
      limit: queryInteger({ min: 1, max: 500 }).default(50),
      offset: queryInteger({ min: 0 }).default(0),
    }),
    operation: `query Scans($orgId: String, $status: ScanStatus, $limit: Int!, $offset: Int!) {
      scans(orgId: $orgId, status: $status, limit: $limit, offset: $offset) { ...ScanFields }
    } ${SCAN_FIELDS}`,
    variables: ({ query }) => ({ orgId: query.org_id, status: query.status && enumName(query.status), limit: query.limit, offset: query.offset }),
    status: 200,
  }),
  defineRoute({
    method: 'get',
    path: '/api/scans/:scan_id/status',
    summary: 'Scan status',
    tags: ['scans'],
    params: scanParams,
    operation: `query ScanStatus($id: ID!) { scanStatus(id: $id) {
      scan_id: scanId status progress files_scanned: filesScanned files_total: filesTotal issues_found: issuesFound
      started_at: startedAt completed_at: completedAt error } }`,
    variables: ({ params }) => ({ id: params.scan_id }),
    status: 200,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'get',
    path: '/api/scans/:scan_id/task-status',
    summary: 'Background task status of a scan',
    tags: ['scans'],
    params: scanParams,
    operation: `query ScanTaskStatus($id: ID!) { scanTaskStatus(id: $id) {
      scan_id: scanId task_id: taskId status attempts max_attempts: maxAttempts last_error: lastError run_at: runAt locked_at: lockedAt } }`,
    variables: ({ params }) => ({ id: params.scan_id }),
    status: 200,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'get',
    path: '/api/scans/:scan_id/results',
    summary: 'Results of a completed scan',
    tags: ['scans'],
    params: scanParams,
    operation: `query ScanResults($id: ID!) { scanResults(id: $id) {
      scan_id: scanId status issues { ...IssueFields }
      summary {
        total_issues: totalIssues issues_by_severity: issuesBySeverity issues_by_category: issuesByCategory false_positive_count: falsePositiveCount
        new_count: newCount unchanged_count: unchangedCount fixed_count: fixedCount
      }
      fixed_issues: fixedIssues { ...IssueFields } }
    } ${ISSUE_FIELDS}`,
    variables: ({ params }) => ({ id: params.scan_id }),
    status: 200,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'get',
    path: '/api/scans/:scan_id/sarif',
    summary: 'SARIF 2.1.0 log of a completed scan',
    tags: ['scans'],
    params: scanParams,
    operation: `query ScanSarif($id: ID!) { scanSarif(id: $id) }`,
    variables: ({ params }) => ({ id: params.scan_id }),
    status: 200,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'get',
    path: '/api/scans/:scan_id/logs',
    summary: 'Scan logs',
    tags: ['scans'],
    params: scanParams,
    operation: `query ScanLogs($id: ID!) { scanLogs(id: $id) { id scan_id: scanId timestamp level message data } }`,
    variables: ({ params }) => ({ id: params.scan_id }),
    status: 200,
    errors: [400, 404],
  }),
]
