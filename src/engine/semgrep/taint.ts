/**
 * Semgrep `mode: taint` rules on Parapet's data-flow engine. Each rule's sources, sinks,
 * sanitizers and propagators are matched in every file of its languages (evaluate.ts, the same
 * formula evaluation as search rules), the matches are laid over the engine by text range
 * (dataflow/overlay.ts), and the engine runs once per rule with the language specs stripped of
 * the built-in catalog: the rule gets the interpreter's whole precision (branches, string
 * building, collections, project functions through their summaries, across files) and only its
 * own notion of what is untrusted, dangerous or clean. Findings are the rule's (id, severity,
 * message with the sink's metavariables, metadata), under the `sast` analyzer, with the
 * source-to-sink path as `dataFlow`. See docs/dataflow.md, "User taint rules".
 */
import { parse } from '@ast-grep/napi'
import type { SgNode } from '@ast-grep/napi'
import { modelName } from '../core/analyzer.ts'
import { FileTexts, TaintOverlay, bareProgram, overlaySteps, pathSteps, runYielding, stepAt, where } from '../dataflow/index.ts'
import type { FileOverlay } from '../dataflow/index.ts'
import type { TraceRecord } from '../dataflow/engine.ts'
import type { OverlayPropagator, OverlaySanitizer, OverlaySink, OverlaySource } from '../dataflow/overlay.ts'
import { bareSpecFor } from '../dataflow/languages/bare.ts'
import { buildFinding, capLine, fingerprintOf, normalizeMatchedText, occurrenceIndexes, quoteCode } from '../core/findings.ts'
import { commentSyntax, ensureLanguagesRegistered, fileLanguagesForRule, isCodeLanguage, languageFromPath, napiLanguage, ruleLanguagesFor } from '../core/languages.ts'
import type { CodeLanguage } from '../core/languages.ts'
import { SAST_VERSION, substituteBindings } from '../sast/analyzer.ts'
import type { SecretsDetector } from '../secrets/bridge.ts'
import { SuppressionIndex, mayContainSuppressions } from '../scan/suppression.ts'
import type { DataFlowTrace, Finding, RuleDocument, Severity } from '../core/types.ts'
import { evaluateFormula } from './evaluate.ts'
import { semgrepPathSelected } from './paths.ts'
import type { SemgrepFormula, SemgrepMatch, SemgrepRule } from './types.ts'

export interface TaintRulesResult {
  findings: Finding[]
  /** every source-to-sink path of the rules, sanitized ones included */
  traces: DataFlowTrace[]
  /** findings dropped by `nosemgrep` / `parapet-ignore` comments */
  suppressed: number
  /** files a rule could not be evaluated or followed in (path '': the rule as a whole); the others are still analyzed */
  errors: Array<{ ruleId: string; path: string; message: string }>
}

export interface TaintRulesOptions {
  signal?: AbortSignal
  /** redacts secrets in snippets and trace lines */
  secrets?: SecretsDetector | null
  /** called with each file's path before it is matched or analyzed (a worker's time limit counts from there) */
  onProgress?(label: string): void
}

/** A RuleDocument compiled from a Semgrep `mode: taint` rule. */
export function isTaintRule(rule: RuleDocument): boolean {
  return rule.semgrep?.mode === 'taint' && rule.semgrep.taint !== undefined
}

/**
 * What keeps a taint rule from running for `language` (a file language of the data-flow engine
 * it has no spec for), with the rule's line: for the rules loader to refuse the rule at write time,
 * as it refuses patterns that cannot be compiled (checkSemgrepPatterns).
 */
export function checkTaintRule(rule: SemgrepRule, language: string): Array<{ line: number; message: string }> {
  if (rule.mode !== 'taint') return []
  const followed = isCodeLanguage(language) && fileLanguagesForRule(language).some((each) => bareSpecFor(each) !== null)
  if (followed) return []
  return [{ line: rule.line, message: `mode: taint is not supported for ${language} (taint rules run on the data-flow engine: ${TAINT_LANGUAGES})` }]
}

const TAINT_LANGUAGES = 'python, javascript, typescript, java, go'

