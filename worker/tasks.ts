/**
 * The graphile-worker task list: every background job the service runs, by task identifier.
 *
 * graphile-worker records a task's outcome (job deleted, or failed and rescheduled) right after
 * the task settles, without awaiting the write and without retrying a refused connection: in a
 * database outage the record is lost (an unhandled rejection) and the job stays locked for four
 * hours. So a task that failed because the database is unreachable waits for it before settling.
 * What it throws is recorded as the job's `last_error`, which tenants read: a short reason only.
 */
import type { Task, TaskList } from 'graphile-worker'
import { isDatabaseUnavailable, waitForDatabase } from '../src/db/unavailable.ts'
import { RUN_SCAN_TASK } from '../src/modules/scans/scan.service.ts'
import { failureReason } from './failure-reason.ts'
import { createRunScanTask, type RunScanDependencies } from './run-scan.ts'

export function createTaskList(deps: RunScanDependencies): TaskList {
  return { [RUN_SCAN_TASK]: settlingAfterOutages(createRunScanTask(deps), deps) }
}

function settlingAfterOutages(task: Task, deps: Pick<RunScanDependencies, 'orm' | 'logger'>): Task {
  return async (payload, helpers) => {
    try {
      return await task(payload, helpers)
    } catch (error) {
      if (isDatabaseUnavailable(error)) {
        deps.logger.warn('job failed: the database is unreachable; waiting for it to record the attempt', { job: helpers.job.id, task: helpers.job.task_identifier })
        await waitForDatabase(deps.orm, { signal: helpers.abortSignal })
      }
      throw new Error(failureReason(error), { cause: error })
    }
  }
}
