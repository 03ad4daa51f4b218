/**
 * Once per test run: a PostgreSQL server (embedded in a temporary folder, or the one at
 * DATABASE_URL) and a template database with every migration applied. Each test file clones
 * the template (test/support/database.ts), so files run in parallel and leave nothing behind.
 */
import type { TestProject } from 'vitest/node'
import { createMigratedDatabase, startScratchServer } from '../../src/db/admin.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string
    templateDatabase: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startScratchServer()
  const template = `parapet_template_${process.pid}_${Date.now().toString(36)}`
  const database = await createMigratedDatabase(server.url, template)
  project.provide('adminDatabaseUrl', server.url)
  project.provide('templateDatabase', template)
  return async () => {
    await database.drop()
    await server.stop()
  }
}
