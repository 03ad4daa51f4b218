/**
 * `parapet scan --rules`: given several times, naming files or folders (every .yml/.yaml file
 * inside, recursively), in Parapet's format or Semgrep's; the problems of every file are
 * reported together, each naming its file, rule, line and what is wrong.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from './support/cli.ts'
import { tempTree } from './support/helpers.ts'

const RUN_TIMEOUT = 150_000

/** A rule in Parapet's (ast-grep's) format finding calls of `callee` in Python. */
function callRule(id: string, callee: string): string {
  return `id: ${id}\nlanguage: python\nseverity: low\nmessage: ${callee} called\nrule:\n  pattern: ${callee}($$$)\n`
}

const APP = { 'app/main.py': 'import os\nos.system(cmd)\neval(code)\nexec(code)\nprint(code)\n' }

function scan(dir: string, rulesArgs: string[]) {
  return runCli([join(dir, 'app'), ...rulesArgs, '--no-builtin-rules', '--analyzers', 'sast'], RUN_TIMEOUT)
}

function ruleIdsOf(stdout: string): string[] {
  return (JSON.parse(stdout) as { findings: Array<{ ruleId: string }> }).findings.map((finding) => finding.ruleId).sort()
}

describe('parapet scan --rules', { timeout: RUN_TIMEOUT + 10_000 }, () => {
  it('takes --rules several times, files and folders, reading every .yml and .yaml file of a folder recursively', () => {
    const dir = tempTree({
      ...APP,
      'one.yml': callRule('one', 'os.system'),
      'team/two.yaml': callRule('two', 'eval'),
      'team/nested/deeper/three.yml': callRule('three', 'exec'),
      'team/README.md': 'id: not-a-rule\n',
      'team/notes.txt': callRule('ignored', 'print'),
    })
    const result = scan(dir, ['--rules', join(dir, 'one.yml'), '--rules', join(dir, 'team')])
    expect(result.status, result.stderr).toBe(0)
    expect(ruleIdsOf(result.stdout)).toEqual(['one', 'three', 'two'])
  })

  it('reads a file once when it is named and its folder too', () => {
    const dir = tempTree({ ...APP, 'team/one.yml': callRule('one', 'os.system') })
    const result = scan(dir, ['--rules', join(dir, 'team/one.yml'), '--rules', join(dir, 'team')])
    expect(result.status, result.stderr).toBe(0)
    expect(ruleIdsOf(result.stdout)).toEqual(['one'])
  })

  it('refuses a folder without rule files, and a path that does not exist, as usage errors', () => {
    const dir = tempTree({ ...APP, 'empty/notes.txt': 'nothing here' })
    const empty = scan(dir, ['--rules', join(dir, 'empty')])
    expect(empty.status).toBe(2)
    expect(empty.stderr).toContain(`--rules ${join(dir, 'empty')}: the folder holds no .yml or .yaml file`)
    const missing = scan(dir, ['--rules', join(dir, 'missing')])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toContain(`cannot read rules ${join(dir, 'missing')}`)
    expect(missing.stdout).toBe('')
  })

  it('reports the problems of every file together, a Semgrep feature it cannot run named with its file, rule and line', () => {
    const semgrep = 'rules:\n  - id: joined\n    message: m\n    severity: WARNING\n    languages: [python]\n    mode: join\n    join: {}\n'
    const dir = tempTree({ ...APP, 'rules/a-semgrep.yaml': semgrep, 'rules/b-ours.yml': callRule('ours', 'eval').replace('language: python', 'language: cobol') })
    const result = scan(dir, ['--rules', join(dir, 'rules')])
    expect(result.status).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`${join(dir, 'rules/a-semgrep.yaml')}: rule "joined" (line 6): mode: join is not supported`)
    expect(result.stderr).toContain(`${join(dir, 'rules/b-ours.yml')}: rule "ours" (line 2): unknown language "cobol"`)
  })

  it('refuses one rule id in two files, but not the rules a Semgrep rule of several languages becomes', () => {
    const semgrep = 'rules:\n  - id: eval-anywhere\n    message: eval of $X\n    severity: ERROR\n    languages: [python, javascript, typescript]\n    pattern: eval($X)\n'
    const dir = tempTree({ ...APP, 'rules/one.yml': callRule('one', 'os.system'), 'rules/semgrep.yml': semgrep, 'more/one.yml': callRule('one', 'exec') })
    const twice = scan(dir, ['--rules', join(dir, 'rules'), '--rules', join(dir, 'more')])
    expect(twice.status).toBe(2)
    expect(twice.stderr).toContain(`${join(dir, 'more/one.yml')}: rule "one" (line 1): duplicate rule id (also defined in ${join(dir, 'rules/one.yml')})`)
    expect(twice.stderr).not.toContain('eval-anywhere')
  })

  it("runs a Semgrep rule file unchanged under the sast analyzer, with the rule's id as the finding's and SARIF's rule id", () => {
    const semgrep = [
      'rules:',
      '  - id: eval-of-input',
      '    message: eval() runs $X',
      '    severity: WARNING',
      '    languages: [python, javascript]',
      '    metadata:',
      '      cwe: ["CWE-95: Improper Neutralization of Directives in Dynamically Evaluated Code"]',
      '      owasp: "A03:2021 - Injection"',
      '    patterns:',
      '      - pattern: eval($X)',
      '      - pattern-not: eval("...")',
      '',
    ].join('\n')
    const dir = tempTree({ 'app/main.py': 'eval(code)\neval("1 + 1")\n', 'app/web.js': 'eval(req.query.q)\n', 'rules/semgrep.yaml': semgrep })
    const json = scan(dir, ['--rules', join(dir, 'rules')])
    expect(json.status, json.stderr).toBe(0)
    const findings = (JSON.parse(json.stdout) as { findings: Array<Record<string, unknown>> }).findings
    expect(findings.map((finding) => [finding['ruleId'], finding['analyzer'], finding['filePath'], finding['lineNumber'], finding['description'], finding['severity']]).sort()).toEqual([
      ['eval-of-input', 'sast', 'main.py', 1, 'eval() runs code', 'medium'],
      ['eval-of-input', 'sast', 'web.js', 1, 'eval() runs req.query.q', 'medium'],
    ])
    expect(findings[0]).toMatchObject({ category: 'code-injection', cweIds: ['CWE-95'], owaspCategory: 'A03:2021 - Injection' })

    const sarif = runCli([join(dir, 'app'), '--rules', join(dir, 'rules/semgrep.yaml'), '--no-builtin-rules', '--analyzers', 'sast', '--format', 'sarif'], RUN_TIMEOUT)
    expect(sarif.status, sarif.stderr).toBe(0)
    const [run] = (JSON.parse(sarif.stdout) as { runs: Array<{ results: Array<{ ruleId: string }>; tool: { driver: { rules: Array<{ id: string }> } } }> }).runs
    expect(run?.results.map((result) => result.ruleId)).toEqual(['eval-of-input', 'eval-of-input'])
    expect(run?.tool.driver.rules.map((rule) => rule.id)).toEqual(['eval-of-input'])
  })

  it('lists --rules in its help, with folders and Semgrep files', () => {
    expect(runCli(['--help']).stdout).toMatch(/--rules <file\|folder> {6}extra rules: a YAML file in Parapet's rule format or a\n\s+Semgrep rule file/)
  })
})
