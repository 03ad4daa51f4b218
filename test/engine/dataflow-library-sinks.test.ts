/**
 * Library mode's prototype-pollution and ReDoS sinks: what a caller passes to a package's
 * exported API counts where it can pollute a prototype other objects share (a set-by-path walk, a
 * recursive merge into the target) or make a fixed regular expression backtrack, and not where a
 * package merges options into its own objects on purpose. Guards count as the fixes of published
 * advisories write them: both `__proto__` and `constructor` excluded before a walk, in helper
 * predicates, `filter` and `some` too. Made-up packages through scanSources.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { source } from './support/helpers.ts'

const LIBRARY_PACKAGE = JSON.stringify({ name: 'made-up-lib', version: '1.0.0', main: 'index.js' })

async function libraryFindings(index: string): Promise<Finding[]> {
  const report = await scanSources([source('package.json', LIBRARY_PACKAGE), source('index.js', index)], { analyzers: ['dataflow'], workers: 0 })
  return report.findings.filter((finding) => finding.tags.includes('library-argument'))
}

/** `line category` of the library findings. */
async function reported(index: string): Promise<string[]> {
  return (await libraryFindings(index)).map((finding) => `${finding.lineNumber} ${finding.category}`)
}

const IS_SAFE_KEY = `function isSafeKey(key) {
  return key !== '__proto__' && key !== 'constructor' && key !== 'prototype'
}
`

const VALIDATE_KEY = `function validateKey(key) {
  if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
    throw new Error('Unsafe key: ' + key)
  }
}
`

const ASSERT_ALLOWED = `const BLOCKED = ['__proto__', 'constructor', 'prototype']
function assertAllowed(key) {
  if (typeof key !== 'string') throw new TypeError('key must be a string')
  if (BLOCKED.includes(key)) throw new Error('Unsafe key')
}
`

const setByPath = (guard: string, split = "path.split('.')") => `function assignPath(target, path, value) {
  const keys = ${split}
  ${guard}
  let node = target
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]
    if (typeof node[key] !== 'object') node[key] = {}
    node = node[key]
  }
  node[keys[keys.length - 1]] = value
  return target
}

${IS_SAFE_KEY}
const DENIED = ['__proto__', 'constructor', 'prototype']

module.exports = { assignPath }
`

const deepMerge = (guard: string) => `function deepMerge(target, source) {
  for (const key of Object.keys(source)) {
    ${guard}
    const current = target[key]
    if (current && typeof current === 'object' && typeof source[key] === 'object') deepMerge(current, source[key])
    else target[key] = source[key]
  }
  return target
}

module.exports = deepMerge
`

