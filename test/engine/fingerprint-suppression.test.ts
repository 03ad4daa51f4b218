/** Fingerprint stability, deduplication and suppression comments. */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/scan/scan.ts'
import { dedupe } from '../../src/engine/scan/file-analysis.ts'
import { fingerprintOf } from '../../src/engine/core/findings.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { ruleYaml, source } from './support/helpers.ts'

const rules = parseRulesText(
  [
    ruleYaml({ id: 'py.os-system', rule: '\n  pattern: os.system($CMD)' }),
    ruleYaml({ id: 'py.eval', category: 'code-injection', rule: '\n  pattern: eval($X)' }),
    ruleYaml({ id: 'js.eval', language: 'javascript', category: 'code-injection', rule: '\n  pattern: eval($X)' }),
  ].join('\n---\n'),
)
const options = { analyzers: ['sast' as const], builtinRules: false, extraRules: rules }

async function scan(path: string, text: string): Promise<Finding[]> {
  return (await scanSources([source(path, text)], options)).findings
}

describe('fingerprints', () => {
  const original = ['import os', '', 'def run(cmd):', '    os.system(cmd)', ''].join('\n')

  it('survive code added above and the match moving or being reindented', async () => {
    const [before] = await scan('app/run.py', original)
    const moved = ['import os', 'import sys', '', 'def helper():', '    return 1', '', 'def run(cmd):', '  if True:', '        os.system( cmd )', ''].join('\n')
    const [after] = await scan('app/run.py', moved)
    expect(after?.lineNumber).toBe(9)
    expect(after?.fingerprint).toBe(before?.fingerprint)
  })

  it('differ by occurrence index for identical matches, by path and by rule', async () => {
    const twice = await scan('app/run.py', 'os.system(cmd)\nos.system(cmd)\n')
    expect(twice).toHaveLength(2)
    expect(twice[0]?.fingerprint).not.toBe(twice[1]?.fingerprint)
    expect(twice[0]?.fingerprint).toBe(fingerprintOf('py.os-system', 'app/run.py', 'os.system(cmd)', 0))
    expect(twice[1]?.fingerprint).toBe(fingerprintOf('py.os-system', 'app/run.py', 'os.system(cmd)', 1))
    const [elsewhere] = await scan('other/run.py', original)
    const [here] = await scan('app/run.py', original)
    expect(elsewhere?.fingerprint).not.toBe(here?.fingerprint)
  })

  it('keep the first occurrence stable when a different match is inserted before it', async () => {
    const [first] = await scan('a.py', 'os.system(cmd)\n')
    const findings = await scan('a.py', 'os.system(other)\nos.system(cmd)\n')
    expect(findings.find((finding) => finding.lineNumber === 2)?.fingerprint).toBe(first?.fingerprint)
  })
})

describe('deduplication', () => {
  it('merges findings of the same rule on the same span', () => {
    const base = { ruleId: 'r', filePath: 'a.py', lineNumber: 1, columnStart: 1, endLineNumber: 1, columnEnd: 5 } as Finding
    expect(dedupe([base, { ...base }, { ...base, ruleId: 'other' }, { ...base, columnStart: 2 }])).toHaveLength(3)
  })

  it('reports a rule once even when ruleset and built-in rules share an id', async () => {
    const report = await scanSources([source('a.py', 'os.system(cmd)\n')], { ...options, extraRules: [...rules, ...rules.slice(0, 1)] })
    expect(report.findings).toHaveLength(1)
  })
})

describe('suppression comments', () => {
  it('honours parapet-ignore and nosemgrep on the line or the comment line above, with optional rule ids', async () => {
    const text = [
      'os.system(a)  # parapet-ignore',
      '# parapet-ignore: py.os-system',
      'os.system(b)',
      '# nosemgrep: py.eval, py.os-system',
      'os.system(c)',
      'os.system(d)  # nosemgrep',
      '# parapet-ignore: py.eval',
      'os.system(e)',
      'x = "parapet-ignore"; os.system(f)',
      'os.system(g)  # parapet-ignore',
      'os.system(h)',
      '',
    ].join('\n')
    const report = await scanSources([source('s.py', text)], options)
    expect(report.findings.map((finding) => finding.lineNumber)).toEqual([8, 9, 11])
    expect(report.stats.suppressed).toBe(5)
  })

  it('works with the comment syntax of each language', async () => {
    const text = ['eval(a) // parapet-ignore', '/* nosemgrep */', 'eval(b)', '/*', ' * parapet-ignore: js.eval', ' */', 'eval(c)', 'eval(d)', ''].join('\n')
    const report = await scanSources([source('s.js', text)], options)
    expect(report.findings.map((finding) => finding.lineNumber)).toEqual([7, 8])
    expect(report.stats.suppressed).toBe(2)
  })
})
