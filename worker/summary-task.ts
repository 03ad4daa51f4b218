/**
 * The repository summary as a task for an analysis worker process (src/engine/scan/worker-pool.ts):
 * the worker reads the scan's zip itself, so only its path travels, and reports progress before
 * each file, so that the scan's file time limit counts per file and names the file that stalled it.
 */
import type { WorkerTaskFunction } from '../src/engine/scan/analysis-worker.ts'
import type { DataFlowTrace } from '../src/engine/core/types.ts'
import { summarizeRepository, type RepositorySummaryData } from '../src/engine/summary/index.ts'
import { readZipFiles } from '../src/modules/uploads/zip-archive.ts'

export interface SummaryTaskInput {
  zipPath: string
  /** stripped from the entries' paths (src/modules/uploads/zip-archive.ts) */
  rootPrefix: string | null
  maxFileBytes: number
  dataFlows: DataFlowTrace[]
}

export const summarizeZipTask: WorkerTaskFunction<SummaryTaskInput, RepositorySummaryData> = (input, progress) =>
  summarizeRepository(readZipFiles(input.zipPath, input.rootPrefix), { maxFileBytes: input.maxFileBytes, dataFlows: input.dataFlows, onProgress: progress })