describe('prototype pollution through an exported function', () => {
  it('is reported at a set-by-path walk, naming the argument and the exported function', async () => {
    const findings = await libraryFindings(setByPath(''))
    expect(findings.map((finding) => `${finding.lineNumber} ${finding.category}`)).toEqual(['10 prototype-pollution'])
    expect(findings[0]?.cweIds).toEqual(['CWE-1321'])
    expect(findings[0]?.confidence).toBe(0.6)
    expect(findings[0]?.explanation).toContain('argument `path` of exported function `assignPath` (index.js)')
  })

  it('is reported at a path setter that calls itself on the sub-object', async () => {
    const setter = "function setIn(obj, path, value) {\n  const keys = typeof path === 'string' ? path.split('.') : path\n  if (keys.length === 1) {\n    obj[keys[0]] = value\n    return obj\n  }\n  if (obj[keys[0]] === undefined) obj[keys[0]] = {}\n  return setIn(obj[keys[0]], keys.slice(1), value)\n}\nmodule.exports = { setIn }\n"
    expect(await reported(setter)).toEqual(['4 prototype-pollution'])
  })

  it('is reported at a recursive merge reading its sources from arguments', async () => {
    const extend = "module.exports = function extend(target) {\n  const sources = Array.prototype.slice.call(arguments, 1)\n  sources.forEach(function (source) {\n    Object.keys(source).forEach(function (key) {\n      const current = target[key]\n      const value = source[key]\n      if (current && typeof current === 'object') extend(current, value)\n      else target[key] = value\n    })\n  })\n  return target\n}\n"
    const findings = await libraryFindings(extend)
    expect(findings.map((finding) => `${finding.lineNumber} ${finding.category}`)).toEqual(['8 prototype-pollution'])
    expect(findings[0]?.description).toContain('of exported function `extend` (index.js)')
  })

  it('is reported at a recursive merge into the target', async () => {
    expect(await reported(deepMerge(''))).toEqual(['6 prototype-pollution'])
  })

  it.each([
    ['a walk', setByPath("if (keys.some((key) => key === '__proto__')) return target"), '10 prototype-pollution'],
    ['a recursive merge', deepMerge("if (key === '__proto__') continue"), '6 prototype-pollution'],
    ['a recursive merge skipping keys that start with __', deepMerge("if (key.startsWith('__')) continue"), '6 prototype-pollution'],
    ['a recursive merge skipping keys a regex with a group matches', deepMerge("if (/^_(_a|b)/.test(key) || key === 'constructor') continue"), '6 prototype-pollution'],
    ['a recursive merge after a validator', deepMerge('validateProto(key)') + "function validateProto(key) {\n  if (key === '__proto__') throw new Error('Unsafe key')\n}\n", '6 prototype-pollution'],
  ])('is reported at %s guarded against __proto__ alone (constructor.prototype reaches the same object)', async (_, index, expected) => {
    expect(await reported(index)).toEqual([expected])
  })

  it.each([
    ['compared with __proto__ and constructor', deepMerge("if (key === '__proto__' || key === 'constructor') continue")],
    ['checked by a helper predicate', deepMerge('if (!isSafeKey(key)) continue') + IS_SAFE_KEY],
    ['filtered by a helper predicate', setByPath('', "path.split('.').filter(isSafeKey)")],
    ['rejected with some() over a deny list', setByPath('if (keys.some((key) => DENIED.includes(key))) return target')],
    ['accepted with every() of a helper predicate', setByPath('if (!keys.every(isSafeKey)) return target')],
    ['rejected by a throw', deepMerge("if (key === '__proto__' || key === 'constructor') throw new Error('Unsafe key')")],
    ['passed to a validator that throws on prototype keys', deepMerge('validateKey(key)') + VALIDATE_KEY],
    ['passed to a validator that throws on a deny list', deepMerge('assertAllowed(key)') + ASSERT_ALLOWED],
    ['skipped when they start with __, and compared with constructor', deepMerge("if (key.startsWith('__') || key === 'constructor') continue")],
    ['skipped when a /^__/ regex matches, and compared with constructor', deepMerge("if (/^__/.test(key) || key === 'constructor') continue")],
    ['skipped when their first character is _, and compared with constructor', deepMerge("if (key[0] === '_' || key === 'constructor') continue")],
    ['passed to an arrow validator calling a predicate', deepMerge('validate(key)') + IS_SAFE_KEY + "const validate = (key) => {\n  if (!isSafeKey(key)) throw new Error('Unsafe key')\n}\n"],
    ['one constant or safe by a predicate, taken when either holds', deepMerge("if (!(key === 'defaults' || isSafeKey(key))) continue") + IS_SAFE_KEY],
    ['checked inside an either-or condition', setByPath('', "path.split('.')").replace('    node = node[key]', "    if (key === '*' || (key !== '__proto__' && key !== 'constructor')) node = node[key]")],
  ])('is not reported when the keys are %s', async (_, index) => {
    expect(await reported(index)).toEqual([])
  })

  it.each([
    ['options copied key by key into a target', 'function extend(target, options) {\n  for (const key in options) target[key] = options[key]\n  return target\n}\nmodule.exports = extend\n'],
    ['defaults merged with Object.assign', "function configure(options) {\n  return Object.assign({ retries: 3 }, options)\n}\nmodule.exports = configure\n"],
    [
      'a source walked into a fresh result',
      "function flatten(object, prefix) {\n  const result = {}\n  for (const key of Object.keys(object)) {\n    const value = object[key]\n    if (value && typeof value === 'object') Object.assign(result, flatten(value, prefix + key + '.'))\n    else result[prefix + key] = value\n  }\n  return result\n}\nmodule.exports = flatten\n",
    ],
    [
      "configurations combined by the caller's functions",
      'function combine(configs, combiners) {\n  const result = {}\n  for (const config of configs) {\n    for (const key of Object.keys(config)) {\n      const current = result[key]\n      result[key] = current === undefined ? config[key] : combiners[key](current, config[key])\n    }\n  }\n  return result\n}\nmodule.exports = combine\n',
    ],
    [
      'a cache entry handed to a callback with its key',
      "class Cache {\n  constructor(onEvict) {\n    this.entries = {}\n    this.onEvict = onEvict\n  }\n  set(key, value) {\n    const old = this.entries[key]\n    if (old !== undefined) this.onEvict(old, key, 'set')\n    this.entries[key] = value\n  }\n}\nmodule.exports = Cache\n",
    ],
  ])('is not reported for %s: only that object changes', async (_, index) => {
    expect(await reported(index)).toEqual([])
  })
})

