/**
 * Parapet's analysis engine: the public API the server and the CLI use.
 *
 * - scanDirectory / scanSources: run the analyzers (`sast`, `secrets`) over files.
 * - parseRulesText / loadBuiltinRules: read and validate rule documents.
 * - toSarif: SARIF 2.1.0 rendering of a scan report (annotated per result by the caller);
 *   sarifFingerprints: the fingerprints of such a report, to compare a later scan with.
 * - runIsolatedTask: a repository-wide task in a worker process of its own, killable at any moment.
 */
export { ANALYZERS, CATEGORIES, SEVERITIES } from './core/types.ts'
export type { AnalyzerName, Category, Finding, RuleDocument, ScanStats, Severity } from './core/types.ts'
export { scanDirectory, scanSources } from './scan/scan.ts'
export type { LogEvent, LogLevel, ScanOptions, ScanProgress, ScanReport, SourceInput } from './scan/scan.ts'
export { RuleValidationError, builtinRulesDir, formatRuleProblem, loadBuiltinRules, parseRulesText, ruleOrigin } from './rules/loader.ts'
export type { RuleOrigin, RuleProblem } from './rules/loader.ts'
export { DEFAULT_RULE_LIMITS } from './rules/limits.ts'
export type { RuleLimits } from './rules/limits.ts'
export { AnalysisCrashError, AnalysisTimeoutError, formatSeconds, runIsolatedTask } from './scan/worker-pool.ts'
export { AVAILABLE_ANALYZERS } from './core/analyzer.ts'
export type { Analyzer } from './core/analyzer.ts'
export { CODE_LANGUAGES, DATA_LANGUAGES } from './core/languages.ts'
export type { CodeLanguage, DataLanguage, FileLanguage } from './core/languages.ts'
export { DEFAULT_IGNORED_DIRS, DEFAULT_MAX_FILE_BYTES, SKIP_REASONS } from './scan/file-selection.ts'
export type { SkipReason } from './scan/file-selection.ts'
export { FINGERPRINT_KEY, SARIF_SCHEMA, sarifFingerprints, toSarif } from './output/sarif.ts'
export type { SarifBaselineState, SarifLog, SarifOptions, SarifResult, SarifResultAnnotations, SarifSuppression } from './output/sarif.ts'
