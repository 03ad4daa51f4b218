/** Textual preconditions: derived words must be required by the rule (soundness) and useful. */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Lang, parse } from '@ast-grep/napi'
import { CASE_INSENSITIVE, TextProbe, ofRegex, ruleKindPrecondition, rulePrecondition, ruleRegexFilters, ruleTextRequirements } from '../../src/engine/sast/preconditions.ts'
import { regexFilter } from '../../src/engine/text/regex-filter.ts'
import { napiLanguage } from '../../src/engine/core/languages.ts'
import type { CodeLanguage } from '../../src/engine/core/languages.ts'

const ci = (word: string) => CASE_INSENSITIVE + word

describe('rulePrecondition', () => {
  it('takes pattern words outside metavariables', () => {
    expect(rulePrecondition({ rule: { pattern: 'os.system($CMD, $$$REST, $$$)' } }).flat().sort()).toEqual(['os', 'system'])
  })

  it('or-s the branches of any, and-s all and relational rules, and ignores not and kind', () => {
    const precondition = rulePrecondition({
      rule: {
        any: [{ pattern: 'exec($X)' }, { pattern: 'execSync($X)' }],
        inside: { kind: 'program', regex: 'child_process', stopBy: 'end' },
        not: { pattern: 'safeExec($X)' },
      },
    })
    expect(precondition).toEqual([['child_process'], ['exec', 'execSync']])
    expect(rulePrecondition({ rule: { any: [{ pattern: 'eval($X)' }, { kind: 'call_expression' }] } })).toEqual([])
  })

  it('follows matches into utils and applies constraints on always-captured metavariables', () => {
    expect(rulePrecondition({ rule: { matches: 'sink' }, utils: { sink: { pattern: 'pickle.loads($X)' } } }).flat().sort()).toEqual(['loads', 'pickle'])
    const constrained = rulePrecondition({ rule: { pattern: '$M.$METHOD($F)' }, constraints: { METHOD: { regex: '^(findOne|deleteMany)$' } } })
    expect(constrained).toEqual([['findOne', 'deleteMany']])
    // FS is captured by one branch only: its constraint cannot be required.
    const partial = rulePrecondition({ rule: { any: [{ pattern: '$FS.readFile($P)' }, { pattern: 'readFile($P)' }] }, constraints: { FS: { regex: '^fsx$' } } })
    expect(partial).toEqual([['readFile']])
  })

  it('applies constraints to the branch of any that captures their metavariable', () => {
    // A match through the first branch captured FS, which must then be fsx; one through the second needs readFile.
    const branches = rulePrecondition({ rule: { any: [{ pattern: '$FS.$METHOD($P)' }, { pattern: 'readFile($P)' }] }, constraints: { FS: { regex: '^fsx$' } } })
    expect(branches).toEqual([['fsx', 'readFile']])
    // Not through utilities, nor from the constraints' own branches.
    const util = rulePrecondition({ rule: { any: [{ matches: 'call' }, { pattern: 'readFile($P)' }] }, utils: { call: { pattern: '$FS.$METHOD($P)' } }, constraints: { FS: { regex: '^fsx$' } } })
    expect(util).toEqual([])
  })

  it('uses the selected node of a context/selector pattern', () => {
    const precondition = rulePrecondition({ rule: { pattern: { context: '({ rejectUnauthorized: false })', selector: 'pair' } }, language: 'javascript' })
    expect(precondition.flat().sort()).toEqual(['false', 'rejectUnauthorized'])
    expect(rulePrecondition({ rule: { pattern: { context: 'foo($A)', strictness: 'signature' } } })).toEqual([])
  })
})

