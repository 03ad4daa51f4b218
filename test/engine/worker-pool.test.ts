/** Worker processes: tasks and files past their time limit, or whose worker dies, fail alone; the pool goes on. */
import { describe, expect, it } from 'vitest'
import { AnalysisCrashError, AnalysisPool, AnalysisTimeoutError, runIsolatedTask } from '../../src/engine/scan/worker-pool.ts'

const TASKS = new URL('./support/stuck-tasks.ts', import.meta.url).href

describe('runIsolatedTask', () => {
  it('kills a task that stops reporting progress, naming its last step, and one that an abort ends', async () => {
    const stalled = runIsolatedTask(TASKS, 'spinAfterTwoSteps', { first: 'a.js', second: 'b.js' }, { stallTimeoutMs: 1000, label: 'the test task' })
    await expect(stalled).rejects.toThrow(new AnalysisTimeoutError('b.js', 1000))
    await expect(stalled).rejects.toThrow('analysis of b.js exceeded 1 s')

    const controller = new AbortController()
    const aborted = runIsolatedTask(TASKS, 'spinAfterTwoSteps', { first: 'a.js', second: 'b.js' }, { signal: controller.signal, onProgress: (label) => label === 'b.js' && controller.abort(new Error('stopped by the test')) })
    await expect(aborted).rejects.toThrow('stopped by the test')
  })

  it('fails a task whose worker dies with the way it died', async () => {
    await expect(runIsolatedTask(TASKS, 'crash', null, { label: 'the crashing task' })).rejects.toThrow(new AnalysisCrashError('the crashing task', 'SIGSEGV'))
  })
})

describe('AnalysisPool', () => {
  it('replaces a killed worker: the next task runs on a fresh one', async () => {
    const pool = AnalysisPool.start(1)
    try {
      await expect(pool.runTask(TASKS, 'spinAfterTwoSteps', { first: 'a', second: 'b' }, { stallTimeoutMs: 500 })).rejects.toBeInstanceOf(AnalysisTimeoutError)
      await expect(pool.runTask(TASKS, 'echo', { value: 'still here' })).resolves.toBe('still here')
      expect(pool.size).toBe(1)
    } finally {
      await pool.close()
    }
    await expect(pool.runTask(TASKS, 'echo', { value: 'closed' })).rejects.toThrow('analysis pool closed')
  })
})