/** File languages the data-flow engine can follow a taint rule's data in. */
export function taintFileLanguages(rules: readonly RuleDocument[]): Set<CodeLanguage> {
  const result = new Set<CodeLanguage>()
  for (const rule of rules) {
    if (!isTaintRule(rule) || !isCodeLanguage(rule.language)) continue
    for (const language of fileLanguagesForRule(rule.language)) if (bareSpecFor(language)) result.add(language)
  }
  return result
}

/**
 * Runs the taint rules over the files (repository-relative paths): one data-flow analysis per
 * rule id, over the files of all its languages (a rule for JavaScript and TypeScript follows
 * data from one into the other), all on one lowered program. Gives the event loop a turn every
 * few milliseconds.
 */
export async function analyzeTaintRules(files: ReadonlyArray<{ path: string; text: string }>, rules: readonly RuleDocument[], options: TaintRulesOptions = {}): Promise<TaintRulesResult> {
  ensureLanguagesRegistered()
  const result: TaintRulesResult = { findings: [], traces: [], suppressed: 0, errors: [] }
  const byId = new Map<string, RuleDocument[]>()
  for (const rule of rules) if (isTaintRule(rule)) byId.set(rule.id, [...(byId.get(rule.id) ?? []), rule])
  if (byId.size === 0) return result
  const texts = new FileTexts(new Map(files.map((file) => [file.path, file.text])), options.secrets ?? null)
  const allMatches = await matchRules(files, byId, result.errors, options)
  const program = bareProgram(files)
  for (const [id, documents] of byId) {
    options.signal?.throwIfAborted()
    const matched = allMatches.get(id)
    if (!matched || matched.overlays.size === 0) continue
    try {
      const overlay = new TaintOverlay(id, matched.overlays)
      const analysis = await runYielding(
        overlaySteps(program, overlay, { ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) }),
      )
      for (const error of analysis.errors) result.errors.push({ ruleId: id, ...error })
      const cwe = documents[0]?.cwe[0] ?? ''
      const candidates = analysis.records.map((record) => ({ record, trace: toTrace(texts, record, cwe) }))
      result.traces.push(...candidates.map((candidate) => candidate.trace))
      const built = ruleFindings(texts, documents, matched.sinkBindings, candidates)
      result.findings.push(...built.findings)
      result.suppressed += built.suppressed
    } catch (error) {
      // One rule the engine cannot follow must not cost the scan the other rules' findings.
      if (options.signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw error
      result.errors.push({ ruleId: id, path: '', message: error instanceof Error ? error.message : String(error) })
    }
  }
  result.findings.sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.lineNumber - b.lineNumber || a.columnStart - b.columnStart))
  return result
}

const YIELD_EVERY_MS = 25

interface RuleMatches {
  overlays: Map<string, FileOverlay>
  /** `path:start:end` of a sink match -> what its metavariables captured (for the message) */
  sinkBindings: Map<string, SemgrepMatch['bindings']>
}

/** Every specification of every rule matched in each file of its languages and paths (each file parsed once). */
async function matchRules(
  files: ReadonlyArray<{ path: string; text: string }>,
  byId: ReadonlyMap<string, readonly RuleDocument[]>,
  errors: TaintRulesResult['errors'],
  options: TaintRulesOptions,
): Promise<Map<string, RuleMatches>> {
  const result = new Map<string, RuleMatches>()
  for (const id of byId.keys()) result.set(id, { overlays: new Map(), sinkBindings: new Map() })
  let last = performance.now()
  for (const file of files) {
    const language = languageFromPath(file.path)
    if (language === null || !isCodeLanguage(language) || !bareSpecFor(language)) continue
    options.onProgress?.(file.path)
    let root: SgNode | null = null
    for (const [id, documents] of byId) {
      const document = documentFor(documents, language)
      const rule = document?.semgrep
      const matches = result.get(id)
      if (!document || !rule?.taint || !matches || !semgrepPathSelected(rule.paths, file.path)) continue
      options.signal?.throwIfAborted()
      if (performance.now() - last > YIELD_EVERY_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        last = performance.now()
      }
      try {
        root ??= parse(napiLanguage(language), file.text).root()
        const overlay = fileOverlay(root, file.text, document.language, rule, (match) => matches.sinkBindings.set(`${file.path}:${match.start}:${match.end}`, match.bindings))
        if (overlay.sources.length + overlay.sinks.length + overlay.sanitizers.length + overlay.propagators.length > 0) matches.overlays.set(file.path, overlay)
      } catch (error) {
        errors.push({ ruleId: id, path: file.path, message: error instanceof Error ? error.message : String(error) })
      }
    }
  }
  return result
}

