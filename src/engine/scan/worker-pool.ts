/**
 * A pool of analysis worker processes (analysis-worker.ts). Tree-sitter parsing and ast-grep
 * matching are synchronous native calls: parallel scans need more than one thread, and an
 * analysis that must be stoppable at any moment needs a process, since only a process can be
 * killed while it is inside a native call (a thread waits for the call to return).
 *
 * A process keeps one pool for as long as it lives (sharedAnalysisPool): starting a worker
 * (loading the engine) costs more than a small repository takes to analyze, and a service runs
 * scan after scan, several at once. Idle workers do not keep the process alive.
 *
 * Vocabulary:
 * - lease: one scan's use of the pool: its configuration (analyzers and rules), its time limit
 *   and its jobs. Aborting a lease stops its work at once and leaves the other leases' alone.
 * - configuration: what a worker needs to analyze a lease's files; sent to a worker with the
 *   first file that needs it, and kept there (the latest few used). Leases with the same
 *   analyzers and the same rule list (the built-in rules, as the loader caches them) share one,
 *   so that a worker builds and compiles it once for scan after scan.
 * - job: a file to analyze (with its lease's configuration), or a repository-wide task (a named
 *   export of a module, run alone on a worker).
 * - time limit: a job must finish, or for a task report progress, within its limit; past it,
 *   its worker is killed, the job fails with AnalysisTimeoutError, the other jobs that worker
 *   held are queued again, and a fresh worker replaces it (once there is work for it). A worker
 *   that dies by itself fails its current job with AnalysisCrashError the same way.
 *
 * Invariants: a killed worker is never reused; aborting a lease kills every worker holding one
 * of its jobs (their jobs of other leases are queued again, not failed); close() kills every
 * worker at once (a shutdown never waits for an analysis); the jobs of a closed pool fail.
 */
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { FileAnalysisResult } from './file-analysis.ts'
import type { FileLanguage } from '../core/languages.ts'
import type { SastMetrics } from '../sast/analyzer.ts'
import type { FileMessage, TaskMessage, WorkerMessage, WorkerReply, WorkerSetup } from './analysis-worker.ts'

export interface PoolResult {
  result: FileAnalysisResult
  metrics: SastMetrics
}

export interface LeaseOptions {
  /** Time limit of one file's analysis; none when absent. */
  fileTimeoutMs?: number
  /** Aborting it aborts the lease (abort()). */
  signal?: AbortSignal
}

export interface TaskOptions {
  /** What the task is called in a time limit's message until it reports progress. */
  label?: string
  /** Time limit between two progress reports of the task (and before the first); none when absent. */
  stallTimeoutMs?: number
  onProgress?(label: string): void
}

/** A job ran past its time limit; its worker was killed. */
export class AnalysisTimeoutError extends Error {
  constructor(
    /** the file, or the last progress label of a task */
    readonly subject: string,
    readonly limitMs: number,
  ) {
    super(`analysis of ${subject} exceeded ${formatSeconds(limitMs)}`)
    this.name = 'AnalysisTimeoutError'
  }
}

/** A worker died while it ran a job (a native crash, memory exhausted...). */
export class AnalysisCrashError extends Error {
  constructor(
    readonly subject: string,
    how: string,
  ) {
    super(`the analysis worker died (${how}) during the analysis of ${subject}`)
    this.name = 'AnalysisCrashError'
  }
}

