/** The forms the engine hands to ast-grep match exactly what the rule as written matches. */
import { describe, expect, it } from 'vitest'
import { Lang, parse } from '@ast-grep/napi'
import type { NapiConfig } from '@ast-grep/napi'
import { asciiRegex, fastRegex, nonCapturing } from '../../src/engine/text/ascii-regex.ts'
import { withoutUnusedUtils } from '../../src/engine/sast/analyzer.ts'

/** Whether ast-grep finds a string node of `text` matching `regex`. */
function matchesString(regex: string, text: string): boolean {
  return parse(Lang.JavaScript, `x = ${JSON.stringify(text)}`).root().findAll({ rule: { kind: 'string', regex } }).length > 0
}

describe('nonCapturing', () => {
  it('turns capturing and named groups into non-capturing ones, leaving escapes and classes alone', () => {
    expect(nonCapturing('^(a|b)$')).toBe('^(?:a|b)$')
    expect(nonCapturing('(?i)(x)(?:y)(?P<n>z)(?<m>w)')).toBe('(?i)(?:x)(?:y)(?:z)(?:w)')
    expect(nonCapturing('[(]\\((a)')).toBe('[(]\\((?:a)')
    expect(nonCapturing('[^]()](a)[[:alpha:](](b)')).toBe('[^]()](?:a)[[:alpha:](](?:b)')
  })
})

describe('fastRegex', () => {
  const regexes = [
    '(?i)(token|secret|passw|pwd|otp|nonce|salt|csrf|reset|verification|activation)',
    '(?i)\\b(select|insert|update|delete|from|where|drop|order by|values|set)\\b',
    '(?is)\\b(select\\b.+\\bfrom|insert\\s+into|update\\b.+\\bset|delete\\s+from|where\\b)',
    '(?i)^(requests|httpx|session|client)\\b|\\.(get|post|put|patch|delete)$',
    '^(readFile|readFileSync|createReadStream)$',
    '\\$\\{?[A-Z0-9_]*(PASSWORD|TOKEN)',
  ]
  const texts = [
    'accessToken',
    'SELECT a FROM t',
    'the selection',
    'Update users\nSET name = 1',
    'requests.get',
    'client',
    'x.delete',
    'readFileSync',
    'readFileSyncX',
    '${DB_PASSWORD}',
    'naïve ſecret — 𝒳',
    '',
  ]

  it('matches the same node texts as the regex under the ASCII convention', () => {
    for (const regex of regexes) {
      const fast = fastRegex(regex)
      // The documented convention: ASCII classes, and Unicode mode off where ast-grep accepts it.
      const ascii = asciiRegex(regex)
      const convention = (() => {
        try {
          matchesString(`(?-u)${ascii}`, '')
          return `(?-u)${ascii}`
        } catch {
          return ascii
        }
      })()
      for (const text of texts) expect([regex, text, matchesString(fast, text)]).toEqual([regex, text, matchesString(convention, text)])
    }
  })

  it('anchors long case-insensitive searches behind a lazy prefix, and nothing else', () => {
    expect(fastRegex(regexes[0] as string)).toMatch(/^\^\(\?s:\.\)\*\?\(\?:/)
    expect(fastRegex(regexes[4] as string)).toBe('(?-u)^(?:readFile|readFileSync|createReadStream)$')
    expect(fastRegex('(?x) token # a comment')).not.toMatch(/^\^\(\?s/)
  })
})

describe('withoutUnusedUtils', () => {
  it('drops utilities that nothing reachable references', () => {
    const config = {
      rule: { matches: 'a' },
      constraints: { X: { matches: 'c' } },
      utils: { a: { any: [{ matches: 'b' }, { kind: 'string' }] }, b: { kind: 'number' }, c: { kind: 'identifier' }, unused: { regex: 'x' }, alsoUnused: { matches: 'unused' } },
    } as unknown as NapiConfig
    expect(Object.keys(withoutUnusedUtils(config).utils ?? {}).sort()).toEqual(['a', 'b', 'c'])
    const none = { rule: { kind: 'string' }, utils: { unused: { kind: 'number' } } } as unknown as NapiConfig
    expect(withoutUnusedUtils(none)).toEqual({ rule: { kind: 'string' } })
  })
})
