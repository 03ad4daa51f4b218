/** Repositories of the caller's organization (the EntityManager passed in is org-scoped). */
import type { EntityManager } from '@mikro-orm/postgresql'
import { existsInOtherOrg } from '../../db/org-scope.ts'
import { ForbiddenError, NotFoundError } from '../../errors.ts'
import { Scan } from '../scans/scan.entity.ts'
import { transitionScan } from '../scans/scan-lifecycle.ts'
import { publishCancel } from '../../events/event-hub.ts'
import { Repository } from './repository.entity.ts'

export async function listRepositories(em: EntityManager): Promise<Repository[]> {
  return em.find(Repository, { isActive: true }, { orderBy: { createdAt: 'desc', id: 'asc' } })
}

/** One active repository of the caller's; another organization's is not found, as a deleted one. */
export async function getRepository(em: EntityManager, id: string): Promise<Repository> {
  return requireRepository(em, id, { otherOrganization: 'not_found' })
}

export interface RequireRepositoryOptions {
  /** what another organization's repository answers: the spec says 403 on some routes, 404 on others */
  otherOrganization: 'forbidden' | 'not_found'
}

/** The active repository with this id, or NotFound / Forbidden: the one access rule for repositories. */
export async function requireRepository(em: EntityManager, id: string, options: RequireRepositoryOptions): Promise<Repository> {
  const repository = await em.findOne(Repository, { id, isActive: true })
  if (repository) return repository
  if (options.otherOrganization === 'forbidden' && (await existsInOtherOrg(em, Repository.meta.className, id))) {
    throw new ForbiddenError('Repository does not belong to your organization')
  }
  throw new NotFoundError('Repository not found')
}

/**
 * Deactivates a repository: from now on it, its scans and its issues are gone from every read
 * (the reads require an active repository); nothing is erased. Its queued or running scans
 * are stopped with it.
 */
export async function deactivateRepository(em: EntityManager, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const repository = await requireRepository(tx, id, { otherOrganization: 'not_found' })
    repository.isActive = false
    repository.deactivatedAt = new Date()
    const active = await tx.find(Scan, { repository: repository.id, status: { $in: ['queued', 'running'] } })
    for (const scan of active) {
      // stopped like any stop: subscribers hear of it, a queued job is dropped, a running one told to abort
      if (!(await transitionScan(tx, scan, 'stop', { error: 'Repository deleted' }))) continue
      await tx.getConnection().execute('select graphile_worker.remove_job(?)', [scan.id], 'all', tx.getTransactionContext())
      await publishCancel(tx, scan.id)
    }
  })
}