describe('regexFilter', () => {
  const passes = (regex: string, text: string) => regexFilter(regex)?.test(text)

  it('checks a Rust regex anywhere in a file, without its assertions', () => {
    expect(passes('^(req|request)\\.(query|body)\\b', 'x = send(request.body)')).toBe(true)
    expect(passes('^(req|request)\\.(query|body)\\b', 'x = send(req.params)')).toBe(false)
    expect(passes('(?i)^select\\s+from', 'q = "SELECT  FROM t"')).toBe(true)
    expect(passes('(?i)^select\\s+from', 'q = "select *"')).toBe(false)
    expect(passes('^x(\\s*,\\s*\\w+)*\\s+from', 'x , a , b from')).toBe(true)
    expect(passes('a.b', 'a\u{1F600}b')).toBe(true) // one code point, two UTF-16 units
    expect(passes('(?i)k', '\u212A')).toBe(true) // KELVIN SIGN folds to k
    expect(passes('x{100}', 'x'.repeat(8))).toBe(true) // widened: a necessary condition only
    expect(passes('x{3}', 'xx')).toBe(false)
  })

  it('passes every text in which ast-grep finds a node the regex matches (random regexes and texts)', () => {
    const atom = fc.constantFrom('a', 'b', 'k', 'S', 'é', '😀', ' ', '\\n', '\\.', '.', '[ab]', '[^a]', '[a-c]', '[^\\s]', '\\w', '\\W', '\\d', '\\s', '\\S', '[\\s\\S]', '^', '$', '\\b')
    const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{9}', '{2,}', '*?')
    const { regex } = fc.letrec<{ regex: string; sequence: string; item: string }>((tie) => ({
      regex: fc.oneof({ depthSize: 'xsmall', withCrossShrink: true }, tie('sequence'), fc.tuple(tie('sequence'), tie('sequence')).map(([a, b]) => `${a}|${b}`)),
      sequence: fc.array(tie('item'), { minLength: 1, maxLength: 3 }).map((items) => items.join('')),
      item: fc.oneof({ depthSize: 'xsmall' }, fc.tuple(atom, quantifier).map(([a, q]) => (/^[\^$]|^\\b$/.test(a) ? a : a + q)), fc.tuple(tie('regex'), quantifier).map(([r, q]) => `(${r})${q}`)),
    }))
    const flags = fc.constantFrom('', '(?i)', '(?s)', '(?is)')
    const text = fc.array(fc.constantFrom('a', 'b', 'c', 'k', 'K', '\u212A', 's', 'ſ', 'é', '😀', ' ', '\n', '_', '1', '.'), { maxLength: 6 }).map((chars) => chars.join(''))
    fc.assert(
      fc.property(fc.tuple(flags, regex).map(([flag, body]) => flag + body), text, (rust, sample) => {
        let matched: boolean
        try {
          matched = parse(Lang.JavaScript, sample).root().findAll({ rule: { regex: rust } }).length > 0
        } catch {
          return // not a regex ast-grep accepts
        }
        if (matched) expect([rust, sample, regexFilter(rust)?.test(sample) ?? true]).toEqual([rust, sample, true])
      }),
      { numRuns: 1500, seed: 4242 },
    )
  })

  it('gives no filter for what it cannot translate, or what every file passes', () => {
    expect(regexFilter('\\pL+')).toBeNull()
    expect(regexFilter('(?x) a b')).toBeNull()
    expect(regexFilter('^(a)?$')).toBeNull()
  })

  it('builds the filter of a regex once: rules sharing a regex share its filter', () => {
    const first = regexFilter('(?i)cookie|session')
    expect(first).not.toBeNull()
    expect(regexFilter('(?i)cookie|session')).toBe(first)
  })

  it('reads a file once whatever the regex: no backtracking', () => {
    expect(passes('(a|a)*c', `${'a'.repeat(200_000)}b`)).toBe(false)
    expect(passes('(\\w+\\s?)+x', `${'ab '.repeat(100_000)}!`)).toBe(false)
    expect(passes('(a|a)*c', `${'a'.repeat(200_000)}c`)).toBe(true)
  })
})

