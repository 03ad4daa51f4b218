/**
 * A small pool of analysis worker threads. Tree-sitter parsing and ast-grep matching are
 * synchronous native calls, so parallel scans need threads; each worker builds its own
 * analyzers once and then takes files (a couple in flight each, to hide messaging latency).
 *
 * Starting a worker (TypeScript loader, engine modules, secrets detector) takes a few hundred
 * milliseconds, about as long as loading and validating the rules, so the pool is booted first
 * and configured with the rules once the scanning thread has them.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { FileAnalysisResult } from './file-analysis.ts'
import type { FileLanguage } from './languages.ts'
import type { SastMetrics } from './sast.ts'
import type { WorkerReply, WorkerSetup, WorkerSetupMessage, WorkerTask } from './analysis-worker.ts'

export interface PoolResult {
  result: FileAnalysisResult
  metrics: SastMetrics
}

interface Pending {
  resolve(value: PoolResult): void
  reject(error: Error): void
  worker: Worker
}

const TASKS_IN_FLIGHT_PER_WORKER = 2

/**
 * Workers start from a tiny CommonJS bootstrap that registers a TypeScript loader when the
 * engine runs from .ts sources, then imports the worker module.
 */
const BOOTSTRAP = `
const { workerData } = require('node:worker_threads')
;(async () => {
  if (workerData.loaderUrl) (await import(workerData.loaderUrl)).register()
  await import(workerData.entryUrl)
})().catch((error) => { setImmediate(() => { throw error }) })
`

function workerUrls(): { entryUrl: string; loaderUrl: string | null } {
  const entry = new URL('./analysis-worker.ts', import.meta.url)
  if (!entry.pathname.endsWith('.ts')) return { entryUrl: entry.href, loaderUrl: null }
  return { entryUrl: entry.href, loaderUrl: tsxEsmApiUrl() }
}

/** URL of tsx's ESM registration API (`tsx/esm/api`, import condition). */
function tsxEsmApiUrl(): string {
  const require = createRequire(import.meta.url)
  const manifestPath = require.resolve('tsx/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { exports?: Record<string, { import?: { default?: string } }> }
  const relativePath = manifest.exports?.['./esm/api']?.import?.default ?? './dist/esm/api/index.mjs'
  return pathToFileURL(join(dirname(manifestPath), relativePath)).href
}

/** Workers that are starting: configure() them once the rules are known, or cancel(). */
export interface BootingPool {
  configure(setup: WorkerSetup): Promise<AnalysisPool>
  /** Stops workers that were never configured. */
  cancel(): Promise<void>
}

export class AnalysisPool {
  private readonly pending = new Map<number, Pending>()
  private readonly load = new Map<Worker, number>()
  private readonly queue: Array<{ task: WorkerTask; pending: Omit<Pending, 'worker'> }> = []
  private nextId = 0
  private failure: Error | null = null

  private constructor(private readonly workers: Worker[]) {
    for (const worker of workers) {
      this.load.set(worker, 0)
      worker.on('message', (reply: WorkerReply) => this.onReply(worker, reply))
      worker.on('error', (error) => this.fail(error))
      worker.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`analysis worker exited with code ${code}`))
      })
    }
  }

  /** Starts `size` workers loading the engine; they analyze nothing until configure(). */
  static boot(size: number): BootingPool {
    const urls = workerUrls()
    const workers = Array.from({ length: size }, () => new Worker(BOOTSTRAP, { eval: true, execArgv: [], workerData: urls }))
    // Listen from the start: a worker failing while booting must not go unhandled.
    const ready = workers.map(waitUntilReady)
    for (const promise of ready) promise.catch(() => undefined)
    let configured: Promise<AnalysisPool> | null = null
    return {
      configure(setup) {
        configured ??= (async () => {
          for (const worker of workers) worker.postMessage({ setup } satisfies WorkerSetupMessage)
          try {
            await Promise.all(ready)
          } catch (error) {
            await Promise.all(workers.map((worker) => worker.terminate()))
            throw error
          }
          return new AnalysisPool(workers)
        })()
        return configured
      },
      async cancel() {
        if (!configured) await Promise.all(workers.map((worker) => worker.terminate()))
      },
    }
  }

  /** Starts `size` workers and waits until each has built its analyzers. */
  static start(size: number, setup: WorkerSetup): Promise<AnalysisPool> {
    return AnalysisPool.boot(size).configure(setup)
  }

  get size(): number {
    return this.workers.length
  }

  analyze(path: string, language: FileLanguage, text: string): Promise<PoolResult> {
    if (this.failure) return Promise.reject(this.failure)
    return new Promise<PoolResult>((resolve, reject) => {
      this.queue.push({ task: { id: this.nextId++, path, language, text }, pending: { resolve, reject } })
      this.dispatch()
    })
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const worker = this.leastLoaded()
      if (!worker) return
      const next = this.queue.shift()
      if (!next) return
      this.pending.set(next.task.id, { ...next.pending, worker })
      this.load.set(worker, (this.load.get(worker) ?? 0) + 1)
      worker.postMessage(next.task)
    }
  }

  private leastLoaded(): Worker | undefined {
    let best: Worker | undefined
    let bestLoad = TASKS_IN_FLIGHT_PER_WORKER
    for (const [worker, load] of this.load) {
      if (load < bestLoad) {
        best = worker
        bestLoad = load
      }
    }
    return best
  }

  private onReply(worker: Worker, reply: WorkerReply): void {
    if ('ready' in reply) return
    const pending = this.pending.get(reply.id)
    if (!pending) return
    this.pending.delete(reply.id)
    this.load.set(worker, Math.max(0, (this.load.get(worker) ?? 1) - 1))
    if (reply.ok) pending.resolve({ result: reply.result, metrics: reply.metrics })
    else pending.reject(new Error(reply.error))
    this.dispatch()
  }

  private fail(error: Error): void {
    this.failure ??= error
    for (const pending of this.pending.values()) pending.reject(error)
    this.pending.clear()
    for (const queued of this.queue.splice(0)) queued.pending.reject(error)
  }

  async close(): Promise<void> {
    this.failure ??= new Error('analysis pool closed')
    await Promise.all(this.workers.map((worker) => worker.terminate()))
  }
}

function waitUntilReady(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: WorkerReply) => {
      if ('ready' in reply) {
        cleanup()
        resolve()
      }
    }
    const onError = (error: Error) => {
      cleanup()
      reject(error)
    }
    const onExit = (code: number) => {
      cleanup()
      reject(new Error(`analysis worker exited with code ${code} while starting`))
    }
    const cleanup = () => {
      worker.off('message', onMessage)
      worker.off('error', onError)
      worker.off('exit', onExit)
    }
    worker.on('message', onMessage)
    worker.on('error', onError)
    worker.on('exit', onExit)
  })
}