/** The rule's document for a file language: the most specific rule language that runs on it (TypeScript before JavaScript for a `.ts` file). */
function documentFor(documents: readonly RuleDocument[], language: CodeLanguage): RuleDocument | null {
  for (const ruleLanguage of ruleLanguagesFor(language)) {
    const document = documents.find((each) => each.language === ruleLanguage)
    if (document) return document
  }
  return null
}

function fileOverlay(root: SgNode, text: string, language: string, rule: SemgrepRule, onSink: (match: SemgrepMatch) => void): FileOverlay {
  const taint = rule.taint
  if (!taint) return { sources: [], sinks: [], sanitizers: [], propagators: [] }
  const label = (match: { start: number; end: number }) => quoteCode(capLine(text.slice(match.start, match.end)), 80)
  const sources: OverlaySource[] = taint.sources.flatMap((spec) =>
    evaluateFormula(root, text, language, spec.formula).map((match) => ({ start: match.start, end: match.end, label: label(match), bySideEffect: spec.bySideEffect ?? false })),
  )
  const sinks: OverlaySink[] = taint.sinks.flatMap((spec) =>
    evaluateFormula(root, text, language, spec.formula).map((match) => {
      onSink(match)
      return { start: match.start, end: match.end, label: label(match), exact: spec.exact === true || isFocused(spec.formula) }
    }),
  )
  const sanitizers: OverlaySanitizer[] = taint.sanitizers.flatMap((spec) =>
    evaluateFormula(root, text, language, spec.formula).map((match) => ({ start: match.start, end: match.end, label: label(match), bySideEffect: spec.bySideEffect ?? false })),
  )
  const propagators: OverlayPropagator[] = taint.propagators.flatMap((spec) =>
    evaluateFormula(root, text, language, spec.formula).flatMap((match) => {
      const from = binding(match, spec.from)
      const to = binding(match, spec.to)
      return from && to ? [{ start: match.start, end: match.end, from, to, label: label(match) }] : []
    }),
  )
  return { sources, sinks, sanitizers, propagators }
}

function binding(match: SemgrepMatch, name: string): { start: number; end: number } | null {
  return match.bindings[name.startsWith('$') ? name : `$${name}`] ?? null
}

/** A formula whose matches are a metavariable's code (`focus-metavariable`): they are the sink exactly. */
function isFocused(formula: SemgrepFormula): boolean {
  if (formula.kind === 'patterns') return formula.clauses.some((clause) => clause.kind === 'focus')
  if (formula.kind === 'either') return formula.of.length > 0 && formula.of.every(isFocused)
  return false
}

// --- findings ------------------------------------------------------------------------------

interface Candidate {
  record: TraceRecord
  trace: DataFlowTrace
}

/** A path of the rule: source and sink kind `rule`, the sink's CWE the rule's first. */
function toTrace(texts: FileTexts, record: TraceRecord, cwe: string): DataFlowTrace {
  const { fact, hit } = record
  if (fact.origin.type !== 'source') throw new Error('only source facts make traces')
  return {
    source: { ...stepAt(texts, fact.origin.site, `${fact.origin.what} (taint source)`), kind: 'rule' },
    sink: { ...stepAt(texts, hit.site, `${hit.callee} (taint sink)`), kind: 'rule', cwe },
    steps: pathSteps(texts, fact.steps),
    sanitized: record.sanitized,
    sanitizer: record.sanitizer ? stepAt(texts, record.sanitizer.site, record.sanitizer.note) : null,
  }
}

