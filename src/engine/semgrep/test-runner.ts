/**
 * Tests rule files the way `semgrep --test` does: every rule file `<name>.yaml` of a folder is
 * paired with its test targets (`<name>.<ext>` and `<name>.<variant>.<ext>` beside it), each
 * rule file is run alone (no built-in rules, the `sast` analyzer) on its targets, and the
 * reported lines are compared with the targets' `ruleid:` / `ok:` / `todoruleid:` / `todook:`
 * annotations. An annotation comment applies to the next code line, or to its own line when it
 * ends a line of code. A target `<name>.fixed.<ext>` holds the expected text of `<name>.<ext>`
 * once every finding's fix is applied.
 *
 * A rule file fails on a missed `ruleid:` line, a finding on a line without `ruleid:`, a rule
 * file that does not load, a target the scan skipped, an annotation naming a rule the file does
 * not define, or a fixed text that differs; `todo` annotations are counted, never failed.
 *
 * Also a command: `npm run test:rules -- <folder>` prints a summary like Semgrep's and exits
 * with 1 when a rule file fails (2 on a usage error).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Finding, RuleDocument } from '../core/types.ts'
import { RuleValidationError, formatRuleProblem, parseRulesText } from '../rules/loader.ts'
import { scanSources } from '../scan/scan.ts'
import { evaluateFixture, fixtureLanguage, parseFixtureAnnotations } from '../rules/fixtures.ts'
import type { AnnotationKind, FixtureAnnotation, FixtureFile, FixtureResult } from '../rules/fixtures.ts'
import { commentSyntax, isCodeLanguage } from '../core/languages.ts'
import type { FileLanguage } from '../core/languages.ts'

/** Semgrep's confusion matrix: TP `ruleid` found, TN `ok` clean, FP reported without `ruleid`, FN `ruleid` missed. */
export interface Confusion {
  tp: number
  tn: number
  fp: number
  fn: number
}

export interface RuleIdResult extends Confusion {
  ruleId: string
  /** lines (`file:line`) annotated `ruleid:` for this rule */
  expected: string[]
  /** lines (`file:line`) this rule reported */
  reported: string[]
  passed: boolean
}

export interface RuleFileResult {
  /** the rule file, relative to the tested folder, forward slashes */
  ruleFile: string
  /** its targets, relative to the tested folder */
  targets: string[]
  /** one entry per rule id of the file (or named by an annotation) */
  rules: RuleIdResult[]
  /** every annotated case and every unannotated finding, as the fixture convention evaluates them */
  results: FixtureResult[]
  /** `todoruleid:` / `todook:` annotations: known gaps, never failures */
  todo: number
  /** what failed besides line mismatches: the rule file not loading, skipped targets, fixes */
  problems: string[]
  /** the findings, by target (relative to the tested folder) */
  findings: Record<string, Finding[]>
  passed: boolean
}

export interface RuleTestReport {
  folder: string
  files: RuleFileResult[]
  totals: Confusion & { files: number; passedFiles: number; todo: number }
  passed: boolean
}

const RULE_FILE = /\.ya?ml$/i
/** `<name>.test.yaml` is a target (rules for YAML files), not a rule file. */
const YAML_TARGET = /\.test\.ya?ml$/i
const FIXED = '.fixed'

/** Every rule file under `folder`, relative to it, sorted. */
export function findRuleFiles(folder: string): string[] {
  const found: string[] = []
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) visit(path)
      else if (entry.isFile() && RULE_FILE.test(entry.name) && !YAML_TARGET.test(entry.name)) found.push(relative(folder, path).split(sep).join('/'))
    }
  }
  visit(folder)
  return found
}

/** The test targets of a rule file: files beside it named `<name>.<ext>` or `<name>.<variant>.<ext>`, fixed texts aside. */
export function targetsOf(folder: string, ruleFile: string): string[] {
  const dir = dirname(join(folder, ruleFile))
  const stem = basename(ruleFile).replace(RULE_FILE, '')
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.startsWith(`${stem}.`))
    .map((entry) => entry.name)
    .filter((name) => (!RULE_FILE.test(name) || YAML_TARGET.test(name)) && !isFixedText(name))
    .sort()
    .map((name) => relative(folder, join(dir, name)).split(sep).join('/'))
}

