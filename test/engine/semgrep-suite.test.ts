/**
 * Semgrep rules run unchanged: the annotated suite in test/engine/semgrep-suite/ (rules written
 * from Semgrep's documentation, targets in Python, JavaScript, TypeScript, Java and Go) is
 * checked the way `semgrep --test` checks it, one test per rule file, so a failure names the
 * file and its lines. Also: the suite covers every operator in every language it must, findings
 * carry what the rules' severity and metadata say, and the runner itself reports a wrong
 * annotation, a wrong fix and a broken rule file.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'
import { describe, expect, it } from 'vitest'
import { fixtureLanguage } from '../../src/engine/rules/fixtures.ts'
import { describeFailures, findRuleFiles, ruleTestAnnotations, runRuleTests, targetsOf, testRuleFile } from '../../src/engine/semgrep/test-runner.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { projectRoot } from './support/cli.ts'
import { tempTree } from './support/helpers.ts'

const SUITE = fileURLToPath(new URL('./semgrep-suite/', import.meta.url))
const RULE_FILES = findRuleFiles(SUITE)

describe('the Semgrep rule suite', () => {
  for (const ruleFile of RULE_FILES) {
    it(`${ruleFile} reports exactly its ruleid: lines`, async () => {
      const result = await testRuleFile(SUITE, ruleFile)
      expect(describeFailures(result), `${ruleFile} (targets ${result.targets.join(', ')})`).toEqual([])
    })
  }
})

/** Every Semgrep key used anywhere in a rule file's rules. */
function operatorsOf(ruleFile: string): Set<string> {
  const keys = new Set<string>()
  const visit = (value: unknown, parent: string | null) => {
    if (Array.isArray(value)) value.forEach((item) => visit(item, parent))
    else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        keys.add(key)
        if (key === 'language' && parent === 'metavariable-pattern') keys.add('metavariable-pattern.language')
        if (key === 'mode' && child === 'taint') keys.add('mode: taint')
        visit(child, key)
      }
    }
  }
  visit((parseYaml(readFileSync(join(SUITE, ruleFile), 'utf8')) as { rules: unknown[] }).rules, null)
  return keys
}

describe('the suite covers', () => {
  const OPERATORS = [
    'pattern', 'patterns', 'pattern-either', 'pattern-not', 'pattern-inside', 'pattern-not-inside', 'pattern-regex',
    'pattern-not-regex', 'metavariable-regex', 'metavariable-pattern', 'metavariable-pattern.language',
    'metavariable-comparison', 'focus-metavariable', 'mode: taint', 'pattern-sources', 'pattern-sinks',
    'pattern-sanitizers', 'pattern-propagators', 'by-side-effect', 'paths', 'fix', 'metadata',
  ]
  const LANGUAGES: Record<string, string[]> = { python: ['python'], 'javascript or typescript': ['javascript', 'typescript'], java: ['java'], go: ['go'] }
  for (const [name, folders] of Object.entries(LANGUAGES)) {
    it(`every operator in ${name}`, () => {
      const used = new Set(RULE_FILES.filter((file) => folders.some((folder) => file.startsWith(`${folder}/`))).flatMap((file) => [...operatorsOf(file)]))
      expect(OPERATORS.filter((operator) => !used.has(operator))).toEqual([])
    })
  }

  it('every rule with at least one ruleid: case', () => {
    const unexercised = RULE_FILES.flatMap((ruleFile) => {
      const ids = (parseYaml(readFileSync(join(SUITE, ruleFile), 'utf8')) as { rules: Array<{ id: string }> }).rules.map((rule) => rule.id)
      const positive = new Set(
        targetsOf(SUITE, ruleFile).flatMap((target) => {
          const text = readFileSync(join(SUITE, target), 'utf8')
          const language = fixtureLanguage(target, text)
          return language ? ruleTestAnnotations(text, language).filter((annotation) => annotation.kind.endsWith('ruleid')).map((annotation) => annotation.ruleId) : []
        }),
      )
      return ids.filter((id) => !positive.has(id)).map((id) => `${ruleFile}: ${id}`)
    })
    expect(unexercised).toEqual([])
  })

  it('typed metavariables in Java, Go and TypeScript', () => {
    const texts = (folder: string) => RULE_FILES.filter((file) => file.startsWith(`${folder}/`)).map((file) => readFileSync(join(SUITE, file), 'utf8')).join('\n')
    expect(texts('java')).toMatch(/\((?:[\w.]+) \$[A-Z_]+\)\./)
    expect(texts('go')).toMatch(/\(\$[A-Z_]+ : \*?[\w.]+\)\./)
    expect(texts('typescript')).toMatch(/\(\$[A-Z_]+: \w+\)\./)
  })
})

