/**
 * The data-flow analysis as a task for an analysis worker process (worker-pool.ts): the files
 * in, the result out, and a progress report before each file, so that the worker's time limit
 * counts per file and names the file that stalled it.
 */
import type { WorkerTaskFunction } from '../scan/analysis-worker.ts'
import { loadSecretsDetector } from '../secrets/bridge.ts'
import { analyzeDataFlowAsync } from './index.ts'
import type { DataFlowResult } from './index.ts'

export interface DataFlowTaskInput {
  files: { path: string; text: string }[]
}

export const analyzeDataFlowTask: WorkerTaskFunction<DataFlowTaskInput, DataFlowResult> = async (input, progress) => {
  // the worker loaded the detector when it started: this is its cached instance
  const { detector } = await loadSecretsDetector()
  return analyzeDataFlowAsync(input.files, { secrets: detector, onProgress: progress })
}
