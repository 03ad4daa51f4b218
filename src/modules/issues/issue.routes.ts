/** REST rows of issues: the organization's list and summary, and triage of one or many. */
import { z } from 'zod'
import { defineRoute } from '../../http/rest/route-table.ts'
import { commaList, enumName, idParam, queryBoolean, queryChoice, queryDate, queryInteger } from '../../http/rest/validation.ts'
import { BASELINE_STATES, SEVERITY_LEVELS } from './issue.entity.ts'
import { MAX_BULK_ISSUES, MAX_NOTE_LENGTH, MAX_PER_PAGE, type FalsePositiveState } from './issue.service.ts'

export const ISSUE_FIELDS = /* GraphQL */ `
  fragment IssueFields on Issue {
    id
    scan_id: scanId
    repo_id: repoId
    rule_id: ruleId
    fingerprint
    file_path: filePath
    line_number: lineNumber
    category
    severity
    confidence
    title
    description
    column_start: columnStart
    column_end: columnEnd
    explanation
    code_snippet: codeSnippet
    context_before: contextBefore
    context_after: contextAfter
    remediation
    remediation_code: remediationCode
    cwe_ids: cweIds
    owasp_category: owaspCategory
    cvss_score: cvssScore
    tags
    model_used: modelUsed
    data_flow: dataFlow
    false_positive: falsePositive
    exploitable
    baseline_state: baselineState
    first_seen_at: firstSeenAt
    first_seen_scan_id: firstSeenScanId
    notes { text author created_at: createdAt }
    created_at: createdAt
    updated_at: updatedAt
    repo_name: repoName
    scan_status: scanStatus
    scan_created_at: scanCreatedAt
  }
`

const ISSUE_PAGE_FIELDS = /* GraphQL */ `
  fragment IssuePageFields on IssuePage {
    issues { ...IssueFields }
    total
    page
    per_page: perPage
    total_pages: totalPages
    has_next: hasNext
    has_prev: hasPrev
  }
  ${ISSUE_FIELDS}
`

const FALSE_POSITIVE_CHOICES: Record<string, FalsePositiveState> = { '0': 'no', false: 'no', '1': 'yes', true: 'yes', '2': 'review' }

const repositoryIssueQuery = z.object({
  page: queryInteger({ min: 1 }).default(1),
  per_page: queryInteger({ min: 1, max: MAX_PER_PAGE }).default(20),
  severity: commaList(z.enum(SEVERITY_LEVELS)).meta({ type: 'string', description: `comma-separated severity levels (${SEVERITY_LEVELS.join(', ')})` }).optional(),
  category: commaList(z.string().max(200)).meta({ type: 'string', description: 'comma-separated categories' }).optional(),
  false_positive: queryChoice(FALSE_POSITIVE_CHOICES).meta({ type: 'string', enum: Object.keys(FALSE_POSITIVE_CHOICES), description: '0 or false: not a false positive; 1 or true: false positive; 2: review (not yet triaged)' }).optional(),
  scan_id: z.uuid().meta({ description: 'exact scan filter' }).optional(),
  file_path: z.string().max(1000).meta({ description: 'partial match' }).optional(),
  latest: queryBoolean().meta({ description: "true: only issues of each repository's latest completed scan (the current state of the code); combines with scan_id like any filter" }).optional(),
  baseline_state: z.enum(BASELINE_STATES).meta({ description: "new: not in the previous completed scan of the issue's repository; unchanged: in it" }).optional(),
})
const issueQuery = repositoryIssueQuery.extend({
  repo_id: z.uuid().optional(),
  created_after: queryDate().optional(),
  created_before: queryDate().optional(),
})
type IssueQuery = z.infer<typeof issueQuery>

function filterVariables(query: Partial<IssueQuery>) {
  return {
    page: query.page,
    perPage: query.per_page,
    filter: {
      severity: query.severity?.map(enumName),
      category: query.category,
      falsePositive: query.false_positive && enumName(query.false_positive),
      scanId: query.scan_id,
      filePath: query.file_path,
      repoId: query.repo_id,
      createdAfter: query.created_after?.toISOString(),
      createdBefore: query.created_before?.toISOString(),
      latest: query.latest,
      baselineState: query.baseline_state && enumName(query.baseline_state),
    },
  }
}

