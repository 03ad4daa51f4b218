/** The graphile-worker task list: every background job the service runs, by task identifier. */
import type { TaskList } from 'graphile-worker'

export const TASKS: TaskList = {}