describe('prototype pollution behind a switch on the key', () => {
  const setOption = (otherwise: string) => `function setOption(target, path, value) {
  const keys = path.split('.')
  let node = target
  for (const key of keys.slice(0, -1)) {
    switch (key) {
      case 'server':
      case 'client':
        node = node[key] || (node[key] = {})
        break
      default:
        ${otherwise}
    }
  }
  node[keys[keys.length - 1]] = value
  return target
}
module.exports = setOption
`

  it('is not reported when only cases naming constant keys walk: the key is one of them there', async () => {
    expect(await reported(setOption("throw new Error('unknown section ' + key)"))).toEqual([])
  })

  it('is reported when the default case walks too', async () => {
    expect(await reported(setOption('node = node[key]'))).toEqual(['14 prototype-pollution'])
  })
})

describe('ReDoS through an exported function', () => {
  it('is reported where a backtracking regex runs on an argument, with its complexity and an attack string', async () => {
    const findings = await libraryFindings("const TRAILING = /\\s+$/\n\nfunction trimEnd(text) {\n  return text.replace(TRAILING, '')\n}\n\nmodule.exports = { trimEnd }\n")
    expect(findings.map((finding) => `${finding.lineNumber} ${finding.category}`)).toEqual(['4 redos'])
    expect(findings[0]?.cweIds).toEqual(['CWE-1333'])
    expect(findings[0]?.description).toContain('Argument `text` of exported function `trimEnd` (index.js)')
    expect(findings[0]?.description).toMatch(/2nd degree polynomial backtracking, e\.g\. on /)
  })

  it('is not reported on a named field of an argument: an object graph the package keeps more often than caller text', async () => {
    expect(await reported("function rawAfter(node) {\n  return node.raws.after.replace(/\\s+$/, '')\n}\n\nmodule.exports = { rawAfter }\n")).toEqual([])
  })

  it('is reported on an element of an argument', async () => {
    expect(await reported("function firstTrimmed(lines) {\n  return lines[0].replace(/\\s+$/, '')\n}\n\nmodule.exports = { firstTrimmed }\n")).toEqual(['2 redos'])
  })

  it('is not reported for a regex that runs in linear time', async () => {
    expect(await reported("function trimEnd(text) {\n  return text.replace(/[ \\t]$/, '')\n}\n\nmodule.exports = { trimEnd }\n")).toEqual([])
  })

  const parseDuration = (check: string, pattern = '/^((?:\\d+)?\\.?\\d+) *(ms|s|m|h)?$/i') =>
    `function parseDuration(text) {\n  ${check}\n  return ${pattern}.exec(text)\n}\n\nmodule.exports = parseDuration\n`

  it.each([
    ['a quadratic pattern on text checked to be at most 100 characters', parseDuration('if (text.length > 100) return null')],
    ['a quadratic pattern on text checked to be at most 10,000 characters (a second of matching at most)', parseDuration('if (text.length > 10000) return null')],
    ['a quadratic pattern behind a check written the other way round', parseDuration('if (!(text.length <= 100)) throw new RangeError(\'too long\')')],
  ])('is not reported for %s', async (_, index) => {
    expect(await reported(index)).toEqual([])
  })

  it.each([
    ['a quadratic pattern on text bounded only at 100,000 characters', parseDuration('if (text.length > 100000) return null')],
    ['a quadratic pattern where only the other branch is bounded', parseDuration('if (text.length < 100) console.log(text)')],
    ['an exponential pattern on text of at most 100 characters', parseDuration('if (text.length > 100) return null', '/^(\\d+)+$/')],
  ])('is reported for %s', async (_, index) => {
    expect(await reported(index)).toEqual(['3 redos'])
  })
})
