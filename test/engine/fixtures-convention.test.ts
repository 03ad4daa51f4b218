/** The fixture annotation convention shared by the fixture test and the quality benchmark. */
import { describe, expect, it } from 'vitest'
import { coverageProblems, evaluateFixture, parseFixtureAnnotations } from '../../src/engine/rules/fixtures.ts'
import type { FixtureFile } from '../../src/engine/rules/fixtures.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { ruleYaml } from './support/helpers.ts'

describe('parseFixtureAnnotations', () => {
  it('attaches annotations to the next non-comment, non-blank line in each comment syntax', () => {
    const python = ['# ruleid: a.b', 'os.system(x)', '# ok: a.b', '# a note', '', 'os.system("ls")', '# todoruleid: a.b, c.d', 'x = 1'].join('\n')
    expect(parseFixtureAnnotations(python, 'python')).toEqual([
      { kind: 'ruleid', ruleId: 'a.b', annotationLine: 1, targetLine: 2 },
      { kind: 'ok', ruleId: 'a.b', annotationLine: 3, targetLine: 6 },
      { kind: 'todoruleid', ruleId: 'a.b', annotationLine: 7, targetLine: 8 },
      { kind: 'todoruleid', ruleId: 'c.d', annotationLine: 7, targetLine: 8 },
    ])
    const java = ['class A {', '  // ruleid: j.x', '  void f() {}', '  /* todook: j.x */', '  int g;', '}'].join('\n')
    expect(parseFixtureAnnotations(java, 'java').map((a) => [a.kind, a.targetLine])).toEqual([
      ['ruleid', 3],
      ['todook', 5],
    ])
    // `#` does not start a comment in C, and `#[...]` is a PHP attribute.
    expect(parseFixtureAnnotations('#include <x.h>\n// ruleid: c.x\n#define X 1\n', 'c')).toEqual([{ kind: 'ruleid', ruleId: 'c.x', annotationLine: 2, targetLine: 3 }])
    expect(parseFixtureAnnotations('<?php\n# ruleid: p.x\n#[Route("/")]\n', 'php')[0]?.targetLine).toBe(3)
  })
})

function finding(ruleId: string, lineNumber: number): Finding {
  return { ruleId, lineNumber } as Finding
}

describe('evaluateFixture', () => {
  const file: FixtureFile = {
    path: 'python/x.py',
    absolutePath: '/x.py',
    language: 'python',
    text: '',
    annotations: [
      { kind: 'ruleid', ruleId: 'r', annotationLine: 1, targetLine: 2 },
      { kind: 'ok', ruleId: 'r', annotationLine: 3, targetLine: 4 },
      { kind: 'todoruleid', ruleId: 'r', annotationLine: 5, targetLine: 6 },
      { kind: 'todook', ruleId: 'r', annotationLine: 7, targetLine: 8 },
    ],
  }

  it('classifies outcomes and fails only on ruleid misses, ok hits and unannotated findings', () => {
    const results = evaluateFixture(file, [finding('r', 4), finding('r', 8), finding('r', 10)])
    expect(results.map((result) => [result.line, result.annotation, result.outcome, result.failing])).toEqual([
      [2, 'ruleid', 'false-negative', true],
      [4, 'ok', 'false-positive', true],
      [6, 'todoruleid', 'false-negative', false],
      [8, 'todook', 'false-positive', false],
      [10, null, 'false-positive', true],
    ])
    const passing = evaluateFixture(file, [finding('r', 2), finding('r', 6)])
    expect(passing.filter((result) => result.failing)).toEqual([])
  })

  it('requires a ruleid: and an ok: case per rule and flags unknown rule ids', () => {
    const rules = parseRulesText(`${ruleYaml({ id: 'r' })}\n---\n${ruleYaml({ id: 'untested' })}`)
    const typo: FixtureFile = { ...file, annotations: [...file.annotations, { kind: 'ok', ruleId: 'rr', annotationLine: 9, targetLine: 10 }] }
    expect(coverageProblems(rules, [typo])).toEqual([
      'python/x.py:9: ok names unknown rule "rr"',
      'rule "untested" has no `ruleid:` and no `ok:` fixture case',
    ])
  })
})
