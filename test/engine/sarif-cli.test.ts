/** SARIF 2.1.0 output (results, code flows, annotations) and the command-line scanner end to end. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/scan/scan.ts'
import { toSarif, SARIF_SCHEMA } from '../../src/engine/output/sarif.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { runCli } from './support/cli.ts'
import { ruleYaml, source, tempTree } from './support/helpers.ts'
import { EVAL_RULE, SLOW_RULE, slowFile } from './support/hostile.ts'
import { sarifSchemaErrors } from './support/sarif-schema.ts'

const rulesText = [
  ruleYaml({ id: 'py.os-system', rule: '\n  pattern: os.system($CMD)', severity: 'critical', cvss: '9.8', confidence: '0.95', tags: '[shell]', fix: 'subprocess.run([$CMD])' }),
  ruleYaml({ id: 'py.weak-hash', category: 'weak-hash', severity: 'low', cwe: '[CWE-328]', owasp: '"A02:2021 - Cryptographic Failures"', rule: '\n  pattern: hashlib.md5($X)', message: 'md5 of $X', cvss: '3.1', confidence: '0.5' }),
].join('\n---\n')
const rules = parseRulesText(rulesText)

describe('toSarif', () => {
  it('renders a valid-looking SARIF 2.1.0 log', async () => {
    const text = 'import os, hashlib\nos.system(cmd)\nhashlib.md5(data)\nos.system(cmd2)\n'
    const report = await scanSources([source('src/my app.py', text)], { analyzers: ['sast'], builtinRules: false, extraRules: rules })
    const sarif = toSarif(report, { rules })
    expect(sarif.$schema).toBe(SARIF_SCHEMA)
    expect(sarif.version).toBe('2.1.0')
    const [run] = sarif.runs
    expect(run?.tool.driver.name).toBe('Parapet')
    expect(run?.tool.driver.version).toMatch(/^\d+\.\d+\.\d+$/)
    expect(run?.tool.driver.rules.map((rule) => rule.id)).toEqual(['py.os-system', 'py.weak-hash'])
    expect(run?.tool.driver.rules[0]).toMatchObject({
      shortDescription: { text: 'OS command from a variable' },
      fullDescription: { text: 'os.system() runs $CMD' },
      help: { text: 'Pass arguments as a list.' },
      defaultConfiguration: { level: 'error' },
      properties: { 'security-severity': '9.8', precision: 'very-high', tags: expect.arrayContaining(['security', 'shell', 'external/cwe/cwe-78']) },
    })
    expect(run?.tool.driver.rules[1]?.defaultConfiguration.level).toBe('note')
    expect(run?.results).toHaveLength(3)
    expect(run?.results[0]).toEqual({
      ruleId: 'py.os-system',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'os.system() runs cmd' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'src/my%20app.py', uriBaseId: '%SRCROOT%' },
            region: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 15, snippet: { text: 'os.system(cmd)' } },
          },
        },
      ],
      partialFingerprints: { 'parapet/v1': report.findings[0]?.fingerprint },
      properties: expect.objectContaining({ severity: 'critical', category: 'command-injection' }),
    })
    expect(run?.results.map((result) => result.ruleIndex)).toEqual([0, 1, 0])
    expect(run?.results[0]).not.toHaveProperty('codeFlows')
    expect(sarifSchemaErrors(sarif)).toEqual([])
  })

  it("renders a data-flow finding's path as a code flow: source, each step, sink, at relative paths and their lines", async () => {
    const views = 'from flask import request\nfrom lib.runner import run\n\n\ndef handle():\n    name = request.args.get("name")\n    run(name)\n'
    const runner = 'import os\n\n\ndef run(arg):\n    command = "ls " + arg\n    os.system(command)\n'
    const report = await scanSources([source('web app/views.py', views), source('lib/runner.py', runner)], { analyzers: ['dataflow'] })
    const sarif = toSarif(report)
    const [result] = sarif.runs[0]?.results ?? []
    expect(result?.ruleId).toBe('dataflow.python.command-injection')
    const step = (uri: string, startLine: number, text: string, message: string) => ({
      location: { physicalLocation: { artifactLocation: { uri, uriBaseId: '%SRCROOT%' }, region: { startLine, snippet: { text } } }, message: { text: message } },
    })
    expect(result?.codeFlows).toEqual([
      {
        message: { text: 'From request.args (HTTP query parameter) to shell command of os.system()' },
        threadFlows: [
          {
            locations: [
              { ...step('web%20app/views.py', 6, 'name = request.args.get("name")', 'request.args (HTTP query parameter)'), kinds: ['acquire', 'taint'] },
              step('web%20app/views.py', 6, 'name = request.args.get("name")', 'assigned to name'),
              step('web%20app/views.py', 7, 'run(name)', 'passed to run() as arg'),
              step('lib/runner.py', 5, 'command = "ls " + arg', 'assigned to command'),
              { ...step('lib/runner.py', 6, 'os.system(command)', 'shell command of os.system()'), kinds: ['taint', 'danger'] },
            ],
          },
        ],
      },
    ])
    expect(sarifSchemaErrors(sarif)).toEqual([])
  })

  it("adds the caller's baseline state and suppressions to each result, as SARIF names them", async () => {
    const text = 'import os, hashlib\nos.system(cmd)\nhashlib.md5(data)\n'
    const report = await scanSources([source('app.py', text)], { analyzers: ['sast'], builtinRules: false, extraRules: rules })
    const sarif = toSarif(report, {
      rules,
      annotate: (finding) =>
        finding.ruleId === 'py.weak-hash'
          ? { baselineState: 'unchanged', suppressions: [{ kind: 'external', status: 'accepted', justification: 'checksums only' }] }
          : { baselineState: 'new' },
    })
    const results = sarif.runs[0]?.results ?? []
    expect(results.map((result) => [result.ruleId, result.baselineState, result.suppressions])).toEqual([
      ['py.os-system', 'new', undefined],
      ['py.weak-hash', 'unchanged', [{ kind: 'external', status: 'accepted', justification: 'checksums only' }]],
    ])
    expect(results[0]).not.toHaveProperty('suppressions')
    expect(sarifSchemaErrors(sarif)).toEqual([])
    // without annotations a result says nothing of baselines or suppressions
    expect(toSarif(report, { rules }).runs[0]?.results.map((result) => Object.keys(result).filter((key) => key === 'baselineState' || key === 'suppressions'))).toEqual([[], []])
  })
})

describe('cli', () => {
  it('scans a folder and prints JSON, SARIF to a file, and sets the exit code from --fail-on', () => {
    const dir = tempTree({ 'app/main.py': 'import os\nos.system(cmd)\n', 'rules.yml': rulesText })
    const json = runCli([join(dir, 'app'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--analyzers', 'sast'])
    expect(json.stderr).not.toMatch(/error/i)
    expect(json.status).toBe(0)
    const report = JSON.parse(json.stdout) as { findings: Array<{ ruleId: string; filePath: string }>; stats: { filesScanned: number } }
    expect(report.findings.map((finding) => [finding.ruleId, finding.filePath])).toEqual([['py.os-system', 'main.py']])
    expect(report.stats.filesScanned).toBe(1)

    const output = join(dir, 'out.sarif')
    const sarif = runCli([join(dir, 'app'), '--format', 'sarif', '--output', output, '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--fail-on', 'high'])
    expect(sarif.status).toBe(1)
    const log = JSON.parse(readFileSync(output, 'utf8')) as { version: string; runs: Array<{ results: unknown[] }> }
    expect(log.version).toBe('2.1.0')
    expect(log.runs[0]?.results).toHaveLength(1)

    const notSevereEnough = runCli([join(dir, 'app'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--fail-on', 'critical', '--analyzers', 'sast'])
    expect(notSevereEnough.status).toBe(1)
    const clean = runCli([join(dir, 'app', '..'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--analyzers', 'secrets', '--fail-on', 'info'])
    expect(clean.status).toBe(0)
  })

  it('exits with 2 and a clear message on a bad folder, a bad rules file or bad options', () => {
    const dir = tempTree({ 'bad.yml': 'id: bad.rule\nlanguage: python\nrule: { pattern: x }\ncategory: nope\n' })
    const missing = runCli([join(dir, 'missing')])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/not a directory/)
    const badRules = runCli([dir, '--rules', join(dir, 'bad.yml')])
    expect(badRules.status).toBe(2)
    expect(badRules.stderr).toMatch(/rule "bad.rule" \(line 4\): unknown category "nope"/)
    const badFormat = runCli([dir, '--format', 'xml'])
    expect(badFormat.status).toBe(2)
    expect(badFormat.stderr).toMatch(/--format must be text, json or sarif/)
  })
  it('exits with 2 naming the limit on a --rules file beyond the rule bounds (a pattern nested 20,000 calls deep)', () => {
    const rule = (pattern: string) => `id: deep.rule\nlanguage: javascript\nrule:\n  pattern: "${pattern}"\nseverity: high\nmessage: m\ntitle: t\ncategory: code-injection\ncwe: [CWE-95]\nowasp: "A03:2021 - Injection"\ncvss: 5\nconfidence: 0.5\nremediation: r\n`
    const dir = tempTree({
      'app/main.js': 'eval(x)\n',
      'long.yml': rule(`${'f('.repeat(20_000)}x${')'.repeat(20_000)}`),
      'nested.yml': rule(`${'f('.repeat(500)}x${')'.repeat(500)}`),
    })
    const long = runCli([join(dir, 'app'), '--rules', join(dir, 'long.yml')])
    expect([long.status, long.stderr]).toEqual([2, expect.stringMatching(/rule "deep\.rule" \(line 4\): rule\.pattern is 60001 characters long, over the limit of 4096/)])
    const nested = runCli([join(dir, 'app'), '--rules', join(dir, 'nested.yml')])
    expect([nested.status, nested.stderr]).toEqual([2, expect.stringMatching(/rule "deep\.rule" \(line 4\): rule\.pattern nests brackets 500 levels deep, over the limit of 64/)])
  })
  it('skips a file whose analysis runs past --file-timeout, and stops at --scan-timeout', () => {
    const dir = tempTree({ 'app/slow.js': slowFile(), 'app/main.js': 'eval(x)\n', 'rules.yml': `${SLOW_RULE}\n---\n${EVAL_RULE}` })
    const skipped = runCli([join(dir, 'app'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--analyzers', 'sast', '--file-timeout', '1.5'])
    expect(skipped.status).toBe(0)
    expect(skipped.stderr).toContain('[warning] skipped slow.js: timeout (analysis of slow.js exceeded 1.5 s)')
    const report = JSON.parse(skipped.stdout) as { findings: Array<{ ruleId: string; filePath: string }>; stats: { skipped: Record<string, number> } }
    expect(report.findings.map((finding) => [finding.ruleId, finding.filePath])).toEqual([['js.eval', 'main.js']])
    expect(report.stats.skipped).toEqual({ timeout: 1 })

    const stopped = runCli([join(dir, 'app'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--analyzers', 'sast', '--file-timeout', '600', '--scan-timeout', '3'])
    expect([stopped.status, stopped.stderr]).toEqual([2, 'parapet-scan: the scan exceeded its time limit of 3 s\n'])
  })
})