export function formatSeconds(ms: number): string {
  const seconds = ms / 1000
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`
}

const FILES_IN_FLIGHT_PER_WORKER = 2
/** Configurations a worker keeps built (least recently used dropped first): one per concurrent scan, a few. */
export const CONFIGURATIONS_PER_WORKER = 4
/** Workers in a row that die before they load the engine: the pool gives up. */
const MAX_FAILED_STARTS = 3

interface Job {
  message: FileMessage | TaskMessage
  /** the file, or the task's latest progress label */
  subject: string
  timeoutMs: number | undefined
  /** tasks run alone on a worker */
  exclusive: boolean
  /** the lease the job belongs to (none for tasks given to the pool itself) */
  lease: PoolLease | null
  onProgress: ((label: string) => void) | undefined
  resolve(value: unknown): void
  reject(error: Error): void
}

interface Configuration {
  setup: WorkerSetup
  /** leases using it: while there are none, it is forgotten once no worker holds it */
  leases: number
}

interface PoolWorker {
  child: ChildProcess
  loaded: boolean
  /** jobs sent, in the order the worker runs them: the first is running */
  jobs: Job[]
  timer: NodeJS.Timeout | null
  retired: boolean
  /** the configurations the worker holds, least recently used first: the worker keeps the same list */
  configurations: number[]
  /** kept for a task waiting for a worker of its own: no more files are sent to it */
  reserved: boolean
}

export class AnalysisPool {
  private readonly workers = new Set<PoolWorker>()
  private readonly queue: Job[] = []
  private readonly configurations = new Map<number, Configuration>()
  private failure: Error | null = null
  private nextId = 0
  private nextConfiguration = 0
  private failedStarts = 0
  /** workers the pool keeps once they are needed: a lost one is replaced when there is work for it */
  private targetSize = 0
  private readonly exits = new Set<Promise<void>>()

  private constructor(size: number) {
    this.grow(size)
  }

  /** Starts `size` workers loading the engine. */
  static start(size: number): AnalysisPool {
    return new AnalysisPool(size)
  }

  get size(): number {
    return this.workers.size
  }

  /** Whether the pool was closed, or gave up on workers that could not start. */
  get closed(): boolean {
    return this.failure !== null
  }

  /** Pids of the worker processes (tests, diagnostics). */
  get pids(): number[] {
    return [...this.workers].map((worker) => worker.child.pid).filter((pid): pid is number => pid !== undefined)
  }

  /**
   * Starts workers until there are `size`, now, since work is coming (the pool never shrinks:
   * workers live as long as it).
   */
  grow(size: number): void {
    this.targetSize = Math.max(this.targetSize, size)
    this.refill()
  }

  /** Replaces lost workers. */
  private refill(): void {
    while (!this.failure && this.workers.size < this.targetSize) this.spawn()
  }

  /** A scan's use of the pool (see the vocabulary above). */
  lease(options: LeaseOptions = {}): PoolLease {
    return new PoolLease(this, options)
  }

  /** Runs `(await import(module))[name](input, progress)` alone on a worker, outside any lease. */
  runTask<T>(module: string, name: string, input: unknown, options: TaskOptions = {}): Promise<T> {
    return this.submitTask(null, module, name, input, options) as Promise<T>
  }

  /** Kills every worker now; pending and queued jobs fail. */
  async close(): Promise<void> {
    this.fail(new Error('analysis pool closed'))
    await Promise.all(this.exits)
  }

  /** @internal (PoolLease) */
  addConfiguration(setup: WorkerSetup): number {
    for (const [id, known] of this.configurations) {
      if (known.setup.rules === setup.rules && known.setup.analyzers.join() === setup.analyzers.join()) {
        known.leases++
        return id
      }
    }
    const id = this.nextConfiguration++
    this.configurations.set(id, { setup, leases: 1 })
    return id
  }

  /** @internal (PoolLease) A lease no longer uses the configuration; workers keep it for the next lease with the same rules. */
  releaseConfiguration(id: number): void {
    const known = this.configurations.get(id)
    if (!known) return
    known.leases--
    this.forgetUnused(id)
  }

  /** A configuration no lease uses and no worker holds is gone for good. */
  private forgetUnused(id: number): void {
    if (this.configurations.get(id)?.leases !== 0) return
    for (const worker of this.workers) if (worker.configurations.includes(id)) return
    this.configurations.delete(id)
  }

  /** @internal (PoolLease) */
  submitFile(lease: PoolLease, configuration: number, path: string, language: FileLanguage, text: string, timeoutMs: number | undefined): Promise<PoolResult> {
    const message: FileMessage = { id: this.nextId++, configuration, path, language, text }
    return this.submit({ message, subject: path, timeoutMs, exclusive: false, lease, onProgress: undefined }) as Promise<PoolResult>
  }

  /** @internal (PoolLease) */
  submitTask(lease: PoolLease | null, module: string, name: string, input: unknown, options: TaskOptions): Promise<unknown> {
    const message: TaskMessage = { id: this.nextId++, task: { module: runnableModule(module), name, input } }
    return this.submit({ message, subject: options.label ?? name, timeoutMs: options.stallTimeoutMs, exclusive: true, lease, onProgress: options.onProgress })
  }

  /**
   * @internal (PoolLease) Stops the lease's jobs at once: queued ones fail, and every worker
   * holding one is killed and replaced (its jobs of other leases are queued again).
   */
  abortJobs(lease: PoolLease, reason: Error): void {
    for (let index = this.queue.length - 1; index >= 0; index--) {
      const job = this.queue[index] as Job
      if (job.lease !== lease) continue
      this.queue.splice(index, 1)
      job.reject(reason)
    }
    for (const worker of [...this.workers]) {
      if (!worker.jobs.some((job) => job.lease === lease)) continue
      this.retire(worker)
      const others = worker.jobs.filter((job) => job.lease !== lease)
      for (const job of worker.jobs) if (job.lease === lease) job.reject(reason)
      worker.jobs = []
      this.queue.unshift(...others)
    }
    this.dispatch()
  }

  private submit(fields: Omit<Job, 'resolve' | 'reject'>): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      this.queue.push({ ...fields, resolve, reject })
      this.dispatch()
    })
  }

  private spawn(): void {
    const child = forkWorker()
    const worker: PoolWorker = { child, loaded: false, jobs: [], timer: null, retired: false, configurations: [], reserved: false }
    this.workers.add(worker)
    child.on('message', (reply: WorkerReply) => this.onReply(worker, reply))
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.onDeath(worker, signal ?? `exit code ${code}`)
        resolve()
      })
      // A failed spawn emits 'error' and may never emit 'exit'.
      child.once('error', (error) => {
        if (child.pid === undefined) resolve()
        this.onDeath(worker, error.message)
      })
    })
    this.exits.add(exited)
    void exited.then(() => this.exits.delete(exited))
    this.holdProcess()
  }

  private send(worker: PoolWorker, message: WorkerMessage): void {
    // A worker that is gone says so through 'exit': a failed send needs no handling of its own.
    worker.child.send(message as never, () => undefined)
  }

  private dispatch(): void {
    if (this.queue.length > 0) this.refill()
    for (let index = 0; index < this.queue.length; ) {
      const job = this.queue[index] as Job
      const worker = job.exclusive ? this.taskWorker() : this.fileWorker(job)
      if (!worker) {
        index++
        continue
      }
      this.queue.splice(index, 1)
      worker.jobs.push(job)
      if ('configuration' in job.message) this.sendConfiguration(worker, job.message.configuration)
      this.send(worker, job.message)
      if (worker.jobs.length === 1) this.startClock(worker)
    }
    this.holdProcess()
  }

  /**
   * An idle worker for a task; when there is none, the least busy one is reserved (it takes no
   * more files), so that a task is not starved by a concurrent scan's stream of files.
   */
  private taskWorker(): PoolWorker | undefined {
    const loaded = [...this.workers].filter((worker) => worker.loaded)
    const idle = loaded.find((worker) => worker.jobs.length === 0)
    if (idle) {
      for (const worker of loaded) worker.reserved = false
      return idle
    }
    if (loaded.some((worker) => worker.reserved)) return undefined
    let candidate: PoolWorker | undefined
    for (const worker of loaded) {
      if (!worker.jobs[0]?.exclusive && (!candidate || worker.jobs.length < candidate.jobs.length)) candidate = worker
    }
    if (candidate) candidate.reserved = true
    return undefined
  }

  /** The least busy worker that takes files, preferring one that holds the file's configuration. */
  private fileWorker(job: Job): PoolWorker | undefined {
    const configuration = 'configuration' in job.message ? job.message.configuration : -1
    let best: PoolWorker | undefined
    const rank = (worker: PoolWorker) => worker.jobs.length * 2 + (worker.configurations.includes(configuration) ? 0 : 1)
    for (const worker of this.workers) {
      if (!worker.loaded || worker.reserved || worker.jobs.length >= FILES_IN_FLIGHT_PER_WORKER || worker.jobs[0]?.exclusive) continue
      if (!best || rank(worker) < rank(best)) best = worker
    }
    return best
  }

  /** Sends the configuration unless the worker holds it; either way it becomes the worker's latest used. */
  private sendConfiguration(worker: PoolWorker, id: number): void {
    const index = worker.configurations.indexOf(id)
    if (index !== -1) worker.configurations.splice(index, 1)
    worker.configurations.push(id)
    if (index !== -1) return
    const setup = this.configurations.get(id)
    if (!setup) throw new Error(`analysis configuration ${id} was released`)
    this.send(worker, { configuration: id, setup: setup.setup })
    // the worker drops its least recently used configuration the same way
    if (worker.configurations.length > CONFIGURATIONS_PER_WORKER) this.forgetUnused(worker.configurations.shift() as number)
  }

  /** The running job's time starts now (it was just sent, or the one before it finished). */
  private startClock(worker: PoolWorker): void {
    if (worker.timer) clearTimeout(worker.timer)
    worker.timer = null
    const job = worker.jobs[0]
    if (job?.timeoutMs === undefined) return
    worker.timer = setTimeout(() => this.onTimeout(worker), job.timeoutMs)
  }

  /**
   * Workers keep the process alive only while there is work: a process whose scans are done
   * exits without closing the pool (its workers exit with it).
   */
  private holdProcess(): void {
    const busy = this.queue.length > 0 || [...this.workers].some((worker) => worker.jobs.length > 0)
    for (const worker of this.workers) {
      if (busy) {
        worker.child.ref()
        worker.child.channel?.ref()
      } else {
        worker.child.unref()
        worker.child.channel?.unref()
      }
    }
  }

  private onReply(worker: PoolWorker, reply: WorkerReply): void {
    if (worker.retired) return
    if ('loaded' in reply) {
      worker.loaded = true
      this.failedStarts = 0
      this.dispatch()
      return
    }
    if ('configured' in reply) {
      // building the configuration is not the file's time
      this.startClock(worker)
      return
    }
    const job = worker.jobs[0]
    if (!job || job.message.id !== reply.id) return
    if ('progress' in reply) {
      job.subject = reply.progress
      job.onProgress?.(reply.progress)
      this.startClock(worker)
      return
    }
    worker.jobs.shift()
    this.startClock(worker)
    if (!reply.ok) job.reject(new Error(reply.error))
    else job.resolve('value' in reply ? reply.value : { result: reply.result, metrics: reply.metrics })
    this.dispatch()
  }

  private onTimeout(worker: PoolWorker): void {
    const job = worker.jobs[0]
    if (!job || worker.retired) return
    this.retire(worker)
    job.reject(new AnalysisTimeoutError(job.subject, job.timeoutMs ?? 0))
    this.replace(worker)
  }

  private onDeath(worker: PoolWorker, how: string): void {
    if (worker.retired) return
    this.retire(worker)
    if (this.failure) return
    if (!worker.loaded && ++this.failedStarts >= MAX_FAILED_STARTS) {
      this.fail(new Error(`analysis workers could not start (the last one: ${how})`))
      return
    }
    const job = worker.jobs[0]
    job?.reject(new AnalysisCrashError(job.subject, how))
    this.replace(worker)
  }

  /** Takes a worker out of the pool for good and kills it. */
  private retire(worker: PoolWorker): void {
    worker.retired = true
    if (worker.timer) clearTimeout(worker.timer)
    worker.timer = null
    this.workers.delete(worker)
    for (const id of worker.configurations) this.forgetUnused(id)
    if (worker.child.exitCode === null && worker.child.signalCode === null) {
      // held until its exit is seen: close() awaits it, and an idle worker's handle was unref'd
      worker.child.ref()
      worker.child.kill('SIGKILL')
    }
  }

  /** The jobs the retired worker held but had not started are queued again, for a fresh worker. */
  private replace(retired: PoolWorker): void {
    this.queue.unshift(...retired.jobs.slice(1))
    retired.jobs = []
    this.dispatch()
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const worker of [...this.workers]) {
      this.retire(worker)
      for (const job of worker.jobs.splice(0)) job.reject(this.failure)
    }
    for (const job of this.queue.splice(0)) job.reject(this.failure)
  }
}

/**
 * One scan's use of a pool. Files wait for configure(); tasks do not. release() ends it (a
 * lease released with work in flight is aborted); an abort, or its signal, stops its work at once.
 */
export class PoolLease {
  private configuration: number | null = null
  private readonly pending = new Set<Promise<unknown>>()
  private ended: Error | null = null
  private readonly onAbort = () => this.abort(this.options.signal?.reason)

  constructor(
    private readonly pool: AnalysisPool,
    private readonly options: LeaseOptions,
  ) {
    options.signal?.addEventListener('abort', this.onAbort, { once: true })
    if (options.signal?.aborted) this.onAbort()
  }

  /** The analyzers and rules of the lease's files; the workers build them when its first file reaches them. */
  configure(setup: WorkerSetup): void {
    if (this.configuration !== null) this.pool.releaseConfiguration(this.configuration)
    this.configuration = this.pool.addConfiguration(setup)
  }

  analyze(path: string, language: FileLanguage, text: string): Promise<PoolResult> {
    if (this.ended) return Promise.reject(this.ended)
    if (this.configuration === null) return Promise.reject(new Error('analysis lease not configured'))
    return this.track(this.pool.submitFile(this, this.configuration, path, language, text, this.options.fileTimeoutMs))
  }

  /**
   * Runs `(await import(module))[name](input, progress)` alone on a worker; `module` is the
   * URL of the task's TypeScript source (runnableModule names its compiled file from a build).
   */
  runTask<T>(module: string, name: string, input: unknown, options: TaskOptions = {}): Promise<T> {
    if (this.ended) return Promise.reject(this.ended)
    return this.track(this.pool.submitTask(this, module, name, input, options)) as Promise<T>
  }

  /** Stops the lease's work at once (its workers are killed and replaced); its jobs fail. */
  abort(reason?: unknown): void {
    this.ended ??= reason instanceof Error ? reason : new Error(reason === undefined ? 'analysis aborted' : String(reason))
    if (this.pending.size > 0) this.pool.abortJobs(this, this.ended)
  }

  /** Ends the lease: work still in flight is aborted. */
  release(): void {
    this.options.signal?.removeEventListener('abort', this.onAbort)
    this.abort(new Error('analysis lease released'))
    if (this.configuration !== null) this.pool.releaseConfiguration(this.configuration)
    this.configuration = null
  }

  private track<T>(job: Promise<T>): Promise<T> {
    this.pending.add(job)
    const settle = () => void this.pending.delete(job)
    job.then(settle, settle)
    return job
  }
}

let shared: AnalysisPool | null = null

/**
 * The process's pool, with at least `size` workers; started on first use, and again after it
 * was closed or gave up (a later scan gets fresh workers).
 */
export function sharedAnalysisPool(size: number): AnalysisPool {
  if (!shared || shared.closed) shared = AnalysisPool.start(0)
  shared.grow(size)
  return shared
}

/** Kills the process's pool (shutdown); a later sharedAnalysisPool() starts a new one. */
export async function closeSharedAnalysisPool(): Promise<void> {
  const pool = shared
  shared = null
  await pool?.close()
}

/**
 * Runs one task alone on a worker of the process's pool, killed when `signal` aborts (the task
 * then fails with the signal's reason) or when the task stalls past `stallTimeoutMs`.
 */
export async function runIsolatedTask<T>(module: string, name: string, input: unknown, options: TaskOptions & { signal?: AbortSignal } = {}): Promise<T> {
  options.signal?.throwIfAborted()
  const lease = sharedAnalysisPool(1).lease(options.signal ? { signal: options.signal } : {})
  try {
    return await lease.runTask<T>(module, name, input, options)
  } catch (error) {
    options.signal?.throwIfAborted()
    throw error
  } finally {
    lease.release()
  }
}

/** Whether this module runs compiled (from dist/, `npm run build`) rather than from its TypeScript source. */
const RUNS_COMPILED = import.meta.url.endsWith('.js')

/**
 * The module a process of this tree runs for a TypeScript source's URL: the source itself
 * (workers load tsx), or from a build its bundle (the worker and the scan's tasks, see
 * scripts/build-bundle.mjs: a worker starts sooner from a few files) or else its compiled file,
 * which sits at the same place under dist/.
 */
export function runnableModule(sourceUrl: string): string {
  if (!RUNS_COMPILED) return sourceUrl
  const compiled = sourceUrl.replace(/\.ts$/, '.js')
  return bundledModules().get(compiled) ?? compiled
}

/** The build's bundle manifest (dist/bundle/entries.json, next to dist/src): each path under dist/ bundled, and its bundle file. */
const BUNDLE_MANIFEST = new URL('../../../bundle/entries.json', import.meta.url)
let bundled: Map<string, string> | null = null

/** Compiled module URL -> bundle file URL; empty when dist/ was compiled without a bundle. */
function bundledModules(): Map<string, string> {
  if (bundled) return bundled
  bundled = new Map()
  let manifest: Record<string, string>
  try {
    manifest = JSON.parse(readFileSync(BUNDLE_MANIFEST, 'utf8')) as Record<string, string>
  } catch {
    return bundled
  }
  const distRoot = new URL('..', BUNDLE_MANIFEST)
  for (const [compiled, file] of Object.entries(manifest)) bundled.set(new URL(compiled, distRoot).href, new URL(file, BUNDLE_MANIFEST).href)
  return bundled
}

/** Starts a worker process; from TypeScript sources it loads tsx first. */
function forkWorker(): ChildProcess {
  const entry = new URL(runnableModule(new URL('./analysis-worker.ts', import.meta.url).href))
  const execArgv = RUNS_COMPILED ? [] : ['--import', tsxLoaderUrl()]
  return fork(fileURLToPath(entry), [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
}

let tsxLoader: string | null = null

function tsxLoaderUrl(): string {
  tsxLoader ??= pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
  return tsxLoader
}
