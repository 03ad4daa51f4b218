/**
 * Semgrep rule files in rules_text and --rules: told apart from Parapet's format by shape,
 * compiled to one rule per language with the Semgrep formula attached, metadata mapped to the
 * issue fields, and every unsupported feature refused with the rule, the line and the feature.
 */
import { describe, expect, it } from 'vitest'
import { RuleValidationError, formatRuleProblem, parseRulesText } from '../../src/engine/rules/loader.ts'
import { DEFAULT_RULE_LIMITS } from '../../src/engine/rules/limits.ts'
import type { RuleDocument } from '../../src/engine/core/types.ts'

function problemsOf(text: string, limits = DEFAULT_RULE_LIMITS): string[] {
  try {
    parseRulesText(text, undefined, { limits })
  } catch (error) {
    if (error instanceof RuleValidationError) return error.problems.map(formatRuleProblem)
    throw error
  }
  throw new Error('expected the text to be refused')
}

/** A one-rule Semgrep file; `body` is the rule's keys after id/message/severity/languages, indented by 4. */
function semgrepRule(body: string, head: { id?: string; languages?: string; severity?: string } = {}): string {
  return [
    'rules:',
    `  - id: ${head.id ?? 'no-eval'}`,
    '    message: eval() of $X runs code from its argument',
    `    severity: ${head.severity ?? 'ERROR'}`,
    `    languages: ${head.languages ?? '[python]'}`,
    body,
  ].join('\n')
}

