/** The one-pass precondition word scanner agrees with plain substring tests. */
import { describe, expect, it } from 'vitest'
import { CASE_INSENSITIVE, TextProbe } from '../../src/engine/sast/preconditions.ts'
import { WordScanner } from '../../src/engine/text/word-scanner.ts'

const ci = (word: string) => CASE_INSENSITIVE + word

function presentWords(scanner: WordScanner, words: string[], text: string): string[] {
  const present = scanner.scan(text)
  return words.filter((word) => present[scanner.idOf(word)] === 1)
}

describe('WordScanner', () => {
  it('finds exactly the words a substring test finds, overlapping and nested ones included', () => {
    const words = ['os', 'system', 'os.system', 'req.query', 'he', 'she', 'his', 'hers', 'sys', '->', '$_GET', ci('select'), ci('sel'), ci('where'), ci('from')]
    const scanner = new WordScanner(words)
    const texts = [
      '',
      'os.system(cmd)',
      'ushers',
      'import sys\nx = req.query["a"]',
      '$x->y; $_GET["q"]',
      'q = "SELECT * FROM t WHERE a = 1"',
      'SeLeCt',
      'wher e from',
      'posix osystem',
      'héllo wörld — “quotes” 𝒳 select',
    ]
    for (const text of texts) {
      const probe = new TextProbe(text)
      expect([text, presentWords(scanner, words, text)]).toEqual([text, words.filter((word) => probe.has(word))])
    }
  })

  it('folds case like a case-insensitive regex: KELVIN SIGN is k and LONG S is s', () => {
    const scanner = new WordScanner([ci('token'), ci('secret'), 'token'])
    expect(presentWords(scanner, [ci('token'), ci('secret'), 'token'], 'TO\u212AEN \u017Fecret')).toEqual([ci('token'), ci('secret')])
  })

  it('counts case-insensitive words with non-ASCII letters, and empty words, as always present', () => {
    const scanner = new WordScanner([ci('größe'), '', 'x'])
    expect(presentWords(scanner, [ci('größe'), '', 'x'], 'nothing here')).toEqual([ci('größe'), ''])
  })

  it('numbers words in order of first appearance and rejects unknown ones', () => {
    const scanner = new WordScanner(['b', 'a', 'b', ci('c')])
    expect([scanner.size, scanner.idOf('b'), scanner.idOf('a'), scanner.idOf(ci('c'))]).toEqual([3, 0, 1, 2])
    expect(() => scanner.idOf('zzz')).toThrow(/not in the scanner's vocabulary/)
  })

  it('gives the same answers when reused across many texts', () => {
    const words = ['alpha', 'beta', ci('gamma')]
    const scanner = new WordScanner(words)
    for (let round = 0; round < 50; round++) {
      const text = round % 2 === 0 ? `x alpha ${round}` : `GAMMA beta ${round}`
      expect(presentWords(scanner, words, text)).toEqual(round % 2 === 0 ? ['alpha'] : ['beta', ci('gamma')])
    }
  })
})
