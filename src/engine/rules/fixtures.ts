/**
 * The rule fixture convention, shared by the fixture test and the quality benchmark.
 *
 * In a fixture file, a comment line `ruleid: <rule-id>` says the next non-comment line must be
 * reported by that rule; `ok: <rule-id>` says it must not be; `todoruleid:` / `todook:` mark
 * known misses and known false positives (measured, not failed). Any other finding of a rule
 * is a false positive. Several ids may be listed, separated by commas.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import type { Finding, RuleDocument } from '../core/types.ts'
import { scanSources } from '../scan/scan.ts'
import { commentSyntax, isCodeLanguage, languageFromPath, languageFromShebang } from '../core/languages.ts'
import type { CommentSyntax, FileLanguage } from '../core/languages.ts'

export const ANNOTATION_KINDS = ['ruleid', 'ok', 'todoruleid', 'todook'] as const
export type AnnotationKind = (typeof ANNOTATION_KINDS)[number]

export interface FixtureAnnotation {
  kind: AnnotationKind
  ruleId: string
  /** 1-based line of the annotation comment */
  annotationLine: number
  /** 1-based line the annotation is about (next non-comment, non-blank line) */
  targetLine: number
}

const ANNOTATION = /^(todoruleid|todook|ruleid|ok)\s*:\s*([A-Za-z0-9_.\-/]+(?:\s*,\s*[A-Za-z0-9_.\-/]+)*)/

/** The comment text of a comment-only line, or null when the line holds code. */
function commentBody(line: string, comments: CommentSyntax): string | null {
  const trimmed = line.trim()
  for (const marker of comments.line) {
    // `#[...]` is an attribute in PHP 8, not a comment.
    if (trimmed.startsWith(marker) && !(marker === '#' && trimmed.startsWith('#['))) return trimmed.slice(marker.length).trim()
  }
  for (const [open, close] of comments.block) {
    if (trimmed.startsWith(open)) {
      const body = trimmed.slice(open.length)
      return (body.endsWith(close) ? body.slice(0, -close.length) : body).trim()
    }
  }
  if (comments.block.length > 0 && trimmed.startsWith('*')) return trimmed.replace(/^\*+\/?/, '').trim()
  // Some fixtures use SQL/Lua style `--` comments in any language.
  if (trimmed.startsWith('-- ')) return trimmed.slice(3).trim()
  return null
}

export function fixtureLanguage(path: string, text: string): FileLanguage | null {
  return languageFromPath(path) ?? languageFromShebang(text.split('\n', 1)[0] ?? '')
}

/** Annotations of one fixture file. */
export function parseFixtureAnnotations(text: string, language: FileLanguage): FixtureAnnotation[] {
  const comments = commentSyntax(language)
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''))
  const annotations: FixtureAnnotation[] = []
  let pending: Array<Omit<FixtureAnnotation, 'targetLine'>> = []
  lines.forEach((line, index) => {
    const body = commentBody(line, comments)
    if (body !== null) {
      const match = ANNOTATION.exec(body)
      if (match) {
        for (const ruleId of (match[2] ?? '').split(',')) {
          pending.push({ kind: match[1] as AnnotationKind, ruleId: ruleId.trim(), annotationLine: index + 1 })
        }
      }
      return
    }
    if (line.trim() === '') return
    for (const annotation of pending) annotations.push({ ...annotation, targetLine: index + 1 })
    pending = []
  })
  return annotations
}

export interface FixtureFile {
  /** relative to the fixture root, forward slashes */
  path: string
  absolutePath: string
  language: FileLanguage
  text: string
  annotations: FixtureAnnotation[]
}

/** Every fixture file under `root` with a known language. */
export function loadFixtureFiles(root: string): FixtureFile[] {
  const files: FixtureFile[] = []
  const visit = (dir: string) => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const absolutePath = join(dir, entry.name)
      if (entry.isDirectory()) visit(absolutePath)
      else if (entry.isFile()) {
        const text = readFileSync(absolutePath, 'utf8')
        const path = relative(root, absolutePath).split(sep).join('/')
        const language = fixtureLanguage(path, text)
        if (language) files.push({ path, absolutePath, language, text, annotations: parseFixtureAnnotations(text, language) })
      }
    }
  }
  visit(root)
  return files
}

export type Outcome = 'true-positive' | 'false-negative' | 'true-negative' | 'false-positive'

export interface FixtureResult {
  file: string
  line: number
  ruleId: string
  /** The annotation behind the result; null for a finding on an unannotated line. */
  annotation: AnnotationKind | null
  outcome: Outcome
  /** True when the outcome fails the fixture test (todo annotations never fail). */
  failing: boolean
}

