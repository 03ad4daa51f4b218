/**
 * The scanner as a user runs it from the project: `npx parapet scan <dir>` and the README's
 * `npm run -s scan -- <dir>` print the report alone on stdout, so `> out.json` is valid JSON.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { tempTree } from './support/helpers.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))

/** Each run starts Node, compiles the sources and the built-in rules and starts analysis workers: seconds of CPU, many more on a shared machine. */
const RUN_TIMEOUT = 150_000

function run(command: string, args: string[]) {
  return spawnSync(command, args, { cwd: projectRoot, encoding: 'utf8', timeout: RUN_TIMEOUT, env: { ...process.env, npm_config_update_notifier: 'false' } })
}

describe('parapet scan', { timeout: 2 * RUN_TIMEOUT + 10_000 }, () => {
  it.each([
    ['npx parapet scan', 'npx', ['--no-install', 'parapet', 'scan']],
    ['npm run -s scan', 'npm', ['run', '-s', 'scan', '--']],
  ])('%s prints a JSON report and nothing else on stdout', (_name, command, args) => {
    const dir = tempTree({ 'app.py': 'import os\nos.system("ls " + input())\n' })
    const result = run(command, [...args, dir])
    expect(result.status, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.tool).toBe('parapet')
    expect(report.findings.map((finding: { filePath: string }) => finding.filePath)).toContain('app.py')
  })

  it('runs the full analysis by default, data flow included, and --analyzers narrows it', () => {
    const app = 'from flask import request\nimport os\n\ndef run():\n    command = request.args.get("c")\n    target = "ls " + command\n    os.system(target)\n'
    const dir = tempTree({ 'app.py': app })
    const full = JSON.parse(run('npx', ['--no-install', 'parapet', 'scan', dir]).stdout)
    expect(full.findings.map((finding: { analyzer: string }) => finding.analyzer)).toContain('dataflow')
    expect(full.dataFlows.length).toBeGreaterThan(0)
    const narrowed = JSON.parse(run('npx', ['--no-install', 'parapet', 'scan', dir, '--analyzers', 'sast,secrets']).stdout)
    expect(narrowed.findings.map((finding: { analyzer: string }) => finding.analyzer)).not.toContain('dataflow')
    expect(narrowed.dataFlows).toEqual([])
  })

  it('runs a plain ast-grep rule given with --rules', () => {
    const dir = tempTree({ 'src/app.js': 'function start(port) {\n  console.log(port)\n}\n', 'rules.yml': 'id: no-console-log\nlanguage: javascript\nseverity: info\nmessage: console.log left in code\nrule:\n  pattern: console.log($A)\n' })
    const result = run('npx', ['--no-install', 'parapet', 'scan', `${dir}/src`, '--rules', `${dir}/rules.yml`, '--no-builtin-rules'])
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).findings).toEqual([expect.objectContaining({ ruleId: 'no-console-log', lineNumber: 2, category: 'custom', severity: 'info', owaspCategory: null, remediation: null })])
  })

  it('shows its options with --help, and the other commands with parapet --help', () => {
    expect(run('npx', ['--no-install', 'parapet', 'scan', '--help']).stdout).toMatch(/Usage: parapet scan <dir>/)
    expect(run('npx', ['--no-install', 'parapet', '--help']).stdout).toMatch(/parapet scan <dir>/)
  })
})
