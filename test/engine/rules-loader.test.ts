/** Rule loading and validation: every problem names the rule id and the line. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RuleValidationError, loadBuiltinRules, parseRulesText } from '../../src/engine/rules/loader.ts'
import { DEFAULT_RULE_LIMITS } from '../../src/engine/rules/limits.ts'
import { ruleYaml, tempTree } from './support/helpers.ts'

function problemsOf(text: string): RuleValidationError['problems'] {
  try {
    parseRulesText(text, 'rules.yml')
  } catch (error) {
    if (error instanceof RuleValidationError) return error.problems
    throw error
  }
  throw new Error('expected a RuleValidationError')
}

describe('parseRulesText', () => {
  it('returns valid rules with normalized fields', () => {
    const rules = parseRulesText(`${ruleYaml({ severity: 'error', tags: '[shell]' })}\n---\n${ruleYaml({ id: 'test.command-injection.second' })}`)
    expect(rules.map((rule) => rule.id)).toEqual(['test.command-injection.os-system', 'test.command-injection.second'])
    expect(rules[0]?.severity).toBe('high') // ast-grep's "error" maps to high
    expect(rules[0]?.tags).toEqual(['shell'])
    expect(rules[1]?.tags).toEqual([])
  })

  it('reports an unknown category with the rule id and the line of the field', () => {
    const text = `${ruleYaml({})}\n---\n${ruleYaml({ id: 'x.y', category: 'foo' })}`
    const problems = problemsOf(text)
    const categoryLine = text.split('\n').findIndex((line) => line === 'category: foo') + 1
    expect(problems).toEqual([{ ruleId: 'x.y', line: categoryLine, message: 'unknown category "foo"', source: 'rules.yml' }])
    expect(() => parseRulesText(text)).toThrow(`rule "x.y" (line ${categoryLine}): unknown category "foo"`)
  })

  it('checks every metadata field', () => {
    const text = ruleYaml({ language: 'cobol', severity: 'severe', cwe: '[CWE-78, XSS]', owasp: '"A03:2021 - Injections"', cvss: '11', confidence: '1.5', extra: 'x' })
    const messages = problemsOf(text).map((problem) => `${problem.line}: ${problem.message}`)
    const lineOf = (prefix: string) => text.split('\n').findIndex((line) => line.startsWith(prefix)) + 1
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`^${lineOf('language:')}: unknown language "cobol"`)),
        `${lineOf('severity:')}: unknown severity "severe" (known: critical, high, medium, low, info)`,
        `${lineOf('cwe:')}: cwe entries look like "CWE-89", got "XSS"`,
        `${lineOf('owasp:')}: owasp A03:2021 is "Injection", not "Injections"`,
        `${lineOf('cvss:')}: cvss must be between 0 and 10`,
        `${lineOf('confidence:')}: confidence must be between 0 and 1`,
        `${lineOf('extra:')}: unknown field "extra"`,
      ]),
    )
  })

  it('reports missing required fields at the document start', () => {
    const text = '# leading comment\nid: lonely.rule\nlanguage: python\nrule: { pattern: foo() }\n'
    const problems = problemsOf(text)
    expect(problems.every((problem) => problem.ruleId === 'lonely.rule' && problem.line === 2)).toBe(true)
    expect(problems.map((problem) => problem.message)).toContain('missing required field "message"')
  })

  it('reports ast-grep errors (unknown kind, bad regex, undefined util) on the rule line', () => {
    const text = [
      ruleYaml({ id: 'bad.kind', rule: '\n  kind: no_such_kind' }),
      ruleYaml({ id: 'bad.regex', rule: "\n  regex: '['" }),
      ruleYaml({ id: 'bad.util', rule: '\n  matches: missing-util' }),
    ].join('\n---\n')
    const problems = problemsOf(text)
    const ruleLines = text.split('\n').flatMap((line, index) => (line.startsWith('rule:') ? [index + 1] : []))
    expect(problems.map((problem) => [problem.ruleId, problem.line])).toEqual([
      ['bad.kind', ruleLines[0]],
      ['bad.regex', ruleLines[1]],
      ['bad.util', ruleLines[2]],
    ])
    expect(problems[0]?.message).toMatch(/invalid ast-grep rule: .*no_such_kind/)
    expect(problems[1]?.message).toMatch(/regex/)
    expect(problems[2]?.message).toMatch(/missing-util/)
  })

  it('compiles javascript rules for TypeScript and TSX too, and accepts constraints and utils', () => {
    const text = ruleYaml({
      id: 'js.rule',
      language: 'javascript',
      rule: '\n  pattern: exec($CMD)\n  not: { matches: constant }',
      constraints: '\n  CMD: { not: { kind: string } }',
      utils: '\n  constant: { kind: string }',
    })
    expect(parseRulesText(text)).toHaveLength(1)
  })

  it('rejects duplicate ids and YAML syntax errors with their lines', () => {
    const duplicate = `${ruleYaml({})}\n---\n${ruleYaml({})}`
    const dupProblems = problemsOf(duplicate)
    expect(dupProblems).toHaveLength(1)
    expect(dupProblems[0]?.message).toBe('duplicate rule id (first defined at line 1)')
    expect(dupProblems[0]?.line).toBe(duplicate.split('\n').findIndex((line, index) => index > 0 && line.startsWith('id:')) + 1)

    const broken = `${ruleYaml({})}\n---\nid: broken\ncwe: [CWE-1\n`
    const syntax = problemsOf(broken)
    expect(syntax).toHaveLength(1)
    expect(syntax[0]?.message).toMatch(/^YAML syntax error/)
    expect(syntax[0]?.line).toBeGreaterThan(13)
  })

  it('enforces <language>.<category>.<name> ids for built-in rules only', () => {
    expect(parseRulesText(ruleYaml({ id: 'my-rule' }))).toHaveLength(1)
    expect(() => parseRulesText(ruleYaml({ id: 'my-rule' }), 'builtin.yml', { builtin: true })).toThrow(
      'built-in rule ids must be "python.command-injection.<name>"',
    )
  })
})

describe('user rules in ast-grep\'s own format', () => {
  const plain = 'id: no-console-log\nlanguage: JavaScript\nmessage: console.log left in code\nrule:\n  pattern: console.log($A)\nurl: https://example.com/rules/no-console-log\nmetadata: { owner: web-team }\n'

  it('need only id, language, rule and message; the rest is filled honestly from the severity', () => {
    const [rule] = parseRulesText(plain)
    expect(rule).toMatchObject({
      id: 'no-console-log',
      language: 'javascript',
      severity: 'medium',
      title: 'console.log left in code',
      category: 'custom',
      cwe: [],
      owasp: null,
      cvss: 5,
      confidence: 0.6,
      remediation: null,
    })
    const [critical] = parseRulesText(plain.replace('language: JavaScript', 'language: js\nseverity: critical'))
    expect(critical).toMatchObject({ language: 'javascript', severity: 'critical', cvss: 9 })
  })

  it('still need the four fields ast-grep requires', () => {
    const problems = problemsOf('id: r\nlanguage: python\n')
    expect(problems.map((problem) => problem.message)).toEqual(expect.arrayContaining(['missing required field "rule"', 'missing required field "message"']))
  })

  it('are not the form of built-in rules, which must give every field', () => {
    expect(() => parseRulesText(plain, 'builtin.yml', { builtin: true })).toThrow(/missing required field "title"/)
  })
})

describe('rule text limits', () => {
  const limited = (text: string, limits: Partial<typeof DEFAULT_RULE_LIMITS>) => {
    try {
      parseRulesText(text, 'rules.yml', { limits: { ...DEFAULT_RULE_LIMITS, ...limits } })
    } catch (error) {
      if (error instanceof RuleValidationError) return error.problems.map((problem) => `${problem.ruleId ?? '-'}@${problem.line}: ${problem.message}`)
      throw error
    }
    return []
  }

  it('applies the limits it is given, each problem naming the limit and where it is broken', () => {
    const two = `${ruleYaml({})}\n---\n${ruleYaml({ id: 'test.second' })}`
    expect(limited(two, { maxRules: 1 })).toEqual(['-@14: more than 1 rules, the limit for one text'])
    expect(limited(two, { maxBytes: 100 })).toEqual([`-@1: the text is ${Buffer.byteLength(two)} bytes, over the limit of 100`])
    expect(limited(ruleYaml({ rule: '\n  pattern: os.system(f(g($CMD)))' }), { maxPatternNesting: 2 })).toEqual([
      'test.command-injection.os-system@4: rule.pattern nests brackets 3 levels deep, over the limit of 2',
    ])
    expect(limited(ruleYaml({ rule: "\n  regex: 'os\\.system'" }), { maxPatternLength: 8 })).toEqual([
      'test.command-injection.os-system@4: rule.regex is 10 characters long, over the limit of 8',
    ])
    expect(limited(ruleYaml({ rule: '\n  pattern: x\n  inside: { has: { pattern: y } }' }), { maxDepth: 3 })).toEqual(['-@5: YAML nested more than 3 levels deep'])
  })

  it('stops validating once compiling the rules has used up its time budget', () => {
    expect(limited(ruleYaml({}), { validationBudgetMs: 0 })).toEqual([
      expect.stringMatching(/^test\.command-injection\.os-system@1: compiling the rules took more than 0 ms, the limit for one text/),
    ])
  })
})

describe('loadBuiltinRules', () => {
  it('loads every rule file of a folder and picks up files added later', () => {
    const dir = tempTree({ 'python/command-injection.yml': ruleYaml({ id: 'python.command-injection.os-system' }) })
    expect(loadBuiltinRules(dir).map((rule) => rule.id)).toEqual(['python.command-injection.os-system'])
    mkdirSync(join(dir, 'python'), { recursive: true })
    writeFileSync(join(dir, 'python', 'code-injection.yml'), ruleYaml({ id: 'python.code-injection.eval', category: 'code-injection', rule: '\n  pattern: eval($X)' }))
    expect(loadBuiltinRules(dir).map((rule) => rule.id).sort()).toEqual(['python.code-injection.eval', 'python.command-injection.os-system'])
  })

  it('rejects the same id in two files', () => {
    const dir = tempTree({
      'python/a.yml': ruleYaml({ id: 'python.command-injection.same' }),
      'python/b.yml': ruleYaml({ id: 'python.command-injection.same' }),
    })
    expect(() => loadBuiltinRules(dir)).toThrow(/python\/b\.yml: rule "python.command-injection.same" \(line 1\): duplicate rule id \(also defined in python\/a\.yml\)/)
  })
})
