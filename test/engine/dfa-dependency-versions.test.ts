/**
 * Sinks that depend on the version of the library providing them, read from the repository's
 * package.json (the nearest one above the file): js-yaml's `load` executes code through its
 * default schema before version 4 only; a schema extended with code types is unsafe in any
 * version; with no manifest declaring js-yaml the old behaviour is assumed.
 */
import { describe, expect, it } from 'vitest'
import { analyzeDataFlow } from '../../src/engine/dataflow/index.ts'

const ROUTE = `const express = require('express')
const yaml = require('js-yaml')
const types = require('js-yaml-js-types')
const router = express.Router()

router.post('/import', (req, res) => {
  const plain = yaml.load(req.body)
  const extended = yaml.load(req.body, { schema: yaml.DEFAULT_SCHEMA.extend(types.all) })
  res.json({ plain, extended })
})

module.exports = router
`

function manifest(version: string): string {
  return JSON.stringify({ name: 'imports', dependencies: { express: '^4.18.0', 'js-yaml': version } })
}

function deserializationLines(files: Array<{ path: string; text: string }>): number[] {
  return analyzeDataFlow(files)
    .findings.filter((finding) => finding.category === 'insecure-deserialization')
    .map((finding) => finding.lineNumber)
    .sort((a, b) => a - b)
}

describe('js-yaml load by declared version', () => {
  it('js-yaml 4: the default schema is data only; a schema with code types is reported', () => {
    expect(deserializationLines([{ path: 'svc/package.json', text: manifest('^4.1.0') }, { path: 'svc/src/routes/import.js', text: ROUTE }])).toEqual([8])
  })

  it('js-yaml 3: every load of request data is reported', () => {
    expect(deserializationLines([{ path: 'package.json', text: manifest('~3.14.1') }, { path: 'src/import.js', text: ROUTE }])).toEqual([7, 8])
  })

  it('no manifest, or one that does not declare js-yaml: the old behaviour is assumed', () => {
    expect(deserializationLines([{ path: 'src/import.js', text: ROUTE }])).toEqual([7, 8])
    expect(deserializationLines([{ path: 'package.json', text: JSON.stringify({ dependencies: { express: '^4' } }) }, { path: 'src/import.js', text: ROUTE }])).toEqual([7, 8])
  })

  it('the nearest manifest counts: another package of the repository may pin an old version', () => {
    const files = [
      { path: 'package.json', text: manifest('^4.1.0') },
      { path: 'legacy/package.json', text: manifest('3.13.1') },
      { path: 'legacy/import.js', text: ROUTE },
    ]
    expect(deserializationLines(files)).toEqual([7, 8])
  })
})
