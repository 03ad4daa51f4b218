/** The public scan API: progress, logs, abort, async sources, worker processes. */
import { describe, expect, it } from 'vitest'
import { scanDirectory, scanSources } from '../../src/engine/index.ts'
import type { LogEvent, ScanProgress } from '../../src/engine/index.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { ruleYaml, source, tempTree } from './support/helpers.ts'

const rules = parseRulesText(ruleYaml({ id: 'py.os-system' }))
const options = { analyzers: ['sast' as const], builtinRules: false, extraRules: rules }

describe('scan API', () => {
  it('accepts async iterables, reports progress and logs every stage', async () => {
    async function* generate() {
      yield source('a.py', 'os.system(a)\n')
      yield source('b.py', 'print(1)\n')
      yield source('c.md', '# notes\n')
    }
    const progress: ScanProgress[] = []
    const logs: LogEvent[] = []
    const report = await scanSources(generate(), { ...options, onProgress: (p) => progress.push({ ...p }), onLog: (event) => logs.push(event) })
    expect(report.findings).toHaveLength(1)
    expect(report.rulesRun).toBe(1)
    expect(report.durationMs).toBeGreaterThanOrEqual(0)
    expect(progress.map((p) => p.filesScanned)).toEqual([1, 2, 3])
    const messages = logs.map((event) => event.message)
    expect(messages[0]).toBe('loading rules')
    expect(messages).toEqual(expect.arrayContaining(['analyzing sources', 'skipped c.md: unsupported']))
    expect(messages[messages.length - 1]).toMatch(/^scan complete: 2 files, 1 findings/)
  })

  it('aborts between files', async () => {
    const controller = new AbortController()
    let seen = 0
    async function* endless() {
      for (;;) {
        seen++
        if (seen === 5) controller.abort()
        yield source(`f${seen}.py`, 'os.system(x)\n')
      }
    }
    await expect(scanSources(endless(), { ...options, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' })
    expect(seen).toBeLessThan(8)
    const aborted = AbortSignal.abort()
    await expect(scanDirectory(tempTree({ 'a.py': 'x' }), { ...options, signal: aborted })).rejects.toMatchObject({ name: 'AbortError' })
  })

  it('rejects unknown analyzers', async () => {
    await expect(scanSources([], { analyzers: ['magic' as never] })).rejects.toThrow(/unknown analyzer "magic"/)
  })

  it('runs the data-flow analyzer over the whole repository, keeping one finding per sink', async () => {
    const files = [
      { path: 'app/db.py', content: Buffer.from('def find(cursor, name):\n    cursor.execute("select * from users where name = \'" + name + "\'")\n') },
      {
        path: 'app/views.py',
        content: Buffer.from('from flask import request\nfrom app.db import find\n\ndef search(cursor):\n    name = request.args.get("name")\n    return find(cursor, name)\n'),
      },
    ]
    const logs: LogEvent[] = []
    const withFlow = await scanSources(files, { ...options, analyzers: ['sast', 'dataflow'], onLog: (event) => logs.push(event) })
    expect(logs.map((event) => event.message)).toContain('rules loaded: 1 rules, analyzers sast, dataflow')
    const sink = withFlow.findings.filter((finding) => finding.filePath === 'app/db.py' && finding.lineNumber === 2)
    expect(sink).toHaveLength(1)
    expect(sink[0]).toMatchObject({ analyzer: 'dataflow', category: 'sql-injection', modelUsed: 'parapet-dataflow/1.0' })
    expect(sink[0]?.dataFlow?.source).toMatchObject({ filePath: 'app/views.py', lineNumber: 5 })
    expect(withFlow.dataFlows.length).toBeGreaterThanOrEqual(1)
    const inWorker = await scanSources(files, { ...options, analyzers: ['sast', 'dataflow'], workers: 1 })
    expect(inWorker.findings).toEqual(withFlow.findings)
    expect(inWorker.dataFlows).toEqual(withFlow.dataFlows)
    const patternsOnly = await scanSources(files, { ...options, analyzers: ['sast'] })
    expect(patternsOnly.dataFlows).toEqual([])
    expect(patternsOnly.findings.every((finding) => finding.analyzer === 'sast')).toBe(true)
  })

  it('finds the same findings with worker processes as in the calling thread', async () => {
    const files: Record<string, string> = {}
    for (let index = 0; index < 30; index++) files[`pkg${index % 3}/m${index}.py`] = `import os\n${'x = 1\n'.repeat(index)}os.system(arg${index})\n# parapet-ignore\nos.system(b)\n`
    const dir = tempTree(files)
    const single = await scanDirectory(dir, { ...options, workers: 0 })
    const logs: LogEvent[] = []
    const threaded = await scanDirectory(dir, { ...options, workers: 2, onLog: (event) => logs.push(event) })
    expect(logs.some((event) => event.message === 'analyzing with 2 worker processes')).toBe(true)
    expect(threaded.findings).toEqual(single.findings)
    expect(threaded.findings).toHaveLength(30)
    expect(threaded.stats).toEqual(single.stats)
    expect(threaded.stats.suppressed).toBe(30)
  })

  it('analyzes a small stream of sources in the calling thread, and a large one in worker processes', async () => {
    const sources = (count: number) => Array.from({ length: count }, (_, index) => ({ path: `m${index}.py`, content: Buffer.from(`import os\nos.system(arg${index})\n`) }))
    const threadLog = (logs: LogEvent[]) => logs.find((event) => /^analyzing with \d+ worker processes$/.test(event.message))
    const smallLogs: LogEvent[] = []
    const small = await scanSources(sources(5), { ...options, expectedFiles: 5, onLog: (event) => smallLogs.push(event) })
    expect(threadLog(smallLogs)).toBeUndefined()
    expect(small.findings).toHaveLength(5)
    const largeLogs: LogEvent[] = []
    const large = await scanSources(sources(120), { ...options, expectedFiles: 120, onLog: (event) => largeLogs.push(event) })
    expect(threadLog(largeLogs)).toBeDefined()
    expect(large.findings).toHaveLength(120)
  })
})
