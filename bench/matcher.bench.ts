/**
 * The pattern analyzer against ast-grep's own scanner (`npm run bench:matcher`).
 *
 * The engine's pattern rules are ast-grep rules. ast-grep's command-line scanner (@ast-grep/cli,
 * installed here into a temporary prefix, never a dependency of the project) compiles a set of
 * rules once and runs all of them in one walk per file; @ast-grep/napi, which the engine uses,
 * compiles a rule at every call. This benchmark runs both on the same generated files with the
 * same built-in rules, one thread each, and checks they report the same matches: how far the
 * engine's way of calling ast-grep is from the matcher's own best, and how far that best is from
 * parsing alone (the denominator of the engine benchmark's "full scan within 2x parse-only").
 *
 * Per file language: the built-in pattern rules that run on it (JavaScript rules on TypeScript
 * too, as in the engine), written as scanner rules of that language. A rule the scanner refuses
 * (it needs a node kind it can start from) is left out of both sides. Semgrep-format rules are
 * not ast-grep rules and are left out. CPU time: the scanner's process (user + sys, startup
 * included); the engine's: reading, parsing and matching, in a process of its own, its module
 * loading left out. Parse-only: reading and one napi parse per file. Each side runs --runs times
 * (default 3), alternating, and the median is reported.
 *
 * Then, once, where the engine's time in ast-grep goes: every napi call of the pattern analyzer
 * timed, and each distinct rule config it passed timed again on a one-token tree of its language,
 * where there is nothing to walk: that is the call's own cost (converting and compiling the
 * rule), paid on every call because napi keeps no compiled rule.
 *
 * Options: --lines <n> (default 300000), --runs <n>, --no-write.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { parse } from '@ast-grep/napi'
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import { stringify } from 'yaml'
import { CODE_LANGUAGES, ensureLanguagesRegistered, isCodeLanguage, languageFromPath, napiLanguage, ruleLanguagesFor } from '../src/engine/core/languages.ts'
import type { CodeLanguage } from '../src/engine/core/languages.ts'
import { SourceFile } from '../src/engine/core/source-file.ts'
import type { RuleDocument } from '../src/engine/core/types.ts'
import { loadBuiltinRules, napiConfigOf } from '../src/engine/rules/loader.ts'
import { SastAnalyzer } from '../src/engine/sast/analyzer.ts'
import { generateCorpus } from './lib/corpus-generator.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'

const { values } = parseArgs({
  options: {
    lines: { type: 'string', default: '300000' },
    runs: { type: 'string', default: '3' },
    'no-write': { type: 'boolean', default: false },
    phase: { type: 'string' },
    dir: { type: 'string' },
    rules: { type: 'string' },
  },
})

/** The scanner's version follows @ast-grep/napi's minor version (same matcher). */
const NAPI_VERSION = (JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('@ast-grep/napi/package.json')), 'utf8')) as { version: string }).version
const SCANNER_PREFIX = '/tmp/parapet-astgrep-cli'
/** The scanner's native binary, once ensureScanner() found or installed it. */
let scannerPath = ''
const LOAD_AT_START = loadavg()[0] ?? 0

/** The scanner's names of the engine's code languages. */
const SCANNER_LANGUAGE: Record<CodeLanguage, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  tsx: 'Tsx',
  python: 'Python',
  java: 'Java',
  go: 'Go',
  kotlin: 'Kotlin',
  swift: 'Swift',
  c: 'C',
  cpp: 'Cpp',
  csharp: 'CSharp',
  rust: 'Rust',
  ruby: 'Ruby',
  php: 'Php',
  scala: 'Scala',
  bash: 'Bash',
}

/** The extension the generated corpus gives each language's files. */
const EXTENSION_OF: Record<CodeLanguage, string> = {
  javascript: '.js',
  typescript: '.ts',
  tsx: '.tsx',
  python: '.py',
  java: '.java',
  go: '.go',
  kotlin: '.kt',
  swift: '.swift',
  c: '.c',
  cpp: '.cpp',
  csharp: '.cs',
  rust: '.rs',
  ruby: '.rb',
  php: '.php',
  scala: '.scala',
  bash: '.sh',
}

/** Rule ids kept per file language (the scanner accepted them), as the phases read them. */
type RulePlan = Partial<Record<CodeLanguage, string[]>>

