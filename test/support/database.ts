/**
 * A database of this test file's own, cloned from the migrated template; dropped after the file.
 */
import { randomBytes } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import { afterAll, beforeAll, inject } from 'vitest'
import { connectDatabase } from '../../src/db/orm.ts'
import { runAdminStatement, urlForDatabase } from '../../src/db/admin.ts'

export interface TestDatabase {
  url: string
  orm: MikroORM
  /** SQL statements seen since the last reset (tests that count queries) */
  statements: string[]
}

/** Call at the top of a test file; the returned object is filled before the first test. */
export function useTestDatabase(): TestDatabase {
  const database = { url: '', statements: [] as string[] } as unknown as TestDatabase
  let name = ''
  beforeAll(async () => {
    name = `parapet_test_${randomBytes(6).toString('hex')}`
    await createFromTemplate(name)
    database.url = urlForDatabase(inject('adminDatabaseUrl'), name)
    database.orm = await connectDatabase({ url: database.url, poolSize: 5, onQuery: (line) => database.statements.push(line) })
  })
  afterAll(async () => {
    await database.orm?.close()
    if (name) await admin(`drop database if exists ${name} with (force)`)
  })
  return database
}

async function createFromTemplate(name: string): Promise<void> {
  // Two files cloning the same template at the same instant can collide; a short retry settles it.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin(`create database ${name} template ${inject('templateDatabase')}`)
      return
    } catch (error) {
      if (attempt >= 20 || !String(error).includes('being accessed by other users')) throw error
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200))
    }
  }
}

function admin(sql: string): Promise<void> {
  return runAdminStatement(inject('adminDatabaseUrl'), sql)
}
