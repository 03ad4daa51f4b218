/**
 * The shape of one rule document (built-in rule files and user rulesets), as a zod schema,
 * plus the metadata vocabularies it checks against (severities, OWASP Top 10 2021 names).
 */
import { createRequire } from 'node:module'
import type * as Zod from 'zod'
import { CATEGORIES, SEVERITIES } from '../core/types.ts'
import type { Severity } from '../core/types.ts'
import { CODE_LANGUAGES } from '../core/languages.ts'

/** ast-grep's own severity words, accepted for compatibility with existing rule files. */
export const AST_GREP_SEVERITIES: Record<string, Severity> = {
  error: 'high',
  warning: 'medium',
  hint: 'info',
}

export const OWASP_TOP_10_2021: Record<string, string> = {
  A01: 'Broken Access Control',
  A02: 'Cryptographic Failures',
  A03: 'Injection',
  A04: 'Insecure Design',
  A05: 'Security Misconfiguration',
  A06: 'Vulnerable and Outdated Components',
  A07: 'Identification and Authentication Failures',
  A08: 'Software and Data Integrity Failures',
  A09: 'Security Logging and Monitoring Failures',
  A10: 'Server-Side Request Forgery (SSRF)',
}

const OWASP_FORMAT = /^(A(?:0[1-9]|10)):2021 - (.+)$/

/** Checks an OWASP reference; returns a problem description or null when it is valid. */
export function owaspProblem(value: string): string | null {
  const match = OWASP_FORMAT.exec(value)
  if (!match) return `owasp must look like "A03:2021 - Injection", got "${value}"`
  const [, code, name] = match as unknown as [string, string, string]
  const official = OWASP_TOP_10_2021[code] ?? ''
  const loose = (text: string) => text.toLowerCase().replace(/\s*\(ssrf\)\s*$/, '').trim()
  if (loose(name) !== loose(official)) return `owasp ${code}:2021 is "${official}", not "${name}"`
  return null
}

/** A rule id: dot-separated words (Semgrep rules' ids are checked against it too). */
export const RULE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]*(?:\.[A-Za-z0-9][A-Za-z0-9_-]*)*$/
const CWE = /^CWE-[1-9]\d*$/

const severityWords = [...SEVERITIES, ...Object.keys(AST_GREP_SEVERITIES)] as string[]

/** ast-grep's language aliases (its docs write `language: JavaScript`, `ts`, `py`...). */
const LANGUAGE_ALIASES: Record<string, string> = {
  js: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  py: 'python',
  golang: 'go',
  kt: 'kotlin',
  rb: 'ruby',
  rs: 'rust',
  cs: 'csharp',
  cc: 'cpp',
  'c++': 'cpp',
  cxx: 'cpp',
  sh: 'bash',
}

/** A language name as ast-grep accepts it (any case, or an alias), in the engine's spelling. */
function canonicalLanguage(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const lower = value.trim().toLowerCase()
  return LANGUAGE_ALIASES[lower] ?? lower
}

/**
 * zod is loaded when a rule document is first checked, not with this module: a scan reading the
 * built-in rules from the build's cache checks none, and loading zod was a third of what starting
 * the scan command, and each analysis worker, cost (about 30 ms of CPU each). Loaded through
 * require, its CommonJS build: no rule schema is composed with the server's own zod schemas.
 */
const requireHere = createRequire(import.meta.url)