describe('Semgrep rule files: shape and compilation', () => {
  it('compiles a search rule to a rule document carrying its formula, message left for interpolation', () => {
    const rules = parseRulesText(semgrepRule('    pattern: eval($X)'))
    expect(rules).toHaveLength(1)
    const rule = rules[0] as RuleDocument
    expect(rule).toMatchObject({
      id: 'no-eval',
      language: 'python',
      rule: {},
      severity: 'high',
      message: 'eval() of $X runs code from its argument',
      title: 'eval() of $X runs code from its argument',
      category: 'custom',
      cwe: [],
      owasp: null,
    })
    expect(rule.semgrep).toEqual({ mode: 'search', formula: { kind: 'pattern', pattern: 'eval($X)', line: 6 }, line: 2 })
  })

  it('makes one rule document per language, all with the rule id, merging Semgrep aliases of one language', () => {
    const rules = parseRulesText(semgrepRule('    pattern: eval($X)', { languages: '[js, javascript, ts, python3, golang, java]' }))
    expect(rules.map((rule) => [rule.id, rule.language])).toEqual([
      ['no-eval', 'javascript'],
      ['no-eval', 'typescript'],
      ['no-eval', 'python'],
      ['no-eval', 'go'],
      ['no-eval', 'java'],
    ])
    expect(new Set(rules.map((rule) => rule.semgrep))).toHaveProperty('size', 1)
  })

  it('reads several rules of one file, and a Parapet rule text is still read as before', () => {
    const text = `${semgrepRule('    pattern: eval($X)')}\n  - id: no-exec\n    message: exec\n    severity: INFO\n    languages: [python]\n    pattern: exec(...)\n`
    expect(parseRulesText(text).map((rule) => [rule.id, rule.severity])).toEqual([
      ['no-eval', 'high'],
      ['no-exec', 'low'],
    ])
    const ours = parseRulesText('id: no-eval\nlanguage: python\nmessage: eval\nrule:\n  pattern: eval($X)\n')
    expect(ours[0]?.semgrep).toBeUndefined()
    expect(ours[0]?.rule).toEqual({ pattern: 'eval($X)' })
  })

  it('keeps the built-in rules in Parapet\'s format', () => {
    expect(() => parseRulesText(semgrepRule('    pattern: eval($X)'), 'builtin.yml', { builtin: true, limits: null })).toThrow(
      'builtin.yml: document (line 1): built-in rules are written in Parapet\'s rule format, not Semgrep\'s',
    )
  })

  it('refuses a text that mixes the two formats, naming the line of the odd document', () => {
    const text = `${semgrepRule('    pattern: eval($X)')}\n---\nid: ours\nlanguage: python\nmessage: m\nrule:\n  pattern: f()\n`
    expect(problemsOf(text)).toEqual([
      'rule "ours" (line 8): this document is Parapet\'s rule format, but the text is a Semgrep rule file (line 1); put each format in a text of its own',
    ])
  })

  it('maps every severity: ERROR/WARNING/INFO as Semgrep aliases them, the newer ones directly, INVENTORY to info', () => {
    const severities = ['ERROR', 'WARNING', 'INFO', 'CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INVENTORY', 'warning']
    const text = ['rules:', ...severities.map((severity, index) => `  - { id: r${index}, message: m, severity: ${severity}, languages: [go], pattern: f() }`)].join('\n')
    expect(parseRulesText(text).map((rule) => rule.severity)).toEqual(['high', 'medium', 'low', 'critical', 'high', 'medium', 'low', 'info', 'medium'])
    expect(problemsOf(semgrepRule('    pattern: f()', { severity: 'EXPERIMENT' }))).toEqual([
      'rule "no-eval" (line 4): severity EXPERIMENT is not supported (Semgrep does not report experiments; give the rule a severity)',
    ])
    expect(problemsOf(semgrepRule('    pattern: f()', { severity: 'SEVERE' }))[0]).toContain('(line 4): unknown severity "SEVERE"')
  })

  it('fills the issue fields from metadata: CWE ids, the OWASP 2021 entry by its official name, confidence, category, references', () => {
    const rules = parseRulesText(
      semgrepRule(`    pattern: cursor.execute($Q)
    metadata:
      cwe:
        - "CWE-89: Improper Neutralization of Special Elements used in an SQL Command ('SQL Injection')"
        - "CWE-89"
      owasp:
        - "A01:2017 - Injection"
        - "A3:2021-injection"
      confidence: HIGH
      category: security
      subcategory: [vuln]
      vulnerability_class: ["SQL Injection"]
      technology: [django]
      likelihood: MEDIUM
      impact: HIGH
      references:
        - https://owasp.org/Top10/A03_2021-Injection
      source-rule-url: https://example.com/rule`),
    )
    expect(rules[0]).toMatchObject({
      category: 'sql-injection',
      cwe: ['CWE-89'],
      owasp: 'A03:2021 - Injection',
      confidence: 0.9,
      cvss: 7.5,
      remediation: 'See https://owasp.org/Top10/A03_2021-Injection',
      tags: ['django', 'vuln', 'likelihood:medium', 'impact:high'],
    })
  })

  it('takes the category from the CWE when no vulnerability class names one, else custom; leaves odd metadata out', () => {
    const byCwe = parseRulesText(semgrepRule('    pattern: f()\n    metadata: { cwe: "CWE-78: OS Command Injection", owasp: "A1:2017 - Injection", confidence: 3 }'))
    expect(byCwe[0]).toMatchObject({ category: 'command-injection', cwe: ['CWE-78'], owasp: null, confidence: 0.7 })
    const none = parseRulesText(semgrepRule('    pattern: f()\n    metadata: { category: best-practice, cwe: [not a cwe] }', { severity: 'LOW' }))
    expect(none[0]).toMatchObject({ category: 'custom', cwe: [], owasp: null, confidence: 0.5, cvss: 3, remediation: null, tags: [] })
  })

  it('keeps paths (a string or a list), fix, harmless options and versions', () => {
    const rules = parseRulesText(
      semgrepRule(`    pattern: eval($X)
    fix: safe_eval($X)
    paths:
      include: "src/**/*.py"
      exclude: ["*_test.py", tests]
    options:
      constant_propagation: true
      interfile: true
    min-version: 1.0.0
    max-version: "2.0.0"`),
    )
    expect(rules[0]?.fix).toBe('safe_eval($X)')
    expect(rules[0]?.semgrep?.paths).toEqual({ include: ['src/**/*.py'], exclude: ['*_test.py', 'tests'] })
  })

  it('compiles every search operator, with the line of each', () => {
    const rules = parseRulesText(
      semgrepRule(`    patterns:
      - pattern-inside: |
          def $F(...):
            ...
      - pattern-not-inside: |
          with lock:
            ...
      - pattern-either:
          - pattern: subprocess.call($CMD, ...)
          - patterns:
              - pattern: os.system($CMD)
          - pattern-regex: os\\.popen\\((?P<CMD>[^)]*)\\)
          - pattern-inside: run(...)
      - pattern-not: subprocess.call("...", ...)
      - pattern-not:
          pattern-either:
            - pattern: subprocess.call(SAFE, ...)
      - pattern-not-regex: "# trusted"
      - metavariable-regex:
          metavariable: $F
          regex: ^handle_
      - metavariable-pattern:
          metavariable: $CMD
          language: python
          patterns:
            - pattern-not: shlex.quote(...)
      - metavariable-comparison:
          metavariable: $CMD
          comparison: len(str($CMD)) > 3
      - focus-metavariable: $CMD
      - focus-metavariable: [$CMD, $F]`),
    )
    expect(rules[0]?.semgrep?.formula).toEqual({
      kind: 'patterns',
      line: 6,
      clauses: [
        { kind: 'inside', formula: { kind: 'pattern', pattern: 'def $F(...):\n  ...\n', line: 7 } },
        { kind: 'not-inside', formula: { kind: 'pattern', pattern: 'with lock:\n  ...\n', line: 10 } },
        {
          kind: 'positive',
          formula: {
            kind: 'either',
            line: 13,
            of: [
              { kind: 'pattern', pattern: 'subprocess.call($CMD, ...)', line: 14 },
              { kind: 'patterns', line: 15, clauses: [{ kind: 'positive', formula: { kind: 'pattern', pattern: 'os.system($CMD)', line: 16 } }] },
              { kind: 'regex', regex: 'os\\.popen\\((?P<CMD>[^)]*)\\)', line: 17 },
              { kind: 'patterns', line: 18, clauses: [{ kind: 'inside', formula: { kind: 'pattern', pattern: 'run(...)', line: 18 } }] },
            ],
          },
        },
        { kind: 'not', formula: { kind: 'pattern', pattern: 'subprocess.call("...", ...)', line: 19 } },
        { kind: 'not', formula: { kind: 'either', line: 21, of: [{ kind: 'pattern', pattern: 'subprocess.call(SAFE, ...)', line: 22 }] } },
        { kind: 'not-regex', regex: '# trusted', line: 23 },
        { kind: 'metavariable-regex', metavariable: '$F', regex: '^handle_', line: 24 },
        {
          kind: 'metavariable-pattern',
          metavariable: '$CMD',
          language: 'python',
          line: 27,
          formula: { kind: 'patterns', line: 30, clauses: [{ kind: 'not', formula: { kind: 'pattern', pattern: 'shlex.quote(...)', line: 31 } }] },
        },
        { kind: 'metavariable-comparison', metavariable: '$CMD', comparison: 'len(str($CMD)) > 3', line: 32 },
        { kind: 'focus', metavariables: ['$CMD'], line: 35 },
        { kind: 'focus', metavariables: ['$CMD', '$F'], line: 36 },
      ],
    })
  })

  it("writes metavariable-comparison's legacy base and strip as int(), as Semgrep's documentation advises", () => {
    const rules = parseRulesText(
      semgrepRule(`    patterns:
      - pattern: os.chmod($P, $MODE)
      - metavariable-comparison:
          metavariable: $MODE
          comparison: $MODE > 0o600 and $MODES != 1
          base: 8
      - metavariable-comparison:
          metavariable: $P
          comparison: $P > 10
          strip: true`),
    )
    const clauses = rules[0]?.semgrep?.formula?.kind === 'patterns' ? rules[0].semgrep.formula.clauses : []
    expect(clauses.filter((clause) => clause.kind === 'metavariable-comparison').map((clause) => (clause as { comparison: string }).comparison)).toEqual([
      'int($MODE, 8) > 0o600 and $MODES != 1',
      'int($P) > 10',
    ])
  })

  it('compiles a taint rule: sources, sinks, sanitizers, propagators with their options', () => {
    const rules = parseRulesText(
      semgrepRule(`    mode: taint
    pattern-sources:
      - pattern: request.args.get(...)
      - patterns:
          - pattern: $REQ.json
        exact: true
        by-side-effect: true
    pattern-sinks:
      - patterns:
          - pattern: cursor.execute($Q, ...)
          - focus-metavariable: $Q
    pattern-sanitizers:
      - pattern-either:
          - pattern: int(...)
          - pattern: escape(...)
        by-side-effect: false
    pattern-propagators:
      - pattern: $TO.append($FROM)
        from: $FROM
        to: $TO
        by-side-effect: true`),
    )
    const semgrep = rules[0]?.semgrep
    expect(semgrep?.mode).toBe('taint')
    expect(semgrep?.formula).toBeUndefined()
    expect(semgrep?.taint).toEqual({
      sources: [
        { formula: { kind: 'pattern', pattern: 'request.args.get(...)', line: 8 }, line: 8 },
        { formula: { kind: 'patterns', line: 9, clauses: [{ kind: 'positive', formula: { kind: 'pattern', pattern: '$REQ.json', line: 10 } }] }, exact: true, bySideEffect: true, line: 9 },
      ],
      sinks: [
        {
          formula: {
            kind: 'patterns',
            line: 14,
            clauses: [
              { kind: 'positive', formula: { kind: 'pattern', pattern: 'cursor.execute($Q, ...)', line: 15 } },
              { kind: 'focus', metavariables: ['$Q'], line: 16 },
            ],
          },
          line: 14,
        },
      ],
      sanitizers: [
        {
          formula: {
            kind: 'either',
            line: 18,
            of: [
              { kind: 'pattern', pattern: 'int(...)', line: 19 },
              { kind: 'pattern', pattern: 'escape(...)', line: 20 },
            ],
          },
          bySideEffect: false,
          line: 18,
        },
      ],
      propagators: [{ formula: { kind: 'pattern', pattern: '$TO.append($FROM)', line: 23 }, from: '$FROM', to: '$TO', line: 23 }],
    })
  })
})

