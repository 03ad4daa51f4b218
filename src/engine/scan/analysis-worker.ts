/**
 * An analysis worker process (see worker-pool.ts): loads the engine as soon as it starts and
 * says so, builds the scan's analyzers from the setup message (rule documents and analyzer names),
 * then analyzes the files it is sent, one at a time, and runs repository-wide tasks (a named
 * export of an engine or service module, e.g. the data-flow analysis) on request.
 *
 * It is a process, not a thread, because only a process can be stopped at any moment: a
 * native ast-grep call blocks its thread, and `Worker.terminate()` waits for it to return
 * (for hours with a rule built for it). Its parent kills it with SIGKILL; if the parent dies
 * first, a watchdog thread, which still runs while the main thread is blocked in native code,
 * kills it within a second.
 */
import { Worker } from 'node:worker_threads'
import type { AnalyzerName, RuleDocument } from '../core/types.ts'
import { FileAnalysis, createAnalyzers } from './file-analysis.ts'
import type { FileAnalysisResult, LogEvent } from './file-analysis.ts'
import type { FileLanguage } from '../core/languages.ts'
import { emptySastMetrics } from '../sast/analyzer.ts'
import type { SastMetrics } from '../sast/analyzer.ts'
import { loadSecretsDetector } from '../secrets/bridge.ts'

export interface WorkerSetup {
  analyzers: AnalyzerName[]
  rules: RuleDocument[]
}

/** The first message a worker that analyzes files receives. */
export interface WorkerSetupMessage {
  setup: WorkerSetup
}

export interface FileMessage {
  id: number
  path: string
  language: FileLanguage
  text: string
}

/**
 * A repository-wide task: `(await import(module))[name](input, progress)`. The function calls
 * `progress(label)` as it moves on (a file at a time); the parent's watchdog counts from there.
 */
export interface TaskMessage {
  id: number
  task: { module: string; name: string; input: unknown }
}

/** What a task module exports. */
export type WorkerTaskFunction<Input, Output> = (input: Input, progress: (label: string) => void) => Output | Promise<Output>

export type WorkerReply =
  | { id: number; ok: true; result: FileAnalysisResult; metrics: SastMetrics }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  | { id: number; progress: string }
  /** the engine is loaded: the worker takes messages (sent only once this arrived) */
  | { loaded: true }
  /** the analyzers of the setup are built: the worker takes files */
  | { configured: true }

const send = (reply: WorkerReply) => process.send?.(reply)
if (!process.send) throw new Error('analysis-worker.ts must run as a child process with an IPC channel')

// Exits with the parent: an orphan stuck in native code would otherwise run until that call returns.
const parentPid = process.ppid
new Worker(
  `const { workerData } = require('node:worker_threads')
setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL') }, 500)`,
  { eval: true, workerData: parentPid },
).unref()
process.on('disconnect', () => process.exit(0))

// The engine and the secrets detector load while the scanning process is still loading the rules.
const { detector } = await loadSecretsDetector()
const metrics = emptySastMetrics()
let ruleErrors: LogEvent[] = []
let analysis: FileAnalysis | null = null

function configure(setup: WorkerSetup): void {
  const { analyzers } = createAnalyzers(setup.analyzers, setup.rules, detector, metrics, (ruleId, path, message) =>
    ruleErrors.push({ level: 'error', message: `rule ${ruleId} failed on ${path}: ${message}`, data: { ruleId, path } }),
  )
  analysis = new FileAnalysis(analyzers, detector)
  send({ configured: true })
}

function analyzeFile(message: FileMessage): void {
  try {
    if (!analysis) throw new Error('analysis worker received a file before its setup')
    ruleErrors = []
    const before = { ...metrics }
    const result = analysis.analyze(message.path, message.language, message.text)
    result.logs.push(...ruleErrors)
    const delta = Object.fromEntries(
      Object.entries(metrics).map(([key, value]) => [key, value - (before[key as keyof SastMetrics] ?? 0)]),
    ) as unknown as SastMetrics
    send({ id: message.id, ok: true, result, metrics: delta })
  } catch (error) {
    send({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) })
  }
}

async function runTask(message: TaskMessage): Promise<void> {
  try {
    const module = (await import(message.task.module)) as Record<string, unknown>
    const run = module[message.task.name]
    if (typeof run !== 'function') throw new Error(`${message.task.module} has no function ${message.task.name}`)
    const value: unknown = await (run as WorkerTaskFunction<unknown, unknown>)(message.task.input, (label) => send({ id: message.id, progress: label }))
    send({ id: message.id, ok: true, value })
  } catch (error) {
    send({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) })
  }
}

process.on('message', (message: WorkerSetupMessage | FileMessage | TaskMessage) => {
  if ('setup' in message) configure(message.setup)
  else if ('task' in message) void runTask(message)
  else analyzeFile(message)
})
send({ loaded: true })
