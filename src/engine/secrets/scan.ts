/**
 * Runs the detectors over one file: path policy (tests, lockfiles), keyword prefilters,
 * overlap resolution (the most specific detector wins), then offset -> line/column mapping.
 */
import { DETECTORS } from './detectors/index.ts'
import { profilePath, type PathProfile } from './path-profile.ts'
import { ScanText } from './scan-text.ts'
import type { Candidate, Detector, SecretMatch, SecretRule } from './types.ts'

/** How much a provider-format match loses when it sits in a test, fixture or example file. */
const TEST_PATH_CONFIDENCE_PENALTY = 0.2

interface Ranked {
  candidate: Candidate
  priority: number
}

export function findSecrets(path: string, text: string): SecretMatch[] {
  if (text.length === 0) return []
  const profile = profilePath(path)
  const scanText = new ScanText(text)
  const ranked: Ranked[] = []
  for (const detector of DETECTORS) {
    if (!appliesTo(detector, profile) || !detector.mayMatch(scanText)) continue
    for (const candidate of detector.find(scanText, profile)) {
      ranked.push({ candidate: adjustForPath(candidate, profile), priority: detector.priority })
    }
  }
  return resolveOverlaps(ranked)
    .sort((a, b) => a.start - b.start || a.rule.id.localeCompare(b.rule.id))
    .map((candidate) => toSecretMatch(candidate, scanText))
}

/** Every rule the analyzer can report, for rule listings and documentation. */
export const SECRET_RULES: readonly SecretRule[] = DETECTORS.flatMap((detector) => detector.rules)

/**
 * Test, fixture and example files are full of fabricated credentials. Decision: generic
 * assignments and JWTs are skipped there (testPaths: 'skip'); provider formats, private keys
 * and URL credentials are still reported (a real key committed in a test is still leaked)
 * with lower confidence and a `test-path` tag. Lockfiles only get the detectors that say
 * they run there (every format-specific one; not the generic assignment scan).
 */
function appliesTo(detector: Detector, profile: PathProfile): boolean {
  if (profile.isLockfile && !detector.runsInLockfiles) return false
  if (profile.isTestOrExample && detector.testPaths === 'skip') return false
  return true
}

function adjustForPath(candidate: Candidate, profile: PathProfile): Candidate {
  if (!profile.isTestOrExample) return candidate
  return {
    ...candidate,
    confidence: Math.max(0.3, candidate.confidence - TEST_PATH_CONFIDENCE_PENALTY),
    description: `${candidate.description} Found in a test, fixture or example file: check whether it is a real credential.`,
    tags: [...candidate.tags, 'test-path'],
  }
}

/**
 * Of overlapping matches keep the most specific: higher detector priority, then the longer
 * secret, then the higher confidence (e.g. a GitHub token wins over the generic assignment
 * and the URL-credentials match that contain it). Candidates are swept in start order and
 * only clusters of mutually overlapping ones (rarely more than two) are arbitrated.
 */
function resolveOverlaps(ranked: Ranked[]): Candidate[] {
  const byStart = [...ranked].sort((a, b) => a.candidate.start - b.candidate.start)
  const kept: Candidate[] = []
  let cluster: Ranked[] = []
  let clusterEnd = -1
  for (const item of byStart) {
    if (cluster.length > 0 && item.candidate.start >= clusterEnd) {
      kept.push(...arbitrate(cluster))
      cluster = []
    }
    cluster.push(item)
    clusterEnd = cluster.length === 1 ? item.candidate.end : Math.max(clusterEnd, item.candidate.end)
  }
  kept.push(...arbitrate(cluster))
  return kept
}

function arbitrate(cluster: Ranked[]): Candidate[] {
  if (cluster.length <= 1) return cluster.map((item) => item.candidate)
  const ordered = [...cluster].sort(
    (a, b) =>
      b.priority - a.priority ||
      b.candidate.end - b.candidate.start - (a.candidate.end - a.candidate.start) ||
      b.candidate.confidence - a.candidate.confidence,
  )
  const kept: Candidate[] = []
  for (const { candidate } of ordered) {
    if (kept.every((other) => other.end <= candidate.start || candidate.end <= other.start)) kept.push(candidate)
  }
  return kept
}

function toSecretMatch(candidate: Candidate, text: ScanText): SecretMatch {
  const { start } = candidate
  const reportEnd = Math.min(candidate.end, text.lineEnd(start))
  const { line, column } = text.position(start)
  const { rule } = candidate
  return {
    ruleId: rule.id,
    title: rule.title,
    description: candidate.description,
    severity: candidate.severity,
    confidence: Math.round(candidate.confidence * 100) / 100,
    cwe: [...rule.cwe],
    tags: [...candidate.tags],
    remediation: rule.remediation,
    line,
    columnStart: column,
    columnEnd: column + Math.max(1, reportEnd - start),
    secret: candidate.secret,
  }
}
