/**
 * `parapet scan --format text`: the report a person reads. Findings grouped by file in path
 * order, each with its severity, location, title, rule, message and code line with a caret under
 * a one-line match; a data-flow finding's path in short; a summary; colour only when asked for
 * or on a terminal, never in an --output file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_RUN_TIMEOUT, runCliPiped } from './support/cli-terminal.ts'
import { ruleYaml, tempTree } from './support/helpers.ts'

const RULES = [
  ruleYaml({ id: 'py.os-system', severity: 'critical' }),
  ruleYaml({ id: 'py.weak-hash', rule: '\n  pattern: hashlib.md5($X)', severity: 'low', title: 'Weak hash', message: 'md5 of $X', category: 'weak-hash', cwe: '[CWE-328]' }),
].join('\n---\n')

const APP = {
  'app/b.py': 'import os\nif ready:\n\tos.system(cmd)\nos.system(\n    cmd2)\n',
  'app/a/z.py': 'import hashlib\nhashlib.md5(data)\n',
}

/** The custom rules alone over `app/`: a report that changes only when the CLI does. */
function scanApp(dir: string, extra: string[], env: Record<string, string> = { NO_COLOR: '1' }) {
  return runCliPiped([join(dir, 'app'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--analyzers', 'sast', ...extra], env)
}

function scanText(dir: string, extra: string[] = [], env?: Record<string, string>) {
  return scanApp(dir, ['--format', 'text', ...extra], env)
}

describe('parapet scan --format text', { timeout: 3 * CLI_RUN_TIMEOUT }, () => {
  it('groups findings by file in path order, shows each code line with a caret under a one-line match, and ends with a summary', () => {
    const dir = tempTree({ ...APP, 'rules.yml': RULES })
    const result = scanText(dir)
    expect(result.status, result.stderr).toBe(0)
    expect(result.stdout.replace(/in \d+(\.\d)? s\n$/, 'in <duration>\n')).toBe(
      [
        'a/z.py',
        '  2:1     low       Weak hash  py.weak-hash',
        '          md5 of data',
        '          2 | hashlib.md5(data)',
        '            | ^^^^^^^^^^^^^^^^^',
        '',
        'b.py',
        '  3:2     critical  OS command from a variable  py.os-system',
        '          os.system() runs cmd',
        '          3 | \tos.system(cmd)',
        '            | \t^^^^^^^^^^^^^^',
        '  4:1     critical  OS command from a variable  py.os-system',
        '          os.system() runs cmd2',
        '          4 | os.system(',
        '          5 |     cmd2)',
        '',
        '3 findings (2 critical, 1 low) in 2 files',
        'Scanned 2 files (7 lines) in <duration>',
        '',
      ].join('\n'),
    )
    expect(result.stderr).toBe('')
  })

  it("shows a data-flow finding's path from source to sink, and says when there is nothing to report", () => {
    const views = 'from flask import request\nfrom lib.runner import run\n\n\ndef handle():\n    name = request.args.get("name")\n    run(name)\n'
    const runner = 'import os\n\n\ndef run(arg):\n    command = "ls " + arg\n    os.system(command)\n'
    const dir = tempTree({ 'app/views.py': views, 'app/lib/runner.py': runner, 'clean/readme.txt': 'nothing to see\n', 'clean/hello.py': 'print("hello")\n' })
    const flow = runCliPiped([join(dir, 'app'), '--format', 'text', '--analyzers', 'dataflow'], { NO_COLOR: '1' })
    expect(flow.status, flow.stderr).toBe(0)
    expect(flow.stdout).toContain('lib/runner.py\n  6:5     critical')
    expect(flow.stdout).toContain('flow: views.py:6 request.args (HTTP query parameter) -> lib/runner.py:6 shell command of os.system() (3 steps between)\n')
    const clean = runCliPiped([join(dir, 'clean'), '--format', 'text', '--analyzers', 'sast'], { NO_COLOR: '1' })
    expect(clean.status, clean.stderr).toBe(0)
    expect(clean.stdout).toMatch(/^No findings\nScanned 1 file \(1 line\) in \d+(\.\d)? s; skipped 1: 1 unsupported\n$/)
  })

  it('colours severities when FORCE_COLOR is set, and writes an --output file without colour', () => {
    const dir = tempTree({ ...APP, 'rules.yml': RULES })
    const coloured = scanText(dir, [], { FORCE_COLOR: '1' })
    expect(coloured.status, coloured.stderr).toBe(0)
    expect(coloured.stdout).toContain('\x1b[1;97;41mcritical\x1b[0m')
    expect(coloured.stdout).toContain('\x1b[36mlow\x1b[0m')
    const plain = scanText(dir, [], { NO_COLOR: '1' })
    expect(plain.stdout).not.toContain('\x1b[')

    const output = join(dir, 'report.txt')
    const written = scanText(dir, ['--output', output], { FORCE_COLOR: '1' })
    expect(written.status, written.stderr).toBe(0)
    expect(written.stdout).toBe('')
    const file = readFileSync(output, 'utf8')
    expect(file).toContain('b.py\n  3:2     critical  OS command from a variable  py.os-system\n')
    expect(file).not.toContain('\x1b[')
  })

  it('with --baseline, lists only the new findings and says how many the baseline holds', () => {
    const dir = tempTree({ ...APP, 'rules.yml': RULES })
    const baseline = join(dir, 'baseline.sarif')
    expect(scanApp(dir, ['--format', 'sarif', '--output', baseline]).status).toBe(0)
    writeFileSync(join(dir, 'app/c.py'), 'import os\nos.system(other)\n')
    const result = scanText(dir, ['--baseline', baseline, '--fail-on', 'high'])
    expect(result.status, result.stderr).toBe(1)
    expect(result.stdout).toMatch(/^c\.py\n  2:1     critical  OS command from a variable  py\.os-system\n/)
    expect(result.stdout).not.toContain('b.py')
    expect(result.stdout).toContain('\n1 new finding (1 critical) in 1 file; 3 in the baseline (not shown), 0 gone since\nScanned 3 files (9 lines)')
  })
})
