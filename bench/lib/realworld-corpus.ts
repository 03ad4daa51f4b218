/**
 * The real-world corpus (`bench/corpus/<application>/`): reading its labels and scoring a
 * scan's findings against them. Used by bench/realworld.bench.ts and by the corpus test.
 *
 * Vocabulary (the label syntax is described in bench/corpus/README.md):
 * - label: `vuln: <category>` or `safe: <category>` in a trailing comment of a code line, or a
 *   line of the application's `labels.txt` for formats without trailing comments.
 * - case: what is scored once. A label's case covers its line and, when brackets opened on that
 *   line are still open at its end (or a Python line ends with a backslash), the following
 *   lines up to the one closing them. Labels with the same polarity, category and `[group]`
 *   in one application form a single case whose lines are the union of theirs (a value drawn
 *   in one place and used in another).
 * - outcome: a finding matches a case when it has the case's category and starts on one of its
 *   lines. A vulnerable case with a match is a true positive (TP), without one a false
 *   negative (FN); a safe case with a match is a false positive (FP), without one a true
 *   negative (TN). A finding matching no case of its category is unlabelled.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { extname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CATEGORIES } from '../../src/engine/core/types.ts'
import type { Finding } from '../../src/engine/core/types.ts'

export const CORPUS_ROOT = fileURLToPath(new URL('../corpus', import.meta.url))
/** Sidecar labels of an application, for files whose format allows no trailing comment. */
export const SIDECAR_FILE = 'labels.txt'

export type Polarity = 'vuln' | 'safe'
export type Outcome = 'TP' | 'FN' | 'FP' | 'TN'

export interface Location {
  /** relative to the application folder, forward slashes (as findings' filePath) */
  file: string
  /** 1-based */
  line: number
}

export interface Label extends Location {
  polarity: Polarity
  category: string
  group: string | null
  /** where the label was written */
  origin: 'comment' | 'sidecar'
}

export interface CorpusCase {
  /** `<application>/<file>:<first line> <polarity>: <category>` */
  id: string
  application: string
  polarity: Polarity
  category: string
  /** language of the file of its first label (java, python, javascript, typescript, config) */
  language: string
  /** every line the case covers */
  locations: Location[]
  /** the code of its first line, trimmed, label comment removed */
  code: string
}

export interface LabelProblem extends Location {
  application: string
  message: string
}

export interface ApplicationLabels {
  application: string
  labels: Label[]
  cases: CorpusCase[]
  problems: LabelProblem[]
}

export interface CaseResult {
  corpusCase: CorpusCase
  outcome: Outcome
  findings: Finding[]
}

export interface ApplicationScore {
  application: string
  results: CaseResult[]
  /** findings that match no case of their category */
  unlabelled: Finding[]
}

const KNOWN_CATEGORIES: ReadonlySet<string> = new Set(CATEGORIES)
const MAX_STATEMENT_LINES = 30

interface CommentSyntax {
  line: string
  blockOpen: string | null
  blockClose: string | null
  /** string delimiters the bracket counter skips over */
  quotes: string[]
  backslashContinues: boolean
}

const C_STYLE: CommentSyntax = { line: '//', blockOpen: '/*', blockClose: '*/', quotes: ['"', "'", '`'], backslashContinues: false }
const HASH_STYLE: CommentSyntax = { line: '#', blockOpen: null, blockClose: null, quotes: ['"""', "'''", '"', "'"], backslashContinues: true }
/** Formats where `#` starts a trailing comment but brackets mean nothing (each label covers its line). */
const HASH_DATA: CommentSyntax = { line: '#', blockOpen: null, blockClose: null, quotes: [], backslashContinues: false }

const SYNTAX_BY_EXTENSION: Record<string, CommentSyntax> = {
  '.java': C_STYLE,
  '.js': C_STYLE,
  '.cjs': C_STYLE,
  '.mjs': C_STYLE,
  '.jsx': C_STYLE,
  '.ts': C_STYLE,
  '.tsx': C_STYLE,
  '.py': HASH_STYLE,
  '.yml': HASH_DATA,
  '.yaml': HASH_DATA,
  '.toml': HASH_DATA,
}

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  '.java': 'java',
  '.py': 'python',
  '.js': 'javascript',
  '.cjs': 'javascript',
  '.mjs': 'javascript',
  '.jsx': 'javascript',
  '.ts': 'typescript',
  '.tsx': 'typescript',
}

export function languageOfCorpusFile(file: string): string {
  return LANGUAGE_BY_EXTENSION[extname(file)] ?? 'config'
}

/** Application folders of the corpus, sorted. */
export function listApplications(root = CORPUS_ROOT): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
}

/** Files of an application (relative, forward slashes), sorted. */
export function listApplicationFiles(appDir: string): string[] {
  const files: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const absolute = join(dir, entry.name)
      if (entry.isDirectory()) walk(absolute)
      else if (entry.isFile()) files.push(relative(appDir, absolute).split(sep).join('/'))
    }
  }
  walk(appDir)
  return files.sort()
}

