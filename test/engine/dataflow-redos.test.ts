/**
 * ReDoS where the regex runs (CWE-1333): request data matched against a regular expression that
 * backtracks super-linearly (exponential `(a+)+$`, polynomial `\s*$` and ` *, *`) is reported
 * with the complexity and an attack string, wherever the regex is written (inline, a constant, a
 * module-level definition, another file, `new RegExp` of constants); linear regexes and regexes
 * run on constants are not. Made-up Express code through the scan API.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { source } from './support/helpers.ts'

type Files = Record<string, string>

function route(body: string, header = ''): string {
  return `const express = require('express')
${header}
const app = express()

app.get('/check', (req, res) => {
  const input = req.query.text
${body.replace(/^/gm, '  ')}
})
`
}

async function redos(files: Files): Promise<Finding[]> {
  const report = await scanSources(
    Object.entries(files).map(([path, text]) => source(path, text)),
    { analyzers: ['dataflow'], workers: 0 },
  )
  return report.findings.filter((finding) => finding.ruleId === 'dataflow.javascript.redos' && finding.dataFlow?.sink.kind === 'backtracking')
}

describe('ReDoS: a backtracking regex run on request data', () => {
  it.each<[string, Files, RegExp]>([
    ['an inline literal run by test()', { 'app.js': route('res.json({ ok: /^(a+)+$/.test(input) })') }, /exponential/],
    ['a trailing-space trim by replace()', { 'app.js': route("res.send(input.replace(/\\s*$/, ''))") }, /2nd degree polynomial/],
    ['a comma split', { 'app.js': route('res.json(input.split(/ *, */))') }, /2nd degree polynomial/],
    ['a constant run by exec()', { 'app.js': route('const WORDS = /^(\\w+\\s?)*$/\nres.json(WORDS.exec(input))') }, /exponential/],
    ['a module-level definition run by match()', { 'app.js': route('res.json(input.match(SLUG))', 'const SLUG = /^([a-z]+-?)*$/') }, /exponential/],
    ['a definition imported from another file', { 'patterns.js': 'export const TRAILING = /(\\s|\\/)+$/\n', 'app.js': route("res.send(input.replace(TRAILING, ''))", "import { TRAILING } from './patterns.js'") }, /polynomial/],
    ['new RegExp of constants', { 'app.js': route("const re = new RegExp('^(\\\\d+)*x$')\nres.json(re.test(input))") }, /exponential/],
    ['a trim of both ends, one alternative anchored at the start', { 'app.js': route("res.send(input.replace(/^\\s*|\\s*$/g, ''))") }, /2nd degree polynomial/],
  ])('is reported for %s', async (_, files, complexity) => {
    const findings = await redos(files)
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ category: 'redos', cweIds: ['CWE-1333'] })
    expect(findings[0]?.explanation).toMatch(complexity)
    expect(findings[0]?.explanation).toMatch(/backtracking, e\.g\. on '.*'\.repeat\(\d+\)/)
  })

  it.each<[string, Files]>([
    ['a linear regex', { 'app.js': route("res.json({ ok: /^[a-z0-9_-]{3,16}$/.test(input), parts: input.split(/,/), clean: input.replace(/[^\\w]/g, '') })") }],
    ['a vulnerable regex on constant text', { 'app.js': route("res.json({ ok: /^(a+)+$/.test('aaaa'), trimmed: 'x  '.replace(/\\s*$/, '') })") }],
    ['a vulnerable regex on a number', { 'app.js': route('res.json(/^(a+)+$/.test(String(Number(input))))') }],
    ['a string (not a regex) given to split', { 'app.js': route("res.json(input.split('(a+)+'))") }],
  ])('is not reported for %s', async (_, files) => {
    expect(await redos(files)).toEqual([])
  })
})
