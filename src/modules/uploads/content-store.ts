/**
 * Uploaded content in PostgreSQL: one `repository_contents` row per upload and its bytes in
 * 256 KiB chunks, written and read as streams, so any host with DATABASE_URL can scan it. The
 * row keeps the zip's root prefix (zip-archive.ts), which readers strip from the entries' paths.
 * Raw SQL here binds the organization itself (docs/org-scoping.md, rule 4).
 */
import { randomUUID } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { once } from 'node:events'
import type { EntityManager } from '@mikro-orm/postgresql'
import { orgOf } from '../../db/org-scope.ts'
import type { SpooledFile } from './zip-archive.ts'

const CHUNK_BYTES = 256 * 1024

/** How to read a stored content's entries (readZipFiles). */
export interface StoredContent {
  /** stripped from the entries' paths; null for contents whose paths are read as they are */
  rootPrefix: string | null
}

/** Stores a spooled upload for a repository, inside the caller's transaction; returns the content id. */
export async function storeContent(em: EntityManager, repoId: string, file: SpooledFile, stored: StoredContent): Promise<string> {
  const orgId = orgOf(em)
  const contentId = randomUUID()
  const connection = em.getConnection()
  const transaction = em.getTransactionContext()
  await connection.execute(
    'insert into repository_contents (id, org_id, repo_id, sha256, size_bytes, chunk_count, root_prefix) values (?, ?, ?, ?, ?, 0, ?)',
    [contentId, orgId, repoId, file.sha256, file.sizeBytes, stored.rootPrefix],
    'run',
    transaction,
  )
  let seq = 0
  for await (const chunk of createReadStream(file.path, { highWaterMark: CHUNK_BYTES }) as AsyncIterable<Buffer>) {
    await connection.execute('insert into repository_content_chunks (content_id, seq, org_id, data) values (?, ?, ?, ?)', [contentId, seq, orgId, chunk], 'run', transaction)
    seq += 1
  }
  await connection.execute('update repository_contents set chunk_count = ? where id = ? and org_id = ?', [seq, contentId, orgId], 'run', transaction)
  return contentId
}

/** Deletes a repository's older contents that no queued or running scan still reads. */
export async function pruneContents(em: EntityManager, repoId: string, keepContentId: string): Promise<void> {
  await em.getConnection().execute(
    `delete from repository_contents c
     where c.repo_id = ? and c.org_id = ? and c.id <> ?
       and not exists (select 1 from scans s where s.content_id = c.id and s.status in ('queued', 'running'))`,
    [repoId, orgOf(em), keepContentId],
    'run',
    em.getTransactionContext(),
  )
}

/** Writes a stored content to a local file, one chunk in memory at a time; answers how to read its entries. */
export async function writeContentToFile(em: EntityManager, contentId: string, destination: string): Promise<StoredContent> {
  const orgId = orgOf(em)
  const [content] = await em
    .getConnection()
    .execute<{ chunk_count: number; root_prefix: string | null }[]>('select chunk_count, root_prefix from repository_contents where id = ? and org_id = ?', [contentId, orgId])
  if (!content) throw new Error(`content ${contentId} is gone`)
  const out = createWriteStream(destination)
  try {
    for (let seq = 0; seq < content.chunk_count; seq++) {
      const [row] = await em.getConnection().execute<{ data: Buffer }[]>('select data from repository_content_chunks where content_id = ? and seq = ? and org_id = ?', [contentId, seq, orgId])
      if (!row) throw new Error(`content ${contentId} misses chunk ${seq}`)
      if (!out.write(row.data)) await once(out, 'drain')
    }
  } finally {
    out.end()
    await once(out, 'close')
  }
  return { rootPrefix: content.root_prefix }
}