/** Per language: CPU milliseconds and the matches found (rule@language|file|line:column). */
type PhaseOutput = Partial<Record<CodeLanguage, { cpuMs: number; matches: string[] }>>

function filesByLanguage(dir: string): Map<CodeLanguage, string[]> {
  const byLanguage = new Map<CodeLanguage, string[]>()
  const visit = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(folder, entry.name)
      if (entry.isDirectory()) visit(path)
      else {
        const language = languageFromPath(path)
        if (language && isCodeLanguage(language)) byLanguage.set(language, [...(byLanguage.get(language) ?? []), path])
      }
    }
  }
  visit(dir)
  return byLanguage
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

type Phase = 'parapet' | 'parse' | 'calls'

/** Per language: the pattern analyzer's napi matching calls, their time, and the part of it a call costs with no tree to walk. */
type CallsOutput = Partial<Record<CodeLanguage, { calls: number; withoutMatch: number; callMs: number; fixedMs: number; fixedWithoutRegexesMs: number }>>

/** Runs in a child process: the engine's pattern analyzer (or parsing alone) over each language's files. */
async function runPhase(phase: Phase, dir: string, planPath: string): Promise<PhaseOutput | CallsOutput> {
  ensureLanguagesRegistered()
  const plan = JSON.parse(readFileSync(planPath, 'utf8')) as RulePlan
  const all = await loadBuiltinRules()
  const output: PhaseOutput = {}
  const calls: CallsOutput = {}
  for (const [language, paths] of filesByLanguage(dir)) {
    const kept = new Set(plan[language] ?? [])
    if (kept.size === 0) continue
    const analyzer = new SastAnalyzer(all.filter((rule) => kept.has(rule.id)))
    const matches: string[] = []
    const timer = phase === 'calls' ? timeFindAll() : null
    const started = process.cpuUsage()
    for (const path of paths) {
      const text = readFileSync(path, 'utf8')
      if (phase === 'parse') {
        parse(napiLanguage(language), text).root()
        continue
      }
      const file = new SourceFile(relative(dir, path), language, text, null)
      for (const finding of analyzer.analyze(file)) matches.push(`${finding.ruleId}@${language}|${finding.filePath}|${finding.lineNumber}:${finding.columnStart}`)
    }
    output[language] = { cpuMs: cpuMs(started), matches }
    if (timer) calls[language] = timer.stop(language)
  }
  return phase === 'calls' ? calls : output
}

/**
 * Times every SgNode.findAll call until stop(), by rule config; stop() then times each config
 * once more on a one-token tree (the median of a few calls) and counts that cost per call made,
 * and the same with every regex of the config replaced by a one-letter one: what is left when
 * ast-grep has no regex to compile.
 */
function timeFindAll(): { stop(language: CodeLanguage): NonNullable<CallsOutput[CodeLanguage]> } {
  const prototype = Object.getPrototypeOf(parse(napiLanguage('javascript'), '').root()) as SgNode
  const original = prototype.findAll
  const byConfig = new Map<NapiConfig, number>()
  let calls = 0
  let withoutMatch = 0
  let callMs = 0
  prototype.findAll = function (this: SgNode, matcher: string | number | NapiConfig) {
    const started = performance.now()
    const found = original.call(this, matcher as NapiConfig)
    callMs += performance.now() - started
    calls++
    if (found.length === 0) withoutMatch++
    if (typeof matcher === 'object') byConfig.set(matcher, (byConfig.get(matcher) ?? 0) + 1)
    return found
  } as SgNode['findAll']
  return {
    stop(language) {
      prototype.findAll = original
      const tiny = parse(napiLanguage(language), ' ').root()
      const fixedCost = (config: NapiConfig) =>
        median(
          [0, 1, 2, 3, 4].map(() => {
            const started = performance.now()
            tiny.findAll(config)
            return performance.now() - started
          }),
        )
      let fixedMs = 0
      let fixedWithoutRegexesMs = 0
      for (const [config, count] of byConfig) {
        fixedMs += fixedCost(config) * count
        fixedWithoutRegexesMs += fixedCost(withTrivialRegexes(config)) * count
      }
      return { calls, withoutMatch, callMs, fixedMs, fixedWithoutRegexesMs }
    },
  }
}

