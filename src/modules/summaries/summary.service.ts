/** Repository summaries of the caller's organization. */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { RepositorySummaryData } from '../../engine/summary/index.ts'
import { orgOf } from '../../db/org-scope.ts'
import { NotFoundError } from '../../errors.ts'
import { listRepositories, requireRepository } from '../repositories/repository.service.ts'
import { RepositorySummary } from './summary.entity.ts'

/** Summaries of active repositories only: a deactivated repository's summary is gone from reads. */
export async function listSummaries(em: EntityManager): Promise<{ summaries: RepositorySummary[]; totalCount: number }> {
  const repositories = await listRepositories(em)
  const summaries = repositories.length
    ? await em.find(RepositorySummary, { repoId: { $in: repositories.map((repository) => repository.id) } }, { orderBy: { createdAt: 'desc', id: 'asc' } })
    : []
  return { summaries, totalCount: summaries.length }
}

export async function getSummary(em: EntityManager, repoId: string): Promise<RepositorySummary> {
  await requireRepository(em, repoId, { otherOrganization: 'forbidden' })
  const summary = await em.findOne(RepositorySummary, { repoId })
  if (!summary) throw new NotFoundError('Repository summary not found')
  return summary
}

/** The summary of each repository (undefined where none was made yet), in the order of `repoIds`. */
export async function summariesOfRepositories(em: EntityManager, repoIds: readonly string[]): Promise<(RepositorySummary | undefined)[]> {
  const summaries = await em.find(RepositorySummary, { repoId: { $in: [...repoIds] } })
  const byRepository = new Map(summaries.map((summary) => [summary.repoId, summary]))
  return repoIds.map((repoId) => byRepository.get(repoId))
}

/** What the engine computes for a repository (src/engine/summary), stored as is. */
export type SummaryContent = RepositorySummaryData

/** Makes `content` the repository's current summary; the first summary's created_at is kept. */
export async function replaceSummary(em: EntityManager, repoId: string, scanId: string, content: SummaryContent): Promise<RepositorySummary> {
  const existing = await em.findOne(RepositorySummary, { repoId })
  const summary = existing ?? em.create(RepositorySummary, { orgId: orgOf(em), repoId, ...content, scanId })
  em.assign(summary, { ...content, scanId, updatedAt: new Date() })
  await em.flush()
  return summary
}
