/**
 * Engine throughput benchmark (`npm run bench:engine`).
 *
 * Generates a deterministic mixed-language tree of at least 1,000,000 lines in a temporary
 * folder, and also takes the project's own node_modules (its JS/TS), then measures on the
 * same files: parse-only time (read + select + one ast-grep parse per file) versus a full
 * scan: the CLI's default analysis (every built-in rule, secrets, data flow) with its worker
 * processes. Reports lines per second, the full/parse ratio, CPU time and peak memory (worker
 * processes included), and writes them to docs/benchmarks.md under `## Engine`. On the generated
 * corpus it also runs each analyzer alone in one process: the CPU each costs, which bounds how
 * fast a scan on this many cores can be. Scans run the built engine (dist/), as the CLI does.
 *
 * Options: --lines <n> (default 1000000), --skip-node-modules, --no-write.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { AnalyzerName } from '../src/engine/index.ts'
import { DEFAULT_IGNORED_DIRS } from '../src/engine/scan/file-selection.ts'
import { loadBuiltinRulesLeniently } from '../src/engine/rules/loader.ts'
import { emptySastMetrics } from '../src/engine/sast/analyzer.ts'
import { buildProject, builtEngine } from './lib/built-engine.ts'
import { generateCorpus } from './lib/corpus-generator.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'
import { parseOnly } from './lib/parse-only.ts'

/** The full analysis within twice the time of parsing the same files with the same parser. */
const TARGET_RATIO = 2
/** What `parapet scan` runs by default. */
const FULL_ANALYSIS = ['sast', 'secrets', 'dataflow'] as const satisfies readonly AnalyzerName[]
const TARGET_LINES_PER_SECOND = 50_000
const TARGET_PEAK_MIB = 1024
/** How busy the shared machine was when the run started (the report gives it with the end's). */
const LOAD_AT_START = loadavg()[0] ?? 0
/** The scan's worker processes (and the parallel parse-only baseline's concurrency). */
const THREADS = Math.min(availableParallelism(), 4)

interface Measurement {
  name: string
  files: number
  lines: number
  /** parse-only on one thread */
  parseMs: number
  /** parse-only with as many parses in flight as the scan has worker processes */
  parallelParseMs: number
  scanMs: number
  findings: number
  skipped: Record<string, number>
  filesParsed: number
  /** syntax trees the scan parsed, every analyzer and worker process included (parses per file: / files) */
  treesParsed: number
  ruleRuns: number
  ruleRunsSkipped: number
  /** RSS high-water mark of the scan's process */
  scanPeakMiB: number
  parsePeakMiB: number
  /** CPU time of every thread of the phase's process, for the scan and the 1-thread parse */
  scanCpuMs: number
  parseCpuMs: number
  /** CPU time of each analyzer alone, and of all of them, in one process without workers (generated corpus only) */
  stageCpuMs?: Record<Stage, number>
}

/** The analyzers measured alone, and `all` of them together, each in one process without workers. */
const STAGES = [...FULL_ANALYSIS, 'all'] as const
type Stage = (typeof STAGES)[number]

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '1000000' },
    'skip-node-modules': { type: 'boolean', default: false },
    'no-write': { type: 'boolean', default: false },
    // Internal: run one measured phase in this (child) process and print it as JSON.
    phase: { type: 'string' },
    dir: { type: 'string' },
    ignore: { type: 'string' },
  },
})

const projectRoot = fileURLToPath(new URL('..', import.meta.url))

interface PhaseResult {
  durationMs: number
  files: number
  lines: number
  findings: number
  skipped: Record<string, number>
  metrics: ReturnType<typeof emptySastMetrics>
  peakRssMiB: number
  /** CPU time of the measured work, all threads of the process (workers included) */
  cpuMs: number
}

