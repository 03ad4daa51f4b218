/**
 * Everything the engine does to one selected file once its text is known: run the analyzers,
 * merge duplicate findings, apply suppression comments. Runs in the scanning thread or in a
 * worker thread (analysis-worker.ts); both build it from the same rules and analyzer names.
 */
import type { AnalyzerName, Finding, RuleDocument } from '../core/types.ts'
import type { Analyzer } from '../core/analyzer.ts'
import { commentSyntax } from '../core/languages.ts'
import type { FileLanguage } from '../core/languages.ts'
import { SastAnalyzer, emptySastMetrics } from '../sast/analyzer.ts'
import type { SastMetrics } from '../sast/analyzer.ts'
import { SecretsAnalyzer } from '../secrets/analyzer.ts'
import { isTaintRule } from '../semgrep/taint.ts'
import type { SecretsDetector } from '../secrets/bridge.ts'
import { SourceFile } from '../core/source-file.ts'
import { SuppressionIndex, mayContainSuppressions } from './suppression.ts'

export type LogLevel = 'debug' | 'info' | 'warning' | 'error'
export interface LogEvent {
  level: LogLevel
  message: string
  data?: Record<string, unknown>
}

export interface FileAnalysisResult {
  findings: Finding[]
  suppressed: number
  lines: number
  logs: LogEvent[]
}

export interface AnalyzerSet {
  analyzers: Analyzer[]
  /** Rules and secret detectors applied. */
  rulesRun: number
  /** Requested analyzers this engine does not implement. */
  unavailable: AnalyzerName[]
}

/** Builds the analyzers named in `names` (sast needs rules, secrets needs the detector). */
export function createAnalyzers(
  names: readonly AnalyzerName[],
  rules: RuleDocument[],
  detector: SecretsDetector | null,
  metrics: SastMetrics = emptySastMetrics(),
  onRuleError?: (ruleId: string, path: string, message: string) => void,
): AnalyzerSet {
  const set: AnalyzerSet = { analyzers: [], rulesRun: 0, unavailable: [] }
  for (const name of names) {
    if (name === 'sast') {
      const sast = new SastAnalyzer(rules, { metrics, ...(onRuleError ? { onRuleError } : {}) })
      set.analyzers.push(sast)
      // Taint rules (left out by the pattern analyzer) run over the whole repository at the end of
      // the scan (semgrep/taint.ts); they are applied all the same.
      set.rulesRun += sast.ruleCount + rules.filter(isTaintRule).length
    } else if (name === 'secrets' && detector) {
      const secrets = new SecretsAnalyzer(detector.ruleCount)
      set.analyzers.push(secrets)
      set.rulesRun += secrets.ruleCount
    } else if (name !== 'dataflow') {
      // dataflow works on the whole repository at the end of the scan (scan.ts), not file by file
      set.unavailable.push(name)
    }
  }
  return set
}

export class FileAnalysis {
  constructor(
    private readonly analyzers: Analyzer[],
    private readonly detector: SecretsDetector | null,
  ) {}

  /** Whether any analyzer reads files of this language. */
  accepts(language: FileLanguage): boolean {
    return this.analyzers.some((analyzer) => analyzer.accepts(language))
  }

  analyze(path: string, language: FileLanguage, text: string): FileAnalysisResult {
    const file = new SourceFile(path, language, text, this.detector)
    const result: FileAnalysisResult = { findings: [], suppressed: 0, lines: file.lineCount, logs: [] }
    const found: Finding[] = []
    for (const analyzer of this.analyzers) {
      if (!analyzer.accepts(language)) continue
      try {
        found.push(...analyzer.analyze(file))
      } catch (error) {
        result.logs.push({
          level: 'error',
          message: `${analyzer.name} failed on ${path}: ${error instanceof Error ? error.message : String(error)}`,
          data: { path, analyzer: analyzer.name },
        })
      }
    }
    if (file.secretsError) result.logs.push({ level: 'warning', message: `secret detection failed on ${path}: ${file.secretsError}`, data: { path } })
    if (found.length === 0) return result
    const unique = dedupe(found)
    if (!mayContainSuppressions(text)) {
      result.findings = unique
      return result
    }
    const index = new SuppressionIndex(file.lines, commentSyntax(language))
    result.findings = unique.filter((finding) => !index.isSuppressed(finding.ruleId, finding.lineNumber))
    result.suppressed = unique.length - result.findings.length
    return result
  }
}

/** One finding per rule and span, whichever analyzers produced it. */
export function dedupe(findings: Finding[]): Finding[] {
  const seen = new Set<string>()
  return findings.filter((finding) => {
    const key = [finding.ruleId, finding.filePath, finding.lineNumber, finding.columnStart, finding.endLineNumber, finding.columnEnd].join('\u0000')
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
