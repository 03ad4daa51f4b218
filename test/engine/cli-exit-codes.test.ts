/**
 * `parapet scan` exit codes, as --help lists them: 0 nothing at or above --fail-on, 1 something
 * is, 2 usage or input error, 3 internal error (the scan failed for a reason that is not its
 * input).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_RUN_TIMEOUT, runCliPiped } from './support/cli-terminal.ts'
import { ruleYaml, tempTree } from './support/helpers.ts'

describe('parapet scan exit codes', { timeout: 4 * CLI_RUN_TIMEOUT }, () => {
  it('lists the exit codes in --help', () => {
    const help = runCliPiped(['--help'])
    expect(help.status).toBe(0)
    expect(help.stdout).toMatch(/Exit codes:\n {2}0 {2}no finding at or above --fail-on \(or no --fail-on\)\n {2}1 {2}a finding at or above --fail-on/)
    expect(help.stdout).toMatch(/\n {2}2 {2}usage or input error/)
    expect(help.stdout).toMatch(/\n {2}3 {2}internal error/)
    expect(help.stdout).toContain('--format text|json|sarif')
  })

  it('exits 0 below --fail-on, 1 at it, 2 on input errors', () => {
    const dir = tempTree({ 'app/main.py': 'import os\nos.system(cmd)\n', 'rules.yml': ruleYaml({ id: 'py.os-system', severity: 'high' }) })
    const scan = (extra: string[]) => runCliPiped([join(dir, 'app'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--analyzers', 'sast', ...extra])
    expect(scan(['--fail-on', 'critical']).status).toBe(0)
    expect(scan(['--fail-on', 'high']).status).toBe(1)
    const unwritable = scan(['--output', join(dir, 'missing-folder', 'report.json')])
    expect([unwritable.status, unwritable.stderr]).toEqual([2, expect.stringContaining(`parapet-scan: cannot write --output ${join(dir, 'missing-folder', 'report.json')}: ENOENT`)])
    const notAFolder = runCliPiped([join(dir, 'app', 'main.py')])
    expect([notAFolder.status, notAFolder.stderr]).toEqual([2, `parapet-scan: not a directory: ${join(dir, 'app', 'main.py')}\n`])
  })

  it('exits 3, naming an internal error, when the scan fails for a reason that is not its input (analysis workers that cannot start)', () => {
    // every process Node starts with this option loads the module first; forked ones (the workers) die at once
    const dir = tempTree({ 'app/main.py': 'print(1)\n', 'kill-workers.mjs': 'if (process.send) process.exit(7)\n' })
    const result = runCliPiped([join(dir, 'app'), '--analyzers', 'sast', '--no-builtin-rules'], { NODE_OPTIONS: `--import ${join(dir, 'kill-workers.mjs')}` })
    expect(result.status, result.stderr).toBe(3)
    expect(result.stderr).toMatch(/^parapet-scan: internal error: .+\n.*please report it/)
    expect(result.stdout).toBe('')
  })
})
