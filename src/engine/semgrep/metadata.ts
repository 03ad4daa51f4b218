/**
 * What a Semgrep rule's `severity` and `metadata` mean in Parapet's terms: the issue fields a
 * finding carries (severity, category, CWE, OWASP 2021 entry, confidence, CVSS, remediation,
 * tags). Semgrep's metadata is free-form ("attach data to rules without affecting Semgrep
 * behavior"), so it is read leniently: what maps is used, what does not is left out, never an
 * error. Documented in docs/rules.md ("Semgrep rules").
 */
import { OWASP_TOP_10_2021, userRuleDefaults } from '../rules/schema.ts'
import type { Category, Severity } from '../core/types.ts'

/**
 * Semgrep's severities. The older ERROR / WARNING / INFO are Semgrep's own aliases of HIGH /
 * MEDIUM / LOW (its rule syntax documentation says so); INVENTORY rules list things rather than
 * report problems, so their findings are informational. EXPERIMENT is refused by the parser.
 */
export const SEMGREP_SEVERITIES: Readonly<Record<string, Severity>> = {
  CRITICAL: 'critical',
  HIGH: 'high',
  ERROR: 'high',
  MEDIUM: 'medium',
  WARNING: 'medium',
  LOW: 'low',
  INFO: 'low',
  INVENTORY: 'info',
}

/** Semgrep's `confidence` words as Parapet's 0..1 confidence. */
const CONFIDENCE: Readonly<Record<string, number>> = { HIGH: 0.9, MEDIUM: 0.6, LOW: 0.3 }

/** The issue fields filled from a Semgrep rule's metadata. */
export interface SemgrepIssueFields {
  category: Category
  cwe: string[]
  owasp: string | null
  cvss: number
  confidence: number
  remediation: string | null
  tags: string[]
}

/**
 * Semgrep's `vulnerability_class` names (and close spellings) as our categories; matched on
 * lower-cased words, first hit wins, so the more specific names come first.
 */
const CLASS_CATEGORIES: ReadonlyArray<[RegExp, Category]> = [
  [/nosql/, 'nosql-injection'],
  [/sql/, 'sql-injection'],
  [/command|os injection|shell/, 'command-injection'],
  [/template/, 'template-injection'],
  [/ldap/, 'ldap-injection'],
  [/xpath/, 'xpath-injection'],
  [/code injection|eval/, 'code-injection'],
  [/cross-site-scripting|cross site scripting|\bxss\b/, 'xss'],
  [/path traversal|directory traversal/, 'path-traversal'],
  [/server-side request forgery|\bssrf\b/, 'ssrf'],
  [/open redirect/, 'open-redirect'],
  [/deserialization/, 'insecure-deserialization'],
  [/xml external|\bxxe\b/, 'xxe'],
  [/prototype pollution/, 'prototype-pollution'],
  [/mass assignment/, 'mass-assignment'],
  [/redos|regular expression denial/, 'redos'],
  [/log injection|log forging/, 'log-injection'],
  [/header injection|response splitting|crlf/, 'header-injection'],
  [/hard-?coded secret|hard-?coded credential|secret/, 'hardcoded-secret'],
  [/cors/, 'cors-misconfiguration'],
  [/\bjwt\b/, 'jwt-misuse'],
  [/cookie/, 'insecure-cookie'],
  [/randomness|random/, 'insecure-randomness'],
  [/certificate|tls|ssl/, 'tls-verification-disabled'],
  [/buffer overflow|memory|format string/, 'memory-safety'],
]

