/**
 * Generic secrets: literals assigned to secret-like names. Two rules:
 * - secrets.generic-high-entropy: a random-looking value (Shannon entropy over its length,
 *   separate thresholds for hex and base64-like alphabets) under a name such as token,
 *   secret, api_key, client_secret, private_key, credentials, auth;
 * - secrets.hardcoded-password: a literal under a password-like name, random or not.
 * Both are medium severity with confidence 0.5-0.7: there is no format to verify.
 */
import { charClasses, isHexString, shannonEntropy } from './entropy.ts'
import { findAssignments, type Assignment } from './assignments.ts'
import { CWE_HARDCODED_CREDENTIALS, CWE_HARDCODED_PASSWORD, PRIORITY, ruleOf } from './detectors/define.ts'
import type { PathProfile } from './path-profile.ts'
import { isNonSecretShape, isPlaceholderValue, isReferenceValue } from './placeholders.ts'
import type { ScanText } from './scan-text.ts'
import type { Candidate, Detector, SecretRule } from './types.ts'

const GENERIC_RULE: SecretRule = ruleOf({
  id: 'secrets.generic-high-entropy',
  title: 'High-entropy secret assigned to a secret-like name',
  description: 'A random-looking literal is assigned to a name that suggests a credential (token, secret, API key...).',
  severity: 'medium',
  confidence: 0.6,
  cwe: [CWE_HARDCODED_CREDENTIALS],
  tags: ['generic', 'entropy'],
  remediation:
    'If this is a real credential, rotate it with its issuer, remove it from the code and git history, and load it at runtime from a secret manager or environment variable.',
})

const PASSWORD_RULE: SecretRule = ruleOf({
  id: 'secrets.hardcoded-password',
  title: 'Hard-coded password',
  description: 'A password literal is written in the source or configuration.',
  severity: 'medium',
  confidence: 0.55,
  cwe: [CWE_HARDCODED_PASSWORD, CWE_HARDCODED_CREDENTIALS],
  tags: ['generic', 'password'],
  remediation:
    'Change the password wherever it is used, remove it from the code and git history, and read it at runtime from a secret manager or environment variable.',
})

/** Minimum bits per character for a non-hex value of this length to count as random. */
export function entropyThreshold(length: number): number {
  return Math.min(4.0, 0.8 * Math.log2(length))
}

/** Random-looking enough to be generated key material rather than a word or identifier. */
export function isHighEntropyValue(value: string, entropy = shannonEntropy(value)): boolean {
  if (value.length < 16 || value.length > 1024) return false
  if (isHexString(value)) return entropy >= 3.0 && /\d/.test(value) && /[a-f]/i.test(value)
  const classes = charClasses(value)
  if (classes.count < 2) return false
  if (!classes.digit && !(classes.count >= 3 && value.length >= 24)) return false
  return entropy >= entropyThreshold(value.length) && !isMostlyWords(value)
}

/**
 * Share of the value covered by word-like runs (`Application`, `secret`, `json`): high for
 * `myApplicationSecretKey2` or `development-secret-key-2024`, low for generated keys,
 * where three lowercase letters in a row are already uncommon.
 */
function isMostlyWords(value: string): boolean {
  let covered = 0
  for (const word of value.matchAll(/[A-Z]?[a-z]{3,}/g)) covered += word[0].length
  return covered / value.length >= 0.6
}

/** A literal that reads like a password rather than a label, field name or word. */
function isPlausiblePassword(value: string): boolean {
  if (value.length < 6 || value.length > 128) return false
  if (/^[a-z_]*pass(?:word|wd)?[a-z_]*$/i.test(value)) return false
  if (/^[a-z]+(?:[-_.][a-z]+)*$/.test(value)) return false
  const classes = charClasses(value)
  return classes.digit || classes.symbol || (value.length >= 12 && classes.upper && classes.lower)
}

/** 40-hex values on lines about commits and revisions are git object ids. */
function isGitObjectId(value: string, text: ScanText, offset: number): boolean {
  return /^[0-9a-f]{40}$/.test(value) && /commit|sha|rev|\bref|hash|checkout/i.test(text.lineAt(offset))
}

function evaluate(assignment: Assignment, text: ScanText, path: PathProfile): Candidate | null {
  const { value, name } = assignment
  const { form } = assignment
  if (form === 'expression' || value.length < 6) return null
  if (form !== 'quoted' && /^[!&*|>]/.test(value)) return null // YAML tags, anchors, aliases, block scalars
  if (isPlaceholderValue(value, name) || isReferenceValue(value) || isNonSecretShape(value)) return null
  if (isGitObjectId(value, text, assignment.valueStart)) return null
  const entropy = shannonEntropy(value)
  const random = isHighEntropyValue(value, entropy)
  const docsPenalty = path.isDocs ? 0.15 : 0
  // A bare word in a prose snippet may be code (`password: auth[1]`, a type name): only random values count.
  if (form === 'bare-prose' && !random) return null
  if (assignment.secretName.family === 'password') {
    if (!random && !isPlausiblePassword(value)) return null
    return candidate(PASSWORD_RULE, assignment, (random ? 0.65 : 0.55) - docsPenalty)
  }
  if (!random) return null
  let confidence = 0.55
  if (!isHexString(value) && entropy >= entropyThreshold(value.length) + 0.5) confidence += 0.1
  if (value.length >= 32) confidence += 0.05
  return candidate(GENERIC_RULE, assignment, Math.min(confidence, 0.7) - docsPenalty)
}

function candidate(rule: SecretRule, assignment: Assignment, confidence: number): Candidate {
  return {
    rule,
    start: assignment.valueStart,
    end: assignment.valueStart + assignment.value.length,
    secret: assignment.value,
    confidence: Math.round(confidence * 100) / 100,
    severity: rule.severity,
    description: `${rule.description} (name: ${assignment.name})`,
    tags: rule.tags,
  }
}

export const genericDetector: Detector = {
  rules: [GENERIC_RULE, PASSWORD_RULE],
  testPaths: 'skip',
  runsInLockfiles: false,
  priority: PRIORITY.generic,
  mayMatch: () => true,
  find(text, path) {
    if (path.isLocale) return []
    const candidates: Candidate[] = []
    for (const assignment of findAssignments(text, path)) {
      const found = evaluate(assignment, text, path)
      if (found) candidates.push(found)
    }
    return candidates
  },
}
