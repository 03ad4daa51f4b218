/** Worker tasks that never finish, or take their worker down, for the tests of worker-pool.ts. */
import type { WorkerTaskFunction } from '../../../src/engine/scan/analysis-worker.ts'

/** Reports progress on `first`, then `second`, then spins forever on the main thread. */
export const spinAfterTwoSteps: WorkerTaskFunction<{ first: string; second: string }, never> = (input, progress) => {
  progress(input.first)
  progress(input.second)
  for (;;) {
    // a synchronous loop: only killing the process ends it
  }
}

/** Kills its own process, as a native crash would. */
export const crash: WorkerTaskFunction<null, never> = () => {
  process.kill(process.pid, 'SIGSEGV')
  return new Promise<never>(() => undefined)
}

export const echo: WorkerTaskFunction<{ value: string }, string> = (input) => input.value