/** One finding per sink the rule's unsanitized paths reach: the shortest path, then the earliest source. */
function ruleFindings(texts: FileTexts, documents: readonly RuleDocument[], sinkBindings: RuleMatches['sinkBindings'], candidates: readonly Candidate[]): { findings: Finding[]; suppressed: number } {
  const bySink = new Map<string, Candidate[]>()
  for (const candidate of candidates) {
    if (candidate.record.sanitized) continue
    const key = candidate.record.hit.site.key
    bySink.set(key, [...(bySink.get(key) ?? []), candidate])
  }
  const groups = [...bySink.values()].map((group) => group.sort(preferred))
  const entries = groups.map((group) => {
    const best = group[0] as Candidate
    const site = best.record.hit.site
    const language = languageFromPath(site.path)
    const document = (language !== null && isCodeLanguage(language) ? documentFor(documents, language) : null) ?? (documents[0] as RuleDocument)
    return { group, best, site, document, normalized: normalizeMatchedText(site.text) }
  })
  const occurrences = occurrenceIndexes(entries.map((entry) => ({ ruleId: entry.document.id, normalizedText: entry.normalized, offset: entry.site.start })))
  const findings: Finding[] = []
  let suppressed = 0
  const suppressions = new Map<string, SuppressionIndex | null>()
  entries.forEach((entry, index) => {
    const { best, site, document, group } = entry
    const file = texts.file(site.path)
    let suppression = suppressions.get(site.path)
    if (suppression === undefined) {
      suppression = mayContainSuppressions(file.text) ? new SuppressionIndex(file.lines, commentSyntax(file.language)) : null
      suppressions.set(site.path, suppression)
    }
    if (suppression?.isSuppressed(document.id, site.line + 1)) {
      suppressed++
      return
    }
    const bindings = sinkBindings.get(`${site.path}:${site.start}:${site.end}`) ?? {}
    const trace = best.trace
    const crossFile = trace.source.filePath !== trace.sink.filePath
    const finding = buildFinding(
      file,
      { startLine: site.line, startColumn: site.column, endLine: site.endLine, endColumn: site.endColumn },
      {
        ruleId: document.id,
        analyzer: 'sast',
        modelUsed: modelName('sast', SAST_VERSION),
        category: document.category,
        severity: document.severity as Severity,
        confidence: document.confidence,
        title: document.title,
        description: substituteBindings(document.message, bindings, true),
        explanation: explain(trace, group.length - 1),
        remediation: document.remediation,
        remediationCode: document.fix === undefined ? null : substituteBindings(document.fix, bindings, false),
        cweIds: document.cwe,
        owaspCategory: document.owasp,
        cvssScore: document.cvss,
        tags: [...new Set([...(document.tags ?? []), 'taint', ...(crossFile ? ['cross-file'] : [])])],
      },
      fingerprintOf(document.id, site.path, entry.normalized, occurrences[index] ?? 0),
    )
    findings.push({ ...finding, dataFlow: trace })
  })
  return { findings, suppressed }
}

function preferred(a: Candidate, b: Candidate): number {
  return (
    a.trace.steps.length - b.trace.steps.length ||
    (a.trace.source.filePath < b.trace.source.filePath ? -1 : a.trace.source.filePath > b.trace.source.filePath ? 1 : 0) ||
    a.trace.source.lineNumber - b.trace.source.lineNumber
  )
}

function explain(trace: DataFlowTrace, others: number): string {
  const lines = [
    `Data from the rule's source ${trace.source.note.replace(/ \(taint source\)$/, '')} at ${where(trace.source)} reaches its sink at ${where(trace.sink)} without passing one of its sanitizers.`,
    '',
    'Path:',
    `1. ${where(trace.source)} \`${quoteCode(trace.source.code)}\`: source`,
    ...trace.steps.map((step, index) => `${index + 2}. ${where(step)} \`${quoteCode(step.code)}\`: ${step.note}`),
    `${trace.steps.length + 2}. ${where(trace.sink)} \`${quoteCode(trace.sink.code)}\`: sink`,
  ]
  if (others > 0) lines.push('', `${others} other source${others === 1 ? '' : 's'} reach${others === 1 ? 'es' : ''} the same sink.`)
  return lines.join('\n')
}
