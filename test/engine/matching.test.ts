/** Rule matching: constraints, utils, metavariables, language sharing, finding fields. */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/scan/scan.ts'
import { emptySastMetrics, patternRootKind } from '../../src/engine/sast/analyzer.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { ruleYaml, source } from './support/helpers.ts'

const sastOnly = { analyzers: ['sast' as const], builtinRules: false }

describe('matching', () => {
  it('applies constraints and utils, and substitutes metavariables in message and fix', async () => {
    const rules = parseRulesText(
      ruleYaml({
        rule: '\n  pattern: os.system($CMD)\n  not: { matches: in-test }',
        constraints: '\n  CMD: { not: { kind: string } }',
        utils: '\n  in-test: { inside: { kind: function_definition, has: { field: name, regex: "^test_" }, stopBy: end } }',
        message: 'os.system() runs $CMD in a shell',
        fix: 'subprocess.run(shlex.split($CMD), check=True)',
      }),
    )
    const text = ['import os', 'def handler(request):', '    os.system(request.args["cmd"])', '    os.system("ls -l")', 'def test_it():', '    os.system(cmd)', ''].join('\n')
    const { findings } = await scanSources([source('app/handler.py', text)], { ...sastOnly, extraRules: rules })
    expect(findings).toHaveLength(1)
    const [finding] = findings
    expect(finding).toMatchObject({
      ruleId: 'test.command-injection.os-system',
      analyzer: 'sast',
      modelUsed: 'parapet-sast/1.0',
      filePath: 'app/handler.py',
      language: 'python',
      lineNumber: 3,
      columnStart: 5,
      columnEnd: 35,
      endLineNumber: 3,
      category: 'command-injection',
      severity: 'high',
      confidence: 0.8,
      title: 'OS command from a variable',
      description: 'os.system() runs request.args["cmd"] in a shell',
      codeSnippet: '    os.system(request.args["cmd"])',
      contextBefore: 'import os\ndef handler(request):',
      contextAfter: '    os.system("ls -l")\ndef test_it():\n    os.system(cmd)',
      remediation: 'Pass arguments as a list.',
      remediationCode: 'subprocess.run(shlex.split(request.args["cmd"]), check=True)',
      cweIds: ['CWE-78'],
      owaspCategory: 'A03:2021 - Injection',
      cvssScore: 8.8,
      tags: [],
    })
    expect(finding?.explanation).toContain('Matched `os.system(request.args["cmd"])` in app/handler.py at line 3, column 5.')
    expect(finding?.fingerprint).toMatch(/^[0-9a-f]{64}$/)
  })

  it('runs javascript rules on JS, JSX, TS and TSX, and typescript rules only on TS and TSX', async () => {
    const rules = parseRulesText(
      [
        ruleYaml({ id: 'js.eval', language: 'javascript', rule: '\n  pattern: eval($X)', message: 'eval of $X' }),
        ruleYaml({ id: 'ts.any-cast', language: 'typescript', rule: '\n  pattern: $X as any', message: 'cast of $X' }),
      ].join('\n---\n'),
    )
    const files = [
      source('a.js', 'eval(a)\n'),
      source('b.jsx', 'const el = <div>{eval(b)}</div>\n'),
      source('c.ts', 'const x: number = eval(c) as any\n'),
      source('d.tsx', 'const el = <div>{eval(d)}</div>\n'),
    ]
    const { findings } = await scanSources(files, { ...sastOnly, extraRules: rules })
    expect(findings.map((finding) => `${finding.filePath} ${finding.ruleId} ${finding.language}`)).toEqual([
      'a.js js.eval javascript',
      'b.jsx js.eval javascript',
      'c.ts js.eval typescript',
      'c.ts ts.any-cast typescript',
      'd.tsx js.eval tsx',
    ])
  })

  it('parses each file once for all rules and skips files no rule can match', async () => {
    const rules = parseRulesText(
      [
        ruleYaml({ id: 'r.one', rule: '\n  pattern: os.system($X)' }),
        ruleYaml({ id: 'r.two', rule: '\n  pattern: subprocess.call($X, shell=True)' }),
        ruleYaml({ id: 'r.three', rule: '\n  pattern: pickle.loads($X)' }),
      ].join('\n---\n'),
    )
    const metrics = emptySastMetrics()
    const files = [source('a.py', 'os.system(x)\nsubprocess.call(y, shell=True)\n'), source('b.py', 'print("hello")\n'), source('c.py', 'pickle.loads(data)\n')]
    const { findings } = await scanSources(files, { ...sastOnly, extraRules: rules, sastMetrics: metrics })
    expect(findings.map((finding) => finding.ruleId)).toEqual(['r.one', 'r.two', 'r.three'])
    expect(metrics).toMatchObject({ filesParsed: 2, filesNotParsed: 1, ruleRuns: 3, ruleRunsSkipped: 6 })
  })

  it('reports multi-line matches with the first line and the exclusive end column of that line', async () => {
    const rules = parseRulesText(ruleYaml({ id: 'js.exec', language: 'javascript', rule: '\n  pattern: exec($$$ARGS)', message: 'exec($$$ARGS)', fix: 'execFile($$$ARGS)' }))
    const text = 'const a = 1\nexec(\n  cmd,\n  opts\n)\n'
    const { findings } = await scanSources([source('m.js', text)], { ...sastOnly, extraRules: rules })
    expect(findings[0]).toMatchObject({ lineNumber: 2, columnStart: 1, columnEnd: 6, endLineNumber: 5, codeSnippet: 'exec(\n  cmd,\n  opts\n)' })
    expect(findings[0]?.description).toBe('exec(cmd, opts)')
    expect(findings[0]?.remediationCode).toBe('execFile(cmd,\n  opts)')
  })

  it('keeps scanning when a file cannot be analyzed and reports rule failures through onLog', async () => {
    const rules = parseRulesText(ruleYaml({ id: 'js.eval', language: 'javascript', rule: '\n  pattern: eval($X)' }))
    const { findings, stats } = await scanSources([source('broken.js', 'eval(((\n'), source('ok.js', 'eval(x)\n')], { ...sastOnly, extraRules: rules })
    expect(findings.map((finding) => finding.filePath)).toContain('ok.js')
    expect(stats.filesScanned).toBe(2)
  })

  it('skips a rule when the parsed file lacks the kind of node it matches', async () => {
    const rules = parseRulesText(ruleYaml({ id: 'r.eval', rule: '\n  pattern: eval($X)' }))
    const metrics = emptySastMetrics()
    // Both files contain the word; only the second has a call.
    const files = [source('a.py', 'note = "eval(x) is dangerous"\n'), source('b.py', 'eval(x)\n')]
    const { findings } = await scanSources(files, { ...sastOnly, extraRules: rules, sastMetrics: metrics })
    expect(findings.map((finding) => finding.filePath)).toEqual(['b.py'])
    expect(metrics).toMatchObject({ filesParsed: 2, ruleRuns: 1, ruleRunsSkipped: 1 })
  })

  it('runs a rule on a file with only the alternatives whose words it contains, and not at all with none', async () => {
    const rules = parseRulesText(
      ruleYaml({
        id: 'r.deserialize',
        rule: '\n  any:\n    - pattern: $LIB.loads($X)\n    - pattern: yaml.unsafe_load($X)',
        constraints: '\n  LIB: { regex: "^(pickle|marshal)$" }',
        message: 'deserializes $X',
      }),
    )
    const metrics = emptySastMetrics()
    const files = [
      // the rule's words as a whole (loads or unsafe_load), but neither alternative's: not run
      source('a.py', 'from ruamel import unsafe_load_all\nprint(unsafe_load_all)\n'),
      // only the yaml alternative can match; LIB's constraint goes with the other one
      source('b.py', 'import yaml\nyaml.unsafe_load(doc)\n'),
      source('c.py', 'pickle.loads(blob)\njson.loads(text)\nyaml.unsafe_load(doc)\n'),
    ]
    const { findings } = await scanSources(files, { ...sastOnly, extraRules: rules, sastMetrics: metrics })
    expect(findings.map((finding) => `${finding.filePath}:${finding.lineNumber} ${finding.description}`)).toEqual([
      'b.py:2 deserializes doc',
      'c.py:1 deserializes blob',
      'c.py:3 deserializes doc',
    ])
    expect(metrics).toMatchObject({ ruleRuns: 2, ruleRunsSkipped: 1, ruleErrors: 0 })
  })

  it('holds a metavariable listed as exact texts to exactly those texts, escaped dots included', async () => {
    const rules = parseRulesText(
      ruleYaml({
        id: 'r.shell-call',
        rule: '\n  pattern: $F($CMD)',
        constraints: "\n  F: { regex: '^(os\\.popen|subprocess\\.getoutput|popen)$' }",
        message: '$F runs $CMD',
      }),
    )
    const text = ['os.popen(a)', 'os_popen(b)', 'subprocess.getoutput(c)', 'subprocess.getoutput_all(d)', 'popen(e)', 'xpopen(f)', 'popen2(g)', ''].join('\n')
    const metrics = emptySastMetrics()
    const { findings } = await scanSources([source('run.py', text)], { ...sastOnly, extraRules: rules, sastMetrics: metrics })
    expect(findings.map((finding) => `${finding.lineNumber} ${finding.description}`)).toEqual(['1 os.popen runs a', '3 subprocess.getoutput runs c', '5 popen runs e'])
    expect(metrics.ruleErrors).toBe(0)
  })

  it('checks constraints on what a rule matched: around the captured node, inside it, and for one match or many in a file', async () => {
    const rules = parseRulesText(
      [
        ruleYaml({
          id: 'r.eval-in-untrusted',
          rule: '\n  pattern: eval($X)',
          constraints: "\n  X: { inside: { stopBy: end, kind: function_definition, regex: 'untrusted' } }",
        }),
        ruleYaml({
          id: 'r.eval-built-command',
          rule: '\n  pattern: eval($X)',
          constraints: "\n  X: { kind: binary_operator, has: { kind: string, regex: 'cmd' } }",
        }),
      ].join('\n---\n'),
    )
    // one asks ast-grep about one match, two about another, many about several (one call for the file)
    const one = ['def untrusted_view(code):', '    eval(code)', 'def view(code):', '    eval(("cmd") + code)', ''].join('\n')
    const two = ['eval("cmd " + code)', ''].join('\n')
    const many = ['eval("cmd " + a)', 'eval("sh " + b)', 'eval(c + "cmd")', 'eval(d + e)', 'eval("cmd")', 'eval("run " + "cmd " + f)', ''].join('\n')
    const metrics = emptySastMetrics()
    const files = [source('one.py', one), source('two.py', two), source('many.py', many)]
    const { findings } = await scanSources(files, { ...sastOnly, extraRules: rules, sastMetrics: metrics })
    expect(findings.map((finding) => `${finding.ruleId} ${finding.filePath}:${finding.lineNumber}`).sort()).toEqual([
      'r.eval-built-command many.py:1',
      'r.eval-built-command many.py:3',
      'r.eval-built-command two.py:1',
      'r.eval-in-untrusted one.py:2',
    ])
    expect(metrics.ruleErrors).toBe(0)
  })

  it("ties a constraint's pattern to the match's own captures", async () => {
    const rules = parseRulesText(ruleYaml({ id: 'r.increment', rule: '\n  pattern: $A = $B', constraints: '\n  B: { pattern: $A + 1 }' }))
    const files = [source('count.py', ['x = x + 1', 'x = y + 1', 'y = y + 2', ''].join('\n')), source('alone.py', 'z = w + 1\n')]
    const { findings } = await scanSources(files, { ...sastOnly, extraRules: rules })
    expect(findings.map((finding) => `${finding.filePath}:${finding.lineNumber}`)).toEqual(['count.py:1'])
  })

  it('decides a condition on the whole file once: a rule needing what the file lacks does not run, one excluding it does', async () => {
    // words and kinds cannot tell: both files say import, both have a module
    const imports = "{ kind: module, stopBy: end, regex: '^import' }"
    const rules = parseRulesText(
      [
        ruleYaml({ id: 'r.needs', rule: `\n  pattern: eval($X)\n  inside: ${imports}` }),
        ruleYaml({ id: 'r.needs-in-all', rule: `\n  all:\n    - pattern: eval($X)\n    - inside: ${imports}` }),
        ruleYaml({ id: 'r.excludes', rule: `\n  pattern: eval($X)\n  not: { inside: ${imports} }` }),
      ].join('\n---\n'),
    )
    const metrics = emptySastMetrics()
    const files = [source('a.py', 'from x import y\neval(a)\n'), source('b.py', 'import x\nif x:\n    eval(b)\n')]
    const { findings } = await scanSources(files, { ...sastOnly, extraRules: rules, sastMetrics: metrics })
    expect(findings.map((finding) => `${finding.ruleId} ${finding.filePath}:${finding.lineNumber}`).sort()).toEqual([
      'r.excludes a.py:2',
      'r.needs b.py:3',
      'r.needs-in-all b.py:3',
    ])
    expect(metrics).toMatchObject({ ruleRuns: 4, ruleRunsSkipped: 2, ruleErrors: 0 })
  })

  it('knows the node kind a pattern matches, and nothing for a lone metavariable', () => {
    expect(patternRootKind('python', 'eval($X)')).toBe('call')
    expect(patternRootKind('javascript', '$FS.$METHOD($FILE $$$)')).toBe('call_expression')
    expect(patternRootKind('javascript', '$T[$K] = $S[$K]')).toBe('assignment_expression')
    expect(patternRootKind('typescript', 'new Function($$$ARGS)')).toBe('new_expression')
    expect(patternRootKind('javascript', '$X')).toBeNull()
    expect(patternRootKind('javascript', { context: 'x', selector: 'pair' })).toBeNull()
  })
})
