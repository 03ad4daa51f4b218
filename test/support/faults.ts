/**
 * Faults on demand. A PostgreSQL server of the test's own (embedded, in a temporary folder)
 * that the test kills and starts again, leaving alone the server every other test file shares;
 * a client for the HTTP API of a service process (test/support/processes.ts); and waits on a
 * process's log output.
 */
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll } from 'vitest'
import { createMigratedDatabase } from '../../src/db/admin.ts'
import { findFreePort, startEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded.ts'
import { requestJson, type TestResponse } from './app.ts'

export interface OwnDatabaseServer {
  /** a database with every migration applied, on this server */
  url: string
  /** SIGKILL to the postmaster, as a crash or the OOM killer would */
  kill(): Promise<void>
  /** starts it again on the same folder and port */
  start(): Promise<void>
}

const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup()
})

export async function startOwnDatabaseServer(): Promise<OwnDatabaseServer> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-faults-'))
  await fs.chmod(folder, 0o755)
  const dataDir = path.join(folder, 'pg')
  const server: EmbeddedDatabase = await startEmbeddedDatabase({ dataDir, port: await findFreePort() })
  cleanups.push(async () => {
    await server.stop()
    await fs.rm(folder, { recursive: true, force: true })
  })
  const database = await createMigratedDatabase(server.url, 'parapet')
  return {
    url: database.url,
    kill: async () => {
      const pid = Number((await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0])
      process.kill(pid, 'SIGKILL')
      await waitUntil(() => !isAlive(pid), 30_000, `postmaster ${pid} still running`)
    },
    start: async () => {
      // the killed server's backends may hold its shared memory for a moment
      const deadline = Date.now() + 60_000
      while (true) {
        try {
          return await server.restart()
        } catch (error) {
          if (Date.now() > deadline) throw error
          await new Promise((resolve) => setTimeout(resolve, 250))
        }
      }
    },
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

export async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** `request` as TestApp has it, against a service process's URL. */
export function clientOf(baseUrl: string): { request(path: string, init?: RequestInit & { json?: unknown }): Promise<TestResponse> } {
  return {
    request: (urlPath, init = {}) => requestJson(baseUrl, urlPath, init),
  }
}