export const issueRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/repositories/:repo_id/issues',
    summary: 'Issues of one repository',
    tags: ['issues'],
    params: z.object({ repo_id: idParam('repository') }),
    query: repositoryIssueQuery,
    operation: `query RepositoryIssues($repoId: ID!, $filter: IssueFilter, $page: Int!, $perPage: Int!) {
      repositoryIssues(repoId: $repoId, filter: $filter, page: $page, perPage: $perPage) { ...IssuePageFields }
    } ${ISSUE_PAGE_FIELDS}`,
    variables: ({ params, query }) => ({ repoId: params.repo_id, ...filterVariables(query) }),
    status: 200,
    errors: [400, 404],
  }),
  defineRoute({
    method: 'get',
    path: '/api/issues',
    summary: 'Issues of the organization',
    tags: ['issues'],
    query: issueQuery,
    operation: `query Issues($filter: IssueFilter, $page: Int!, $perPage: Int!) {
      issues(filter: $filter, page: $page, perPage: $perPage) { ...IssuePageFields }
    } ${ISSUE_PAGE_FIELDS}`,
    variables: ({ query }) => filterVariables(query),
    status: 200,
    errors: [400],
  }),
  defineRoute({
    method: 'get',
    path: '/api/issues/summary',
    summary: 'Issues summary',
    tags: ['issues'],
    query: z.object({ latest: queryBoolean().meta({ description: "true: only issues of each repository's latest completed scan" }).optional() }),
    operation: `query IssuesSummary($latest: Boolean) {
      issuesSummary(latest: $latest) {
        total_issues: totalIssues
        issues_by_severity: issuesBySeverity
        issues_by_category: issuesByCategory
        false_positive_count: falsePositiveCount
        recent_issues: recentIssues { ...IssueFields }
      }
    } ${ISSUE_FIELDS}`,
    variables: ({ query }) => ({ latest: query.latest }),
    status: 200,
    errors: [400],
  }),
  defineRoute({
    method: 'patch',
    path: '/api/issues/bulk',
    summary: 'Bulk update of issues',
    tags: ['issues'],
    body: z.object({
      issue_ids: z.array(idParam('issue')).min(1).max(MAX_BULK_ISSUES),
      severity: z.enum(SEVERITY_LEVELS).nullish(),
      false_positive: z.boolean().nullish(),
      exploitable: z.boolean().nullish(),
      notes: z.string().max(MAX_NOTE_LENGTH).nullish(),
    }),
    operation: `mutation BulkUpdateIssues($input: BulkUpdateIssuesInput!) {
      bulkUpdateIssues(input: $input) {
        updated_count: updatedCount
        failed_count: failedCount
        failed_issues: failedIssues { issue_id: issueId error }
        updated_issues: updatedIssues { ...IssueFields }
      }
    } ${ISSUE_FIELDS}`,
    variables: ({ body }) => ({
      input: {
        issueIds: body.issue_ids,
        severity: body.severity && enumName(body.severity),
        falsePositive: body.false_positive,
        exploitable: body.exploitable,
        notes: body.notes,
      },
    }),
    status: 200,
    errors: [400],
  }),
  defineRoute({
    method: 'patch',
    path: '/api/issues/:issue_id',
    summary: 'Update one issue',
    tags: ['issues'],
    params: z.object({ issue_id: idParam('issue') }),
    body: z.object({
      severity: z.enum(SEVERITY_LEVELS).nullish(),
      false_positive: z.boolean().nullish(),
      exploitable: z.boolean().nullish(),
      notes: z.string().max(MAX_NOTE_LENGTH).nullish(),
    }),
    operation: `mutation UpdateIssue($id: ID!, $input: UpdateIssueInput!) {
      updateIssue(id: $id, input: $input) { ...IssueFields }
    } ${ISSUE_FIELDS}`,
    variables: ({ params, body }) => ({ id: params.issue_id, input: { severity: body.severity && enumName(body.severity), falsePositive: body.false_positive, exploitable: body.exploitable, notes: body.notes } }),
    status: 200,
    errors: [400, 404],
  }),
]
