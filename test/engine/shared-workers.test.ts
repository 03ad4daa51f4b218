/**
 * The process's analysis workers outlive scans: the next scan runs on the same processes, and
 * aborting one scan kills only the workers busy with its files, while a concurrent scan goes on.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { analysisWorkerPids, cpuSeconds, isRunning, waitFor } from '../support/processes.ts'
import { source } from './support/helpers.ts'
import { EVAL_RULE, SLOW_RULE, slowFile } from './support/hostile.ts'

const evalScan = { analyzers: ['sast' as const], builtinRules: false, extraRules: parseRulesText(EVAL_RULE) }
const evalFiles = (prefix: string) => [1, 2, 3].map((index) => source(`${prefix}${index}.js`, `eval(input${index})\n`))

describe('analysis workers shared by the scans of a process', () => {
  it('runs two scans in a row on the same worker processes', async () => {
    const first = await scanSources(evalFiles('first'), { ...evalScan, workers: 1 })
    const afterFirst = analysisWorkerPids(process.pid)
    const second = await scanSources(evalFiles('second'), { ...evalScan, workers: 1 })

    expect(first.findings).toHaveLength(3)
    expect(second.findings).toHaveLength(3)
    expect(afterFirst).not.toEqual([])
    expect(analysisWorkerPids(process.pid)).toEqual(afterFirst)
  })

  it('stops an aborted scan at once, and a concurrent scan completes on the workers it did not use', async () => {
    await scanSources(evalFiles('warm'), { ...evalScan, workers: 2 })
    const workers = analysisWorkerPids(process.pid)
    expect(workers).toHaveLength(2)

    const controller = new AbortController()
    const stuck = scanSources([source('slow.js', slowFile())], { analyzers: ['sast'], builtinRules: false, extraRules: parseRulesText(SLOW_RULE), workers: 2, signal: controller.signal })
    stuck.catch(() => undefined)
    const cpuBefore = new Map(workers.map((pid) => [pid, cpuSeconds(pid)]))
    const grinding = await waitFor(
      () => workers.filter((pid) => cpuSeconds(pid) - (cpuBefore.get(pid) ?? 0) >= 2),
      (pids) => pids.length === 1,
      60_000,
      'a worker to grind on slow.js',
    )
    const other = workers.filter((pid) => !grinding.includes(pid))
    const concurrent = scanSources(evalFiles('concurrent'), { ...evalScan, workers: 2 })
    controller.abort(new Error('stopped by the test'))

    await expect(stuck).rejects.toThrow('stopped by the test')
    expect((await concurrent).findings.map((finding) => finding.filePath)).toEqual(['concurrent1.js', 'concurrent2.js', 'concurrent3.js'])
    await waitFor(() => grinding.filter(isRunning), (running) => running.length === 0, 10_000, 'the grinding worker to end')
    expect(analysisWorkerPids(process.pid)).toEqual(expect.arrayContaining(other))
  })
})