/** Compares findings with a file's annotations. `findings` must belong to that file. */
export function evaluateFixture(file: FixtureFile, findings: Finding[]): FixtureResult[] {
  const reported = new Set(findings.map((finding) => `${finding.ruleId}\u0000${finding.lineNumber}`))
  const annotated = new Set<string>()
  const results: FixtureResult[] = []
  for (const annotation of file.annotations) {
    const key = `${annotation.ruleId}\u0000${annotation.targetLine}`
    annotated.add(key)
    const hit = reported.has(key)
    const expectsHit = annotation.kind === 'ruleid' || annotation.kind === 'todoruleid'
    const outcome: Outcome = expectsHit ? (hit ? 'true-positive' : 'false-negative') : hit ? 'false-positive' : 'true-negative'
    const failing = (annotation.kind === 'ruleid' && !hit) || (annotation.kind === 'ok' && hit)
    results.push({ file: file.path, line: annotation.targetLine, ruleId: annotation.ruleId, annotation: annotation.kind, outcome, failing })
  }
  const unannotated = new Set<string>()
  for (const finding of findings) {
    const key = `${finding.ruleId}\u0000${finding.lineNumber}`
    if (annotated.has(key) || unannotated.has(key)) continue
    unannotated.add(key)
    results.push({ file: file.path, line: finding.lineNumber, ruleId: finding.ruleId, annotation: null, outcome: 'false-positive', failing: true })
  }
  return results
}

/** Rules without at least one `ruleid:` and one `ok:` case, and annotations naming unknown rules. */
export function coverageProblems(rules: RuleDocument[], files: FixtureFile[]): string[] {
  const positive = new Set<string>()
  const negative = new Set<string>()
  const known = new Set(rules.map((rule) => rule.id))
  const problems: string[] = []
  for (const file of files) {
    for (const annotation of file.annotations) {
      if (!known.has(annotation.ruleId)) {
        problems.push(`${file.path}:${annotation.annotationLine}: ${annotation.kind} names unknown rule "${annotation.ruleId}"`)
      }
      if (annotation.kind === 'ruleid') positive.add(annotation.ruleId)
      if (annotation.kind === 'ok') negative.add(annotation.ruleId)
    }
  }
  for (const rule of rules) {
    const missing = [positive.has(rule.id) ? null : '`ruleid:`', negative.has(rule.id) ? null : '`ok:`'].filter(Boolean)
    if (missing.length > 0) problems.push(`rule "${rule.id}" has no ${missing.join(' and no ')} fixture case`)
  }
  return problems
}

export function describeResult(result: FixtureResult): string {
  const expected = result.annotation === 'ruleid' || result.annotation === 'todoruleid' ? 'a finding' : 'no finding'
  const got = result.outcome === 'true-positive' || result.outcome === 'false-positive' ? 'a finding' : 'no finding'
  const annotation = result.annotation ?? 'no annotation'
  return `${result.file}:${result.line} ${result.ruleId}: expected ${expected} (${annotation}), got ${got}`
}

export interface FixtureSuiteRun {
  files: FixtureFile[]
  results: FixtureResult[]
  /** Fixture files the scan did not analyze (with the reason): their cases cannot pass. */
  skippedFiles: Array<{ path: string; reason: string }>
  /** Findings per fixture path. */
  findings: Map<string, Finding[]>
}

/** Scans every fixture file under `root` with `rules` (sast only) and evaluates the annotations. */
export async function runFixtureSuite(root: string, rules: RuleDocument[]): Promise<FixtureSuiteRun> {
  const files = loadFixtureFiles(root).filter((file) => isCodeLanguage(file.language))
  const skippedFiles: FixtureSuiteRun['skippedFiles'] = []
  const report = await scanSources(
    files.map((file) => ({ path: file.path, content: Buffer.from(file.text, 'utf8') })),
    {
      analyzers: ['sast'],
      builtinRules: false,
      extraRules: rules,
      ignoredDirs: [],
      onLog: (event) => {
        const reason = event.data?.reason
        const path = event.data?.path
        if (typeof reason === 'string' && typeof path === 'string' && event.message.startsWith('skipped')) skippedFiles.push({ path, reason })
      },
    },
  )
  const findings = new Map<string, Finding[]>()
  for (const finding of report.findings) {
    const list = findings.get(finding.filePath) ?? []
    list.push(finding)
    findings.set(finding.filePath, list)
  }
  const results = files.flatMap((file) => evaluateFixture(file, findings.get(file.path) ?? []))
  return { files, results, skippedFiles, findings }
}