describe('ofRegex', () => {
  it('extracts mandatory literals', () => {
    expect(ofRegex('^child_process$')).toEqual([['child_process']])
    // execSync contains exec: the shorter word is enough.
    expect(ofRegex('^(exec|execSync|spawn)$')).toEqual([['exec', 'spawn']])
    expect(ofRegex('\\b(?:req|request)\\.(?:query|body)\\b|\\bctx\\.(?:query|params)')).toEqual([
      ['req.query', 'req.body', 'request.query', 'request.body', 'ctx.query', 'ctx.params'],
    ])
    expect(ofRegex('md5|sha1')).toEqual([['md5', 'sha1']])
    expect(ofRegex('(?i)\\bselect\\b')).toEqual([[ci('select')]])
    expect(ofRegex('^os\\.system')).toEqual([['os.system']])
    expect(ofRegex('ab{2}c')).toEqual([['ab']])
  })

  it('gives up when a literal is optional or flags are unusual', () => {
    expect(ofRegex('^(exec)?$')).toEqual([])
    expect(ofRegex('foo|')).toEqual([])
    expect(ofRegex('a*b?')).toEqual([])
    expect(ofRegex('(?x) select')).toEqual([])
    expect(ofRegex('x(?i:select)')).toEqual([])
    expect(ofRegex('[a-z]+')).toEqual([])
  })
})

/** Soundness: whenever ast-grep finds a match, the derived precondition holds on that text. */
describe('soundness against ast-grep', () => {
  const cases: Array<{ language: CodeLanguage; rule: Record<string, unknown>; constraints?: Record<string, unknown>; texts: string[] }> = [
    { language: 'javascript', rule: { pattern: 'exec($X)' }, texts: ['exec(a)', 'cp.exec(b)', 'execFile(c)'] },
    {
      language: 'javascript',
      rule: { pattern: { context: '({ secure: false })', selector: 'pair' } },
      texts: ['cookie({ secure: false, httpOnly: true })', 'x = { secure: true }'],
    },
    { language: 'python', rule: { regex: '(?i)^SELECT', kind: 'string_content' }, texts: ['q = "select * from t"', 'q = "Select 1"', 'q = "insert"'] },
    { language: 'python', rule: { pattern: '$F($X)' }, constraints: { F: { regex: '^(eval|exec)$' } }, texts: ['eval(a)', 'exec(b)', 'print(c)'] },
    {
      language: 'javascript',
      rule: { any: [{ pattern: '$FS.$METHOD($P)' }, { pattern: 'readFile($P)' }, { has: { pattern: '$FS.open($Q)', stopBy: 'end' }, kind: 'program' }] },
      constraints: { FS: { regex: '^(fs|fsp)$' }, METHOD: { regex: '^read' } },
      texts: ['fs.readFileSync(p)', 'fsp.read(p)', 'readFile(p)', 'x.readFile(p)', 'fs.open(q)', 'f(fs)'],
    },
    {
      language: 'javascript',
      rule: { kind: 'string', regex: '(?i)^["\']\\s*(select\\s+[\\w.]+(\\s*,\\s*\\w+)*\\s+from|or\\s)' },
      texts: ['q = "SELECT a, b FROM t"', "x = ' or 1=1'", 'y = "selection"', 'z = "\\tselect x from y"'],
    },
    {
      language: 'javascript',
      rule: { kind: 'member_expression', regex: '^(req|request)\\.(query|body)\\b' },
      texts: ['send(req.query.x)', 'send(request.body)', 'require("x").query', 'send(req.params)'],
    },
  ]
  for (const testCase of cases) {
    it(`${testCase.language} ${JSON.stringify(testCase.rule)}`, () => {
      const parts = { rule: testCase.rule, ...(testCase.constraints ? { constraints: testCase.constraints } : {}), language: testCase.language }
      const precondition = rulePrecondition(parts)
      const filters = ruleRegexFilters(parts)
      for (const text of testCase.texts) {
        const matches = parse(napiLanguage(testCase.language), text)
          .root()
          .findAll({ rule: testCase.rule, ...(testCase.constraints ? { constraints: testCase.constraints } : {}) } as never)
        const probe = new TextProbe(text)
        if (matches.length > 0) expect([text, probe.satisfies(precondition), probe.passes(filters)]).toEqual([text, true, true])
      }
    })
  }

  it('gives a rule\'s words and regex filters together, as rulePrecondition and ruleRegexFilters do', () => {
    const parts = { rule: { pattern: '$M.$METHOD($SQL)', has: { regex: '(?i)select.+from' } }, constraints: { METHOD: { regex: '^(execute|query)$' } } }
    const requirements = ruleTextRequirements(parts)
    expect(requirements.clauses).toEqual(rulePrecondition(parts))
    expect(requirements.filters.map((filter) => filter.key)).toEqual(ruleRegexFilters(parts).map((filter) => filter.key))
    expect(requirements.filters.length).toBeGreaterThan(0)
  })

  it('rejects texts lacking the words', () => {
    expect(new TextProbe('print(x)').satisfies(rulePrecondition({ rule: { pattern: 'os.system($X)' } }))).toBe(false)
    expect(new TextProbe('q = "SELECT 1"').satisfies(ofRegex('(?i)select'))).toBe(true)
  })
})

