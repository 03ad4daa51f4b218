/** GraphQL resolvers of issues: parse arguments, call one service function, return. */
import type { IssueFilter as IssueFilterInput, Resolvers } from '../../generated/graphql.ts'
import { authorOf, loaded, optional, parseId } from '../../graphql/arguments.ts'
import { codeLinesOf, referencesOf, traceOf } from './issue.details.ts'
import { bulkUpdateIssues, getIssue, listIssues, listRepositoryIssues, summarizeIssues, updateIssue, type IssueFilter } from './issue.service.ts'

function toFilter(input: IssueFilterInput | null | undefined): IssueFilter {
  if (!input) return {}
  return {
    severity: optional(input.severity),
    category: optional(input.category),
    falsePositive: optional(input.falsePositive),
    scanId: input.scanId ? parseId(input.scanId, 'scan') : undefined,
    repoId: input.repoId ? parseId(input.repoId, 'repository') : undefined,
    filePath: optional(input.filePath),
    createdAfter: optional(input.createdAfter),
    createdBefore: optional(input.createdBefore),
    latest: optional(input.latest),
    baselineState: optional(input.baselineState),
  }
}

export const issueResolvers: Resolvers = {
  Severity: { CRITICAL: 'critical', HIGH: 'high', MEDIUM: 'medium', LOW: 'low', INFO: 'info' },
  FalsePositiveFilter: { NO: 'no', YES: 'yes', REVIEW: 'review' },
  BaselineState: { NEW: 'new', UNCHANGED: 'unchanged' },
  IssueSortField: { CREATED_AT: 'createdAt', SEVERITY: 'severity', FILE_PATH: 'filePath', RULE_ID: 'ruleId', CATEGORY: 'category', TITLE: 'title' },
  SortDirection: { ASC: 'asc', DESC: 'desc' },
  Query: {
    issues: (_parent, { filter, sort, page, perPage }, { em }) => listIssues(em, toFilter(filter), { page, perPage }, optional(sort)),
    repositoryIssues: (_parent, { repoId, filter, sort, page, perPage }, { em }) =>
      listRepositoryIssues(em, parseId(repoId, 'repository'), toFilter(filter), { page, perPage }, optional(sort)),
    issue: (_parent, { id }, { em }) => getIssue(em, parseId(id, 'issue')),
    issuesSummary: (_parent, { latest }, { em }) => summarizeIssues(em, { latest: latest ?? false }),
  },
  Mutation: {
    updateIssue: (_parent, { id, input }, { em, caller }) => updateIssue(em, parseId(id, 'issue'), input, authorOf(caller)),
    bulkUpdateIssues: (_parent, { input }, { em, caller }) =>
      bulkUpdateIssues(em, input.issueIds.map((id) => parseId(id, 'issue')), input, authorOf(caller)),
  },
  // records carry their notes, repository name and scan status; the whole scan and repository come through the loaders
  Issue: {
    scan: (issue, _args, { loaders }) => loaded(loaders.scan.load(issue.scanId), 'Scan'),
    firstSeenScan: (issue, _args, { loaders }) => loaded(loaders.scan.load(issue.firstSeenScanId), 'Scan'),
    repository: (issue, _args, { loaders }) => loaded(loaders.repository.load(issue.repoId), 'Repository'),
    codeLines: (issue) => codeLinesOf(issue),
    references: (issue) => referencesOf(issue),
    trace: (issue) => traceOf(issue),
    triageHistory: (issue, _args, { loaders }) => loaders.triageHistoryOfIssue.load(issue.id),
  },
  TriageEntry: {
    note: (entry) => entry.text || null,
  },
}
