/**
 * Access to the secrets detector (index.ts in this folder). It is loaded on first use so that the
 * rest of the engine works, without secret detection and redaction, in a build that lacks it.
 * The interface below is the contract the detector exports.
 */

export type { SecretMatch } from './types.ts'
import type { SecretMatch } from './types.ts'

export interface SecretsDetector {
  findSecrets(path: string, text: string): SecretMatch[]
  redact(secret: string): string
  /** Number of secret rules the detector applies (for ScanReport.rulesRun). */
  ruleCount: number
}

export interface SecretsDetectorLoad {
  detector: SecretsDetector | null
  /** Why the detector is unavailable, when it is. */
  problem?: string
}

let loading: Promise<SecretsDetectorLoad> | null = null

function isDetector(module: unknown): module is Pick<SecretsDetector, 'findSecrets' | 'redact'> {
  const candidate = module as Partial<SecretsDetector> | null
  return typeof candidate?.findSecrets === 'function' && typeof candidate.redact === 'function'
}

/** The detector, or the reason it cannot be used (src/engine/secrets/index.ts absent or broken). */
export function loadSecretsDetector(): Promise<SecretsDetectorLoad> {
  loading ??= (async () => {
    // A computed specifier keeps the type checker from requiring the module to exist.
    const specifier = './index.ts'
    try {
      const module: unknown = await import(specifier)
      if (!isDetector(module)) return { detector: null, problem: 'secrets module does not export findSecrets and redact' }
      const rules = (module as { SECRET_RULES?: unknown }).SECRET_RULES
      const ruleCount = Array.isArray(rules) ? rules.length : 1
      return { detector: { findSecrets: module.findSecrets, redact: module.redact, ruleCount } }
    } catch (error) {
      return { detector: null, problem: `secrets module could not be loaded: ${error instanceof Error ? error.message : String(error)}` }
    }
  })()
  return loading
}
