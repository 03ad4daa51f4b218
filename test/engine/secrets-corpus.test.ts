/**
 * Precision/recall corpus of the secrets analyzer (test/engine/fixtures/secrets/), in the
 * fixture convention of the SAST rules: a comment `ruleid: <rule>` means the next code line
 * must be reported by that rule, `ok: <rule>` that it must not; any other finding is a false
 * positive; `todoruleid:` / `todook:` mark known misses / false positives (counted, not failed).
 * Files are scanned with their path relative to the corpus root, so `tests/...` exercises
 * the test-path policy while the other folders are scanned as application code.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findSecrets, SECRET_RULES } from '../../src/engine/secrets/index.ts'

const CORPUS = fileURLToPath(new URL('./fixtures/secrets/', import.meta.url))

type AnnotationKind = 'ruleid' | 'ok' | 'todoruleid' | 'todook'
interface Annotation {
  kind: AnnotationKind
  rule: string
  /** 1-based line the annotation applies to */
  line: number
}

const ANNOTATION = /^\s*(?:#|\/\/|\/\*+|<!--|--|;|\*)\s*(ruleid|ok|todoruleid|todook):\s*([\w.,\s-]+?)\s*(?:\*\/|-->)?\s*$/
const COMMENT = /^\s*(?:#|\/\/|\/\*|\*|<!--|--|;)/

function listFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    return entry.isDirectory() ? listFiles(path) : [path]
  })
}

/** Annotations of a file, each resolved to the next line that is neither blank nor a comment. */
function parseAnnotations(text: string): Annotation[] {
  const lines = text.split(/\r?\n/)
  const annotations: Annotation[] = []
  lines.forEach((line, index) => {
    const match = ANNOTATION.exec(line)
    if (!match) return
    let target = index + 1
    while (target < lines.length && (lines[target]?.trim() === '' || COMMENT.test(lines[target] ?? ''))) target++
    for (const rule of (match[2] ?? '').split(/[\s,]+/).filter(Boolean)) {
      annotations.push({ kind: match[1] as AnnotationKind, rule, line: target + 1 })
    }
  })
  return annotations
}

interface FileResult {
  path: string
  missed: string[]
  falsePositives: string[]
  truePositives: number
  knownMisses: number
  knownFalsePositives: number
}

function evaluate(file: string): FileResult {
  const path = relative(CORPUS, file).replace(/\\/g, '/')
  const text = readFileSync(file, 'utf8')
  const annotations = parseAnnotations(text)
  const has = (kind: AnnotationKind, rule: string, line: number): boolean =>
    annotations.some((a) => a.kind === kind && a.rule === rule && a.line === line)
  const findings = findSecrets(path, text)
  const found = (rule: string, line: number): boolean => findings.some((f) => f.ruleId === rule && f.line === line)
  const result: FileResult = { path, missed: [], falsePositives: [], truePositives: 0, knownMisses: 0, knownFalsePositives: 0 }
  for (const annotation of annotations) {
    if (annotation.kind === 'ruleid') {
      if (found(annotation.rule, annotation.line)) result.truePositives++
      else result.missed.push(`${path}:${annotation.line} ${annotation.rule}`)
    }
    if (annotation.kind === 'todoruleid' && !found(annotation.rule, annotation.line)) result.knownMisses++
  }
  for (const finding of findings) {
    if (has('ruleid', finding.ruleId, finding.line)) continue
    if (has('todook', finding.ruleId, finding.line)) {
      result.knownFalsePositives++
      continue
    }
    result.falsePositives.push(`${path}:${finding.line} ${finding.ruleId}`)
  }
  return result
}

const files = listFiles(CORPUS).sort()
const results = files.map(evaluate)

describe('secrets corpus (test/engine/fixtures/secrets)', () => {
  for (const result of results) {
    it(`${result.path}: every ruleid is found and nothing else is reported`, () => {
      expect(result.missed, 'missed').toEqual([])
      expect(result.falsePositives, 'false positives').toEqual([])
    })
  }

  it('has at least one ruleid and one ok case for every rule', () => {
    const annotations = files.flatMap((file) => parseAnnotations(readFileSync(file, 'utf8')))
    const lacking = SECRET_RULES.flatMap((rule) => [
      ...(annotations.some((a) => a.kind === 'ruleid' && a.rule === rule.id) ? [] : [`${rule.id}: no ruleid`]),
      ...(annotations.some((a) => a.kind === 'ok' && a.rule === rule.id) ? [] : [`${rule.id}: no ok`]),
    ])
    expect(lacking).toEqual([])
  })

  it('only annotates rules that exist', () => {
    const known = new Set(SECRET_RULES.map((rule) => rule.id))
    const unknown = files
      .flatMap((file) => parseAnnotations(readFileSync(file, 'utf8')).map((a) => a.rule))
      .filter((rule) => !known.has(rule))
    expect(unknown).toEqual([])
  })

  it('reaches full precision and recall on the corpus', () => {
    const truePositives = results.reduce((sum, r) => sum + r.truePositives, 0)
    const falsePositives = results.reduce((sum, r) => sum + r.falsePositives.length, 0)
    const misses = results.reduce((sum, r) => sum + r.missed.length, 0)
    const precision = truePositives / Math.max(1, truePositives + falsePositives)
    const recall = truePositives / Math.max(1, truePositives + misses)
    expect(truePositives).toBeGreaterThan(80)
    expect({ precision, recall }).toEqual({ precision: 1, recall: 1 })
  })
})