/** CWE numbers that name one of our categories unambiguously. */
const CWE_CATEGORIES: Readonly<Record<number, Category>> = {
  89: 'sql-injection',
  943: 'nosql-injection',
  78: 'command-injection',
  77: 'command-injection',
  94: 'code-injection',
  95: 'code-injection',
  1336: 'template-injection',
  90: 'ldap-injection',
  643: 'xpath-injection',
  79: 'xss',
  22: 'path-traversal',
  23: 'path-traversal',
  918: 'ssrf',
  601: 'open-redirect',
  502: 'insecure-deserialization',
  611: 'xxe',
  328: 'weak-hash',
  916: 'weak-hash',
  327: 'weak-cipher',
  326: 'weak-cipher',
  330: 'insecure-randomness',
  338: 'insecure-randomness',
  295: 'tls-verification-disabled',
  614: 'insecure-cookie',
  1004: 'insecure-cookie',
  942: 'cors-misconfiguration',
  347: 'jwt-misuse',
  489: 'debug-enabled',
  215: 'debug-enabled',
  915: 'mass-assignment',
  1321: 'prototype-pollution',
  1333: 'redos',
  501: 'trust-boundary',
  117: 'log-injection',
  113: 'header-injection',
  798: 'hardcoded-secret',
  259: 'hardcoded-secret',
  120: 'memory-safety',
  121: 'memory-safety',
  122: 'memory-safety',
  134: 'memory-safety',
  787: 'memory-safety',
  377: 'insecure-temp-file',
  379: 'insecure-temp-file',
  732: 'insecure-permissions',
}

/** A metadata value that may be one string or a list of them, as strings (anything else is dropped). */
function strings(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value]
  return list.filter((item): item is string | number => typeof item === 'string' || typeof item === 'number').map((item) => String(item).trim()).filter(Boolean)
}

/** `"CWE-89: Improper Neutralization..."` (or a list of such) -> `["CWE-89"]`. */
export function cwesOf(value: unknown): string[] {
  const found: string[] = []
  for (const entry of strings(value)) {
    const match = /CWE[-\s_]?0*([1-9]\d*)/i.exec(entry)
    const id = match ? `CWE-${match[1]}` : null
    if (id && !found.includes(id)) found.push(id)
  }
  return found
}

/**
 * The OWASP Top 10 2021 entry among `"A03:2021 - Injection"`, `"A1:2017 - Injection"`...,
 * as `"A03:2021 - Injection"` with the official name; null when no 2021 entry is given.
 */
export function owaspOf(value: unknown): string | null {
  for (const entry of strings(value)) {
    const match = /\bA0?(10|[1-9])\s*:\s*2021\b/i.exec(entry)
    if (!match) continue
    const code = `A${(match[1] as string).padStart(2, '0')}`
    const name = OWASP_TOP_10_2021[code]
    if (name) return `${code}:2021 - ${name}`
  }
  return null
}

/** Our category from Semgrep's vulnerability_class (or subcategory), else from the CWEs, else `custom`. */
export function categoryOf(metadata: Record<string, unknown>, cwe: readonly string[]): Category {
  const classes = [...strings(metadata['vulnerability_class']), ...strings(metadata['vulnerability'])].map((name) => name.toLowerCase())
  for (const name of classes) {
    for (const [pattern, category] of CLASS_CATEGORIES) if (pattern.test(name)) return category
  }
  for (const id of cwe) {
    const category = CWE_CATEGORIES[Number(id.slice('CWE-'.length))]
    if (category) return category
  }
  return 'custom'
}

/**
 * The issue fields of a Semgrep rule: metadata where it says something, the severity's
 * defaults (as for any user rule) where it does not. `likelihood` and `impact` do not move the
 * CVSS score (Semgrep derives the severity from them already); they are kept as tags.
 */
export function issueFieldsOf(metadata: unknown, severity: Severity): SemgrepIssueFields {
  const data = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : {}
  const defaults = userRuleDefaults(severity)
  const cwe = cwesOf(data['cwe'])
  const confidenceWord = strings(data['confidence'])[0]?.toUpperCase()
  const references = strings(data['references'])
  const tags: string[] = []
  const tag = (value: string) => {
    if (!tags.includes(value)) tags.push(value)
  }
  for (const technology of strings(data['technology'])) tag(technology)
  for (const subcategory of strings(data['subcategory'])) tag(subcategory)
  for (const key of ['likelihood', 'impact'] as const) {
    const word = strings(data[key])[0]
    if (word) tag(`${key}:${word.toLowerCase()}`)
  }
  return {
    category: categoryOf(data, cwe),
    cwe,
    owasp: owaspOf(data['owasp']),
    cvss: defaults.cvss,
    confidence: (confidenceWord ? CONFIDENCE[confidenceWord] : undefined) ?? defaults.confidence,
    remediation: references.length > 0 ? `See ${references.join(', ')}` : null,
    tags,
  }
}
