/**
 * The background worker: graphile-worker over its own pool (every client gets an error handler,
 * so a dropped connection is logged instead of crashing the process), completions written
 * immediately so a stop never leaves a finished job locked, and a listener for scan cancels.
 * Through a database outage the runner keeps polling, the listeners reconnect, and a runner
 * that ends on its own is replaced.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import { Logger as WorkerLogger, run, type Runner } from 'graphile-worker'
import pg from 'pg'
import { DEFAULT_CONNECT_TIMEOUT_MS } from '../src/db/orm.ts'
import { closeSharedAnalysisPool } from '../src/engine/index.ts'
import { CANCEL_CHANNEL, EventListener } from '../src/events/event-hub.ts'
import type { Logger } from '../src/logger.ts'
import { CancelRegistry } from './cancellations.ts'
import type { ScanLimits } from './run-scan.ts'
import { createTaskList } from './tasks.ts'

export interface WorkerOptions {
  connectionString: string
  orm: MikroORM
  concurrency: number
  logger: Logger
  maxFileBytes: number
  /** time limits of scans and bounds on their rulesets (DEFAULT_SCAN_LIMITS when absent) */
  scanLimits?: ScanLimits
  /** how long opening a database connection may take */
  connectTimeoutMs?: number
}

export interface Worker {
  stop(): Promise<void>
}

/** graphile-worker's log lines through the service's logger (its debug chatter at debug). */
function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    const data = meta && Object.keys(meta).length > 0 ? { meta } : undefined
    if (level === 'error') logger.error(`worker: ${message}`, data)
    else if (level === 'warning') logger.warn(`worker: ${message}`, data)
    // a job finishing is routine: debug; its failures come as warnings and errors
    else if (level === 'info' && !message.startsWith('Completed task')) logger.info(`worker: ${message}`, data)
    else logger.debug(`worker: ${message}`, data)
  })
}

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { logger } = options
  const connectTimeoutMs = options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS
  const cancellations = new CancelRegistry()
  const cancels = new EventListener(options.connectionString, [CANCEL_CHANNEL], logger, { connectTimeoutMs })
  await cancels.start()
  cancels.on(CANCEL_CHANNEL, (scanId) => cancellations.cancel(scanId))
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.concurrency + 2, connectionTimeoutMillis: connectTimeoutMs })
  pool.on('error', (error) => logger.warn('worker pool error', { error }))
  pool.on('connect', (client) => client.on('error', (error) => logger.warn('worker client error', { error })))
  const taskList = createTaskList({ orm: options.orm, cancellations, logger, maxFileBytes: options.maxFileBytes, ...(options.scanLimits && { scanLimits: options.scanLimits }) })
  const startRunner = () =>
    run({
      pgPool: pool,
      taskList,
      concurrency: options.concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      parsedCronItems: [],
      logger: workerLogger(logger),
      preset: { worker: { completeJobBatchDelay: -1, failJobBatchDelay: -1 } },
    })

  let runner: Runner
  try {
    runner = await startRunner()
  } catch (error) {
    await cancels.close()
    await pool.end()
    throw error
  }
  let stopping = false
  let restartTimer: NodeJS.Timeout | undefined

  // graphile-worker ends its runner on an error it does not recover from, and its promise
  // settles with nobody awaiting it: the process would go on without running jobs (or crash on
  // the rejection). A runner that ends without being stopped is replaced, once the database lets it.
  const supervise = (current: Runner) => {
    current.promise.then(
      () => replace(current, undefined),
      (error: unknown) => replace(current, error),
    )
  }
  const replace = (ended: Runner, error: unknown, delayMs = 1000) => {
    if (stopping || ended !== runner) return
    logger.error('worker runner ended unexpectedly; starting a new one', { error })
    restartTimer = setTimeout(() => {
      startRunner().then(
        (next) => {
          if (stopping) return void next.stop().catch(() => undefined)
          runner = next
          supervise(next)
          logger.info('worker runner restarted')
        },
        (startError: unknown) => {
          logger.warn('worker runner could not start; retrying', { error: startError })
          replace(ended, error, Math.min(delayMs * 2, 30_000))
        },
      )
    }, delayMs)
  }
  supervise(runner)

  logger.info('worker started', { concurrency: options.concurrency, tasks: Object.keys(taskList) })
  return {
    stop: async () => {
      cancellations.shutdown()
      stopping = true
      clearTimeout(restartTimer)
      await runner.stop().catch((error: unknown) => logger.warn('worker runner did not stop cleanly', { error }))
      // the analysis workers outlive scans, not the worker
      await closeSharedAnalysisPool()
      await cancels.close()
      await pool.end()
    },
  }
}
