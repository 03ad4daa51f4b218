/**
 * Tenants write rules and upload files: a rule or a file built to take forever must cost a
 * bounded amount of time, and the rest of the scan must go on.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { LogEvent } from '../../src/engine/index.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { ruleYaml, source } from './support/helpers.ts'
import { EVAL_RULE, SLOW_RULE, slowFile } from './support/hostile.ts'

describe('a rule regex built for catastrophic backtracking', () => {
  it('is never run on a backtracking engine: the scan finishes with the rule\'s findings', async () => {
    const rules = parseRulesText(ruleYaml({ id: 'js.backtracking', language: 'javascript', rule: "\n  kind: string\n  regex: '(a|a)*c'", message: 'backtracking' }))
    const logs: LogEvent[] = []
    const report = await scanSources(
      // the only `c` of bait.js comes after the run of a's: a backtracking search tries 2^40 ways first
      [source('bait.js', `s = "${'a'.repeat(40)}b" + c\n`), source('hit.js', 't = "aac"\n')],
      { analyzers: ['sast'], builtinRules: false, extraRules: rules, onLog: (event) => logs.push(event) },
    )
    expect(report.findings.map((finding) => [finding.ruleId, finding.filePath])).toEqual([['js.backtracking', 'hit.js']])
    expect(report.stats.skipped).toEqual({})
  })
})

describe('a file whose analysis runs past the file time limit', () => {
  it('is skipped with the reason, its worker replaced, and the other files analyzed', async () => {
    const rules = parseRulesText(`${SLOW_RULE}\n---\n${EVAL_RULE}`)
    const logs: LogEvent[] = []
    const report = await scanSources([source('slow.js', slowFile()), source('a.js', 'eval(x)\n'), source('b.js', 'eval(y)\n')], {
      analyzers: ['sast'],
      builtinRules: false,
      extraRules: rules,
      fileTimeoutMs: 1500,
      onLog: (event) => logs.push(event),
    })
    expect(report.stats.skipped).toEqual({ timeout: 1 })
    expect(logs).toContainEqual({
      level: 'warning',
      message: 'skipped slow.js: timeout (analysis of slow.js exceeded 1.5 s)',
      data: { path: 'slow.js', reason: 'timeout', detail: 'analysis of slow.js exceeded 1.5 s' },
    })
    expect(report.findings.map((finding) => [finding.ruleId, finding.filePath])).toEqual([
      ['js.eval', 'a.js'],
      ['js.eval', 'b.js'],
    ])
  })
})

