/**
 * The syntax-tree analyzer: runs ast-grep rules over a file with a single parse shared by
 * every rule of the file's language. Rules whose textual precondition fails are not run, and
 * a file no rule can apply to is not parsed at all.
 */
import { parse } from '@ast-grep/napi'
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import type { Finding, RuleDocument, Severity } from './types.ts'
import type { Analyzer } from './analyzer.ts'
import { modelName } from './analyzer.ts'
import { CODE_LANGUAGES, isCodeLanguage, isLanguageAvailable, napiLanguage, ruleLanguagesFor } from './languages.ts'
import type { CodeLanguage, FileLanguage } from './languages.ts'
import { TextProbe, rulePrecondition, ruleRegexFilters } from './preconditions.ts'
import type { Precondition, RuleParts } from './preconditions.ts'
import { napiConfigOf } from './rules-loader.ts'
import { withAsciiRegexes } from './ascii-regex.ts'
import { buildFinding, fingerprintOf, normalizeMatchedText, occurrenceIndexes, quoteCode } from './findings.ts'
import type { MatchSpan } from './findings.ts'
import type { SourceFile } from './source-file.ts'

export const SAST_VERSION = '1.0'

interface CompiledRule {
  doc: RuleDocument
  severity: Severity
  config: NapiConfig
  precondition: Precondition
  /** Whole-file regexes that must all match (checked after the words). */
  filters: RegExp[]
}

/** Counters for benchmarks and scan logs. */
export interface SastMetrics {
  filesParsed: number
  /** Files not parsed because no rule's precondition held. */
  filesNotParsed: number
  ruleRuns: number
  /** Rule runs avoided by preconditions. */
  ruleRunsSkipped: number
  /** Rules that threw while matching (logged by the pipeline through onRuleError). */
  ruleErrors: number
}

export function emptySastMetrics(): SastMetrics {
  return { filesParsed: 0, filesNotParsed: 0, ruleRuns: 0, ruleRunsSkipped: 0, ruleErrors: 0 }
}

export interface SastOptions {
  metrics?: SastMetrics
  onRuleError?(ruleId: string, path: string, message: string): void
}

/** The rule's config with ASCII regex classes, unless ast-grep rejects the rewrite. */
function fastConfig(doc: RuleDocument): NapiConfig {
  const original = napiConfigOf(doc)
  const fast = withAsciiRegexes(original)
  if (JSON.stringify(fast) === JSON.stringify(original) || !isCodeLanguage(doc.language)) return original
  try {
    parse(napiLanguage(doc.language), '').root().findAll(fast)
    return fast
  } catch {
    return original
  }
}

function compile(doc: RuleDocument): CompiledRule {
  const parts: RuleParts = {
    rule: doc.rule,
    ...(doc.utils ? { utils: doc.utils } : {}),
    ...(doc.constraints ? { constraints: doc.constraints } : {}),
    ...(isCodeLanguage(doc.language) ? { language: doc.language } : {}),
  }
  return {
    doc,
    severity: doc.severity as Severity,
    config: fastConfig(doc),
    precondition: rulePrecondition(parts),
    filters: ruleRegexFilters(parts),
  }
}

interface RawMatch {
  rule: CompiledRule
  node: SgNode
  span: MatchSpan
  startIndex: number
  endIndex: number
  text: string
}

export class SastAnalyzer implements Analyzer {
  readonly name = 'sast' as const
  readonly version = SAST_VERSION
  readonly ruleCount: number
  private readonly rulesByLanguage = new Map<CodeLanguage, CompiledRule[]>()
  private readonly metrics: SastMetrics
  private readonly onRuleError: SastOptions['onRuleError']

  constructor(rules: RuleDocument[], options: SastOptions = {}) {
    this.metrics = options.metrics ?? emptySastMetrics()
    this.onRuleError = options.onRuleError
    const compiled = rules.map(compile)
    this.ruleCount = compiled.length
    for (const language of CODE_LANGUAGES) {
      const applicable = ruleLanguagesFor(language)
      this.rulesByLanguage.set(
        language,
        compiled.filter((rule) => (applicable as readonly string[]).includes(rule.doc.language)),
      )
    }
  }

  accepts(language: FileLanguage): boolean {
    return isCodeLanguage(language) && (this.rulesByLanguage.get(language)?.length ?? 0) > 0 && isLanguageAvailable(language)
  }

  /** Rules whose precondition holds for the file's text. */
  private candidateRules(file: SourceFile): CompiledRule[] {
    if (!isCodeLanguage(file.language)) return []
    const rules = this.rulesByLanguage.get(file.language) ?? []
    const probe = new TextProbe(file.text)
    const candidates = rules.filter((rule) => probe.satisfies(rule.precondition) && probe.passes(rule.filters))
    this.metrics.ruleRunsSkipped += rules.length - candidates.length
    return candidates
  }