function isFixedText(name: string): boolean {
  const dot = name.lastIndexOf('.')
  return dot > 0 && name.slice(0, dot).endsWith(FIXED)
}

/** `<name>.<ext>` -> `<name>.fixed.<ext>`. */
function fixedTextPath(target: string): string {
  const dot = target.lastIndexOf('.')
  return `${target.slice(0, dot)}${FIXED}${target.slice(dot)}`
}

const TRAILING_ANNOTATION = /^\s*(todoruleid|todook|ruleid|ok)\s*:\s*([A-Za-z0-9_.\-/]+(?:\s*,\s*[A-Za-z0-9_.\-/]+)*)\s*(?:\*\/|-->)?\s*$/

/**
 * Annotations that end a line of code (`eval(x)  # ruleid: eval-use`): they apply to that line.
 * Comment-only lines are the fixture convention's (parseFixtureAnnotations).
 */
export function trailingAnnotations(text: string, language: FileLanguage): FixtureAnnotation[] {
  const comments = commentSyntax(language)
  const markers = [...comments.line, ...comments.block.map(([open]) => open)]
  const annotations: FixtureAnnotation[] = []
  text.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '')
    const trimmed = line.trimStart()
    if (trimmed === '' || markers.some((marker) => trimmed.startsWith(marker))) return
    for (const marker of markers) {
      // the last occurrence: a marker inside a string literal earlier on the line is not the comment
      const at = line.lastIndexOf(marker)
      if (at <= 0) continue
      const match = TRAILING_ANNOTATION.exec(line.slice(at + marker.length))
      if (!match) continue
      for (const ruleId of (match[2] ?? '').split(',')) {
        annotations.push({ kind: match[1] as AnnotationKind, ruleId: ruleId.trim(), annotationLine: index + 1, targetLine: index + 1 })
      }
      return
    }
  })
  return annotations
}

/** Every annotation of a test target: on comment lines (the fixture convention) and at line ends. */
export function ruleTestAnnotations(text: string, language: FileLanguage): FixtureAnnotation[] {
  return [...parseFixtureAnnotations(text, language), ...trailingAnnotations(text, language)]
}

/** Applies every single-line finding's fix to `text`, last first (as Semgrep, overlapping fixes after the first are skipped). */
function applyFixes(text: string, findings: Finding[], problems: string[], target: string): string {
  const lines = text.split('\n')
  const fixes = findings
    .filter((finding) => finding.remediationCode !== null)
    .sort((a, b) => b.lineNumber - a.lineNumber || b.columnStart - a.columnStart)
  let previous: Finding | null = null
  for (const finding of fixes) {
    if (finding.endLineNumber !== finding.lineNumber) {
      problems.push(`${target}:${finding.lineNumber}: ${finding.ruleId}: the fix of a match over several lines cannot be checked`)
      continue
    }
    if (previous && previous.lineNumber === finding.lineNumber && finding.columnEnd > previous.columnStart) continue
    previous = finding
    const line = lines[finding.lineNumber - 1] ?? ''
    lines[finding.lineNumber - 1] = `${line.slice(0, finding.columnStart - 1)}${finding.remediationCode ?? ''}${line.slice(finding.columnEnd - 1)}`
  }
  return lines.join('\n')
}

function emptyConfusion(): Confusion {
  return { tp: 0, tn: 0, fp: 0, fn: 0 }
}

