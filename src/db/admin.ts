/**
 * Whole databases, for tests and benchmarks: a scratch PostgreSQL server (the one at
 * DATABASE_URL, or an embedded one in a temporary folder) and databases created, migrated
 * and dropped on it through the server's maintenance connection.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { findFreePort, startEmbeddedDatabase } from './embedded.ts'
import { connectDatabase, migrateDatabase } from './orm.ts'

export interface ScratchServer {
  url: string
  stop(): Promise<void>
}

/** DATABASE_URL's server when set, else an embedded one removed on stop. */
export async function startScratchServer(databaseUrl = process.env['DATABASE_URL']): Promise<ScratchServer> {
  if (databaseUrl) return { url: databaseUrl, stop: async () => undefined }
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-pg-'))
  // as root the server runs as the 'postgres' system user: it must reach the folder
  await fs.chmod(folder, 0o755)
  const embedded = await startEmbeddedDatabase({ dataDir: path.join(folder, 'pg'), port: await findFreePort(), ephemeral: true })
  return {
    url: embedded.url,
    stop: async () => {
      await embedded.stop()
      await fs.rm(folder, { recursive: true, force: true })
    },
  }
}

/** The same server, another database. */
export function urlForDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl)
  url.pathname = `/${database}`
  return url.toString()
}

export async function runAdminStatement(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** A new database with every migration applied; `drop()` removes it, connections and all. */
export async function createMigratedDatabase(serverUrl: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  await runAdminStatement(serverUrl, `create database ${name}`)
  const url = urlForDatabase(serverUrl, name)
  const orm = await connectDatabase({ url, poolSize: 2 })
  try {
    await migrateDatabase(orm)
  } finally {
    await orm.close()
  }
  return { url, drop: () => runAdminStatement(serverUrl, `drop database if exists ${name} with (force)`) }
}