/** A copy of a rule config with every `regex` one that costs nothing to compile. */
function withTrivialRegexes<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => withTrivialRegexes(item)) as T
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, key === 'regex' && typeof child === 'string' ? 'a' : withTrivialRegexes(child)])) as T
}

function phaseInChild<T = PhaseOutput>(phase: Phase, dir: string, planPath: string): T {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--phase', phase, '--dir', dir, '--rules', planPath], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  if (child.status !== 0) throw new Error(`phase ${phase} failed: ${child.stderr}`)
  return JSON.parse(child.stdout.trim().split('\n').pop() ?? '') as T
}

/** The native binary of the platform package: the package's own `bin` is a Node shim until its install script runs. */
function scannerBinary(): string | null {
  const scope = join(SCANNER_PREFIX, 'node_modules/@ast-grep')
  if (!existsSync(scope)) return null
  const platform = readdirSync(scope).find((name) => name.startsWith('cli-') && existsSync(join(scope, name, 'ast-grep')))
  return platform ? join(scope, platform, 'ast-grep') : null
}

function ensureScanner(): string {
  const installed = scannerBinary()
  if (installed) return installed
  const version = NAPI_VERSION.split('.').slice(0, 2).join('.')
  console.error(`installing @ast-grep/cli@~${version} into ${SCANNER_PREFIX}`)
  const install = spawnSync('npm', ['install', '--prefix', SCANNER_PREFIX, '--no-audit', '--no-fund', '--ignore-scripts', `@ast-grep/cli@~${version}`], { stdio: 'inherit' })
  const binary = scannerBinary()
  if (install.status !== 0 || !binary) throw new Error('could not install @ast-grep/cli')
  return binary
}

function scannerVersion(): string {
  return spawnSync(scannerPath, ['--version'], { encoding: 'utf8' }).stdout.trim()
}

/**
 * One scanner rule per (built-in rule, file language), in a configuration per language (the scanner
 * compiles every rule of its configuration at start); those the scanner refuses are left out.
 */
function writeScannerRules(rulesDir: string, languages: readonly CodeLanguage[], builtin: readonly RuleDocument[], scratch: string): { plan: RulePlan; refused: number } {
  const plan: RulePlan = {}
  let refused = 0
  for (const language of languages) {
    const folder = join(rulesDir, language)
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'sgconfig.yml'), 'ruleDirs:\n  - rules\n')
    mkdirSync(join(folder, 'rules'))
    const empty = join(scratch, `empty${EXTENSION_OF[language]}`)
    writeFileSync(empty, '\n')
    for (const doc of builtin) {
      if (doc.semgrep || !(ruleLanguagesFor(language) as readonly string[]).includes(doc.language)) continue
      const config = napiConfigOf(doc)
      const path = join(folder, 'rules', `${doc.id}@${language}.yml`)
      writeFileSync(
        path,
        stringify({
          id: `${doc.id}@${language}`,
          language: SCANNER_LANGUAGE[language],
          severity: 'warning',
          message: doc.id,
          rule: config.rule,
          ...(config.constraints ? { constraints: config.constraints } : {}),
          ...(config.utils ? { utils: config.utils } : {}),
        }),
      )
      if (spawnSync(scannerPath, ['scan', '-r', path, empty], { stdio: 'ignore' }).status !== 0) {
        rmSync(path)
        refused++
        continue
      }
      ;(plan[language] ??= []).push(doc.id)
    }
  }
  return { plan, refused }
}


/** The scanner over one language's files (staged in their own folder), one thread. */
function runScanner(rulesDir: string, folder: string, language: CodeLanguage, timeFile: string): { cpuMs: number; matches: string[] } {
  const run = spawnSync('/usr/bin/time', ['-f', '%U %S', '-o', timeFile, scannerPath, 'scan', '-c', join(rulesDir, language, 'sgconfig.yml'), '--json=stream', '-j', '1', folder], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  if (run.status !== 0 && run.stdout.trim() === '') throw new Error(`ast-grep scan failed on ${language}: ${run.stderr}`)
  const [user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number)
  const matches = run.stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { ruleId: string; file: string; range: { start: { line: number; column: number } } })
    .map((match) => `${match.ruleId}|${relative(folder, match.file)}|${match.range.start.line + 1}:${match.range.start.column + 1}`)
  return { cpuMs: ((user ?? 0) + (sys ?? 0)) * 1000, matches }
}

