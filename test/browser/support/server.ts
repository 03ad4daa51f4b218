/**
 * The real service for the browser suite: the built entry point (`node dist/src/main.js`, API
 * and worker in one process) on a fresh embedded PostgreSQL in a temporary folder, or on a fresh
 * database of the server at DATABASE_URL when it is set, accepting bearer tokens signed with a
 * secret of its own. API keys and tokens are made by the real CLI.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { findFreePort } from '../../../src/db/embedded.ts'

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..')

export interface BrowserServer {
  url: string
  /** the environment the CLI needs to reach the same database */
  env: Record<string, string>
  stop(): Promise<void>
}

/** A database of its own on the server at DATABASE_URL; dropped at the end. */
async function createDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `parapet_browser_${process.pid}_${Date.now()}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl })
      await client.connect()
      await client.query(`drop database if exists ${name} with (force)`)
      await client.end()
    },
  }
}

async function waitForOutput(child: ChildProcess, output: () => string, text: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!output().includes(text)) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output()}`)
    if (Date.now() > deadline) throw new Error(`the server did not start within ${timeoutMs / 1000} s:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export async function startBrowserServer(): Promise<BrowserServer> {
  const port = await findFreePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parapet-browser-'))
  // embedded PostgreSQL runs as the postgres user, which must reach its data folder
  chmodSync(dataDir, 0o755)
  const database = process.env['DATABASE_URL'] ? await createDatabase(process.env['DATABASE_URL']) : undefined
  const databaseEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : { PARAPET_DATA_DIR: path.join(dataDir, 'data'), EMBEDDED_PG_PORT: String(await findFreePort()) }
  const env: Record<string, string> = { ...databaseEnv, AUTH_JWT_SECRET: randomBytes(32).toString('hex') }
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: process.env['BROWSER_SERVER_LOG_LEVEL'] ?? 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  try {
    await waitForOutput(child, () => output, 'Parapet listening', 180_000)
  } catch (error) {
    child.kill('SIGKILL')
    throw error
  }
  return {
    url: `http://127.0.0.1:${port}`,
    env,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM')
        const killer = setTimeout(() => child.kill('SIGKILL'), 30_000)
        await exited
        clearTimeout(killer)
      }
      await database?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export const ALL_SCOPES = ['read:repo', 'write:repo', 'delete:repo', 'write:scan']

function parapet(env: Record<string, string>, args: string[]): string {
  const result = spawnSync(process.execPath, ['bin/parapet.js', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 })
  if (result.status !== 0) throw new Error(`parapet ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

/** `parapet keys create` against the suite's database: the key (pk_..., printed last) and its id. */
export function createApiKey(env: Record<string, string>, orgId: string, userId: string, scopes = ALL_SCOPES): { key: string; id: string } {
  const output = parapet(env, ['keys', 'create', '--org', orgId, '--user', userId, '--scopes', scopes.join(',')])
  const key = output.trim().split('\n').at(-1) ?? ''
  const id = /Created API key (\S+) /.exec(output)?.[1]
  if (!key.startsWith('pk_') || !id) throw new Error(`parapet keys create printed no key:\n${output}`)
  return { key, id }
}

export function revokeApiKey(env: Record<string, string>, id: string): void {
  parapet(env, ['keys', 'revoke', id])
}

/** `parapet token`: a bearer token the suite's server accepts. */
export function mintToken(env: Record<string, string>, orgId: string, userId: string, scopes = ALL_SCOPES): string {
  return parapet(env, ['token', '--org', orgId, '--user', userId, '--scopes', scopes.join(',')]).trim()
}
