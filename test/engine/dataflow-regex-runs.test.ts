/**
 * Regex runs in function summaries: a regex run on a parameter is judged for ReDoS only once a
 * caller's source data reaches it, and until then it must not take the place of the function's
 * real sinks (a summary keeps a bounded number of parameter sinks). Made-up Express code through
 * the scan API.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import { source } from './support/helpers.ts'

/** More regex runs on the parameter than a summary keeps sinks, then a command sink. */
function helperWithManyChecks(checks: number): string {
  const lines = Array.from({ length: checks }, (_, index) => `  if (/^a${index}b+c$/.test(cmd)) count++`)
  return `const express = require('express')
const { exec } = require('child_process')
const app = express()

function run(cmd) {
  let count = 0
${lines.join('\n')}
  exec('tool ' + cmd)
  return count
}

app.get('/run', (req, res) => {
  res.json({ checks: run(req.query.cmd) })
})
`
}

describe('regex runs in a summary', () => {
  it('leave room for the sinks after them: a command reached through a helper that first runs 250 linear regexes on its argument', async () => {
    const report = await scanSources([source('app.js', helperWithManyChecks(250))], { analyzers: ['dataflow'], workers: 0 })
    const sinks = report.findings.map((finding) => `${finding.lineNumber} ${finding.category}`)
    expect(sinks).toEqual([`${6 + 250 + 1} command-injection`])
  }, 120_000)
})