describe('ruleKindPrecondition', () => {
  it('requires the kinds of the matched node, of mandatory related nodes and of utilities', () => {
    const rule = {
      pattern: '$T[$K] = $S[$K]',
      inside: { stopBy: 'end', kind: 'for_in_statement' },
      all: [{ inside: { stopBy: 'end', kind: 'function_declaration' } }],
      not: { has: { kind: 'string' } },
    }
    expect(ruleKindPrecondition({ rule })).toEqual([['function_declaration'], ['for_in_statement']])
    expect(ruleKindPrecondition({ rule: { matches: 'shell' }, utils: { shell: { kind: 'subshell', has: { kind: 'interpolation' } } } })).toEqual([['interpolation'], ['subshell']])
    // One kind of each branch of `any`; nothing when a branch has no kind.
    expect(ruleKindPrecondition({ rule: { any: [{ kind: 'string' }, { kind: 'template_string' }] } })).toEqual([['string', 'template_string']])
    expect(ruleKindPrecondition({ rule: { any: [{ kind: 'string' }, { pattern: 'x' }] } })).toEqual([])
    // Pattern roots count when the caller knows their kind.
    const patternKind = (pattern: unknown) => (pattern === 'eval($X)' ? 'call' : null)
    expect(ruleKindPrecondition({ rule: { pattern: 'eval($X)', inside: { kind: 'function_definition', stopBy: 'end' } } }, patternKind)).toEqual([['function_definition'], ['call']])
    expect(ruleKindPrecondition({ rule: { any: [{ pattern: 'eval($X)' }, { kind: 'string' }] } }, patternKind)).toEqual([['call', 'string']])
  })

  it('holds whenever ast-grep finds a match', () => {
    const cases: Array<{ language: CodeLanguage; rule: Record<string, unknown>; texts: string[] }> = [
      {
        language: 'javascript',
        rule: { pattern: '$T[$K] = $S[$K]', inside: { stopBy: 'end', kind: 'for_in_statement' }, all: [{ inside: { stopBy: 'end', kind: 'function_declaration' } }] },
        texts: ['function m(t, s) { for (const k in s) t[k] = s[k] }', 'for (const k in s) t[k] = s[k]', 'const f = () => { t[k] = s[k] }'],
      },
      { language: 'ruby', rule: { kind: 'subshell', has: { kind: 'interpolation' } }, texts: ['`ls #{dir}`', '%x(rm #{path})', 'system("ls")'] },
    ]
    for (const testCase of cases) {
      const kinds = ruleKindPrecondition({ rule: testCase.rule })
      for (const text of testCase.texts) {
        const root = parse(napiLanguage(testCase.language), text).root()
        if (root.findAll({ rule: testCase.rule } as never).length === 0) continue
        const holds = kinds.every((clause) => clause.some((kind) => root.find({ rule: { kind } }) !== null))
        expect([text, holds]).toEqual([text, true])
      }
    }
  })
})
