/** A repository uploaded by an organization, its stored zip content and the content's chunks. */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core'

export const Repository = defineEntity({
  name: 'Repository',
  tableName: 'repositories',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    repoName: p.text(),
    branchName: p.text(),
    isActive: p.boolean().default(true),
    sizeBytes: p.bigint('number').default(0),
    fileCount: p.integer().default(0),
    /** language -> lines */
    languages: p.json<Record<string, number>>().onCreate(() => ({})),
    contentSha256: p.text().nullable(),
    contentId: p.uuid().nullable(),
    createdBy: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
    lastScanId: p.uuid().nullable(),
    lastScanStatus: p.text().nullable(),
    deactivatedAt: p.datetime().nullable(),
  },
})
export type Repository = InferEntity<typeof Repository>

/**
 * One stored upload. The bytes live in chunks so that any host with DATABASE_URL can stream
 * them without holding a whole archive in memory.
 */
export const RepositoryContent = defineEntity({
  name: 'RepositoryContent',
  tableName: 'repository_contents',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    repoId: p.uuid(),
    sha256: p.text(),
    sizeBytes: p.bigint('number'),
    chunkCount: p.integer(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
})
export type RepositoryContent = InferEntity<typeof RepositoryContent>

export const RepositoryContentChunk = defineEntity({
  name: 'RepositoryContentChunk',
  tableName: 'repository_content_chunks',
  properties: {
    contentId: p.uuid().primary(),
    seq: p.integer().primary(),
    orgId: p.text(),
    data: p.blob(),
  },
  primaryKeys: ['contentId', 'seq'],
})
export type RepositoryContentChunk = InferEntity<typeof RepositoryContentChunk>
