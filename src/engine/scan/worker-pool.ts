/**
 * A pool of analysis worker processes (analysis-worker.ts). Tree-sitter parsing and ast-grep
 * matching are synchronous native calls: parallel scans need more than one thread, and an
 * analysis that must be stoppable at any moment needs a process, since only a process can be
 * killed while it is inside a native call (a thread waits for the call to return).
 *
 * Vocabulary:
 * - job: a file to analyze (with the scan's analyzers, once the pool is configured), or a
 *   repository-wide task (a named export of a module, run alone on a worker).
 * - time limit: a job must finish, or for a task report progress, within its limit; past it,
 *   its worker is killed, the job fails with AnalysisTimeoutError, the other jobs that worker
 *   held are queued again, and a fresh worker replaces it. A worker that dies by itself fails
 *   its current job with AnalysisCrashError the same way.
 *
 * Invariants: a killed worker is never reused; close() kills every worker at once (a stop or
 * a shutdown never waits for an analysis); the jobs of a closed pool fail.
 */
import { fork } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { FileAnalysisResult } from './file-analysis.ts'
import type { FileLanguage } from '../core/languages.ts'
import type { SastMetrics } from '../sast/analyzer.ts'
import type { FileMessage, TaskMessage, WorkerReply, WorkerSetup } from './analysis-worker.ts'

export interface PoolResult {
  result: FileAnalysisResult
  metrics: SastMetrics
}

export interface PoolOptions {
  /** Time limit of one file's analysis; none when absent. */
  fileTimeoutMs?: number
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
/** Workers in a row that die before they can work (loaded, and configured once there is a setup): the pool gives up. */
const MAX_FAILED_STARTS = 3

interface Job {
  message: FileMessage | TaskMessage
  /** the file, or the task's latest progress label */
  subject: string
  timeoutMs: number | undefined
  /** tasks run alone on a worker */
  exclusive: boolean
  onProgress: ((label: string) => void) | undefined
  resolve(value: unknown): void
  reject(error: Error): void
}

interface PoolWorker {
  child: ChildProcess
  loaded: boolean
  configured: boolean
  /** jobs sent, in the order the worker runs them: the first is running */
  jobs: Job[]
  timer: NodeJS.Timeout | null
  retired: boolean
}

export class AnalysisPool {
  private readonly workers = new Set<PoolWorker>()
  private readonly queue: Job[] = []
  private readonly configuredWaiters: Array<{ resolve(): void; reject(error: Error): void }> = []
  private setup: WorkerSetup | null = null
  private failure: Error | null = null
  private nextId = 0
  private failedStarts = 0
  private readonly exits = new Set<Promise<void>>()

  private constructor(
    size: number,
    private readonly options: PoolOptions,
  ) {
    for (let index = 0; index < size; index++) this.spawn()
  }

  /** Starts `size` workers loading the engine; files wait for configure(), tasks do not. */
  static start(size: number, options: PoolOptions = {}): AnalysisPool {
    return new AnalysisPool(size, options)
  }

  get size(): number {
    return this.workers.size
  }

  /** Gives every worker (current and future) the scan's analyzers; resolves once all have built them. */
  configure(setup: WorkerSetup): Promise<void> {
    this.setup = setup
    for (const worker of this.workers) if (worker.loaded) this.send(worker, { setup })
    return new Promise((resolve, reject) => {
      if (this.failure) return reject(this.failure)
      this.configuredWaiters.push({ resolve, reject })
      this.checkConfigured()
    })
  }

  analyze(path: string, language: FileLanguage, text: string): Promise<PoolResult> {
    return this.submit({ id: this.nextId++, path, language, text }, path, this.options.fileTimeoutMs, false, undefined) as Promise<PoolResult>
  }

  /** Runs `(await import(module))[name](input, progress)` alone on a worker. */
  runTask<T>(module: string, name: string, input: unknown, options: TaskOptions = {}): Promise<T> {
    return this.submit({ id: this.nextId++, task: { module, name, input } }, options.label ?? name, options.stallTimeoutMs, true, options.onProgress) as Promise<T>
  }

  /** Kills every worker now; pending and queued jobs fail. */
  async close(): Promise<void> {
    this.fail(new Error('analysis pool closed'))
    await Promise.all(this.exits)
  }

  private submit(message: FileMessage | TaskMessage, subject: string, timeoutMs: number | undefined, exclusive: boolean, onProgress: Job['onProgress']): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise((resolve, reject) => {
      this.queue.push({ message, subject, timeoutMs, exclusive, onProgress, resolve, reject })
      this.dispatch()
    })
  }