/** Runs inside a child process so each phase has its own memory high-water mark. */
async function runPhase(phase: string, dir: string, ignoredDirs: string[]): Promise<PhaseResult> {
  const metrics = emptySastMetrics()
  let result: Omit<PhaseResult, 'peakRssMiB' | 'metrics' | 'cpuMs'>
  // loaded before the clock starts, as the sources were when this module loaded
  const engine = phase === 'parse' || phase === 'parallel-parse' ? null : await builtEngine()
  const cpuBefore = process.cpuUsage()
  if (engine) {
    const stage = phase.startsWith('stage:') ? (phase.slice('stage:'.length) as Stage) : null
    const options = stage === null ? { workers: THREADS, analyzers: [...FULL_ANALYSIS] } : { workers: 0, analyzers: stage === 'all' ? [...FULL_ANALYSIS] : [stage] }
    const report = await engine.scanDirectory(dir, { ignoredDirs, sastMetrics: metrics, ...options })
    // The workers outlive a scan; ended (and waited for) here, their CPU time counts in the phase's.
    await engine.closeSharedAnalysisPool()
    result = { durationMs: report.durationMs, files: report.stats.filesScanned, lines: report.stats.linesScanned, findings: report.findings.length, skipped: report.stats.skipped }
  } else {
    const parsed = await parseOnly(dir, { ignoredDirs, concurrency: phase === 'parallel-parse' ? THREADS : 1 })
    result = { durationMs: parsed.durationMs, files: parsed.files, lines: parsed.lines, findings: 0, skipped: {} }
  }
  const cpu = process.cpuUsage(cpuBefore)
  return { ...result, metrics, peakRssMiB: process.resourceUsage().maxRSS / 1024, cpuMs: (cpu.user + cpu.system) / 1000 + childrenCpuMs() }
}

/** Linux's USER_HZ: the unit of /proc's CPU times (100 on every architecture Node runs on here). */
const CLOCK_TICKS_PER_SECOND = 100

/**
 * CPU time of the worker processes this process started and waited for (Linux: /proc/self/stat's
 * cutime and cstime). Their peak memory is taken by GNU time around the phase (phaseInChild).
 */
function childrenCpuMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // after the command name in parentheses: field 3 (state) onwards; cutime and cstime are fields 16 and 17
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS_PER_SECOND
  } catch {
    return 0
  }
}

/** GNU time: the peak RSS of the largest process of a phase, worker processes included. */
const GNU_TIME = '/usr/bin/time'
const PEAK_MARK = 'phase-peak-kib:'

