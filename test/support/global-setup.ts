/**
 * Once per test run: a PostgreSQL server (embedded in a temporary folder, or the one at
 * DATABASE_URL) and a template database with every migration applied. Each test file clones
 * the template (test/support/database.ts), so files run in parallel and leave nothing behind.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import type { TestProject } from 'vitest/node'
import { findFreePort, startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded.ts'
import { connectDatabase, migrateDatabase } from '../../src/db/orm.ts'
import { databaseUrl } from './urls.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string
    templateDatabase: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let embedded: EmbeddedDatabase | undefined
  let dataDir: string | undefined
  let adminUrl = process.env['DATABASE_URL']
  if (!adminUrl) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-test-pg-'))
    // the server runs as the 'postgres' system user when tests run as root: it must reach the folder
    await fs.chmod(dataDir, 0o755)
    embedded = await startEmbeddedDatabase({ dataDir: path.join(dataDir, 'pg'), port: await findFreePort(), ephemeral: true })
    adminUrl = embedded.url
  }
  const template = `parapet_template_${process.pid}_${Date.now().toString(36)}`
  await adminQuery(adminUrl, `create database ${template}`)
  const orm = await connectDatabase({ url: databaseUrl(adminUrl, template), poolSize: 2 })
  await migrateDatabase(orm)
  await orm.close()

  project.provide('adminDatabaseUrl', adminUrl)
  project.provide('templateDatabase', template)

  return async () => {
    await adminQuery(adminUrl, `drop database if exists ${template} with (force)`)
    await embedded?.stop()
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true })
  }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}