  analyze(file: SourceFile): Finding[] {
    const rules = this.candidateRules(file)
    if (rules.length === 0 || !isCodeLanguage(file.language)) {
      this.metrics.filesNotParsed++
      return []
    }
    this.metrics.filesParsed++
    const root = parse(napiLanguage(file.language), file.text).root()
    const matches: RawMatch[] = []
    const seenSpans = new Set<string>()
    for (const rule of rules) {
      this.metrics.ruleRuns++
      let nodes: SgNode[]
      try {
        nodes = root.findAll(rule.config)
      } catch (error) {
        this.metrics.ruleErrors++
        this.onRuleError?.(rule.doc.id, file.path, error instanceof Error ? error.message : String(error))
        continue
      }
      for (const node of nodes) {
        const range = node.range()
        const key = `${rule.doc.id}\u0000${range.start.index}\u0000${range.end.index}`
        if (seenSpans.has(key)) continue // same rule, same span: one finding
        seenSpans.add(key)
        matches.push({
          rule,
          node,
          span: { startLine: range.start.line, startColumn: range.start.column, endLine: range.end.line, endColumn: range.end.column },
          startIndex: range.start.index,
          endIndex: range.end.index,
          text: node.text(),
        })
      }
    }
    return this.toFindings(file, matches)
  }

  private toFindings(file: SourceFile, matches: RawMatch[]): Finding[] {
    const normalized = matches.map((match) => normalizeMatchedText(match.text))
    const occurrences = occurrenceIndexes(
      matches.map((match, index) => ({ ruleId: match.rule.doc.id, normalizedText: normalized[index] ?? '', offset: match.startIndex })),
    )
    return matches.map((match, index) => {
      const { doc } = match.rule
      const description = substituteMetavariables(doc.message, match.node, file.text, true)
      const fingerprint = fingerprintOf(doc.id, file.path, normalized[index] ?? '', occurrences[index] ?? 0)
      return buildFinding(
        file,
        match.span,
        {
          ruleId: doc.id,
          analyzer: 'sast',
          modelUsed: modelName('sast', SAST_VERSION),
          category: doc.category,
          severity: match.rule.severity,
          confidence: doc.confidence,
          title: doc.title,
          description,
          explanation: explain(doc, description, match, file.path),
          remediation: doc.remediation,
          remediationCode: doc.fix === undefined ? null : substituteMetavariables(doc.fix, match.node, file.text, false),
          cweIds: doc.cwe,
          owaspCategory: doc.owasp,
          cvssScore: doc.cvss,
          tags: doc.tags ?? [],
        },
        fingerprint,
      )
    })
  }
}

const METAVARIABLE_REFERENCE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g

/**
 * Replaces `$NAME` / `$$$NAME` with the code the metavariable captured. In messages the code
 * is flattened and shortened to fit a sentence; in fixes it is kept verbatim.
 */
export function substituteMetavariables(template: string, node: SgNode, fileText: string, forSentence: boolean): string {
  return template.replace(METAVARIABLE_REFERENCE, (whole: string, multi: string | undefined, single: string | undefined) => {
    const name = multi ?? single ?? ''
    const captured = capturedText(node, name, fileText, multi !== undefined)
    if (captured === null) return whole
    return forSentence ? quoteCode(captured, 80) : captured
  })
}

function capturedText(node: SgNode, name: string, fileText: string, preferMultiple: boolean): string | null {
  if (!preferMultiple) {
    const single = node.getMatch(name)
    if (single) return single.text()
  }
  const multiple = node.getMultipleMatches(name)
  if (multiple.length > 0) {
    const first = multiple[0] as SgNode
    const last = multiple[multiple.length - 1] as SgNode
    return fileText.slice(first.range().start.index, last.range().end.index)
  }
  if (preferMultiple) {
    const single = node.getMatch(name)
    if (single) return single.text()
    return ''
  }
  return null
}

function explain(doc: RuleDocument, description: string, match: RawMatch, path: string): string {
  const why = doc.note?.trim() || `${doc.title}: code like this is a common cause of ${doc.category.replace(/-/g, ' ')} (${doc.cwe.join(', ')}).`
  const where = `Matched \`${quoteCode(match.text)}\` in ${path} at line ${match.span.startLine + 1}, column ${match.span.startColumn + 1}.`
  return `${ensureSentence(description)} ${ensureSentence(why)} ${where}`
}

function ensureSentence(text: string): string {
  const trimmed = text.trim()
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}
