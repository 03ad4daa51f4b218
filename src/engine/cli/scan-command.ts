/**
 * Command-line scanner: `parapet scan <dir> [options]` (or `npm run -s scan -- <dir>`). Prints
 * (or writes) a report: text for a person (output/text.ts), the default when stdout is a terminal
 * and there is no --output; JSON otherwise, so pipes and scripts get JSON as they always did; or
 * SARIF 2.1.0. On a terminal's stderr a progress line shows how far the scan is (progress.ts).
 * Files are analyzed in worker processes under a per-file time limit: a file past it is skipped
 * with a warning.
 *
 * Exit codes (EXIT below; --help and the README list them too):
 *   0  the scan finished and no finding is at or above --fail-on (or no --fail-on)
 *   1  the scan finished and a finding is at or above --fail-on
 *   2  usage or input error: bad options, a <dir> that is not a folder, invalid rules or rules
 *      beyond the rule limits, a baseline that is not a SARIF log of ours, an --output that cannot
 *      be written, or the scan time limit reached
 *   3  internal error: the scan failed for a reason that is not its input (a bug to report)
 *
 * Extra rules (--rules, any number of files or folders of them) are in Parapet's rule format or
 * Semgrep's, told apart by shape (rules/loader.ts).
 *
 * With --baseline (an earlier SARIF report), only findings whose fingerprint the baseline lacks
 * are reported, in either format, and --fail-on looks at those alone: a CI gate on new findings.
 */