/** Where the engine's time in ast-grep goes: the share of its napi calls' time that is the call itself, paid with nothing to walk. */
function callsParagraph(languages: readonly CodeLanguage[], calls: CallsOutput): string {
  const share = (costs: { callMs: number; fixedMs: number }) => `${((100 * costs.fixedMs) / Math.max(costs.callMs, 1e-9)).toFixed(0)}%`
  const measured = languages.flatMap((language) => {
    const costs = calls[language]
    return costs && costs.calls > 0 ? [{ language, ...costs }] : []
  })
  const total = measured.reduce(
    (sum, costs) => ({ calls: sum.calls + costs.calls, withoutMatch: sum.withoutMatch + costs.withoutMatch, callMs: sum.callMs + costs.callMs, fixedMs: sum.fixedMs + costs.fixedMs, fixedWithoutRegexesMs: sum.fixedWithoutRegexesMs + costs.fixedWithoutRegexesMs }),
    { calls: 0, withoutMatch: 0, callMs: 0, fixedMs: 0, fixedWithoutRegexesMs: 0 },
  )
  return [
    `Where the engine's time in ast-grep goes (one more run, every napi matching call timed): ${formatNumber(total.calls)} calls, ${formatNumber(total.withoutMatch)} of them finding nothing, took ${formatNumber(total.callMs)} ms;`,
    `the same rule configs called on a one-token tree, where there is nothing to walk (converting and compiling the rule, which napi does on every call and keeps nothing of), account for ${formatNumber(total.fixedMs)} ms of it (${share(total)}),`,
    `and ${formatNumber(total.fixedMs - total.fixedWithoutRegexesMs)} ms of those (${((100 * (total.fixedMs - total.fixedWithoutRegexesMs)) / Math.max(total.callMs, 1e-9)).toFixed(0)}% of the calls' time) is compiling the rules' regexes (the same configs with one-letter regexes take the rest).`,
    `By language: ${measured.map((costs) => `${costs.language} ${share(costs)}`).join(', ')}.`,
  ].join(' ')
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? 0
const formatNumber = (value: number) => Math.round(value).toLocaleString('en-US')

async function main(): Promise<void> {
  if (values.phase) {
    console.log(JSON.stringify(await runPhase(values.phase as Phase, values.dir ?? '', values.rules ?? '')))
    return
  }
  scannerPath = ensureScanner()
  ensureLanguagesRegistered()
  const runs = Number(values.runs)
  const work = mkdtempSync(join(tmpdir(), 'parapet-matcher-'))
  try {
    const corpusDir = join(work, 'corpus')
    const corpus = generateCorpus(corpusDir, Number(values.lines))
    const byLanguage = filesByLanguage(corpusDir)
    const languages = CODE_LANGUAGES.filter((language) => byLanguage.has(language))
    // the scanner reads a folder: each language's files in a folder of their own, under the same relative paths
    const staged = new Map<CodeLanguage, string>()
    for (const language of languages) {
      const folder = join(work, 'by-language', language)
      for (const path of byLanguage.get(language) ?? []) {
        const target = join(folder, relative(corpusDir, path))
        mkdirSync(join(target, '..'), { recursive: true })
        writeFileSync(target, readFileSync(path))
      }
      staged.set(language, folder)
    }
    const rulesDir = join(work, 'rules')
    const { plan, refused } = writeScannerRules(rulesDir, languages, await loadBuiltinRules(), work)
    const planPath = join(work, 'plan.json')
    writeFileSync(planPath, JSON.stringify(plan))

    const scanner: Array<Partial<Record<CodeLanguage, { cpuMs: number; matches: string[] }>>> = []
    const parapet: PhaseOutput[] = []
    const parseOnly: PhaseOutput[] = []
    for (let run = 0; run < runs; run++) {
      const round = () => {
        const result: Partial<Record<CodeLanguage, { cpuMs: number; matches: string[] }>> = {}
        for (const language of languages) {
          const folder = staged.get(language) as string
          result[language] = runScanner(rulesDir, folder, language, join(work, 'time.txt'))
        }
        scanner.push(result)
      }
      // alternate which side goes first: the machine is shared
      if (run % 2 === 0) {
        round()
        parapet.push(phaseInChild('parapet', corpusDir, planPath))
      } else {
        parapet.push(phaseInChild('parapet', corpusDir, planPath))
        round()
      }
      parseOnly.push(phaseInChild('parse', corpusDir, planPath))
      console.error(`run ${run + 1}/${runs} done`)
    }
    const calls = phaseInChild<CallsOutput>('calls', corpusDir, planPath)

    const rows: string[] = []
    let totals = { parse: 0, scanner: 0, parapet: 0, rules: 0, files: 0, lines: 0, differences: 0 }
    for (const language of languages) {
      const ruleCount = plan[language]?.length ?? 0
      if (ruleCount === 0) continue
      const parseMs = median(parseOnly.map((output) => output[language]?.cpuMs ?? 0))
      const scannerMs = median(scanner.map((output) => output[language]?.cpuMs ?? 0))
      const parapetMs = median(parapet.map((output) => output[language]?.cpuMs ?? 0))
      const ours = new Set(parapet[0]?.[language]?.matches ?? [])
      const theirs = new Set(scanner[0]?.[language]?.matches ?? [])
      const differences = [...ours].filter((match) => !theirs.has(match)).length + [...theirs].filter((match) => !ours.has(match)).length
      const files = byLanguage.get(language)?.length ?? 0
      const lines = corpus.byExtension[EXTENSION_OF[language].slice(1)] ?? 0
      totals = {
        parse: totals.parse + parseMs,
        scanner: totals.scanner + scannerMs,
        parapet: totals.parapet + parapetMs,
        rules: totals.rules + ruleCount,
        files: totals.files + files,
        lines: totals.lines + lines,
        differences: totals.differences + differences,
      }
      rows.push(
        `| ${language} | ${formatNumber(files)} | ${formatNumber(lines)} | ${ruleCount} | ${formatNumber(ours.size)} | ${differences} | ${formatNumber(parseMs)} | ${formatNumber(scannerMs)} | ${formatNumber(parapetMs)} | ${(scannerMs / parseMs).toFixed(2)}x | ${(parapetMs / parseMs).toFixed(2)}x | ${(parapetMs / scannerMs).toFixed(2)}x |`,
      )
    }
    const body = [
      `Measured with \`npm run bench:matcher\` on ${new Date().toISOString().slice(0, 10)}: Node ${process.version}, ${scannerVersion()} (the command-line scanner) beside @ast-grep/napi ${NAPI_VERSION} (the engine's), one thread each, ${runs} runs alternating which went first, medians of CPU time (1-minute load average ${LOAD_AT_START.toFixed(1)} at the start, ${(loadavg()[0] ?? 0).toFixed(1)} at the end).`,
      '',
      `Corpus: the generated corpus of bench/lib/corpus-generator.ts at ${formatNumber(corpus.lines)} lines. Rules: each built-in pattern rule that runs on the file language (JavaScript rules on TypeScript and TSX too), the same rule text on both sides; ${refused} (rule, language) pairs the scanner refuses (no node kind to start from) are left out of both. Parse-only: reading and one napi parse per file. Parapet: the pattern analyzer (word and node-kind preconditions, one parse per file shared by its rules, one napi call per rule run); ast-grep CLI: \`ast-grep scan -j 1\` with every rule of the language in one combined walk per file, each rule compiled once. Differences: matches (rule, file, line, column) one side reports and the other does not.`,
      '',
      '| Language | Files | Lines | Rules | Matches | Differences | Parse-only CPU ms | ast-grep CLI CPU ms | Parapet CPU ms | CLI / parse | Parapet / parse | Parapet / CLI |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      `| total | ${formatNumber(totals.files)} | ${formatNumber(totals.lines)} | ${totals.rules} | | ${totals.differences} | ${formatNumber(totals.parse)} | ${formatNumber(totals.scanner)} | ${formatNumber(totals.parapet)} | ${(totals.scanner / totals.parse).toFixed(2)}x | ${(totals.parapet / totals.parse).toFixed(2)}x | ${(totals.parapet / totals.scanner).toFixed(2)}x |`,
      '',
      callsParagraph(languages, calls),
    ].join('\n')
    console.log(body)
    if (!values['no-write']) writeMarkdownSection(fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url)), 'Pattern matcher', body)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
