/**
 * DataLoaders, created with each context (per HTTP request, per subscription event), so a page
 * of issues with their scans and repositories costs a fixed number of statements and no
 * cached row outlives the operation that read it. Every load goes through the org-scoped
 * EntityManager: a key of another organization loads as missing.
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import DataLoader from 'dataloader'
import { groupRowsByKey } from '../db/group-rows.ts'
import type { IssueNote } from '../modules/issues/issue.entity.ts'
import { countIssuesOfScans, triageHistoryOfIssues, type ScanIssueCounts } from '../modules/issues/issue.service.ts'
import { Repository } from '../modules/repositories/repository.entity.ts'
import { RulesetRepository } from '../modules/rulesets/ruleset.entity.ts'
import { Scan } from '../modules/scans/scan.entity.ts'
import type { RepositorySummary } from '../modules/summaries/summary.entity.ts'
import { summariesOfRepositories } from '../modules/summaries/summary.service.ts'

export interface Loaders {
  repository: DataLoader<string, Repository | undefined>
  scan: DataLoader<string, Scan | undefined>
  /** active repositories linked to a ruleset */
  repoIdsOfRuleset: DataLoader<string, string[]>
  /** a scan's issues by severity and against its base (a chart over a list of scans) */
  issueCountsOfScan: DataLoader<string, ScanIssueCounts>
  /** an issue's triage entries, oldest first */
  triageHistoryOfIssue: DataLoader<string, IssueNote[]>
  /** a repository's summary, undefined before a full scan made one */
  summaryOfRepository: DataLoader<string, RepositorySummary | undefined>
}

export function createLoaders(em: EntityManager): Loaders {
  return {
    repository: new DataLoader(async (ids) => byId(ids, await em.find(Repository, { id: { $in: [...ids] } }))),
    scan: new DataLoader(async (ids) => byId(ids, await em.find(Scan, { id: { $in: [...ids] } }))),
    repoIdsOfRuleset: new DataLoader(async (rulesetIds) => {
      const links = await em.find(RulesetRepository, { rulesetId: { $in: [...rulesetIds] } })
      const active = new Set((await em.find(Repository, { id: { $in: links.map((link) => link.repoId) }, isActive: true }, { fields: ['id'] })).map((repository) => repository.id))
      return groupRowsByKey(rulesetIds, links, (link) => link.rulesetId).map((group) => group.map((link) => link.repoId).filter((id) => active.has(id)).sort())
    }),
    issueCountsOfScan: new DataLoader((scanIds) => countIssuesOfScans(em, scanIds)),
    summaryOfRepository: new DataLoader((repoIds) => summariesOfRepositories(em, repoIds)),
    triageHistoryOfIssue: new DataLoader((issueIds) => triageHistoryOfIssues(em, issueIds)),
  }
}

function byId<T extends { id: string }>(ids: readonly string[], rows: T[]): (T | undefined)[] {
  const map = new Map(rows.map((row) => [row.id, row]))
  return ids.map((id) => map.get(id))
}
