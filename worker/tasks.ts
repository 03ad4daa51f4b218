/** The graphile-worker task list: every background job the service runs, by task identifier. */
import type { TaskList } from 'graphile-worker'
import { RUN_SCAN_TASK } from '../src/modules/scans/scan.service.ts'
import { createRunScanTask, type RunScanDependencies } from './run-scan.ts'

export function createTaskList(deps: RunScanDependencies): TaskList {
  return { [RUN_SCAN_TASK]: createRunScanTask(deps) }
}
