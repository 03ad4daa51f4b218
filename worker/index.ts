/**
 * The background worker: graphile-worker over its own pool (every client gets an error handler,
 * so a dropped connection is logged instead of crashing the process), completions written
 * immediately so a stop never leaves a finished job locked, and a listener for scan cancels.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import { Logger as WorkerLogger, run, type Runner } from 'graphile-worker'
import pg from 'pg'
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
  const cancellations = new CancelRegistry()
  const cancels = new EventListener(options.connectionString, [CANCEL_CHANNEL], options.logger)
  await cancels.start()
  cancels.on(CANCEL_CHANNEL, (scanId) => cancellations.cancel(scanId))
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.concurrency + 2 })
  pool.on('error', (error) => options.logger.warn('worker pool error', { error }))
  pool.on('connect', (client) => client.on('error', (error) => options.logger.warn('worker client error', { error })))
  const taskList = createTaskList({ orm: options.orm, cancellations, logger: options.logger, maxFileBytes: options.maxFileBytes, ...(options.scanLimits && { scanLimits: options.scanLimits }) })
  let runner: Runner
  try {
    runner = await run({
      pgPool: pool,
      taskList,
      concurrency: options.concurrency,
      noHandleSignals: true,
      pollInterval: 1000,
      parsedCronItems: [],
      logger: workerLogger(options.logger),
      preset: { worker: { completeJobBatchDelay: -1, failJobBatchDelay: -1 } },
    })
  } catch (error) {
    await cancels.close()
    await pool.end()
    throw error
  }
  options.logger.info('worker started', { concurrency: options.concurrency, tasks: Object.keys(taskList) })
  return {
    stop: async () => {
      cancellations.shutdown()
      await runner.stop()
      await cancels.close()
      await pool.end()
    },
  }
}
