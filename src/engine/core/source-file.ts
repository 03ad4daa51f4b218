/**
 * One file under analysis, shared by every analyzer that looks at it: its text and lines,
 * the secrets found in it (computed at most once), and the redacted view of its lines that
 * every finding's snippet and context are cut from, so no analyzer can leak a secret.
 */
import type { FileLanguage } from './languages.ts'
import type { SecretMatch, SecretsDetector } from '../secrets/bridge.ts'

export class SourceFile {
  private cachedLines: string[] | undefined
  private cachedSecrets: SecretMatch[] | undefined
  private cachedDisplayLines: string[] | undefined
  /** Set when the detector threw on this file; the pipeline logs it. */
  secretsError: string | undefined

  constructor(
    /** repository-relative, forward slashes */
    readonly path: string,
    readonly language: FileLanguage,
    readonly text: string,
    private readonly detector: SecretsDetector | null,
  ) {}

  /** Lines without their terminators (a trailing `\r` is dropped too). */
  get lines(): string[] {
    this.cachedLines ??= this.text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
    return this.cachedLines
  }

  get lineCount(): number {
    // Counted without splitting: most files have no finding and never need their lines.
    let count = 1
    for (let index = this.text.indexOf('\n'); index !== -1; index = this.text.indexOf('\n', index + 1)) count++
    // A final newline does not start another line.
    return this.text === '' || this.text.endsWith('\n') ? count - 1 : count
  }

  /** Secrets in the file (empty without a detector). */
  secrets(): SecretMatch[] {
    if (this.cachedSecrets === undefined) {
      this.cachedSecrets = []
      if (this.detector) {
        try {
          this.cachedSecrets = this.detector.findSecrets(this.path, this.text)
        } catch (error) {
          this.secretsError = error instanceof Error ? error.message : String(error)
        }
      }
    }
    return this.cachedSecrets
  }

  redactSecret(secret: string): string {
    return this.detector ? this.detector.redact(secret) : '[redacted]'
  }

  /** The file's lines with every secret replaced by its redacted form. */
  displayLines(): string[] {
    if (this.cachedDisplayLines) return this.cachedDisplayLines
    const secrets = this.secrets()
    if (secrets.length === 0) {
      this.cachedDisplayLines = this.lines
      return this.cachedDisplayLines
    }
    const lines = [...this.lines]
    // Replace reported spans right to left so earlier columns stay valid.
    const spans = [...secrets].sort((a, b) => a.line - b.line || b.columnStart - a.columnStart)
    for (const match of spans) {
      const line = lines[match.line - 1]
      if (line === undefined) continue
      const start = match.columnStart - 1
      const end = match.columnEnd - 1
      if (line.slice(start, end) === match.secret) {
        lines[match.line - 1] = line.slice(0, start) + this.redactSecret(match.secret) + line.slice(end)
      }
    }
    // Then every other occurrence of a secret (reused values, spans the detector reported once).
    for (let i = 0; i < lines.length; i++) lines[i] = this.redactText(lines[i] ?? '')
    this.cachedDisplayLines = lines
    return lines
  }

  /** `text` with every secret of this file (each of its lines, for multi-line secrets) redacted. */
  redactText(text: string): string {
    let result = text
    for (const match of this.secrets()) {
      for (const piece of secretPieces(match.secret)) {
        if (result.includes(piece)) result = result.split(piece).join(this.redactSecret(piece))
      }
    }
    return result
  }
}

/** A multi-line secret (a PEM key) is redacted line by line; tiny fragments are left alone. */
function secretPieces(secret: string): string[] {
  if (!secret.includes('\n')) return secret.length > 0 ? [secret] : []
  return secret
    .split(/\r?\n/)
    .map((piece) => piece.trim())
    .filter((piece) => piece.length >= 8)
}
