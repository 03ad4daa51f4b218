/**
 * Builds regex-driven detectors from a declarative spec: keyword prefilter, one global
 * regex, the capture group holding the secret, a fake/placeholder check on the token's
 * random part, then an optional format-specific verification (checksum, decoding, context).
 */
import type { Severity } from '../../core/types.ts'
import type { PathProfile } from '../path-profile.ts'
import { looksLikeFakeToken } from '../placeholders.ts'
import { registerKeywords } from '../scan-text.ts'
import type { ScanText } from '../scan-text.ts'
import type { Candidate, Detector, SecretRule, TestPathPolicy } from '../types.ts'

export const CWE_HARDCODED_CREDENTIALS = 'CWE-798'
export const CWE_HARDCODED_PASSWORD = 'CWE-259'
export const CWE_HARDCODED_CRYPTO_KEY = 'CWE-321'

/** A UUID, as some providers use for API keys (Heroku, Postmark, legacy npm). */
export const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}'

/** Detector priorities: on overlapping matches the more specific detector wins. */
export const PRIORITY = { generic: 10, structural: 20, provider: 30, specific: 40 } as const

export interface VerifyInput {
  secret: string
  match: RegExpExecArray
  /** offset of the secret in the text */
  start: number
  text: ScanText
  path: PathProfile
}

export interface Verdict {
  confidence?: number
  severity?: Severity
  /** appended to the rule description */
  note?: string
  tags?: string[]
}

export interface RegexDetectorSpec {
  id: string
  title: string
  description: string
  severity: Severity
  confidence: number
  cwe?: string[]
  tags: string[]
  remediation: string
  /** the detector runs only when the text contains one of these */
  keywords: readonly string[]
  /** compare keywords (given in lowercase) against the lowercased text */
  keywordsIgnoreCase?: boolean
  /** must carry the `g` flag; `d` is added to locate capture groups */
  pattern: RegExp
  testPaths?: TestPathPolicy
  runsInLockfiles?: boolean
  priority?: number
  /** capture group holding the secret; default: the first group that took part in the match */
  secretGroup?: number
  /** part of the secret that must look generated (default: the capture group named `body`, else the secret) */
  body?: (secret: string, match: RegExpExecArray) => string
  /** the verify step does its own placeholder checks (structured payloads like PEM) */
  skipFakeCheck?: boolean
  /** return null to drop the match */
  verify?: (input: VerifyInput) => Verdict | null
}

export function ruleOf(spec: Pick<RegexDetectorSpec, 'id' | 'title' | 'description' | 'severity' | 'confidence' | 'cwe' | 'tags' | 'remediation'>): SecretRule {
  return {
    id: spec.id,
    title: spec.title,
    description: spec.description,
    severity: spec.severity,
    confidence: spec.confidence,
    cwe: spec.cwe ?? [CWE_HARDCODED_CREDENTIALS],
    tags: ['secret', ...spec.tags],
    remediation: spec.remediation,
  }
}

export function regexDetector(spec: RegexDetectorSpec): Detector {
  if (!spec.pattern.global) throw new Error(`${spec.id}: pattern needs the g flag`)
  const pattern = spec.pattern.hasIndices ? spec.pattern : new RegExp(spec.pattern.source, `${spec.pattern.flags}d`)
  const rule = ruleOf(spec)
  const keywords = spec.keywordsIgnoreCase ? spec.keywords.map((k) => k.toLowerCase()) : spec.keywords
  registerKeywords(keywords, spec.keywordsIgnoreCase ?? false)
  return {
    rules: [rule],
    testPaths: spec.testPaths ?? 'report',
    runsInLockfiles: spec.runsInLockfiles ?? true,
    priority: spec.priority ?? PRIORITY.provider,
    mayMatch: (text) => (spec.keywordsIgnoreCase ? text.includesAnyIgnoringCase(keywords) : text.includesAny(keywords)),
    find(text, path) {
      const candidates: Candidate[] = []
      pattern.lastIndex = 0
      for (let match = pattern.exec(text.text); match; match = pattern.exec(text.text)) {
        if (match[0].length === 0) pattern.lastIndex++
        const group = spec.secretGroup ?? firstParticipatingGroup(match)
        const secret = match[group]
        const span = match.indices?.[group]
        if (secret === undefined || !span) continue
        if (!spec.skipFakeCheck) {
          const body = spec.body ? spec.body(secret, match) : (match.groups?.body ?? secret)
          if (looksLikeFakeToken(body, secret)) continue
        }
        const verdict = spec.verify ? spec.verify({ secret, match, start: span[0], text, path }) : {}
        if (!verdict) continue
        candidates.push({
          rule,
          start: span[0],
          end: span[1],
          secret,
          confidence: verdict.confidence ?? rule.confidence,
          severity: verdict.severity ?? rule.severity,
          description: verdict.note ? `${rule.description} ${verdict.note}` : rule.description,
          tags: verdict.tags ? [...rule.tags, ...verdict.tags] : rule.tags,
        })
      }
      return candidates
    },
  }
}

function firstParticipatingGroup(match: RegExpExecArray): number {
  for (let group = 1; group < match.length; group++) {
    if (match[group] !== undefined) return group
  }
  return 0
}

/**
 * Regex source for "a name containing `name`, an assignment operator, an optional quote":
 * `HEROKU_API_KEY=`, `"twilio_auth_token": "`, `postmarkToken := "`, `<SecretAccessKey>`.
 * Bounded repetitions only, so no backtracking blow-up on long lines.
 */
export function assignedTo(name: string, maxGap = 30): string {
  return `(?:${name})[\\w.-]{0,${maxGap}}?["'\\]]?[ \\t]*(?::=|=>|=|:|,|>)[ \\t]*["'\`]?`
}

/** Provider console + the general advice every secret finding gives. */
export function rotateAdvice(where: string): string {
  return `Revoke or rotate this credential ${where}, then remove it from the code and its git history and load it at runtime from a secret manager or environment variable.`
}
