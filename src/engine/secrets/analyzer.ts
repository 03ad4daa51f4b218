/**
 * The secrets analyzer: turns the detector's matches into hard-coded-secret findings. The raw
 * secret never reaches a finding: snippets come from the file's redacted lines and the
 * fingerprint hashes a digest of the secret.
 */
import { createHash } from 'node:crypto'
import type { Finding, Severity } from '../core/types.ts'
import type { Analyzer } from '../core/analyzer.ts'
import { modelName } from '../core/analyzer.ts'
import { buildFinding, fingerprintOf, occurrenceIndexes } from '../core/findings.ts'
import type { SourceFile } from '../core/source-file.ts'
import type { SecretMatch } from './bridge.ts'

export const SECRETS_VERSION = '1.0'
const OWASP_A07 = 'A07:2021 - Identification and Authentication Failures'

/** Typical CVSS v3 base scores for a leaked credential of each severity. */
const CVSS_BY_SEVERITY: Record<Severity, number> = { critical: 9.1, high: 7.5, medium: 5.3, low: 3.1, info: 0 }

export class SecretsAnalyzer implements Analyzer {
  readonly name = 'secrets' as const
  readonly version = SECRETS_VERSION

  constructor(readonly ruleCount: number) {}

  accepts(): boolean {
    return true
  }

  analyze(file: SourceFile): Finding[] {
    const matches = file.secrets()
    const digests = matches.map((match) => `secret-sha256:${createHash('sha256').update(match.secret).digest('hex')}`)
    const occurrences = occurrenceIndexes(
      matches.map((match, index) => ({ ruleId: match.ruleId, normalizedText: digests[index] ?? '', offset: match.line * 1e6 + match.columnStart })),
    )
    return matches.map((match, index) =>
      buildFinding(
        file,
        { startLine: match.line - 1, startColumn: match.columnStart - 1, endLine: match.line - 1, endColumn: match.columnEnd - 1 },
        {
          ruleId: match.ruleId,
          analyzer: 'secrets',
          modelUsed: modelName('secrets', SECRETS_VERSION),
          category: 'hardcoded-secret',
          severity: match.severity,
          confidence: match.confidence,
          title: match.title,
          description: match.description,
          explanation: explainSecret(file, match),
          remediation: match.remediation,
          remediationCode: null,
          cweIds: match.cwe.length > 0 ? match.cwe : ['CWE-798'],
          owaspCategory: OWASP_A07,
          cvssScore: CVSS_BY_SEVERITY[match.severity] ?? 0,
          tags: match.tags.includes('secret') ? match.tags : [...match.tags, 'secret'],
        },
        fingerprintOf(match.ruleId, file.path, digests[index] ?? '', occurrences[index] ?? 0),
      ),
    )
  }
}

function explainSecret(file: SourceFile, match: SecretMatch): string {
  return (
    `${match.title} found in ${file.path} at line ${match.line}, column ${match.columnStart} ` +
    `(\`${file.redactSecret(match.secret)}\`). Anyone who can read the repository, its history or ` +
    `its build artifacts can use this credential; removing it from the code does not revoke it.`
  )
}