/** Tests one rule file (relative to `folder`) on its targets. */
export async function testRuleFile(folder: string, ruleFile: string): Promise<RuleFileResult> {
  const targets = targetsOf(folder, ruleFile)
  const problems: string[] = []
  const result = (rules: RuleIdResult[], results: FixtureResult[], todo: number, findings: Record<string, Finding[]>): RuleFileResult => ({
    ruleFile,
    targets,
    rules,
    results,
    todo,
    problems,
    findings,
    passed: problems.length === 0 && results.every((entry) => !entry.failing),
  })
  if (targets.length === 0) problems.push(`${ruleFile}: no test target (expected a file such as ${basename(ruleFile).replace(RULE_FILE, '')}.py beside it)`)

  let ruleIds: string[]
  let documents: RuleDocument[]
  try {
    documents = parseRulesText(readFileSync(join(folder, ruleFile), 'utf8'), ruleFile)
    ruleIds = [...new Set(documents.map((rule) => rule.id))]
  } catch (error) {
    if (!(error instanceof RuleValidationError)) throw error
    problems.push(...error.problems.map((problem) => `invalid rule: ${formatRuleProblem(problem)}`))
    return result([], [], 0, {})
  }

  const files: FixtureFile[] = []
  for (const target of targets) {
    const text = readFileSync(join(folder, target), 'utf8')
    const language = fixtureLanguage(target, text)
    if (!language || !isCodeLanguage(language)) {
      problems.push(`${target}: not a file of a language rules run on`)
      continue
    }
    files.push({ path: target, absolutePath: join(folder, target), language, text, annotations: ruleTestAnnotations(text, language) })
  }

  // Targets are scanned under their own names: a rule's `paths:` sees `name.ext`, whatever the folder.
  const scannedName = new Map(files.map((file) => [basename(file.path), file.path]))
  const report = await scanSources(
    files.map((file) => ({ path: basename(file.path), content: Buffer.from(file.text, 'utf8') })),
    {
      analyzers: ['sast'],
      builtinRules: false,
      extraRules: documents,
      ignoredDirs: [],
      workers: 0,
      onLog: (event) => {
        const reason = event.data?.reason
        const path = event.data?.path
        if (typeof reason === 'string' && typeof path === 'string' && event.message.startsWith('skipped')) {
          problems.push(`${scannedName.get(path) ?? path}: not analyzed (${reason})`)
        }
      },
    },
  )
  const findings: Record<string, Finding[]> = {}
  for (const finding of report.findings) {
    const target = scannedName.get(finding.filePath) ?? finding.filePath
    ;(findings[target] ??= []).push(finding)
  }

  const results = files.flatMap((file) => evaluateFixture(file, findings[file.path] ?? []))
  let todo = 0
  for (const file of files) {
    for (const annotation of file.annotations) {
      if (annotation.kind === 'todoruleid' || annotation.kind === 'todook') todo++
      if (!ruleIds.includes(annotation.ruleId)) {
        problems.push(`${file.path}:${annotation.annotationLine}: ${annotation.kind} names "${annotation.ruleId}", which ${ruleFile} does not define`)
      }
    }
    const fixedPath = fixedTextPath(file.path)
    if (existsSync(join(folder, fixedPath))) {
      const expected = readFileSync(join(folder, fixedPath), 'utf8')
      const fixed = applyFixes(file.text, findings[file.path] ?? [], problems, file.path)
      if (fixed !== expected) problems.push(`${fixedPath}: the fixed text differs from ${file.path} with its fixes applied:\n${lineDiff(expected, fixed)}`)
    }
  }

  const byRule = new Map<string, RuleIdResult>()
  const entry = (ruleId: string) => {
    let found = byRule.get(ruleId)
    if (!found) {
      found = { ruleId, ...emptyConfusion(), expected: [], reported: [], passed: true }
      byRule.set(ruleId, found)
    }
    return found
  }
  for (const ruleId of ruleIds) entry(ruleId)
  for (const item of results) {
    const rule = entry(item.ruleId)
    const where = `${item.file}:${item.line}`
    if (item.annotation === 'ruleid') rule.expected.push(where)
    if (item.outcome === 'true-positive' || item.outcome === 'false-positive') rule.reported.push(where)
    if (item.annotation === 'todoruleid' || item.annotation === 'todook') continue
    if (item.outcome === 'true-positive') rule.tp++
    else if (item.outcome === 'true-negative') rule.tn++
    else if (item.outcome === 'false-positive') rule.fp++
    else rule.fn++
    if (item.failing) rule.passed = false
  }
  for (const rule of byRule.values()) {
    rule.expected.sort(byLocation)
    rule.reported.sort(byLocation)
  }
  return result([...byRule.values()], results, todo, findings)
}

