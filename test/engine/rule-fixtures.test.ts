/**
 * Runs every built-in rule over the fixture corpus (test/engine/fixtures/rules/**) and checks
 * the `ruleid:` / `ok:` annotations; also requires every built-in rule to have both kinds of
 * case. Failures list file:line, rule, expected and got, so a rule author can act on them.
 */
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadBuiltinRules } from '../../src/engine/rules/loader.ts'
import { coverageProblems, describeResult, loadFixtureFiles, runFixtureSuite } from '../../src/engine/rules/fixtures.ts'

const FIXTURE_ROOT = fileURLToPath(new URL('./fixtures/rules/', import.meta.url))

describe('built-in rule fixtures', () => {
  it('load without validation errors', () => {
    expect(() => loadBuiltinRules()).not.toThrow()
  })

  it('report exactly the annotated lines', async () => {
    const rules = loadBuiltinRules()
    const run = await runFixtureSuite(FIXTURE_ROOT, rules)
    const failures = [
      ...run.skippedFiles.map((file) => `${file.path}: fixture file was not analyzed (${file.reason})`),
      ...run.results.filter((result) => result.failing).map(describeResult),
    ]
    expect(failures, `${failures.length} fixture mismatches (file:line rule: expected, got)`).toEqual([])
  })

  it('give every built-in rule a ruleid: and an ok: case, and name only known rules', () => {
    const problems = coverageProblems(loadBuiltinRules(), loadFixtureFiles(FIXTURE_ROOT))
    expect(problems, `${problems.length} fixture coverage problems`).toEqual([])
  })
})