import { readFile, stat, writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { ANALYZERS, SEVERITIES } from '../core/types.ts'
import type { AnalyzerName, RuleDocument, Severity } from '../core/types.ts'
import { RuleValidationError, formatRuleProblem, listRuleFiles, loadBuiltinRulesLeniently, parseRulesTextLeniently, ruleOrigin } from '../rules/loader.ts'
import type { RuleProblem } from '../rules/loader.ts'
import { scanDirectory } from '../scan/scan.ts'
import { closeSharedAnalysisPool, formatSeconds } from '../scan/worker-pool.ts'
import type { LogEvent, ScanReport } from '../scan/scan.ts'
import { LIBRARY_SOURCES_MODES } from '../dataflow/index.ts'
import type { LibrarySources } from '../dataflow/index.ts'
import { sarifFingerprints, toSarif } from '../output/sarif.ts'
import { renderTextReport, shouldColor } from '../output/text.ts'
import { makeProgressLine } from './progress.ts'
import type { ProgressLine } from './progress.ts'
import { ENGINE_VERSION } from '../core/version.ts'

/** What each exit code means; the header comment and USAGE say the same. */
export const EXIT = { clean: 0, findings: 1, inputError: 2, internalError: 3 } as const

const USAGE = `Usage: parapet scan <dir> [options]

Options:
  --format text|json|sarif   output format. Default: text when stdout is a terminal
                             and there is no --output, else json (so pipes and
                             scripts get JSON). Text is coloured on a terminal
                             (NO_COLOR turns it off, FORCE_COLOR on), never in a file
  --output <file>            write the report to a file instead of stdout
  --rules <file|folder>      extra rules: a YAML file in Parapet's rule format or a
                             Semgrep rule file (a top-level rules: list); a folder
                             means every .yml/.yaml file in it, recursively. May be
                             given several times
  --no-builtin-rules         run only the rules given with --rules
  --analyzers <list>         comma-separated analyzers to run (default: the full
                             analysis, sast,secrets,dataflow, as a full server scan)
  --fail-on <severity>       exit with 1 when a finding is at least this severe
                             (critical, high, medium, low, info)
  --baseline <sarif file>    report only findings that are not in this earlier SARIF
                             report (by fingerprint); --fail-on then counts only those
  --max-file-bytes <n>       skip files larger than this (default 1048576)
  --library-sources auto|always|never
                             whether what callers pass to a package's exported
                             functions is untrusted input: auto (default) in
                             library packages (a package.json with main, module
                             or exports, no server started), always, or never
  --file-timeout <seconds>   skip a file whose analysis takes longer (default 30)
  --scan-timeout <seconds>   stop with an error when the scan takes longer (default: none)
  --verbose                  log scan stages and skipped files to stderr
  --help                     show this help

When stderr is a terminal, a progress line (files done of total, elapsed and
remaining time, findings so far) is drawn there, below any log lines, and
erased when the scan ends; it is never written anywhere else.

Exit codes:
  0  no finding at or above --fail-on (or no --fail-on)
  1  a finding at or above --fail-on (with --baseline: a new one)
  2  usage or input error: bad options, <dir> not a folder, invalid rules, a bad
     baseline, an --output that cannot be written, or --scan-timeout reached
  3  internal error (please report it, with the --verbose output)
`

type Format = 'text' | 'json' | 'sarif'
const FORMATS: readonly Format[] = ['text', 'json', 'sarif']

export class UsageError extends Error {}

export interface CliOptions {
  dir: string
  format: Format
  output?: string
  /** --rules, in the order given: files or folders */
  rulesPaths: string[]
  builtinRules: boolean
  analyzers?: AnalyzerName[]
  failOn?: Severity
  baselineFile?: string
  maxFileBytes?: number
  packageApiSources?: LibrarySources
  fileTimeoutMs: number
  scanTimeoutMs?: number
  verbose: boolean
}

const DEFAULT_FILE_TIMEOUT_SECONDS = 30

/** `stdoutIsTerminal` picks the default format: text for a person, JSON for a program. */
export function parseCliArgs(argv: string[], { stdoutIsTerminal = false } = {}): CliOptions | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
      rules: { type: 'string', multiple: true },
      'no-builtin-rules': { type: 'boolean', default: false },
      analyzers: { type: 'string' },
      'fail-on': { type: 'string' },
      baseline: { type: 'string' },
      'max-file-bytes': { type: 'string' },
      'library-sources': { type: 'string' },
      'file-timeout': { type: 'string' },
      'scan-timeout': { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  })
  if (values.help) return 'help'
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing <dir>' : `expected one <dir>, got ${positionals.length}`)
  const format = values.format ?? (stdoutIsTerminal && !values.output ? 'text' : 'json')
  if (!isFormat(format)) throw new UsageError(`--format must be text, json or sarif, got "${format}"`)
  const options: CliOptions = {
    dir: positionals[0] as string,
    format,
    rulesPaths: values.rules ?? [],
    builtinRules: !values['no-builtin-rules'],
    fileTimeoutMs: secondsOption(values['file-timeout'], '--file-timeout') ?? DEFAULT_FILE_TIMEOUT_SECONDS * 1000,
    verbose: values.verbose,
  }
  if (values.output) options.output = values.output
  if (options.rulesPaths.some((path) => path === '')) throw new UsageError('--rules needs a file or a folder')
  if (values.baseline !== undefined) {
    if (values.baseline === '') throw new UsageError('--baseline needs a SARIF file')
    options.baselineFile = values.baseline
  }
  if (values.analyzers) {
    const names = values.analyzers.split(',').map((name) => name.trim()).filter(Boolean)
    const unknown = names.filter((name) => !(ANALYZERS as readonly string[]).includes(name))
    if (unknown.length > 0) throw new UsageError(`unknown analyzer ${unknown.join(', ')} (known: ${ANALYZERS.join(', ')})`)
    options.analyzers = names as AnalyzerName[]
  }
  const failOn = values['fail-on']
  if (failOn !== undefined) {
    if (!(SEVERITIES as readonly string[]).includes(failOn)) throw new UsageError(`--fail-on must be one of ${SEVERITIES.join(', ')}`)
    options.failOn = failOn as Severity
  }
  const maxBytes = values['max-file-bytes']
  if (maxBytes !== undefined) {
    const parsed = Number(maxBytes)
    if (!Number.isInteger(parsed) || parsed <= 0) throw new UsageError('--max-file-bytes must be a positive integer')
    options.maxFileBytes = parsed
  }
  const packageApiSources = values['library-sources']
  if (packageApiSources !== undefined) {
    if (!(LIBRARY_SOURCES_MODES as readonly string[]).includes(packageApiSources)) throw new UsageError(`--library-sources must be one of ${LIBRARY_SOURCES_MODES.join(', ')}`)
    options.packageApiSources = packageApiSources as LibrarySources
  }
  const scanTimeoutMs = secondsOption(values['scan-timeout'], '--scan-timeout')
  if (scanTimeoutMs !== undefined) options.scanTimeoutMs = scanTimeoutMs
  return options
}

function isFormat(name: string): name is Format {
  return (FORMATS as readonly string[]).includes(name)
}

function secondsOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`${name} must be a positive number of seconds`)
  return Math.round(seconds * 1000)
}

/** Whether any finding is at least as severe as `threshold`. */
export function hasFindingAtOrAbove(report: ScanReport, threshold: Severity): boolean {
  const rank = (severity: Severity) => SEVERITIES.indexOf(severity)
  return report.findings.some((finding) => rank(finding.severity) <= rank(threshold))
}

