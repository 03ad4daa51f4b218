/**
 * The background worker: graphile-worker over its own pool (every client gets an error handler,
 * so a dropped connection is logged instead of crashing the process), with completions written
 * immediately so a stop never leaves a finished job locked.
 */
import { Logger as WorkerLogger, run, type Runner } from 'graphile-worker'
import pg from 'pg'
import type { Logger } from '../src/logger.ts'
import { TASKS } from './tasks.ts'

export interface WorkerOptions {
  connectionString: string
  concurrency: number
  logger: Logger
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
    else if (level === 'info') logger.info(`worker: ${message}`, data)
    else logger.debug(`worker: ${message}`, data)
  })
}

export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.concurrency + 2 })
  pool.on('error', (error) => options.logger.warn('worker pool error', { error }))
  pool.on('connect', (client) => client.on('error', (error) => options.logger.warn('worker client error', { error })))
  let runner: Runner
  try {
    runner = await run({
      pgPool: pool,
      taskList: TASKS,
      concurrency: options.concurrency,
      noHandleSignals: true,
      parsedCronItems: [],
      logger: workerLogger(options.logger),
      pollInterval: 1000,
      preset: { worker: { completeJobBatchDelay: -1, failJobBatchDelay: -1 } },
    })
  } catch (error) {
    await pool.end()
    throw error
  }
  options.logger.info('worker started', { concurrency: options.concurrency, tasks: Object.keys(TASKS) })
  return {
    stop: async () => {
      await runner.stop()
      await pool.end()
    },
  }
}
