/**
 * The engine's vocabulary. The engine is a library: it imports nothing of the server, and the
 * server (scan pipeline, ruleset validation) talks to it only through these types.
 *
 * - Rule document: one YAML document in ast-grep's rule syntax plus Parapet's metadata.
 * - Analyzer: a named producer of findings (`sast`, `secrets`, later `dataflow`); the spec's
 *   `active_models` chooses which run. `modelUsed` on a finding is `parapet-<analyzer>/<version>`.
 * - Finding: one reported issue, carrying every Issue field of the interface spec that the
 *   engine can know (ids, scan and triage fields are the server's).
 * - Fingerprint: identity of a finding across scans; built from rule id, path, normalized
 *   matched text and occurrence index, never from the line number.
 */
import type { SemgrepRule } from '../semgrep/types.ts'

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const
export type Severity = (typeof SEVERITIES)[number]

/** Category vocabulary shared by rules, secrets and data-flow findings. */
export const CATEGORIES = [
  'sql-injection',
  'nosql-injection',
  'command-injection',
  'code-injection',
  'template-injection',
  'ldap-injection',
  'xpath-injection',
  'xss',
  'path-traversal',
  'ssrf',
  'open-redirect',
  'insecure-deserialization',
  'xxe',
  'weak-hash',
  'weak-cipher',
  'insecure-randomness',
  'tls-verification-disabled',
  'insecure-cookie',
  'cors-misconfiguration',
  'jwt-misuse',
  'debug-enabled',
  'mass-assignment',
  'prototype-pollution',
  'redos',
  'trust-boundary',
  'log-injection',
  'header-injection',
  'hardcoded-secret',
  // C/C++ buffer overflows and format strings: memory corruption, not injection into an interpreter.
  'memory-safety',
  // Predictable temporary file names (symlink/creation races), not attacker-chosen paths.
  'insecure-temp-file',
  // Files or directories made writable or readable by everyone, not path manipulation.
  'insecure-permissions',
  // A user rule that names no category of its own (rules written in ast-grep's plain format).
  'custom',
] as const
export type Category = (typeof CATEGORIES)[number]

/** Analyzer names accepted in `active_models`. */
export const ANALYZERS = ['sast', 'secrets', 'dataflow'] as const
export type AnalyzerName = (typeof ANALYZERS)[number]

/** A rule as written in YAML (built-in rule files and ruleset `rules_text`). */
export interface RuleDocument {
  id: string
  /** ast-grep language name, e.g. javascript, typescript, tsx, python, java, go, ... */
  language: string
  rule: Record<string, unknown>
  constraints?: Record<string, unknown>
  utils?: Record<string, unknown>
  /** One of SEVERITIES (ast-grep's error/warning/info/hint are accepted and mapped). */
  severity: string
  message: string
  note?: string
  fix?: string
  title: string
  category: Category
  /** e.g. ["CWE-89"]; empty for a user rule that names none */
  cwe: string[]
  /** OWASP Top 10 2021, e.g. "A03:2021 - Injection"; null for a user rule that names none */
  owasp: string | null
  cvss: number
  /** 0..1 */
  confidence: number
  /** null for a user rule that gives none */
  remediation: string | null
  tags?: string[]
  /** A rule written in Semgrep's format, compiled (src/engine/semgrep/parse.ts); `rule` is then empty. */
  semgrep?: SemgrepRule
}

/** A finding as the engine reports it; field names follow the server's camelCase model. */
export interface Finding {
  ruleId: string
  analyzer: AnalyzerName
  /** `parapet-sast/1.0` and the like */
  modelUsed: string
  /** repository-relative, forward slashes */
  filePath: string
  language: string
  /** 1-based */
  lineNumber: number
  /** 1-based, inclusive start */
  columnStart: number
  /** 1-based, exclusive end on the first matched line */
  columnEnd: number
  endLineNumber: number
  category: Category
  severity: Severity
  confidence: number
  title: string
  description: string
  explanation: string
  codeSnippet: string
  contextBefore: string
  contextAfter: string
  remediation: string | null
  remediationCode: string | null
  cweIds: string[]
  owaspCategory: string | null
  cvssScore: number
  tags: string[]
  fingerprint: string
  /** the source-to-sink path of a data-flow finding (absent for other analyzers) */
  dataFlow?: DataFlowTrace | null
}

/** One location of a data-flow path. */
export interface DataFlowStep {
  filePath: string
  /** 1-based */
  lineNumber: number
  /** the code at that point, one line, secrets redacted */
  code: string
  /** what happens there, e.g. "request.args.get() (HTTP query parameter)", "assigned to q", "passed to run_query()" */
  note: string
}

/**
 * A path from where untrusted data enters (source) to where it is dangerous (sink), with every
 * step between. `sanitized` paths passed a sanitizer or guard declared for the sink's kind;
 * they are not reported as findings but are part of the repository summary.
 */
export interface DataFlowTrace {
  source: DataFlowStep & { kind: string }
  sink: DataFlowStep & { kind: string; cwe: string }
  steps: DataFlowStep[]
  sanitized: boolean
  sanitizer?: DataFlowStep | null
}

/** Counts of what a scan saw and why it skipped what it skipped. */
export interface ScanStats {
  filesTotal: number
  filesScanned: number
  linesScanned: number
  /** reason -> count, e.g. binary, minified, generated, vendored, too-large, unsupported */
  skipped: Record<string, number>
  suppressed: number
  /** language -> lines */
  languages: Record<string, number>
}