function buildSchemas(z: typeof Zod.z) {
  const nonEmptyText = (field: string) =>
    z.string({ error: `${field} must be a string` }).trim().min(1, { error: `${field} must not be empty` })

  const astGrepObject = (field: string) =>
    z.record(z.string(), z.unknown(), { error: `${field} must be a mapping` })

  const ruleDocumentSchema = z.strictObject(
    {
      id: z
        .string({ error: 'id must be a string' })
        .regex(RULE_ID, { error: 'id must be dot-separated words of letters, digits, "-" or "_"' }),
      language: z.preprocess(
        canonicalLanguage,
        z.enum(CODE_LANGUAGES, { error: (issue) => `unknown language ${JSON.stringify(issue.input)} (known: ${CODE_LANGUAGES.join(', ')})` }),
      ),
      rule: astGrepObject('rule'),
      constraints: astGrepObject('constraints').optional(),
      utils: astGrepObject('utils').optional(),
      severity: z.string({ error: 'severity must be a string' }).refine((value) => severityWords.includes(value.toLowerCase()), {
        error: (issue) => `unknown severity ${JSON.stringify(issue.input)} (known: ${SEVERITIES.join(', ')})`,
      }),
      message: nonEmptyText('message'),
      note: z.string({ error: 'note must be a string' }).optional(),
      fix: z.string({ error: 'fix must be a string' }).optional(),
      title: nonEmptyText('title'),
      category: z.enum(CATEGORIES, { error: (issue) => `unknown category ${JSON.stringify(issue.input)}` }),
      cwe: z
        .array(z.string().regex(CWE, { error: (issue) => `cwe entries look like "CWE-89", got ${JSON.stringify(issue.input)}` }), {
          error: 'cwe must be a list like [CWE-89]',
        })
        .min(1, { error: 'cwe must list at least one CWE' }),
      owasp: z.string({ error: 'owasp must be a string' }).superRefine((value, ctx) => {
        const problem = owaspProblem(value)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      }),
      cvss: z
        .number({ error: 'cvss must be a number' })
        .min(0, { error: 'cvss must be between 0 and 10' })
        .max(10, { error: 'cvss must be between 0 and 10' }),
      confidence: z
        .number({ error: 'confidence must be a number' })
        .min(0, { error: 'confidence must be between 0 and 1' })
        .max(1, { error: 'confidence must be between 0 and 1' }),
      remediation: nonEmptyText('remediation'),
      tags: z.array(z.string({ error: 'tags must be strings' }), { error: 'tags must be a list of strings' }).optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? undefined : 'a rule document must be a mapping') },
  )

  /**
   * A user rule (rulesets, the CLI's --rules) may be written in ast-grep's own format: only `id`,
   * `language`, `rule` and `message` are required. The security metadata is optional, and still
   * checked when given; loader.ts fills what is left out (userRuleDefaults).
   */
  const userRuleDocumentSchema = ruleDocumentSchema
    .extend({
      // ast-grep's documentation keys: accepted, not used by the scan
      url: z.string({ error: 'url must be a string' }).optional(),
      metadata: z.record(z.string(), z.unknown(), { error: 'metadata must be a mapping' }).optional(),
    })
    .partial({
      severity: true,
      title: true,
      category: true,
      cwe: true,
      owasp: true,
      cvss: true,
      confidence: true,
      remediation: true,
    })
  return { builtin: ruleDocumentSchema, user: userRuleDocumentSchema }
}

type RuleSchemas = ReturnType<typeof buildSchemas>
let schemas: RuleSchemas | undefined

/** The schemas of a built-in rule document and of a user rule (ast-grep's own format accepted: buildSchemas). */
export function ruleSchemas(): RuleSchemas {
  schemas ??= buildSchemas((requireHere('zod') as typeof Zod).z)
  return schemas
}

export type ParsedRuleDocument = Zod.z.infer<RuleSchemas['user']>

/**
 * What a user rule that says nothing of its impact is taken to mean: its severity (medium when
 * absent) sets a representative CVSS score and how much a match is trusted. Nothing else is
 * invented: no CWE, no OWASP entry, no remediation.
 */
const SEVERITY_DEFAULTS: Record<Severity, { cvss: number; confidence: number }> = {
  critical: { cvss: 9.0, confidence: 0.8 },
  high: { cvss: 7.5, confidence: 0.7 },
  medium: { cvss: 5.0, confidence: 0.6 },
  low: { cvss: 3.0, confidence: 0.5 },
  info: { cvss: 0.0, confidence: 0.5 },
}

export const DEFAULT_USER_RULE_SEVERITY: Severity = 'medium'

export function userRuleDefaults(severity: Severity): { cvss: number; confidence: number } {
  return SEVERITY_DEFAULTS[severity]
}

/** A short title from a rule's message: its first line, at most 120 characters. */
export function titleFromMessage(message: string): string {
  const firstLine = message.trim().split('\n')[0]?.trim() ?? ''
  return firstLine.length > 120 ? `${firstLine.slice(0, 119)}…` : firstLine
}

export function normalizeSeverity(value: string): Severity {
  const lower = value.toLowerCase()
  return (SEVERITIES as readonly string[]).includes(lower) ? (lower as Severity) : (AST_GREP_SEVERITIES[lower] ?? 'info')
}