  private spawn(): void {
    const child = forkWorker()
    const worker: PoolWorker = { child, loaded: false, configured: false, jobs: [], timer: null, retired: false }
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
  }

  private send(worker: PoolWorker, message: unknown): void {
    // A worker that is gone says so through 'exit': a failed send needs no handling of its own.
    worker.child.send(message as never, () => undefined)
  }

  private dispatch(): void {
    for (let index = 0; index < this.queue.length; ) {
      const job = this.queue[index] as Job
      const worker = job.exclusive ? this.idleWorker() : this.fileWorker()
      if (!worker) {
        index++
        continue
      }
      this.queue.splice(index, 1)
      worker.jobs.push(job)
      this.send(worker, job.message)
      if (worker.jobs.length === 1) this.startClock(worker)
    }
  }

  private idleWorker(): PoolWorker | undefined {
    for (const worker of this.workers) if (worker.loaded && worker.jobs.length === 0) return worker
    return undefined
  }

  private fileWorker(): PoolWorker | undefined {
    let best: PoolWorker | undefined
    for (const worker of this.workers) {
      if (!worker.configured || worker.jobs.length >= FILES_IN_FLIGHT_PER_WORKER || worker.jobs[0]?.exclusive) continue
      if (!best || worker.jobs.length < best.jobs.length) best = worker
    }
    return best
  }

  /** The running job's time starts now (it was just sent, or the one before it finished). */
  private startClock(worker: PoolWorker): void {
    if (worker.timer) clearTimeout(worker.timer)
    worker.timer = null
    const job = worker.jobs[0]
    if (job?.timeoutMs === undefined) return
    worker.timer = setTimeout(() => this.onTimeout(worker), job.timeoutMs)
  }

  private onReply(worker: PoolWorker, reply: WorkerReply): void {
    if (worker.retired) return
    if ('loaded' in reply) {
      worker.loaded = true
      if (!this.setup) this.failedStarts = 0
      else this.send(worker, { setup: this.setup })
      this.dispatch()
      return
    }
    if ('configured' in reply) {
      worker.configured = true
      this.failedStarts = 0
      this.checkConfigured()
      this.dispatch()
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
    const ready = this.setup ? worker.configured : worker.loaded
    if (!ready && ++this.failedStarts >= MAX_FAILED_STARTS) {
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
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL')
  }

  /** A fresh worker takes over the jobs the retired one held but had not started. */
  private replace(retired: PoolWorker): void {
    this.queue.unshift(...retired.jobs.slice(1))
    retired.jobs = []
    if (this.failure) return
    this.spawn()
    this.dispatch()
  }

  private checkConfigured(): void {
    if (!this.setup || this.workers.size === 0) return
    for (const worker of this.workers) if (!worker.configured) return
    for (const waiter of this.configuredWaiters.splice(0)) waiter.resolve()
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const worker of [...this.workers]) {
      this.retire(worker)
      for (const job of worker.jobs.splice(0)) job.reject(this.failure)
    }
    for (const job of this.queue.splice(0)) job.reject(this.failure)
    for (const waiter of this.configuredWaiters.splice(0)) waiter.reject(this.failure)
  }
}

/**
 * Runs one task in a worker process of its own, killed when `signal` aborts (the task then
 * fails with the signal's reason) or when the task stalls past `stallTimeoutMs`.
 */
export async function runIsolatedTask<T>(module: string, name: string, input: unknown, options: TaskOptions & { signal?: AbortSignal } = {}): Promise<T> {
  options.signal?.throwIfAborted()
  const pool = AnalysisPool.start(1)
  const onAbort = () => void pool.close()
  options.signal?.addEventListener('abort', onAbort, { once: true })
  try {
    return await pool.runTask<T>(module, name, input, options)
  } catch (error) {
    options.signal?.throwIfAborted()
    throw error
  } finally {
    options.signal?.removeEventListener('abort', onAbort)
    await pool.close()
  }
}

/** Starts a worker process; from TypeScript sources it loads tsx first. */
function forkWorker(): ChildProcess {
  const entry = new URL('./analysis-worker.ts', import.meta.url)
  const execArgv = entry.pathname.endsWith('.ts') ? ['--import', tsxLoaderUrl()] : []
  return fork(fileURLToPath(entry), [], { execArgv, serialization: 'advanced', stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
}

let tsxLoader: string | null = null

function tsxLoaderUrl(): string {
  tsxLoader ??= pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
  return tsxLoader
}
