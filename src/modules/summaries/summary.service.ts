/** Repository summaries of the caller's organization. */
import type { EntityManager } from '@mikro-orm/postgresql'
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