/** `file:line` strings in file order, then line order. */
function byLocation(a: string, b: string): number {
  const [fileA = '', lineA = '0'] = a.split(/:(?=\d+$)/)
  const [fileB = '', lineB = '0'] = b.split(/:(?=\d+$)/)
  return fileA === fileB ? Number(lineA) - Number(lineB) : fileA < fileB ? -1 : 1
}

/** A short line-by-line comparison: the first lines that differ. */
function lineDiff(expected: string, actual: string): string {
  const a = expected.split('\n')
  const b = actual.split('\n')
  const out: string[] = []
  for (let i = 0; i < Math.max(a.length, b.length) && out.length < 10; i++) {
    if (a[i] !== b[i]) out.push(`    line ${i + 1}: expected ${JSON.stringify(a[i] ?? '')}, got ${JSON.stringify(b[i] ?? '')}`)
  }
  return out.join('\n')
}

/** Tests every rule file under `folder` (or the single rule file `folder` names). */
export async function runRuleTests(folder: string): Promise<RuleTestReport> {
  const single = statSync(folder).isFile()
  const root = single ? dirname(folder) : folder
  const ruleFiles = single ? [basename(folder)] : findRuleFiles(folder)
  const files: RuleFileResult[] = []
  for (const ruleFile of ruleFiles) files.push(await testRuleFile(root, ruleFile))
  const totals = { ...emptyConfusion(), files: files.length, passedFiles: 0, todo: 0 }
  for (const file of files) {
    if (file.passed) totals.passedFiles++
    totals.todo += file.todo
    for (const rule of file.rules) {
      totals.tp += rule.tp
      totals.tn += rule.tn
      totals.fp += rule.fp
      totals.fn += rule.fn
    }
  }
  return { folder, files, totals, passed: files.every((file) => file.passed) }
}

/** What failed in one rule file, one line per failure (empty when it passed). */
export function describeFailures(file: RuleFileResult): string[] {
  const lines = [...file.problems]
  for (const rule of file.rules) {
    if (rule.passed) continue
    lines.push(`${rule.ruleId}: expected lines [${rule.expected.join(', ')}], reported lines [${rule.reported.join(', ')}]`)
    for (const item of file.results) {
      if (item.ruleId !== rule.ruleId || !item.failing) continue
      lines.push(`  ${item.file}:${item.line}: ${item.annotation === 'ruleid' ? 'missed (ruleid)' : item.annotation === 'ok' ? 'reported, annotated ok' : 'reported without a ruleid annotation'}`)
    }
  }
  return lines
}

/** The report as `semgrep --test` prints it: per rule file and rule id, then the totals. */
export function formatRuleTestReport(report: RuleTestReport): string {
  const rule = '-'.repeat(80)
  const out = [`${report.totals.files} yaml files tested`, 'check id scoring:', rule]
  const matrix = (c: Confusion) => `TP: ${c.tp} TN: ${c.tn} FP: ${c.fp} FN: ${c.fn}`
  for (const file of report.files) {
    out.push(`(TODO: ${file.todo}) ${file.ruleFile}`)
    for (const problem of file.problems) out.push(`\t✖ ${problem.replace(/\n/g, '\n\t  ')}`)
    for (const entry of file.rules) {
      out.push(`\t${entry.passed ? '✔' : '✖'} ${entry.ruleId.padEnd(50)} ${matrix(entry)}`)
      if (!entry.passed) out.push(`\ttest: ${file.targets.join(', ')}, expected lines: [${entry.expected.join(', ')}], reported lines: [${entry.reported.join(', ')}]`)
    }
  }
  out.push(rule, `final confusion matrix: ${matrix(report.totals)}`, `${report.totals.passedFiles}/${report.totals.files} rule files passed`, rule)
  return `${out.join('\n')}\n`
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMain) {
  const folder = process.argv[2]
  if (!folder || process.argv.length > 3 || !existsSync(folder)) {
    process.stderr.write(`Usage: npm run test:rules -- <folder or rule file>\n${folder && !existsSync(folder) ? `no such file or folder: ${folder}\n` : ''}`)
    process.exitCode = 2
  } else {
    const report = await runRuleTests(folder)
    process.stdout.write(formatRuleTestReport(report))
    process.exitCode = report.passed ? 0 : 1
  }
}
