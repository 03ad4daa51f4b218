/**
 * Worker-thread side of parallel scans: loads the engine as soon as it starts, builds the same
 * analyzers as the scanning thread from the setup message (rule documents and analyzer
 * names), then analyzes the files it is sent, one at a time.
 */
import { parentPort } from 'node:worker_threads'
import type { AnalyzerName, RuleDocument } from './types.ts'
import { FileAnalysis, createAnalyzers } from './file-analysis.ts'
import type { FileAnalysisResult, LogEvent } from './file-analysis.ts'
import type { FileLanguage } from './languages.ts'
import { emptySastMetrics } from './sast.ts'
import type { SastMetrics } from './sast.ts'
import { loadSecretsDetector } from './secrets-bridge.ts'

export interface WorkerSetup {
  analyzers: AnalyzerName[]
  rules: RuleDocument[]
}

export interface WorkerTask {
  id: number
  path: string
  language: FileLanguage
  text: string
}

export type WorkerReply =
  | { id: number; ok: true; result: FileAnalysisResult; metrics: SastMetrics }
  | { id: number; ok: false; error: string }
  | { ready: true }

/** The first message a worker receives: what to analyze with (the rest are tasks). */
export interface WorkerSetupMessage {
  setup: WorkerSetup
}

const port = parentPort
if (!port) throw new Error('analysis-worker.ts must run in a worker thread')

// The engine and the secrets detector load while the scanning thread is still loading the rules.
const { detector } = await loadSecretsDetector()
const metrics = emptySastMetrics()
let ruleErrors: LogEvent[] = []
let analysis: FileAnalysis | null = null

function configure(setup: WorkerSetup): void {
  const { analyzers } = createAnalyzers(setup.analyzers, setup.rules, detector, metrics, (ruleId, path, message) =>
    ruleErrors.push({ level: 'error', message: `rule ${ruleId} failed on ${path}: ${message}`, data: { ruleId, path } }),
  )
  analysis = new FileAnalysis(analyzers, detector)
  port?.postMessage({ ready: true } satisfies WorkerReply)
}

port.on('message', (message: WorkerTask | WorkerSetupMessage) => {
  if ('setup' in message) return configure(message.setup)
  const task = message
  try {
    if (!analysis) throw new Error('analysis worker received a file before its setup')
    ruleErrors = []
    const before = { ...metrics }
    const result = analysis.analyze(task.path, task.language, task.text)
    result.logs.push(...ruleErrors)
    const delta = Object.fromEntries(
      Object.entries(metrics).map(([key, value]) => [key, value - (before[key as keyof SastMetrics] ?? 0)]),
    ) as unknown as SastMetrics
    port.postMessage({ id: task.id, ok: true, result, metrics: delta } satisfies WorkerReply)
  } catch (error) {
    port.postMessage({ id: task.id, ok: false, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply)
  }
})