const LABEL_CLAUSE = /^(vuln|safe):\s*([a-z][a-z-]*(?:\s*,\s*[a-z][a-z-]*)*)\s*(?:\[([\w.-]+)\])?$/

/** Parses `vuln: a, b [group]; safe: c`. Returns the labels or the reason the text is malformed. */
function parseClauses(text: string): { polarity: Polarity; category: string; group: string | null }[] | string {
  const parsed: { polarity: Polarity; category: string; group: string | null }[] = []
  for (const clause of text.split(';').map((part) => part.trim())) {
    const match = LABEL_CLAUSE.exec(clause)
    if (!match) return `malformed label "${clause}" (expected "vuln: <category>" or "safe: <category>", optionally "[group]")`
    const [, polarity, categories, group] = match as unknown as [string, Polarity, string, string | undefined]
    for (const category of categories.split(',').map((name) => name.trim())) parsed.push({ polarity, category, group: group ?? null })
  }
  return parsed
}

/** Where a trailing label comment starts on a line, or -1. */
function labelCommentStart(line: string, syntax: CommentSyntax): number {
  const marker = new RegExp(`${escapeRegExp(syntax.line)}\\s*(?:vuln|safe):`)
  const match = marker.exec(line)
  return match ? match.index : -1
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * The lines of the statement starting at `start` (0-based index into `lines`): the line itself,
 * and the following ones while brackets opened on it are open (strings and comments skipped).
 */
function statementLines(lines: readonly string[], start: number, syntax: CommentSyntax): number[] {
  const covered = [start]
  if (syntax.quotes.length === 0) return covered
  let depth = 0
  let quote: string | null = null
  let inBlockComment = false
  for (let index = start; index < lines.length && index < start + MAX_STATEMENT_LINES; index++) {
    if (index > start) covered.push(index)
    const text = lines[index] as string
    let position = 0
    while (position < text.length) {
      if (inBlockComment) {
        const close = syntax.blockClose ? text.indexOf(syntax.blockClose, position) : -1
        if (close === -1) break
        inBlockComment = false
        position = close + (syntax.blockClose as string).length
        continue
      }
      if (quote) {
        if (text[position] === '\\') {
          position += 2
          continue
        }
        if (text.startsWith(quote, position)) {
          position += quote.length
          quote = null
          continue
        }
        position++
        continue
      }
      if (text.startsWith(syntax.line, position)) break
      if (syntax.blockOpen && text.startsWith(syntax.blockOpen, position)) {
        inBlockComment = true
        position += syntax.blockOpen.length
        continue
      }
      const opening = syntax.quotes.find((candidate) => text.startsWith(candidate, position))
      if (opening) {
        quote = opening
        position += opening.length
        continue
      }
      const char = text[position] as string
      if ('([{'.includes(char)) depth++
      if (')]}'.includes(char)) depth--
      position++
    }
    // single-quoted strings end with their line; template literals and triple quotes may not
    if (quote && quote.length === 1 && quote !== '`') quote = null
    const continues = syntax.backslashContinues && /\\\s*$/.test(text.split(syntax.line)[0] ?? '')
    if (depth <= 0 && !quote && !inBlockComment && !continues) break
  }
  return covered
}

function readCommentLabels(application: string, appDir: string, file: string, labels: Label[], problems: LabelProblem[], statements: Map<string, number[]>): void {
  const syntax = SYNTAX_BY_EXTENSION[extname(file)]
  if (!syntax) return
  const lines = readFileSync(join(appDir, file), 'utf8').split('\n')
  lines.forEach((text, index) => {
    const start = labelCommentStart(text, syntax)
    if (start === -1) return
    const line = index + 1
    if (text.slice(0, start).trim() === '') {
      problems.push({ application, file, line, message: 'a label goes at the end of the code line it labels, not on a line of its own' })
      return
    }
    const parsed = parseClauses(text.slice(start + syntax.line.length).trim())
    if (typeof parsed === 'string') {
      problems.push({ application, file, line, message: parsed })
      return
    }
    statements.set(`${file}:${line}`, statementLines(lines, index, syntax).map((covered) => covered + 1))
    for (const clause of parsed) labels.push({ file, line, ...clause, origin: 'comment' })
  })
}

const SIDECAR_LINE = /^(\S+):(\d+)\s+(.+?)\s+"((?:[^"\\]|\\.)*)"$/

