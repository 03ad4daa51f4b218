/** GraphQL resolvers of issues: parse arguments, call one service function, return. */
import { wrap } from '@mikro-orm/core'
import type { IssueFilter as IssueFilterInput, Resolvers } from '../../generated/graphql.ts'
import type { Loaders } from '../../graphql/loaders.ts'
import type { Repository } from '../repositories/repository.entity.ts'
import type { Scan } from '../scans/scan.entity.ts'
import type { Issue } from './issue.entity.ts'
import { authorOf, loaded, optional, parseId } from '../../graphql/arguments.ts'
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
  }
}

/** The issue's repository: already there when the list populated it, else through the loader. */
function repositoryOf(issue: Issue, loaders: Loaders): Repository | Promise<Repository> {
  return wrap(issue.repository).isInitialized() ? issue.repository : loaded(loaders.repository.load(issue.repository.id), 'Repository')
}

function scanOf(issue: Issue, loaders: Loaders): Scan | Promise<Scan> {
  return wrap(issue.scan).isInitialized() ? issue.scan : loaded(loaders.scan.load(issue.scan.id), 'Scan')
}

/** Applies `pick` without a promise when the value is already at hand (a page has thousands of such fields). */
function mapLoaded<T, R>(value: T | Promise<T>, pick: (row: T) => R): R | Promise<R> {
  return value instanceof Promise ? value.then(pick) : pick(value)
}

export const issueResolvers: Resolvers = {
  Severity: { CRITICAL: 'critical', HIGH: 'high', MEDIUM: 'medium', LOW: 'low', INFO: 'info' },
  FalsePositiveFilter: { NO: 'no', YES: 'yes', REVIEW: 'review' },
  Query: {
    issues: (_parent, { filter, page, perPage }, { em }) => listIssues(em, toFilter(filter), { page, perPage }),
    repositoryIssues: (_parent, { repoId, filter, page, perPage }, { em }) =>
      listRepositoryIssues(em, parseId(repoId, 'repository'), toFilter(filter), { page, perPage }),
    issue: (_parent, { id }, { em }) => getIssue(em, parseId(id, 'issue')),
    issuesSummary: (_parent, _args, { em }) => summarizeIssues(em),
  },
  Mutation: {
    updateIssue: (_parent, { id, input }, { em, caller }) => updateIssue(em, parseId(id, 'issue'), input, authorOf(caller)),
    bulkUpdateIssues: (_parent, { input }, { em, caller }) =>
      bulkUpdateIssues(em, input.issueIds.map((id) => parseId(id, 'issue')), input, authorOf(caller)),
  },
  Issue: {
    scanId: (issue) => issue.scan.id,
    repoId: (issue) => issue.repository.id,
    notes: (issue, _args, { loaders }) => loaders.notesOfIssue.load(issue.id),
    repoName: (issue, _args, { loaders }) => mapLoaded(repositoryOf(issue, loaders), (repository) => repository.repoName),
    scanStatus: (issue, _args, { loaders }) => mapLoaded(scanOf(issue, loaders), (scan) => scan.status),
    scanCreatedAt: (issue, _args, { loaders }) => mapLoaded(scanOf(issue, loaders), (scan) => scan.createdAt),
    scan: (issue, _args, { loaders }) => scanOf(issue, loaders),
    repository: (issue, _args, { loaders }) => repositoryOf(issue, loaders),
  },
}
