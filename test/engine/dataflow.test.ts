/**
 * Runs the data-flow analyzer over its fixture corpus (test/engine/fixtures/dataflow/**) and
 * checks the `ruleid:` / `ok:` annotations with the rule-fixture convention (src/engine/rules/fixtures.ts):
 * every annotated sink line must be reported or not as annotated, and any other finding fails.
 * Also requires every language to have a real and a look-alike case for every sink category.
 */
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { describeResult, evaluateFixture, loadFixtureFiles } from '../../src/engine/rules/fixtures.ts'
import type { FixtureFile } from '../../src/engine/rules/fixtures.ts'
import { CATEGORIES } from '../../src/engine/core/types.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { analyzeDataFlow, supportsDataFlow } from '../../src/engine/dataflow/index.ts'
import type { DataFlowResult } from '../../src/engine/dataflow/index.ts'
import { SINK_KIND_INFO } from '../../src/engine/dataflow/kinds.ts'

const FIXTURE_ROOT = fileURLToPath(new URL('./fixtures/dataflow/', import.meta.url))
const SINK_CATEGORIES = [...new Set(Object.values(SINK_KIND_INFO).map((info) => info.category))]
/** Fixture folders and the rule-id language of their files. */
const LANGUAGE_FOLDERS: Record<string, string[]> = { python: ['python'], javascript: ['javascript'], typescript: ['typescript', 'tsx'], java: ['java'] }
/** Sink categories a language cannot have: only JavaScript objects inherit through a key (`__proto__`). */
const NOT_IN_LANGUAGE: Record<string, string[]> = { python: ['prototype-pollution'], java: ['prototype-pollution'] }

let files: FixtureFile[] = []
let result: DataFlowResult

beforeAll(() => {
  files = loadFixtureFiles(FIXTURE_ROOT).filter((file) => supportsDataFlow(file.path))
  result = analyzeDataFlow(files.map((file) => ({ path: file.path, text: file.text })))
})

function findingsOf(path: string): Finding[] {
  return result.findings.filter((finding) => finding.filePath === path)
}

describe('data-flow fixtures', () => {
  it('are found', () => {
    expect(files.length).toBeGreaterThan(20)
  })

  it('report exactly the annotated sinks', () => {
    const failures = files.flatMap((file) => evaluateFixture(file, findingsOf(file.path))).filter((outcome) => outcome.failing)
    expect(failures.map(describeResult), `${failures.length} fixture mismatches (file:line rule: expected, got)`).toEqual([])
  })

  it('name only data-flow rule ids of known categories', () => {
    const problems = files.flatMap((file) =>
      file.annotations.flatMap((annotation) => {
        const match = /^dataflow\.([a-z]+)\.([a-z-]+)$/.exec(annotation.ruleId)
        const known = match !== null && (CATEGORIES as readonly string[]).includes(match[2] ?? '') && match[1] === file.language
        return known ? [] : [`${file.path}:${annotation.annotationLine}: ${annotation.ruleId}`]
      }),
    )
    expect(problems).toEqual([])
  })

  it('give every language a real and a look-alike case for every sink category', () => {
    const missing: string[] = []
    for (const [folder, languages] of Object.entries(LANGUAGE_FOLDERS)) {
      const annotations = files.filter((file) => file.path.startsWith(`${folder}/`)).flatMap((file) => file.annotations)
      for (const category of SINK_CATEGORIES) {
        if (NOT_IN_LANGUAGE[folder]?.includes(category)) continue
        const ids = languages.map((language) => `dataflow.${language}.${category}`)
        for (const kind of ['ruleid', 'ok'] as const) {
          if (!annotations.some((annotation) => annotation.kind === kind && ids.includes(annotation.ruleId))) missing.push(`${folder}: no ${kind}: case for ${category}`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it('include cross-file flows', () => {
    const crossFile = result.findings.filter((finding) => finding.dataFlow && finding.dataFlow.source.filePath !== finding.dataFlow.sink.filePath)
    const languages = new Set(crossFile.map((finding) => finding.language))
    expect([...languages].sort()).toEqual(expect.arrayContaining(['java', 'javascript', 'python', 'typescript']))
  })

  it('fill every finding field like the pattern rules do', () => {
    for (const finding of result.findings) {
      expect(finding.analyzer).toBe('dataflow')
      expect(finding.modelUsed).toBe('parapet-dataflow/1.0')
      expect(finding.ruleId).toBe(`dataflow.${finding.language}.${finding.category}`)
      expect(finding.codeSnippet.length).toBeGreaterThan(0)
      expect(finding.fingerprint).toMatch(/^[0-9a-f]{64}$/)
      expect(finding.cweIds.length).toBe(1)
      expect(finding.dataFlow?.sanitized).toBe(false)
      // Predictable randomness stands at the generator (kinds.ts reportAtSource), the rest at the sink.
      const kind = finding.dataFlow?.sink.kind as keyof typeof SINK_KIND_INFO
      const at = SINK_KIND_INFO[kind]?.reportAtSource ? finding.dataFlow?.source : finding.dataFlow?.sink
      expect(at?.lineNumber).toBe(finding.lineNumber)
      expect(at?.filePath).toBe(finding.filePath)
      expect(finding.explanation).toContain(`${finding.dataFlow?.source.filePath}:${finding.dataFlow?.source.lineNumber}`)
    }
  })
})
