/**
 * Weak hash and cipher names that are not written at the call (crypto.ts): folded constants,
 * static fields of other classes, imported module constants, concatenations, and values of the
 * repository's own configuration files. Fixtures: test/engine/fixtures/weak-crypto-fold/, with
 * the `ruleid:` / `ok:` convention; the configuration files there are given to the analysis
 * as a scan gives them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { describeResult, evaluateFixture, loadFixtureFiles } from '../../src/engine/rules/fixtures.ts'
import type { FixtureFile } from '../../src/engine/rules/fixtures.ts'
import { analyzeDataFlow, supportsDataFlow } from '../../src/engine/dataflow/index.ts'
import type { DataFlowResult } from '../../src/engine/dataflow/index.ts'
import { isRepositoryConfig } from '../../src/engine/dataflow/crypto.ts'

const ROOT = fileURLToPath(new URL('./fixtures/weak-crypto-fold/', import.meta.url))

function allFiles(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const absolute = join(dir, entry.name)
    if (entry.isDirectory()) return allFiles(absolute)
    return [{ path: relative(ROOT, absolute).split(sep).join('/'), text: readFileSync(absolute, 'utf8') }]
  })
}

let fixtures: FixtureFile[] = []
let result: DataFlowResult

beforeAll(() => {
  fixtures = loadFixtureFiles(ROOT).filter((file) => supportsDataFlow(file.path))
  result = analyzeDataFlow(allFiles(ROOT).filter((file) => supportsDataFlow(file.path) || isRepositoryConfig(file.path)))
})

describe('weak crypto from folded names', () => {
  it('has fixtures in every data-flow language', () => {
    const folders = new Set(fixtures.map((file) => file.path.split('/')[0]))
    expect([...folders].sort()).toEqual(['java', 'javascript', 'python', 'typescript'])
  })

  it('reports exactly the annotated calls', () => {
    const failures = fixtures.flatMap((file) => evaluateFixture(file, result.findings.filter((finding) => finding.filePath === file.path))).filter((outcome) => outcome.failing)
    expect(failures.map(describeResult), `${failures.length} fixture mismatches (file:line rule: expected, got)`).toEqual([])
  })

  it('says which configuration file and key chose the algorithm', () => {
    const configured = result.findings.find((finding) => finding.filePath.endsWith('ConfiguredDigests.java') && finding.description.includes('MD5'))
    expect(configured?.description).toContain('crypto.properties (password.digest)')
    expect(configured?.tags).toContain('configuration')
    const yaml = result.findings.find((finding) => finding.filePath.endsWith('TokenCipherService.java') && finding.description.includes('DES/CBC'))
    expect(yaml?.description).toContain('application.yml (acme.crypto.cipher)')
  })

  it('needs the configuration files for configured names', () => {
    const withoutConfig = analyzeDataFlow(allFiles(ROOT).filter((file) => supportsDataFlow(file.path)))
    expect(withoutConfig.findings.some((finding) => finding.filePath.endsWith('TokenCipherService.java'))).toBe(false)
  })
})