function readSidecarLabels(application: string, appDir: string, labels: Label[], problems: LabelProblem[]): void {
  const sidecar = join(appDir, SIDECAR_FILE)
  if (!existsSync(sidecar)) return
  readFileSync(sidecar, 'utf8')
    .split('\n')
    .forEach((raw, index) => {
      const text = raw.trim()
      if (text === '' || text.startsWith('#')) return
      const here = { application, file: SIDECAR_FILE, line: index + 1 }
      const match = SIDECAR_LINE.exec(text)
      if (!match) {
        problems.push({ ...here, message: `expected '<path>:<line> vuln|safe: <category> "<text on that line>"', got "${text}"` })
        return
      }
      const [, file, lineText, clauses, quoted] = match as unknown as [string, string, string, string, string]
      const line = Number(lineText)
      const expected = quoted.replace(/\\(.)/g, '$1')
      const target = join(appDir, file)
      if (!existsSync(target) || !statSync(target).isFile()) {
        problems.push({ ...here, message: `${file} does not exist` })
        return
      }
      const targetLine = readFileSync(target, 'utf8').split('\n')[line - 1]
      if (targetLine === undefined || !targetLine.includes(expected)) {
        problems.push({ ...here, message: `${file}:${line} does not contain "${expected}"` })
        return
      }
      const parsed = parseClauses(clauses)
      if (typeof parsed === 'string') {
        problems.push({ ...here, message: parsed })
        return
      }
      for (const clause of parsed) labels.push({ file, line, ...clause, origin: 'sidecar' })
    })
}

/** Labels, cases and problems of one application folder. */
export function readApplicationLabels(application: string, root = CORPUS_ROOT): ApplicationLabels {
  const appDir = join(root, application)
  const labels: Label[] = []
  const problems: LabelProblem[] = []
  const statements = new Map<string, number[]>()
  for (const file of listApplicationFiles(appDir)) {
    if (file !== SIDECAR_FILE) readCommentLabels(application, appDir, file, labels, problems, statements)
  }
  readSidecarLabels(application, appDir, labels, problems)
  for (const label of labels) {
    if (!KNOWN_CATEGORIES.has(label.category)) problems.push({ application, file: label.file, line: label.line, message: `unknown category "${label.category}"` })
  }

  const cases = new Map<string, CorpusCase>()
  for (const label of labels.filter((candidate) => KNOWN_CATEGORIES.has(candidate.category))) {
    const key = label.group ? `${label.polarity}|${label.category}|[${label.group}]` : `${label.polarity}|${label.category}|${label.file}:${label.line}`
    const lines = statements.get(`${label.file}:${label.line}`) ?? [label.line]
    let corpusCase = cases.get(key)
    if (!corpusCase) {
      const text = readFileSync(join(appDir, label.file), 'utf8').split('\n')[label.line - 1] ?? ''
      const syntax = SYNTAX_BY_EXTENSION[extname(label.file)]
      const commentAt = syntax ? labelCommentStart(text, syntax) : -1
      corpusCase = {
        id: `${application}/${label.file}:${label.line} ${label.polarity}: ${label.category}`,
        application,
        polarity: label.polarity,
        category: label.category,
        language: languageOfCorpusFile(label.file),
        locations: [],
        code: (commentAt === -1 ? text : text.slice(0, commentAt)).trim(),
      }
      cases.set(key, corpusCase)
    }
    for (const line of lines) {
      if (!corpusCase.locations.some((location) => location.file === label.file && location.line === line)) corpusCase.locations.push({ file: label.file, line })
    }
  }
  const contradictions = new Map<string, CorpusCase>()
  for (const corpusCase of cases.values()) {
    for (const location of corpusCase.locations) {
      const key = `${corpusCase.category}|${location.file}:${location.line}`
      const other = contradictions.get(key)
      if (other && other.polarity !== corpusCase.polarity) {
        problems.push({ application, ...location, message: `line is both vuln and safe for ${corpusCase.category} (${other.id}, ${corpusCase.id})` })
      }
      contradictions.set(key, corpusCase)
    }
  }
  return { application, labels, cases: [...cases.values()], problems }
}

/** Scores one application's findings (paths relative to the application folder) against its cases. */
export function scoreApplication(labels: ApplicationLabels, findings: readonly Finding[]): ApplicationScore {
  const byLocation = new Map<string, CorpusCase[]>()
  for (const corpusCase of labels.cases) {
    for (const location of corpusCase.locations) {
      const key = `${corpusCase.category}|${location.file}:${location.line}`
      byLocation.set(key, [...(byLocation.get(key) ?? []), corpusCase])
    }
  }
  const matched = new Map<CorpusCase, Finding[]>()
  const unlabelled: Finding[] = []
  for (const finding of findings) {
    const cases = byLocation.get(`${finding.category}|${finding.filePath}:${finding.lineNumber}`)
    if (!cases) {
      unlabelled.push(finding)
      continue
    }
    for (const corpusCase of cases) matched.set(corpusCase, [...(matched.get(corpusCase) ?? []), finding])
  }
  const results = labels.cases.map((corpusCase): CaseResult => {
    const found = matched.get(corpusCase) ?? []
    const outcome: Outcome = corpusCase.polarity === 'vuln' ? (found.length > 0 ? 'TP' : 'FN') : found.length > 0 ? 'FP' : 'TN'
    return { corpusCase, outcome, findings: found }
  })
  return { application: labels.application, results, unlabelled }
}