describe('findings of Semgrep rules', () => {
  const findingsOf = async (ruleFile: string): Promise<Map<string, Finding>> => {
    const result = await testRuleFile(SUITE, ruleFile)
    return new Map(Object.values(result.findings).flat().map((finding) => [finding.ruleId, finding]))
  }

  it('carry the rule id, the sast analyzer, the severity (new and legacy names) and the metadata', async () => {
    const findings = await findingsOf('python/metadata.yaml')
    const pickle = findings.get('python-pickle-loads')
    expect(pickle).toMatchObject({
      analyzer: 'sast',
      severity: 'critical',
      cweIds: ['CWE-502'],
      owaspCategory: 'A08:2021 - Software and Data Integrity Failures',
      category: 'insecure-deserialization',
      description: 'pickle.loads() deserializes session_blob, which can run arbitrary code',
    })
    expect(JSON.stringify(pickle)).toContain('https://docs.python.org/3/library/pickle.html')
    const severities = Object.fromEntries([...findings].map(([id, finding]) => [id, finding.severity]))
    expect(severities).toEqual({
      'python-pickle-loads': 'critical',
      'python-marshal-loads': 'high',
      'python-assert-used': 'medium',
      'python-print-debug': 'low',
      'python-eval-call': 'high',
      'python-exec-call': 'medium',
      'python-input-call': 'low',
    })
    expect(findings.get('python-assert-used')?.description).toBe('assert check(state) is removed when Python runs with -O')
    // confidence: HIGH against LOW, whatever numbers they become
    expect(pickle?.confidence).toBeGreaterThan(findings.get('python-marshal-loads')?.confidence ?? 1)
  })

  it('interpolate metavariables (ellipsis metavariables, those of a taint rule sink, pattern-regex named groups) in messages in every language', async () => {
    expect((await findingsOf('javascript/metadata.yaml')).get('js-document-write')).toMatchObject({
      description: 'document.write() of banner.html',
      severity: 'medium',
      cweIds: ['CWE-79'],
      owaspCategory: 'A03:2021 - Injection',
    })
    expect((await findingsOf('java/metadata.yaml')).get('java-system-exit')).toMatchObject({ description: 'System.exit(3) stops the whole server', severity: 'low' })
    expect((await findingsOf('java/metadata.yaml')).get('java-xxe-document-builder')).toMatchObject({ severity: 'high', cweIds: ['CWE-611'], category: 'xxe' })
    const popen = (await testRuleFile(SUITE, 'python/pattern.yaml')).findings['python/pattern.py']?.find((finding) => finding.ruleId === 'python-popen-shell' && finding.lineNumber === 53)
    expect(popen?.description).toBe('subprocess.Popen(["tar", "czf", name], cwd=directory) runs its command through a shell')
    expect((await findingsOf('python/taint.yaml')).get('python-flask-sql-injection')).toMatchObject({
      description: 'cursor runs a query built from request data',
      analyzer: 'sast',
      cweIds: ['CWE-89'],
      category: 'sql-injection',
    })
    expect((await findingsOf('go/regex.yaml')).get('go-internal-http-url')?.description).toBe('billing.corp.example.com is called over plain HTTP')
    expect((await findingsOf('go/metadata.yaml')).get('go-template-html-unescaped')).toMatchObject({
      description: 'template.HTML(comment) turns off escaping',
      severity: 'medium',
      cweIds: ['CWE-79'],
    })
  })
})

