/**
 * The service as a user runs it: `npm start` with no DATABASE_URL starts an embedded database
 * under its data folder, serves, and shuts down cleanly on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs/promises'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findFreePort, runningEmbeddedDatabaseUrl } from '../../src/db/embedded.ts'
import { TEST_JWT_SECRET } from '../support/app.ts'

const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL')
})

function start(env: Record<string, string>): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...process.env, DATABASE_URL: '', ...env } })
  children.push(child)
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('npm start', () => {
  it('serves with an embedded database, refuses a second start, and stops cleanly on SIGTERM', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-start-'))
    await fs.chmod(folder, 0o755)
    const env = { PARAPET_DATA_DIR: folder, PORT: String(await findFreePort()), EMBEDDED_PG_PORT: String(await findFreePort()), AUTH_JWT_SECRET: TEST_JWT_SECRET }
    try {
      const server = start(env)
      await waitFor(() => server.output().includes('Parapet listening'))
      // a newcomer is told why the first start is slow, where everything is and how to get a key
      expect(server.output()).toMatch(/creating the embedded PostgreSQL database in .* \(first start only/)
      await waitFor(() => server.output().includes('npx parapet keys create'))
      expect(server.output()).toContain(`http://localhost:${env.PORT}/docs`)
      expect(server.output()).toContain(`http://localhost:${env.PORT}/graphql`)

      const key = await new Promise<string>((resolve, reject) => {
        const cli = spawn(process.execPath, ['bin/parapet.js', 'keys', 'create', '--org', 'acme', '--user', 'alice'], { env: { ...process.env, ...env, DATABASE_URL: '' } })
        let stdout = ''
        cli.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
        cli.on('exit', (code) => (code === 0 ? resolve(stdout.trim().split('\n').at(-1) as string) : reject(new Error(`cli exited ${code}`))))
      })
      const response = await fetch(`http://127.0.0.1:${env.PORT}/api/repositories`, { headers: { 'X-API-Key': key } })
      expect(await response.json()).toEqual({ all_repos: [] })

      const second = start({ ...env, PORT: String(await findFreePort()) })
      expect(await second.exited).toBe(78)
      expect(second.output()).toMatch(/in use/)

      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
      expect(server.output()).toContain('stopped')
      expect(await runningEmbeddedDatabaseUrl(path.join(folder, 'pg'))).toBeUndefined()
    } finally {
      await fs.rm(folder, { recursive: true, force: true })
    }
  })
})

describe('a start whose HTTP port is taken', () => {
  it('says so, names PORT and exits 78 before creating any database, with no stack trace', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-port-'))
    const port = await findFreePort()
    const squatter = net.createServer().listen(port, '0.0.0.0')
    await new Promise((resolve) => squatter.once('listening', resolve))
    try {
      const refused = start({ PARAPET_DATA_DIR: folder, PORT: String(port), EMBEDDED_PG_PORT: String(await findFreePort()) })
      expect(await refused.exited).toBe(78)
      expect(refused.output()).toMatch(new RegExp(`port ${port} is in use: .*set PORT to another port`))
      expect(refused.output()).not.toMatch(/\n\s+at /)
      expect(await fs.readdir(folder)).toEqual([])
    } finally {
      squatter.close()
      await fs.rm(folder, { recursive: true, force: true })
    }
  })
})
