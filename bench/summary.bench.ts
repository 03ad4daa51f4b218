/**
 * Repository summary benchmark (`node --import tsx bench/summary.bench.ts`).
 *
 * Generates the engine benchmark's deterministic mixed-language corpus (1,000,000 lines by
 * default), reads it into memory once, and times on the same files in the same run: a full
 * scan (`scanSources`, analyzers sast and secrets, 2 worker processes; its CPU time from a second run in this process) and the summary
 * (`summarizeRepository`, median of three runs). The target is a summary under 10% of the
 * scan's time. Writes the numbers to docs/benchmarks.md under `## Summary`.
 *
 * Options: --lines <n> (default 1000000), --runs <n> summary runs (default 3), --no-write.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { scanSources } from '../src/engine/index.ts'
import type { SourceInput } from '../src/engine/index.ts'
import { summarizeRepository } from '../src/engine/summary/index.ts'
import { FULL_ANALYSIS_LINES } from '../src/engine/summary/plan.ts'
import { walkDirectory } from '../src/engine/scan/walk.ts'
import { generateCorpus } from './lib/corpus-generator.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'

const TARGET_RATIO = 0.1
const SCAN_THREADS = 2

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '3' },
    'no-write': { type: 'boolean', default: false },
  },
})

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

function formatNumber(value: number): string {
  return Math.round(value).toLocaleString('en-US')
}

async function readSources(dir: string): Promise<SourceInput[]> {
  const files = await walkDirectory(dir, { ignoredDirs: new Set(), onSkip: () => undefined })
  return files.map((file) => ({ path: file.path, content: readFileSync(file.absolutePath) }))
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

interface SummaryRun {
  ms: number
  /** CPU time of the process (all threads) during the run: steadier than wall time on a shared machine. */
  cpuMs: number
  bytes: number
  files: number
  importsOnly: number
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start)
  return (used.user + used.system) / 1000
}

async function timeSummary(sources: readonly SourceInput[]): Promise<SummaryRun> {
  const cpu = process.cpuUsage()
  const started = performance.now()
  const summary = await summarizeRepository(sources)
  const ms = performance.now() - started
  const cpuMs = cpuSince(cpu)
  const coverage = (summary.crossFileDependencies.summary ?? {}) as { files?: number; filesReadForImportsOnly?: number }
  return { ms, cpuMs, bytes: Buffer.byteLength(JSON.stringify(summary)), files: coverage.files ?? 0, importsOnly: coverage.filesReadForImportsOnly ?? 0 }
}

async function main(): Promise<void> {
  const targetLines = Number(values.lines)
  const runs = Math.max(1, Number(values.runs))
  const corpusDir = mkdtempSync(join(tmpdir(), 'parapet-summary-bench-'))
  try {
    const corpus = generateCorpus(corpusDir, targetLines)
    const sources = await readSources(corpusDir)
    console.log(`generated ${formatNumber(corpus.lines)} lines in ${formatNumber(corpus.files)} files`)

    // A small summary first, so grammar loading and JIT warm-up are not charged to either side.
    await summarizeRepository(sources.slice(0, 50))

    const scanStarted = performance.now()
    const report = await scanSources(sources, { analyzers: ['sast', 'secrets'], workers: SCAN_THREADS })
    const scanMs = performance.now() - scanStarted
    // The workers are processes, whose CPU time this one cannot read while they live: the same
    // scan again in this process gives the scan's CPU time.
    const scanCpu = process.cpuUsage()
    await scanSources(sources, { analyzers: ['sast', 'secrets'], workers: 0 })
    const scanCpuMs = cpuSince(scanCpu)
    console.log(`scan: ${formatNumber(scanMs)} ms (${formatNumber(scanCpuMs)} ms CPU), ${formatNumber(report.stats.linesScanned)} lines, ${formatNumber(report.findings.length)} findings`)

    const summaryRuns: SummaryRun[] = []
    for (let run = 0; run < runs; run++) {
      const result = await timeSummary(sources)
      summaryRuns.push(result)
      console.log(`summary run ${run + 1}: ${formatNumber(result.ms)} ms (${formatNumber(result.cpuMs)} ms CPU, ${formatNumber(result.bytes)} bytes of JSON)`)
    }
    const times = summaryRuns.map((run) => run.ms)
    const summaryMs = median(times)
    const summaryCpuMs = median(summaryRuns.map((run) => run.cpuMs))
    const ratio = summaryMs / scanMs
    const cpuRatio = summaryCpuMs / scanCpuMs
    const last = summaryRuns[summaryRuns.length - 1] as SummaryRun
    console.log(`summary / scan: ${(ratio * 100).toFixed(1)}% wall, ${(cpuRatio * 100).toFixed(1)}% CPU (target under ${TARGET_RATIO * 100}%)`)

    const body = [
      `Measured with \`node --import tsx bench/summary.bench.ts\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores available.`,
      '',
      `Corpus: the engine benchmark's generated corpus (16 languages), ${formatNumber(corpus.files)} files, ${formatNumber(corpus.lines)} lines, read into memory once. Scan = \`scanSources\` with the sast and secrets analyzers on ${SCAN_THREADS} worker processes (wall time); its CPU time is that of the same scan run again in the measuring process, which cannot read its workers'. Summary = \`summarizeRepository\` on the same files, no data-flow traces, median of ${runs} runs after a warm-up on 50 files.`,
      '',
      '| | Scan | Summary (median) | Summary runs | Summary / scan | Target | |',
      '| --- | ---: | ---: | --- | ---: | ---: | --- |',
      `| Wall time (ms) | ${formatNumber(scanMs)} | ${formatNumber(summaryMs)} | ${times.map(formatNumber).join(', ')} | ${(ratio * 100).toFixed(1)}% | under ${TARGET_RATIO * 100}% | ${ratio < TARGET_RATIO ? 'met' : 'NOT met'} |`,
      `| CPU time (ms) | ${formatNumber(scanCpuMs)} | ${formatNumber(summaryCpuMs)} | ${summaryRuns.map((run) => formatNumber(run.cpuMs)).join(', ')} | ${(cpuRatio * 100).toFixed(1)}% | | |`,
      '',
      `Summary output: ${formatNumber(last.bytes)} bytes of JSON for ${formatNumber(last.files)} code files. JavaScript, TypeScript, Python and Java are analyzed whole up to ${formatNumber(FULL_ANALYSIS_LINES)} lines per repository, the files most likely to matter first (entry points, auth code, layer folders, files calling out); ${formatNumber(last.importsOnly)} files beyond that budget, and files of languages without framework support, are parsed only as far as their imports reach. Every file is parsed at most once, on ast-grep's thread pool while the calling thread reads the previous trees.`,
      '',
      'The machine is shared and has 2 vCPUs: wall times move by 10 to 20% between runs (more when other work runs), the scan with its two busy worker processes more than the summary; CPU times are the steadier comparison.',
    ].join('\n')
    if (!values['no-write']) writeMarkdownSection(join(projectRoot, 'docs/benchmarks.md'), 'Summary', body)
    console.log(body)
  } finally {
    rmSync(corpusDir, { recursive: true, force: true })
  }
}

await main()
