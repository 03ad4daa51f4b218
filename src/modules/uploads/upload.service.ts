/**
 * Upload of a repository zip, one code path for REST and GraphQL: spool (size-limited), inspect
 * every entry, and only then store, in one transaction (with the zip's root prefix, which readers
 * strip from paths: zip-archive.ts). Uploading an existing active
 * repo_name + branch_name again replaces its content and keeps its id.
 */
import type { Readable } from 'node:stream'
import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { orgOf } from '../../db/org-scope.ts'
import { Repository } from '../repositories/repository.entity.ts'
import { pruneContents, storeContent } from './content-store.ts'
import { inspectZip, spoolToFile, type SpooledFile, type UploadLimits, type ZipSummary } from './zip-archive.ts'

export interface UploadInput {
  repoName: string
  branchName: string
  /** opens the uploaded file as a stream (called once, unless `spooled` is given) */
  open(): Readable
  /** the same file already spooled under the same limit (REST multipart): not copied again */
  spooled?: SpooledFile | undefined
}

export async function uploadRepository(em: EntityManager, input: UploadInput, limits: UploadLimits, createdBy: string): Promise<Repository> {
  const spooled = input.spooled ?? (await spoolToFile(input.open(), limits.uploadMaxBytes))
  try {
    const summary = await inspectZip(spooled.path, limits)
    const store = () =>
      em.transactional(async (tx) => {
        const repository = await findOrCreateRepository(tx, input, createdBy)
        const contentId = await storeContent(tx, repository.id, spooled, { rootPrefix: summary.rootPrefix })
        applySummary(repository, summary, spooled.sizeBytes, spooled.sha256, contentId)
        await tx.flush()
        await pruneContents(tx, repository.id, contentId)
        return repository
      })
    try {
      return await store()
    } catch (error) {
      // two first uploads of one name at once: the unique index lets one insert; the other replaces
      if (error instanceof UniqueConstraintViolationException) return await store()
      throw error
    }
  } finally {
    // a file spooled by the caller is the caller's to remove
    if (!input.spooled) await spooled.remove()
  }
}

async function findOrCreateRepository(em: EntityManager, input: UploadInput, createdBy: string): Promise<Repository> {
  const existing = await em.findOne(Repository, { repoName: input.repoName, branchName: input.branchName, isActive: true }, { lockMode: LockMode.PESSIMISTIC_WRITE })
  if (existing) return existing
  const repository = em.create(Repository, { orgId: orgOf(em), repoName: input.repoName, branchName: input.branchName, createdBy })
  await em.flush()
  return repository
}

function applySummary(repository: Repository, summary: ZipSummary, sizeBytes: number, sha256: string, contentId: string): void {
  repository.sizeBytes = sizeBytes
  repository.fileCount = summary.fileCount
  repository.languages = summary.languages
  repository.contentSha256 = sha256
  repository.contentId = contentId
  repository.updatedAt = new Date()
}