function phaseInChild(phase: string, dir: string, ignoredDirs: readonly string[]): PhaseResult {
  const command = [process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--phase', phase, '--dir', dir, '--ignore', ignoredDirs.join(',')]
  const timed = existsSync(GNU_TIME)
  const [program, ...args] = timed ? [GNU_TIME, '-f', `${PEAK_MARK}%M`, ...command] : command
  const child = spawnSync(program as string, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  if (child.status !== 0) throw new Error(`phase ${phase} failed: ${child.stderr}`)
  const lastLine = child.stdout.trim().split('\n').pop() ?? ''
  const result = JSON.parse(lastLine) as PhaseResult
  const peakKiB = Number(/phase-peak-kib:(\d+)/.exec(child.stderr)?.[1] ?? 0)
  return { ...result, peakRssMiB: Math.max(result.peakRssMiB, peakKiB / 1024) }
}

async function measure(name: string, dir: string, ignoredDirs: readonly string[], withStages = false): Promise<Measurement> {
  // A first pass warms the file cache for the measured runs.
  phaseInChild('parse', dir, ignoredDirs)
  const sequential = phaseInChild('parse', dir, ignoredDirs)
  const parallel = phaseInChild('parallel-parse', dir, ignoredDirs)
  const scan = phaseInChild('scan', dir, ignoredDirs)
  console.log(`${name}: parse ${Math.round(sequential.durationMs)} ms, parallel parse ${Math.round(parallel.durationMs)} ms, scan ${scan.durationMs} ms, scan peak ${Math.round(scan.peakRssMiB)} MiB`)
  const stageCpuMs = withStages ? (Object.fromEntries(STAGES.map((stage) => [stage, phaseInChild(`stage:${stage}`, dir, ignoredDirs).cpuMs])) as Record<Stage, number>) : undefined
  if (stageCpuMs) console.log(`${name}: CPU alone in one process: ${STAGES.map((stage) => `${stage} ${Math.round(stageCpuMs[stage])} ms`).join(', ')}`)
  return {
    ...(stageCpuMs ? { stageCpuMs } : {}),
    name,
    files: scan.files,
    lines: scan.lines,
    parseMs: sequential.durationMs,
    parallelParseMs: parallel.durationMs,
    scanMs: scan.durationMs,
    findings: scan.findings,
    skipped: scan.skipped,
    filesParsed: scan.metrics.filesParsed,
    treesParsed: scan.metrics.treesParsed,
    ruleRuns: scan.metrics.ruleRuns,
    ruleRunsSkipped: scan.metrics.ruleRunsSkipped,
    scanPeakMiB: scan.peakRssMiB,
    parsePeakMiB: Math.max(sequential.peakRssMiB, parallel.peakRssMiB),
    scanCpuMs: scan.cpuMs,
    parseCpuMs: sequential.cpuMs,
  }
}

/**
 * What profiling the scan showed (`node --cpu-prof`, single thread, both corpora); kept with the
 * numbers because it explains them.
 */
const WHERE_THE_TIME_GOES = [
  'Where the time goes: in the pattern rules, ast-grep\'s napi binding converts and compiles a rule on every call and keeps nothing',
  'of it; that per-call cost is about a quarter of the time the engine spends in its calls (half of it compiling the rules\' regexes),',
  'the rest is walking the trees (`## Pattern matcher`). So the engine calls it as rarely and with configs as small as it can (precondition words in one pass per file,',
  'node-kind checks after parsing, per-file narrowing of a rule\'s alternatives to those whose words the file holds, constraints',
  'checked on the matches instead of compiled into every call, rule files',
  'ordered so cheap checks run first). ast-grep\'s own command-line scanner compiles each rule once but runs every rule on every',
  'file: with the same rules it takes two to three times the engine\'s CPU time. The',
  'data-flow analysis is the rest, and on large JavaScript trees most of it. Over this node_modules in one process (load 7 to 15) it',
  'took 584 s and 321 s of CPU before two fixes: library mode compared every source with every package folder for every package',
  '(338 s; now grouped once: 164 s of CPU left) and recheck judged each regex run on a function parameter (now only runs a source',
  'reaches: 136 s of CPU, the same 68 findings, but 2.9 GiB at the peak instead of 2.2: summaries hold the runs waiting for a',
  'source). What is left is spread over thousands of files, the largest bundled code the minified and generated checks let through',
  '(vitest, vite and playwright chunks, relay-compiler: 3 to 7 s each under that load), and its lowered program and summaries stay',
  'in memory for the whole analysis, which is',
  'the peak above (the repository worker). Each syntax tree is parsed once per process; with worker processes the repository worker',
  'parses again the files data flow reads (the trees per scanned file above). The machine is shared and has 2 vCPUs: two busy',
  'processes rarely get two full cores, so the multi-process scan and both ratios move with what else runs.',
].join(' ')

/**
 * What each analyzer costs alone, and what the target asks: a scan on N cores takes at least its
 * own CPU time divided by N, so 2x parse-only's wall time needs the whole analysis within 2N times
 * parse-only's CPU time. (The analyzers run together in one process are not that bound: a scan
 * on worker processes can spend less CPU than they do, with smaller heaps to collect.)
 */
function stageParagraph(m: Measurement, stageCpuMs: Record<Stage, number>): string {
  const times = (stage: Stage) => stageCpuMs[stage] / m.parseCpuMs
  return [
    `Where the CPU goes on the ${m.name}: each analyzer alone, in one process without worker processes (each parses what it reads), as a multiple of parse-only's CPU time on one thread: ${FULL_ANALYSIS.map((stage) => `${stage} ${times(stage).toFixed(2)}x`).join(', ')}; all three ${times('all').toFixed(2)}x (${formatNumber(stageCpuMs.all)} ms).`,
    `The full scan on ${THREADS} worker processes used ${(m.scanCpuMs / m.parseCpuMs).toFixed(2)}x. A scan on ${THREADS} cores takes at least its CPU time divided by ${THREADS}, however well its processes share the work, so ${TARGET_RATIO}x needs the analyses to cost at most ${(TARGET_RATIO * THREADS).toFixed(0)}x parse-only's CPU time in all.`,
  ].join(' ')
}

function formatNumber(value: number): string {
  return Math.round(value).toLocaleString('en-US')
}

function row(m: Measurement): string {
  return `| ${m.name} | ${formatNumber(m.files)} | ${formatNumber(m.lines)} | ${formatNumber(m.parseMs)} | ${formatNumber(m.parallelParseMs)} | ${formatNumber(m.scanMs)} | ${(m.scanMs / m.parseMs).toFixed(2)}x | ${(m.scanMs / m.parallelParseMs).toFixed(2)}x | ${formatNumber((m.lines / m.scanMs) * 1000)} | ${formatNumber(m.findings)} |`
}

async function main(): Promise<void> {
  const targetLines = Number(values.lines)
  buildProject()
  const rules = loadBuiltinRulesLeniently()
  const corpusDir = mkdtempSync(join(tmpdir(), 'parapet-bench-'))
  const measurements: Measurement[] = []
  try {
    const generatedStarted = performance.now()
    const corpus = generateCorpus(corpusDir, targetLines)
    console.log(`generated ${formatNumber(corpus.lines)} lines in ${formatNumber(corpus.files)} files (${formatNumber(performance.now() - generatedStarted)} ms)`)
    measurements.push(await measure('generated corpus (16 languages)', corpusDir, DEFAULT_IGNORED_DIRS, true))
  } finally {
    rmSync(corpusDir, { recursive: true, force: true })
  }
  if (!values['skip-node-modules']) {
    // Scan inside node_modules: keep skipping nested VCS folders, but read dist/ and build/.
    const ignored = ['.git', 'node_modules']
    measurements.push(await measure('project node_modules (JS/TS)', join(projectRoot, 'node_modules'), ignored))
  }

  const total: Measurement = measurements.reduce(
    (sum, m) => ({
      ...sum,
      files: sum.files + m.files,
      lines: sum.lines + m.lines,
      parseMs: sum.parseMs + m.parseMs,
      parallelParseMs: sum.parallelParseMs + m.parallelParseMs,
      scanMs: sum.scanMs + m.scanMs,
      findings: sum.findings + m.findings,
      filesParsed: sum.filesParsed + m.filesParsed,
      treesParsed: sum.treesParsed + m.treesParsed,
      ruleRuns: sum.ruleRuns + m.ruleRuns,
      ruleRunsSkipped: sum.ruleRunsSkipped + m.ruleRunsSkipped,
      scanPeakMiB: Math.max(sum.scanPeakMiB, m.scanPeakMiB),
      parsePeakMiB: Math.max(sum.parsePeakMiB, m.parsePeakMiB),
      scanCpuMs: sum.scanCpuMs + m.scanCpuMs,
      parseCpuMs: sum.parseCpuMs + m.parseCpuMs,
    }),
    { name: 'total', files: 0, lines: 0, parseMs: 0, parallelParseMs: 0, scanMs: 0, findings: 0, skipped: {}, filesParsed: 0, treesParsed: 0, ruleRuns: 0, ruleRunsSkipped: 0, scanPeakMiB: 0, parsePeakMiB: 0, scanCpuMs: 0, parseCpuMs: 0 },
  )
  const peakMiB = total.scanPeakMiB
  const ratio = total.scanMs / total.parseMs
  const parallelRatio = total.scanMs / total.parallelParseMs
  const linesPerSecond = (total.lines / total.scanMs) * 1000
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')

  const body = [
    `Measured with \`npm run bench:engine\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${availableParallelism()} cores available (shared; 1-minute load average ${LOAD_AT_START.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end), ${rules.rules.length} built-in rules (sast) plus the secrets analyzer.`,
    '',
    `Parse-only = the same file selection, each file read and parsed once by ast-grep, no rules: on one thread, and with ${THREADS} parses in flight (ast-grep's async parse on the libuv pool). Full scan = \`scanDirectory\` of the built engine (dist/, which the CLI runs) with the CLI's default analysis (${FULL_ANALYSIS.join(', ')}: every built-in rule, the secrets analyzer and the data-flow analysis; findings, suppression, fingerprints included) on ${THREADS} worker processes.`,
    '',
    '| Corpus | Files | Lines | Parse-only, 1 thread (ms) | Parse-only, parallel (ms) | Full scan (ms) | Full / parse (1 thread) | Full / parse (parallel) | Lines/s (full) | Findings |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...measurements.map(row),
    row(total),
    '',
    `CPU time of the measuring process and the worker processes it waited for (startup included): ${measurements.map((m) => `${m.name} ${formatNumber(m.scanCpuMs)} ms for the full scan against ${formatNumber(m.parseCpuMs)} ms for parse-only on one thread (${(m.scanCpuMs / m.parseCpuMs).toFixed(2)}x)`).join('; ')}; total ${(total.scanCpuMs / total.parseCpuMs).toFixed(2)}x. Two busy processes each run slower here than one alone, while one process holding every analysis's data has a larger heap to collect: the same analyses in one process (below) can take more CPU time or less.`,
    '',
    `Peak memory of a full scan (RSS high-water mark of the largest process: the scanning process or one of its workers): ${formatNumber(peakMiB)} MiB (parse-only runs: ${formatNumber(total.parsePeakMiB)} MiB). Each phase runs in its own process. The high-water mark follows when V8 collects garbage more than the code: five data-flow runs over this node_modules with builds that report the same findings peaked at 3.4 to 4.9 GiB.`,
    '',
    '| Target | Result | |',
    '| --- | --- | --- |',
    `| Full scan within ${TARGET_RATIO}x of parse-only (1 thread) | ${ratio.toFixed(2)}x | ${verdict(ratio <= TARGET_RATIO)} |`,
    `| Full scan within ${TARGET_RATIO}x of parse-only (parallel) | ${parallelRatio.toFixed(2)}x | ${verdict(parallelRatio <= TARGET_RATIO)} |`,
    `| At least ${formatNumber(TARGET_LINES_PER_SECOND)} lines/s | ${formatNumber(linesPerSecond)} lines/s | ${verdict(linesPerSecond >= TARGET_LINES_PER_SECOND)} |`,
    `| Peak memory under ${formatNumber(TARGET_PEAK_MIB)} MiB | ${formatNumber(peakMiB)} MiB | ${verdict(peakMiB < TARGET_PEAK_MIB)} |`,
    '',
    `Preconditions (words before parsing, node kinds after): ${formatNumber(total.ruleRunsSkipped)} rule runs avoided, ${formatNumber(total.ruleRuns)} run; ${formatNumber(total.filesParsed)} of ${formatNumber(total.files)} scanned files needed a parse; ${formatNumber(total.treesParsed)} syntax trees parsed in all (${(total.treesParsed / Math.max(1, total.files)).toFixed(2)} per scanned file).`,
    '',
    ...measurements.flatMap((m) => (m.stageCpuMs ? [stageParagraph(m, m.stageCpuMs), ''] : [])),
    WHERE_THE_TIME_GOES,
    '',
    ...measurements.map((m) => `Skipped in ${m.name}: ${Object.entries(m.skipped).map(([reason, count]) => `${reason} ${formatNumber(count)}`).join(', ') || 'nothing'}.`),
  ].join('\n')

  console.log(body)
  if (!values['no-write']) {
    writeMarkdownSection(join(projectRoot, 'docs', 'benchmarks.md'), 'Engine', body)
    console.log('\nwritten to docs/benchmarks.md (## Engine)')
  }
}

if (values.phase) {
  const result = await runPhase(values.phase, values.dir ?? '.', (values.ignore ?? '').split(',').filter(Boolean))
  console.log(JSON.stringify(result))
} else {
  await main()
}