describe('Semgrep rule files: what is refused, by rule, line and feature', () => {
  const refusals: Array<[string, string, string]> = [
    ['mode: join', '    mode: join\n    join: {}', '(line 6): mode: join is not supported'],
    ['mode: extract', '    mode: extract\n    pattern: f()', '(line 6): mode: extract is not supported'],
    ['the join key', '    join: {}', '(line 6): join rules are not supported'],
    ['pattern-where-python', '    patterns:\n      - pattern: f($X)\n      - pattern-where-python: "True"', '(line 8): pattern-where-python is not supported (it runs arbitrary Python)'],
    ['an r2c-internal key', '    pattern: f()\n    r2c-internal-patterns-from: x', '(line 7): r2c-internal-patterns-from is an internal Semgrep feature and is not supported'],
    ['a semgrep-internal operator', '    patterns:\n      - pattern: f()\n      - semgrep-internal-pattern-anywhere: g()', '(line 8): semgrep-internal-pattern-anywhere is an internal Semgrep feature and is not supported'],
    ['the match: syntax', '    match:\n      any: [f()]', '(line 6): the experimental match: syntax is not supported'],
    ['the taint: syntax', '    taint:\n      sources: [f()]', '(line 6): the experimental taint: syntax is not supported'],
    ['metavariable-analysis', '    patterns:\n      - pattern: re.compile($R)\n      - metavariable-analysis:\n          metavariable: $R\n          analyzer: redos', '(line 8): metavariable-analysis is not supported'],
    ['metavariable-type', '    patterns:\n      - pattern: $X == $Y\n      - metavariable-type:\n          metavariable: $Y\n          type: String', '(line 8): metavariable-type is not supported'],
    ['metavariable-name', '    patterns:\n      - pattern: $M.f()\n      - metavariable-name:\n          metavariable: $M\n          module: foo', '(line 8): metavariable-name is not supported'],
    ['fix-regex', '    pattern: f()\n    fix-regex:\n      regex: f\n      replacement: g', '(line 7): fix-regex is not supported'],
    ['pattern-not-regex at the top', '    pattern-regex: foo\n    pattern-not-regex: foo-', '(line 7): pattern-not-regex is only valid inside patterns'],
    ['pattern-not at the top', '    pattern-not: f()', '(line 6): pattern-not is only valid inside patterns'],
    ['pattern-not in pattern-either', '    pattern-either:\n      - pattern: f()\n      - pattern-not: g()', '(line 8): pattern-not is only valid inside patterns'],
    ['a patterns with no positive operator', '    patterns:\n      - pattern-not: f()', '(line 6): patterns needs at least one positive operator'],
    ['two formulas', '    pattern: f()\n    pattern-regex: f', '(line 7): a rule takes only one of pattern, patterns, pattern-either, pattern-regex'],
    ['no formula', '    metadata: {}', '(line 2): a rule needs one of pattern, patterns, pattern-either, pattern-regex'],
    ['an unknown key', '    pattern: f()\n    pattern-sometimes: g()', '(line 7): unknown field "pattern-sometimes"'],
    ['an unknown operator in patterns', '    patterns:\n      - pattern: f()\n      - pattern-maybe: g()', '(line 8): unknown operator "pattern-maybe" in patterns'],
    ['an option that changes matching', '    pattern: f()\n    options:\n      symbolic_propagation: true', '(line 8): options: symbolic_propagation: true is not supported'],
    ['an unknown option', '    pattern: f()\n    options:\n      fast_and_loose: true', '(line 8): options: fast_and_loose is not supported'],
    ['taint keys in search mode', '    pattern: f()\n    pattern-sinks: [{ pattern: g() }]', '(line 7): pattern-sinks is only valid in mode: taint'],
    ['taint labels', '    mode: taint\n    pattern-sources:\n      - pattern: f()\n        label: USER\n    pattern-sinks:\n      - pattern: g()', '(line 9): pattern-sources: label: taint labels are not supported'],
    ['a sink with requires', '    mode: taint\n    pattern-sources:\n      - pattern: f()\n    pattern-sinks:\n      - pattern: g()\n        requires: USER', '(line 11): pattern-sinks: requires: taint labels are not supported'],
    ['at-exit sinks', '    mode: taint\n    pattern-sources:\n      - pattern: f()\n    pattern-sinks:\n      - pattern: g()\n        at-exit: true', '(line 11): pattern-sinks: at-exit: at-exit sinks are not supported'],
    ['control sources', '    mode: taint\n    pattern-sources:\n      - pattern: f()\n        control: true\n    pattern-sinks:\n      - pattern: g()', '(line 9): pattern-sources: control: control sources are not supported'],
    ['not-conflicting sanitizers', '    mode: taint\n    pattern-sources: [{ pattern: f() }]\n    pattern-sinks: [{ pattern: g() }]\n    pattern-sanitizers:\n      - pattern: h()\n        not-conflicting: true', '(line 11): pattern-sanitizers: not-conflicting: not-conflicting sanitizers are not supported'],
    ['by-side-effect: only', '    mode: taint\n    pattern-sources:\n      - pattern: f()\n        by-side-effect: only\n    pattern-sinks: [{ pattern: g() }]', '(line 9): pattern-sources: by-side-effect: only is not supported'],
    ['a propagator without to', '    mode: taint\n    pattern-sources: [{ pattern: f() }]\n    pattern-sinks: [{ pattern: g() }]\n    pattern-propagators:\n      - pattern: $A.add($B)\n        from: $B', '(line 10): a pattern-propagators entry needs to'],
    ['a taint rule without sinks', '    mode: taint\n    pattern-sources: [{ pattern: f() }]', '(line 2): mode: taint needs pattern-sinks'],
    ['a pattern in taint mode', '    mode: taint\n    pattern: f()\n    pattern-sources: [{ pattern: f() }]\n    pattern-sinks: [{ pattern: g() }]', '(line 7): pattern is not valid in mode: taint'],
    ['a metavariable that is not one', '    patterns:\n      - pattern: f($X)\n      - focus-metavariable: X', '(line 8): focus-metavariable must be a metavariable like $X, got "X"'],
    ['a regex that cannot run', '    pattern-regex: "a(?<=b+"', '(line 6): invalid pattern-regex: '],
    ['a metavariable-regex that cannot run', '    patterns:\n      - pattern: f($X)\n      - metavariable-regex:\n          metavariable: $X\n          regex: "(unclosed"', '(line 8): invalid metavariable-regex: '],
    ['pattern code that does not parse in the language', '    patterns:\n      - pattern: f($X)\n      - pattern-not: "def f(:"', '(line 8): pattern `def f(:` cannot be used for python'],
    ['a comparison that is not one', '    patterns:\n      - pattern: f($X)\n      - metavariable-comparison:\n          comparison: $X >>> 1', '(line 8): invalid metavariable-comparison: '],
    ['metavariable-pattern in another unsupported language', '    patterns:\n      - pattern: f($X)\n      - metavariable-pattern:\n          metavariable: $X\n          language: generic\n          pattern: g', '(line 10): metavariable-pattern.language: generic (text) matching is not supported'],
  ]

  it.each(refusals)('refuses %s', (_name, body, expected) => {
    const problems = problemsOf(semgrepRule(body))
    expect(problems.some((problem) => problem.startsWith('rule "no-eval" ') && problem.includes(expected)), problems.join('\n')).toBe(true)
  })

  it('refuses the languages Parapet does not parse, and generic, regex and none, each with why', () => {
    expect(problemsOf(semgrepRule('    pattern: f()', { languages: '[python, generic]' }))).toEqual([
      'rule "no-eval" (line 5): languages: generic (text) matching is not supported: Parapet matches syntax trees; write the rule for the code language',
    ])
    expect(problemsOf(semgrepRule('    pattern-regex: f', { languages: '\n      - regex' }))).toEqual([
      'rule "no-eval" (line 6): languages: the regex language is not supported: use pattern-regex in a rule for the code language',
    ])
    expect(problemsOf(semgrepRule('    pattern: f()', { languages: '[none]' }))[0]).toContain('(line 5): languages: the none language is not supported')
    expect(problemsOf(semgrepRule('    pattern: f()', { languages: '[solidity]' }))[0]).toContain('(line 5): languages: language "solidity" is not supported (supported: python, javascript, typescript, java, go,')
  })

  it('refuses a rule whose pattern one of its languages cannot parse, naming that language', () => {
    expect(problemsOf(semgrepRule('    pattern: "lambda $X: $X"', { languages: '[python, java]' }))).toEqual([
      'rule "no-eval" (line 6): pattern `lambda $X: $X` cannot be used for java: `lambda $X: $X` does not parse as java',
    ])
  })

  it('reports every problem of a rule, and the problems of every rule, the valid ones of the file refused with them', () => {
    const text = [
      'rules:',
      '  - id: first',
      '    message: m',
      '    severity: HIGH',
      '    languages: [python]',
      '    pattern-where-python: vars["$X"]',
      '    fix-regex: { regex: a, replacement: b }',
      '  - id: second',
      '    languages: [python]',
      '    pattern: f()',
      '  - id: first',
      '    message: m',
      '    severity: HIGH',
      '    languages: [python]',
      '    pattern: f()',
      '  - id: fourth',
      '    message: m',
      '    severity: HIGH',
      '    languages: [python]',
      '    pattern: f()',
      '  - id: fourth',
      '    message: m',
      '    severity: HIGH',
      '    languages: [go]',
      '    pattern: f()',
    ].join('\n')
    expect(problemsOf(text)).toEqual([
      'rule "first" (line 6): pattern-where-python is not supported (it runs arbitrary Python)',
      'rule "first" (line 7): fix-regex is not supported (use fix with metavariables)',
      'rule "first" (line 2): a rule needs one of pattern, patterns, pattern-either, pattern-regex',
      'rule "second" (line 8): missing required field "message"',
      'rule "second" (line 8): missing required field "severity"',
      'rule "fourth" (line 21): duplicate rule id (first defined at line 16)',
    ])
  })

  it('refuses a rules: that is no list, top-level keys beside rules:, and rules that are no mappings', () => {
    expect(problemsOf('rules: f()\n')).toEqual(['document (line 1): rules must be a list of Semgrep rules, got "f()"'])
    expect(problemsOf(`${semgrepRule('    pattern: f()')}\nversion: 2\n`)).toEqual(['document (line 7): unknown top-level field "version" in a Semgrep rule file (only rules: is read)'])
    expect(problemsOf('rules:\n  - just a string\n')).toEqual(['document (line 2): a rule must be a mapping, got "just a string"'])
  })

  it('applies the rule limits to Semgrep files: nesting, pattern length and bracket depth, number of rules, aliases', () => {
    const deep = `rules:\n  - id: deep\n    message: m\n    severity: HIGH\n    languages: [python]\n    pattern-either:\n${Array.from({ length: 40 }, (_, depth) => `${'  '.repeat(depth + 3)}- pattern-either:`).join('\n')}\n`
    expect(problemsOf(deep)[0]).toMatch(/nested more than 32 levels deep/)

    const long = semgrepRule(`    pattern: f("${'a'.repeat(DEFAULT_RULE_LIMITS.maxPatternLength)}")`)
    expect(problemsOf(long)).toEqual([`rule "no-eval" (line 6): pattern is ${DEFAULT_RULE_LIMITS.maxPatternLength + 5} characters long, over the limit of ${DEFAULT_RULE_LIMITS.maxPatternLength}`])

    const brackets = semgrepRule(`    patterns:\n      - pattern: f($X)\n      - pattern-not: ${'g('.repeat(100)}${')'.repeat(100)}`)
    expect(problemsOf(brackets)).toEqual([`rule "no-eval" (line 8): pattern-not nests brackets 100 levels deep, over the limit of ${DEFAULT_RULE_LIMITS.maxPatternNesting}`])

    const many = ['rules:', ...Array.from({ length: 4 }, (_, index) => `  - { id: r${index}, message: m, severity: HIGH, languages: [python], pattern: f() }`)].join('\n')
    expect(problemsOf(many, { ...DEFAULT_RULE_LIMITS, maxRules: 3 })).toEqual(['document (line 5): more than 3 rules, the limit for one text'])

    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'rules: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]'].join('\n')
    expect(problemsOf(laughs)[0]).toMatch(/YAML aliases expand too much/)

    // compiling patterns is charged to the text's validation budget, as ast-grep rules are
    expect(problemsOf(semgrepRule('    pattern: eval($X)'), { ...DEFAULT_RULE_LIMITS, validationBudgetMs: 0 })).toEqual([
      'rule "no-eval" (line 2): compiling the rules took more than 0 ms, the limit for one text; the rules from here on were not validated (split the text or simplify its regexes)',
    ])
  })
})