/** The rule files --rules names: a file as given, a folder as the .yml/.yaml files in it, recursively, sorted. */
async function ruleFilesOf(paths: readonly string[]): Promise<string[]> {
  const files: string[] = []
  for (const path of paths) {
    let isFolder: boolean
    try {
      isFolder = (await stat(path)).isDirectory()
    } catch (error) {
      throw new UsageError(`cannot read rules ${path}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const found = isFolder ? listRuleFiles(path) : [path]
    if (found.length === 0) throw new UsageError(`--rules ${path}: the folder holds no .yml or .yaml file`)
    // the same file named twice (a file and its folder) is read once
    for (const file of found) if (!files.some((known) => resolve(known) === resolve(file))) files.push(file)
  }
  return files
}

/**
 * Every rule of the --rules files. The problems of all files are reported together; an id
 * defined in two of the files is one of them (within a file, the rules one Semgrep rule becomes,
 * one per language, share its id).
 */
async function loadRules(paths: readonly string[]): Promise<RuleDocument[]> {
  const rules: RuleDocument[] = []
  const problems: RuleProblem[] = []
  const fileOfId = new Map<string, string>()
  for (const file of await ruleFilesOf(paths)) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      throw new UsageError(`cannot read rules file ${file}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const loaded = parseRulesTextLeniently(text, file)
    problems.push(...loaded.problems)
    for (const rule of loaded.rules) {
      const first = fileOfId.get(rule.id)
      if (first !== undefined && first !== file) {
        problems.push({ ruleId: rule.id, line: ruleOrigin(rule)?.line ?? 1, message: `duplicate rule id (also defined in ${first})`, source: file })
        continue
      }
      fileOfId.set(rule.id, file)
      rules.push(rule)
    }
  }
  if (problems.length > 0) throw new RuleValidationError(problems)
  return rules
}

/** The fingerprints of an earlier SARIF report; anything else is a usage error. */
async function loadBaseline(path: string): Promise<Set<string>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new UsageError(`cannot read baseline file ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
  let log: unknown
  try {
    log = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`baseline file ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  try {
    return sarifFingerprints(log)
  } catch (error) {
    throw new UsageError(`baseline file ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** How a scan compares with its baseline, by fingerprint; the names are SARIF's baseline states. */
export interface BaselineCounts {
  /** findings not in the baseline: the ones reported */
  new: number
  /** findings in the baseline too: not reported */
  unchanged: number
  /** baseline findings this scan no longer has */
  absent: number
}

/** The report narrowed to the findings the baseline does not have, and the counts. */
export function compareWithBaseline(report: ScanReport, baseline: ReadonlySet<string>): { report: ScanReport; counts: BaselineCounts } {
  const current = new Set(report.findings.map((finding) => finding.fingerprint))
  const fresh = report.findings.filter((finding) => !baseline.has(finding.fingerprint))
  const absent = [...baseline].filter((fingerprint) => !current.has(fingerprint)).length
  return { report: { ...report, findings: fresh }, counts: { new: fresh.length, unchanged: report.findings.length - fresh.length, absent } }
}

/**
 * The report in the chosen format; with baseline counts, every finding in it is a new one.
 * `color` applies to text alone: JSON and SARIF are for programs.
 */
export function renderReport(report: ScanReport, format: Format, rules: RuleDocument[], baseline?: BaselineCounts, { color = false } = {}): string {
  if (format === 'text') return renderTextReport(report, { color, ...(baseline ? { baseline } : {}) })
  if (format === 'sarif') {
    const annotations = baseline ? { annotate: () => ({ baselineState: 'new' as const }), runProperties: { baseline } } : {}
    return `${JSON.stringify(toSarif(report, { rules, ...annotations }), null, 2)}\n`
  }
  return `${JSON.stringify({ tool: 'parapet', version: ENGINE_VERSION, ...report, ...(baseline ? { baseline } : {}) }, null, 2)}\n`
}

/**
 * Where the command writes. The terminal facts default to this process's stdout and stderr,
 * which is where both entry points (this file, `parapet scan`) write.
 */
export interface CliIo {
  stdout(text: string): void
  stderr(text: string): void
  stdoutIsTerminal?: boolean
  stderrIsTerminal?: boolean
  /** the width of the terminal on stderr, read at each redraw */
  stderrColumns?(): number
  env?: NodeJS.ProcessEnv
}

/** Runs the CLI; returns the exit code (EXIT). */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const env = io.env ?? process.env
  const stdoutIsTerminal = io.stdoutIsTerminal ?? process.stdout.isTTY === true
  const stderrIsTerminal = (io.stderrIsTerminal ?? process.stderr.isTTY === true) && env.TERM !== 'dumb'
  let options: CliOptions | 'help'
  try {
    options = parseCliArgs(argv, { stdoutIsTerminal })
  } catch (error) {
    io.stderr(`parapet-scan: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`)
    return EXIT.inputError
  }
  if (options === 'help') {
    io.stdout(USAGE)
    return EXIT.clean
  }
  const deadline = new AbortController()
  const scanTimeoutMs = options.scanTimeoutMs
  const timer = scanTimeoutMs === undefined ? null : setTimeout(() => deadline.abort(new Error(`the scan exceeded its time limit of ${formatSeconds(scanTimeoutMs)}`)), scanTimeoutMs)
  const verbose = options.verbose
  let progress: ProgressLine | null = null
  // while the progress line is drawn, every stderr line goes above it
  const log = (text: string) => (progress ? progress.log(text) : io.stderr(text))
  try {
    await checkScanFolder(options.dir)
    // drawn before the rules load: compiling them takes seconds, which the clock shows
    if (stderrIsTerminal) progress = makeProgressLine({ write: io.stderr, columns: io.stderrColumns ?? (() => process.stderr.columns ?? 0) })
    const extraRules = await loadRules(options.rulesPaths)
    // read before the scan: a bad baseline fails at once, not after minutes of analysis
    const baseline = options.baselineFile ? await loadBaseline(options.baselineFile) : null
    const scanned = await scanDirectory(options.dir, {
      extraRules,
      builtinRules: options.builtinRules,
      fileTimeoutMs: options.fileTimeoutMs,
      signal: deadline.signal,
      // the CLI runs what a full scan on the server runs unless told to narrow it
      analyzers: options.analyzers ?? [...ANALYZERS],
      ...(options.maxFileBytes ? { maxFileBytes: options.maxFileBytes } : {}),
      ...(options.packageApiSources ? { packageApiSources: options.packageApiSources } : {}),
      ...(progress ? { onProgress: progress.update } : {}),
      onLog: (event: LogEvent) => {
        if (verbose || event.level === 'warning' || event.level === 'error') log(`[${event.level}] ${event.message}\n`)
      },
    })
    progress?.stop()
    progress = null
    const compared = baseline ? compareWithBaseline(scanned, baseline) : null
    const report = compared?.report ?? scanned
    // The report's rule list, read once the scan is over: the scan read the built-in rules itself
    // (the loader keeps them), and its worker processes started the sooner.
    const builtin = options.builtinRules ? loadBuiltinRulesLeniently().rules : []
    const rules = [...builtin, ...extraRules]
    if (options.output) await writeOutput(options.output, renderReport(report, options.format, rules, compared?.counts))
    else io.stdout(renderReport(report, options.format, rules, compared?.counts, { color: shouldColor(stdoutIsTerminal, env) }))
    const found = compared
      ? `${compared.counts.new} new findings (${compared.counts.unchanged} unchanged, ${compared.counts.absent} gone since the baseline)`
      : `${report.findings.length} findings`
    const summary = `parapet-scan: ${found} in ${report.stats.filesScanned} files (${report.stats.linesScanned} lines, ${report.durationMs} ms)\n`
    if (options.output || verbose) io.stderr(summary)
    return options.failOn && hasFindingAtOrAbove(report, options.failOn) ? EXIT.findings : EXIT.clean
  } catch (error) {
    progress?.stop()
    return reportFailure(error, { timedOut: deadline.signal.aborted, verbose }, io)
  } finally {
    if (timer) clearTimeout(timer)
    // The command's one scan is over: its workers end with it, waited for, not left to notice the exit.
    await closeSharedAnalysisPool()
  }
}

/** A <dir> that is missing or not a folder is the user's to fix, said before any work starts. */
async function checkScanFolder(dir: string): Promise<void> {
  const found = await stat(dir).catch(() => null)
  if (!found?.isDirectory()) throw new UsageError(`not a directory: ${dir}`)
}

async function writeOutput(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text)
  } catch (error) {
    throw new UsageError(`cannot write --output ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The message and exit code of a failed scan: the user's input (2) or ours (3). */
function reportFailure(error: unknown, { timedOut, verbose }: { timedOut: boolean; verbose: boolean }, io: Pick<CliIo, 'stderr'>): number {
  if (error instanceof RuleValidationError) {
    io.stderr(`parapet-scan: invalid rules:\n${error.problems.map((problem) => `  ${formatRuleProblem(problem)}`).join('\n')}\n`)
    return EXIT.inputError
  }
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof UsageError || timedOut) {
    io.stderr(`parapet-scan: ${message}\n`)
    return EXIT.inputError
  }
  const detail = verbose && error instanceof Error && error.stack ? `\n${error.stack}` : ''
  io.stderr(`parapet-scan: internal error: ${message}${detail}\nUnless the machine ran short of memory or processes, this is a bug in Parapet: please report it, with the output of the same command run with --verbose.\n`)
  return EXIT.internalError
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href
if (isMain) {
  const code = await runCli(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  })
  process.exitCode = code
}
