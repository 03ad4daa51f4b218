/**
 * Prototype pollution as data flow (CWE-1321): a property written under a key that request data
 * chooses (directly, through a `for...in` / `Object.keys` / `Object.entries` walk, a recursive
 * merge or a set-by-path helper in another file, `Object.assign`) is reported; the same code with
 * a guard against `__proto__` / `constructor` / `prototype`, an own-property check, a
 * null-prototype target, a Map, or constant keys is not. Made-up Express code through the scan API.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { source } from './support/helpers.ts'

type Files = Record<string, string>

function route(body: string): string {
  return `const express = require('express')
const app = express()

app.post('/settings', (req, res) => {
${body.replace(/^/gm, '  ')}
  res.json({ ok: true })
})
`
}

async function pollution(files: Files): Promise<Finding[]> {
  const report = await scanSources(
    Object.entries(files).map(([path, text]) => source(path, text)),
    { analyzers: ['dataflow'], workers: 0 },
  )
  return report.findings.filter((finding) => finding.category === 'prototype-pollution')
}

const MERGE = `function merge(target, src) {
  for (const key in src) {
    GUARD
    if (typeof src[key] === 'object' && src[key] !== null) {
      if (!target[key]) target[key] = {}
      merge(target[key], src[key])
    } else {
      target[key] = src[key]
    }
  }
  return target
}
module.exports = { merge }
`

const SET_PATH = `export function setPath(obj, path, value) {
  const parts = path.split('.')
  let current = obj
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]
    GUARD
    if (!current[part]) current[part] = {}
    current = current[part]
  }
  const last = parts[parts.length - 1]
  LAST_GUARD
  current[last] = value
}
`

const mergeApp = (guard: string): Files => ({
  'lib/merge.js': MERGE.replace('GUARD', guard),
  'app.js': `const { merge } = require('./lib/merge')\n` + route('const prefs = merge({}, req.body)\nres.locals.prefs = prefs'),
})

const setPathApp = (guard: string, lastGuard: string): Files => ({
  'lib/set-path.js': SET_PATH.replace('GUARD', guard).replace('LAST_GUARD', lastGuard),
  'app.js': `import { setPath } from './lib/set-path.js'\n` + route('const config = {}\nsetPath(config, req.query.path, req.query.value)'),
})

describe('prototype pollution: a key from request data', () => {
  it.each<[string, Files]>([
    ['written directly', { 'app.js': route('const store = {}\nstore[req.body.key] = req.body.value') }],
    ['at the first level of a nested write', { 'app.js': route('const settings = { ui: {} }\nsettings[req.query.section].enabled = true') }],
    ['written by a recursive merge in another file', mergeApp('')],
    ['written by a set-by-path helper in another file', setPathApp('', '')],
    ['walked with Object.keys', { 'app.js': route('const input = JSON.parse(req.body.json)\nconst target = {}\nObject.keys(input).forEach((k) => {\n  target[k] = input[k]\n})') }],
    ['walked with Object.entries', { 'app.js': route('const config = {}\nfor (const [name, value] of Object.entries(req.body)) {\n  config[name] = value\n}') }],
    ['merged with Object.assign', { 'app.js': route('const options = {}\nObject.assign(options, req.body)') }],
    ['merged recursively with __proto__ alone rejected (constructor.prototype is Object.prototype too)', mergeApp("if (key === '__proto__') continue")],
  ])('is reported when %s', async (_, files) => {
    const findings = await pollution(files)
    expect(findings.length).toBeGreaterThan(0)
    expect(findings[0]).toMatchObject({ cweIds: ['CWE-1321'], ruleId: 'dataflow.javascript.prototype-pollution' })
  })

  it('names the write and the request data in the explanation', async () => {
    const [finding] = await pollution(mergeApp(''))
    expect(finding?.filePath).toBe('lib/merge.js')
    expect(finding?.explanation).toMatch(/req\.body \(HTTP request body\) at app\.js:\d+ reaches the name of a property written into an object \(property name key written into target\)/)
  })

  it.each<[string, Files]>([
    ['compared with the prototype keys', mergeApp("if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue")],
    ['rejected by a deny list', mergeApp("if (['__proto__', 'constructor', 'prototype'].includes(key)) continue")],
    ['rejected by a deny-list Set', { ...mergeApp('if (BLOCKED.has(key)) continue'), 'lib/merge.js': `const BLOCKED = new Set(['__proto__', 'constructor', 'prototype'])\n` + MERGE.replace('GUARD', 'if (BLOCKED.has(key)) continue') }],
    ['rejected by a helper predicate', { ...mergeApp(''), 'lib/merge.js': MERGE.replace('GUARD', 'if (!isPlainKey(key)) continue') + "function isPlainKey(key) {\n  return !['__proto__', 'constructor', 'prototype'].includes(key)\n}\n" }],
    ['checked as an own property', mergeApp('if (!Object.prototype.hasOwnProperty.call(src, key)) continue')],
    ['checked with Object.hasOwn', mergeApp('if (!Object.hasOwn(src, key)) continue')],
    ['checked at every level of a path', setPathApp("if (part === '__proto__' || part === 'constructor') return", "if (last === '__proto__') return")],
    ['written into a null-prototype object', { 'app.js': route('const store = Object.create(null)\nstore[req.body.key] = req.body.value') }],
    ['written into a { __proto__: null } literal', { 'app.js': route('const store = { __proto__: null }\nstore[req.body.key] = req.body.value') }],
    ['appended at a length', { 'app.js': route('const copy = []\nfor (const item of req.body.items) {\n  copy[copy.length] = item\n}') }],
    ['a number is added to the key', { 'app.js': route('const slots = {}\nslots[req.body.index + 1] = req.body.value') }],
    ['the key has a constant prefix', { 'app.js': route("const registry = {}\nregistry['user_' + req.body.name] = req.body.value") }],
    ['a constant flag is written under the key', { 'app.js': route('const seen = {}\nseen[req.query.tag] = true') }],
    ['a fresh list is written under the key', { 'app.js': route('const groups = {}\ngroups[req.body.group] = [req.body.item]') }],
    ['path parameters (named by the route) are merged', { 'app.js': route('const params = Object.assign({}, req.params)\nres.locals.params = params') }],
    ['the key is a command-line argument', { 'cli.js': "const counts = {}\ncounts[process.argv[2]] = process.argv[3]\nconsole.log(counts)\n" }],
    ['kept in a Map', { 'app.js': route('const store = new Map()\nstore.set(req.body.key, req.body.value)') }],
    ['not the key (constant keys, untrusted values)', { 'app.js': route("const profile = {}\nprofile.name = req.body.name\nprofile['bio'] = req.body.bio\nObject.assign(profile, { city: req.body.city })") }],
    ['spread into a new object', { 'app.js': route('const options = { ...req.body }\nres.locals.options = options') }],
  ])('is not reported when %s', async (_, files) => {
    expect(await pollution(files)).toEqual([])
  })
})