describe('the rule test runner', () => {
  const EVAL_RULE = ['id: eval-call', 'language: python', 'rule:', '  pattern: eval($X)', 'message: eval of $X', 'severity: warning', 'fix: safe_eval($X)', ''].join('\n')

  it('fails a rule file on a missed ruleid: line, an ok: line reported and an unannotated finding; todo cases only count', async () => {
    const folder = tempTree({
      'eval.yaml': EVAL_RULE,
      'eval.py': [
        'x = input()',
        '# ruleid: eval-call',
        'eval(x)',
        '# ruleid: eval-call',
        'print(x)',
        '# ok: eval-call',
        'eval(x + "1")',
        'eval(x)',
        '# todoruleid: eval-call',
        'exec(x)',
        'eval(x)  # ruleid: eval-call',
        '',
      ].join('\n'),
    })
    const report = await runRuleTests(folder)
    expect(report.passed).toBe(false)
    const [file] = report.files
    expect(file?.ruleFile).toBe('eval.yaml')
    expect(file?.todo).toBe(1)
    expect(file?.rules).toEqual([
      expect.objectContaining({ ruleId: 'eval-call', passed: false, tp: 2, tn: 0, fp: 2, fn: 1, expected: ['eval.py:3', 'eval.py:5', 'eval.py:11'] }),
    ])
    expect(file && describeFailures(file)).toEqual([
      'eval-call: expected lines [eval.py:3, eval.py:5, eval.py:11], reported lines [eval.py:3, eval.py:7, eval.py:8, eval.py:11]',
      '  eval.py:5: missed (ruleid)',
      '  eval.py:7: reported, annotated ok',
      '  eval.py:8: reported without a ruleid annotation',
    ])
  })

  it('passes a Semgrep rule file whose annotations hold, and fails the same file with one wrong annotation', async () => {
    const rule = ['rules:', '  - id: md5-used', '    pattern: hashlib.md5(...)', '    message: md5', '    languages: [python]', '    severity: WARNING', ''].join('\n')
    const target = (annotation: string) => ['import hashlib', `# ${annotation}: md5-used`, 'hashlib.md5(b"x")', '# ok: md5-used', 'hashlib.sha256(b"x")', ''].join('\n')
    const good = await runRuleTests(tempTree({ 'md5.yaml': rule, 'md5.py': target('ruleid') }))
    expect(good.files.map((file) => describeFailures(file))).toEqual([[]])
    expect(good.passed).toBe(true)
    const wrong = await runRuleTests(tempTree({ 'md5.yaml': rule, 'md5.py': target('ok') }))
    expect(wrong.passed).toBe(false)
    expect(wrong.totals).toMatchObject({ files: 1, passedFiles: 0, fp: 1, tn: 1 })
  })

  it('compares the fixed text with <name>.fixed.<ext>', async () => {
    const source = ['# ruleid: eval-call', 'value = eval(expression)', '']
    const folder = tempTree({
      'eval.yaml': EVAL_RULE,
      'eval.py': source.join('\n'),
      'eval.fixed.py': ['# ruleid: eval-call', 'value = eval_safely(expression)', ''].join('\n'),
    })
    const [file] = (await runRuleTests(folder)).files
    expect(file?.passed).toBe(false)
    expect(file?.problems).toEqual([
      'eval.fixed.py: the fixed text differs from eval.py with its fixes applied:\n    line 2: expected "value = eval_safely(expression)", got "value = safe_eval(expression)"',
    ])
  })

  it('reports a rule file that does not load, an annotation naming an unknown rule and a rule file without targets', async () => {
    const folder = tempTree({
      'broken.yaml': 'rules:\n  - id: broken\n    languages: [python]\n    message: m\n    severity: WARNING\n',
      'broken.py': 'eval(x)\n',
      'typo.yaml': EVAL_RULE,
      'typo.py': '# ruleid: eval-cal\neval(x)\n',
      'lonely.yaml': EVAL_RULE,
    })
    const report = await runRuleTests(folder)
    const byFile = Object.fromEntries(report.files.map((file) => [file.ruleFile, file]))
    expect(byFile['broken.yaml']?.passed).toBe(false)
    expect(byFile['broken.yaml']?.problems.join('\n')).toMatch(/^invalid rule: broken\.yaml: rule "broken"/)
    expect(byFile['typo.yaml']?.problems).toContain('typo.py:1: ruleid names "eval-cal", which typo.yaml does not define')
    expect(byFile['lonely.yaml']?.problems).toEqual(['lonely.yaml: no test target (expected a file such as lonely.py beside it)'])
  })

  it('as `npm run test:rules -- <folder>`: prints a summary like semgrep --test and exits 1 on a failure', () => {
    const folder = tempTree({ 'eval.yaml': EVAL_RULE, 'eval.py': '# ok: eval-call\neval(x)\n' })
    const run = (target: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', join(projectRoot, 'src/engine/semgrep/test-runner.ts'), target], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 })
    const failed = run(folder)
    expect(failed.status).toBe(1)
    expect(failed.stdout).toContain('1 yaml files tested')
    expect(failed.stdout).toMatch(/✖ eval-call\s+TP: 0 TN: 0 FP: 1 FN: 0/)
    expect(failed.stdout).toContain('0/1 rule files passed')
    const fixed = tempTree({ 'eval.yaml': EVAL_RULE, 'eval.py': '# ruleid: eval-call\neval(x)\n' })
    const passed = run(fixed)
    expect(passed.status).toBe(0)
    expect(passed.stdout).toMatch(/✔ eval-call\s+TP: 1 TN: 0 FP: 0 FN: 0/)
    expect(run(join(fixed, 'missing')).status).toBe(2)
  })
})
