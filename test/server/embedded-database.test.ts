/** The embedded PostgreSQL: reused across restarts, and refusing a second start on the same folder or port. */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { EmbeddedDatabaseInUseError, findFreePort, runningEmbeddedDatabaseUrl, startEmbeddedDatabase } from '../../src/db/embedded.ts'

const folders: string[] = []
afterAll(async () => {
  for (const folder of folders) await fs.rm(folder, { recursive: true, force: true })
})

async function makeDataDir(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-embedded-'))
  await fs.chmod(folder, 0o755)
  folders.push(folder)
  return path.join(folder, 'pg')
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(sql)).rows
  } finally {
    await client.end()
  }
}

describe('embedded PostgreSQL', () => {
  it('keeps its data across restarts', async () => {
    const dataDir = await makeDataDir()
    const port = await findFreePort()
    const first = await startEmbeddedDatabase({ dataDir, port })
    await query(first.url, 'create table kept (value text); insert into kept values (\'still here\')')
    await first.stop()
    const second = await startEmbeddedDatabase({ dataDir, port })
    try {
      expect(await query(second.url, 'select value from kept')).toEqual([{ value: 'still here' }])
    } finally {
      await second.stop()
    }
  })

  it('says the folder is in use when started twice, and lets the CLI find the running one', async () => {
    const dataDir = await makeDataDir()
    const running = await startEmbeddedDatabase({ dataDir, port: await findFreePort() })
    try {
      const second = startEmbeddedDatabase({ dataDir, port: await findFreePort() })
      await expect(second).rejects.toBeInstanceOf(EmbeddedDatabaseInUseError)
      await expect(second).rejects.toThrow(/data folder .* is in use/)
      expect(await runningEmbeddedDatabaseUrl(dataDir)).toBe(running.url)
    } finally {
      await running.stop()
    }
    expect(await runningEmbeddedDatabaseUrl(dataDir)).toBeUndefined()
  })

  it('says the port is in use', async () => {
    const running = await startEmbeddedDatabase({ dataDir: await makeDataDir(), port: await findFreePort(), ephemeral: true })
    try {
      const port = Number(new URL(running.url).port)
      await expect(startEmbeddedDatabase({ dataDir: await makeDataDir(), port })).rejects.toThrow(`port ${port}`)
    } finally {
      await running.stop()
    }
  })
})
