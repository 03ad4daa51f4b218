/**
 * `parapet scan --baseline <sarif>`: a scan compared with an earlier SARIF report by fingerprint
 * reports only what is new, in JSON and in SARIF (where each result says `baselineState: "new"`),
 * and --fail-on looks at those findings alone. A baseline that is not such a report is refused.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './support/cli.ts'
import { tempTree } from './support/helpers.ts'
import { sarifSchemaErrors } from './support/sarif-schema.ts'

/** A full run (built-in rules, every analyzer) starts the rules and analysis workers: slow on a loaded machine. */
const RUN_TIMEOUT = 150_000

const OLD_CODE = ['import os', 'from flask import request', '', '', 'def run():', '    command = request.args.get("c")', '    target = "ls " + command', '    os.system(target)', '']

/** A vulnerable function of six lines, put above the old code, which moves down by as many. */
const NEW_FUNCTION = ['def lookup(cursor):', '    name = request.form["name"]', '    query = "SELECT * FROM users WHERE name = \'" + name + "\'"', '    cursor.execute(query)', '', '']

interface SarifResultView {
  ruleId: string
  baselineState?: string
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }>
  partialFingerprints: Record<string, string>
}
interface SarifView {
  runs: Array<{ results: SarifResultView[]; properties: { baseline?: unknown } }>
}
interface JsonReportView {
  findings: Array<{ ruleId: string; filePath: string; lineNumber: number; analyzer: string }>
  baseline?: unknown
}

function firstRun(): { dir: string; baseline: string; results: SarifResultView[] } {
  const dir = tempTree({ 'app/app.py': OLD_CODE.join('\n') })
  const baseline = join(dir, 'baseline.sarif')
  const first = runCli([join(dir, 'app'), '--format', 'sarif', '--output', baseline], RUN_TIMEOUT)
  expect(first.status, first.stderr).toBe(0)
  const results = (JSON.parse(readFileSync(baseline, 'utf8')) as SarifView).runs[0]?.results ?? []
  expect(results.map((result) => [result.ruleId, result.locations[0]?.physicalLocation.region.startLine])).toContainEqual(['dataflow.python.command-injection', 8])
  return { dir, baseline, results }
}

describe('parapet scan --baseline', { timeout: 4 * RUN_TIMEOUT }, () => {
  it('reports nothing new when the tree is the one the baseline was made from', () => {
    const { dir, baseline, results } = firstRun()
    const json = runCli([join(dir, 'app'), '--baseline', baseline, '--fail-on', 'info'], RUN_TIMEOUT)
    expect(json.status, json.stderr).toBe(0)
    const report = JSON.parse(json.stdout) as JsonReportView
    expect(report.findings).toEqual([])
    expect(report.baseline).toEqual({ new: 0, unchanged: results.length, absent: 0 })

    const sarif = runCli([join(dir, 'app'), '--baseline', baseline, '--format', 'sarif', '--fail-on', 'info'], RUN_TIMEOUT)
    expect(sarif.status, sarif.stderr).toBe(0)
    const log = JSON.parse(sarif.stdout) as SarifView
    expect(log.runs[0]?.results).toEqual([])
    expect(sarifSchemaErrors(log)).toEqual([])
  })

  it('reports only the finding of a function added above the old code, marked new, and fails on it', () => {
    const { dir, baseline } = firstRun()
    writeFileSync(join(dir, 'app/app.py'), [...OLD_CODE.slice(0, 4), ...NEW_FUNCTION, ...OLD_CODE.slice(4)].join('\n'))
    const newLines = { from: 5, to: 5 + NEW_FUNCTION.length - 1 }

    const sarif = runCli([join(dir, 'app'), '--baseline', baseline, '--format', 'sarif', '--fail-on', 'high'], RUN_TIMEOUT)
    expect(sarif.status, sarif.stderr).toBe(1)
    const log = JSON.parse(sarif.stdout) as SarifView
    expect(sarifSchemaErrors(log)).toEqual([])
    const results = log.runs[0]?.results ?? []
    expect(results.map((result) => [result.ruleId, result.locations[0]?.physicalLocation.region.startLine])).toContainEqual(['dataflow.python.sql-injection', 8])
    for (const result of results) {
      expect(result.baselineState).toBe('new')
      expect(result.locations[0]?.physicalLocation.artifactLocation.uri).toBe('app.py')
      expect(result.locations[0]?.physicalLocation.region.startLine).toBeGreaterThanOrEqual(newLines.from)
      expect(result.locations[0]?.physicalLocation.region.startLine).toBeLessThanOrEqual(newLines.to)
    }
    expect(log.runs[0]?.properties.baseline).toEqual({ new: results.length, unchanged: expect.any(Number), absent: 0 })

    // the JSON report narrows the same way; the old command injection, now at line 14, is not in it
    const json = runCli([join(dir, 'app'), '--baseline', baseline], RUN_TIMEOUT)
    expect(json.status, json.stderr).toBe(0)
    const report = JSON.parse(json.stdout) as JsonReportView
    expect(report.findings.map((finding) => [finding.ruleId, finding.lineNumber])).toEqual(results.map((result) => [result.ruleId, result.locations[0]?.physicalLocation.region.startLine]))
    expect(report.findings.map((finding) => finding.ruleId)).not.toContain('dataflow.python.command-injection')
  })

  it('exits with 2 and says why when the baseline is missing, not JSON, not SARIF, or not ours', () => {
    const dir = tempTree({
      'app/app.py': OLD_CODE.join('\n'),
      'text.sarif': 'not json',
      'old.sarif': JSON.stringify({ version: '2.0.0', runs: [] }),
      'other.sarif': JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'other' } }, results: [{ ruleId: 'x', message: { text: 'x' }, partialFingerprints: { primaryLocationLineHash: 'abc:1' } }] }] }),
    })
    const app = join(dir, 'app')
    const cases: Array<[string[], RegExp]> = [
      [['--baseline', join(dir, 'missing.sarif')], /^parapet-scan: cannot read baseline file .*missing\.sarif: ENOENT/],
      [['--baseline', join(dir, 'text.sarif')], /^parapet-scan: baseline file .*text\.sarif is not JSON/],
      [['--baseline', join(dir, 'old.sarif')], /^parapet-scan: baseline file .*old\.sarif: not a SARIF 2\.1\.0 log/],
      [['--baseline', join(dir, 'other.sarif')], /^parapet-scan: baseline file .*other\.sarif: none of its 1 results has a Parapet fingerprint \(partialFingerprints "parapet\/v1"\)/],
      [['--baseline='], /^parapet-scan: --baseline needs a SARIF file/],
    ]
    for (const [args, message] of cases) {
      const result = runCli([app, ...args, '--fail-on', 'info'])
      expect([result.status, result.stdout, result.stderr], args.join(' ')).toEqual([2, '', expect.stringMatching(message)])
    }
    expect(runCli(['--help']).stdout).toMatch(/--baseline <sarif file>/)
  })
})
