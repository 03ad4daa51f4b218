/**
 * The user taint rules as a task for an analysis worker process (worker-pool.ts): files and
 * rules in, findings out, and a progress report before each file, so that the worker's time
 * limit counts per file and names the file that stalled it.
 */
import type { WorkerTaskFunction } from '../scan/analysis-worker.ts'
import { loadSecretsDetector } from '../secrets/bridge.ts'
import type { RuleDocument } from '../core/types.ts'
import { analyzeTaintRules } from './taint.ts'
import type { TaintRulesResult } from './taint.ts'

export interface TaintTaskInput {
  files: { path: string; text: string }[]
  rules: RuleDocument[]
}

export const analyzeTaintRulesTask: WorkerTaskFunction<TaintTaskInput, TaintRulesResult> = async (input, progress) => {
  // the worker loaded the detector when it started: this is its cached instance
  const { detector } = await loadSecretsDetector()
  return analyzeTaintRules(input.files, input.rules, { secrets: detector, onProgress: progress })
}
