/**
 * Vocabulary of the secrets analyzer: the match it reports to the engine core and the
 * shape of its detectors.
 */
import type { Severity } from '../core/types.ts'
import type { PathProfile } from './path-profile.ts'
import type { ScanText } from './scan-text.ts'

/** One secret found in a file, with its rule's description; positions are 1-based, `columnEnd` exclusive, on `line`. */
export interface SecretMatch extends Omit<SecretRule, 'id'> {
  ruleId: string
  line: number
  columnStart: number
  columnEnd: number
  /** the raw secret text, for redaction and fingerprinting only */
  secret: string
}

/** Static description of a secret rule (what the engine lists and documents). */
export interface SecretRule {
  id: string
  title: string
  description: string
  severity: Severity
  confidence: number
  cwe: string[]
  tags: string[]
  remediation: string
}

/**
 * How a detector treats test, fixture and example paths: `report` keeps the match with a
 * lower confidence (real provider formats are dangerous anywhere), `skip` drops it
 * (shapes that tests fabricate all the time: generic assignments, JWTs).
 */
export type TestPathPolicy = 'report' | 'skip'

/**
 * A match before path policy, overlap resolution and position mapping. A multi-line secret
 * (PEM block) is reported on its first line, its span clipped to the end of that line.
 */
export interface Candidate {
  rule: SecretRule
  /** offsets into the scanned text, end exclusive */
  start: number
  end: number
  secret: string
  confidence: number
  severity: Severity
  description: string
  tags: string[]
}

export interface Detector {
  /** the rules this detector can report (most detectors have exactly one) */
  rules: readonly SecretRule[]
  testPaths: TestPathPolicy
  /** lockfiles hold hashes and URLs: only detectors that say so run there */
  runsInLockfiles: boolean
  /** overlapping matches keep the highest priority (then the longest) */
  priority: number
  /** cheap test on the whole text before any regex runs */
  mayMatch(text: ScanText): boolean
  find(text: ScanText, path: PathProfile): Candidate[]
}
