/**
 * Parapet against the tools users would pick instead (`npm run bench:peers`): Parapet's default
 * CLI analysis (`parapet scan <dir>`, the full analysis) against Bandit on Python and against
 * ESLint with eslint-plugin-security on JavaScript/TypeScript, on the same files, one tool at a
 * time (never concurrently). Reports wall time, CPU time (user+sys of the tool and the processes
 * it waited for, from GNU time), peak memory (largest single process's max RSS), lines/s, the
 * Parapet/peer ratios and the findings each tool reports, and the time from the CLI's start to
 * the start of file analysis. Writes docs/benchmarks.md under `## Peers`.
 *
 * Code measured (each staged as a copy of its .py or JS/TS files, so every tool reads the same
 * files; folders Parapet treats as vendored are left out of the copy):
 * - Debian's python3-django (/usr/lib/python3/dist-packages/django);
 * - express and koa with their dependencies, from npm into a temporary prefix;
 * - the generated corpus of bench/engine.bench.ts (bench/lib/corpus-generator.ts), split into
 *   its Python files and its JS/TS files.
 * Missing tools and packages are installed with apt-get (as root) and npm; where apt-get is
 * unavailable the comparisons that need it are skipped with a message.
 *
 * Each pair is run --runs times (default 3), alternating which tool goes first, and the run with
 * the median wall time is reported: the machine is shared, single runs vary by a third.
 *
 * Options: --no-write (print only), --lines <n> (generated corpus size, default 150000),
 * --runs <n>.
 */
import { spawn, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { dirname, extname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DEFAULT_IGNORED_DIRS } from '../src/engine/scan/file-selection.ts'
import { buildProject } from './lib/built-engine.ts'
import { generateCorpus } from './lib/corpus-generator.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'

/** How busy the shared machine was when the run started (the report gives it with the end's). */
const LOAD_AT_START = loadavg()[0] ?? 0

const { values } = parseArgs({
  options: {
    'no-write': { type: 'boolean', default: false },
    lines: { type: 'string', default: '150000' },
    runs: { type: 'string', default: '3' },
  },
})
const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const work = mkdtempSync(join(tmpdir(), 'parapet-peers-'))
const DJANGO_DIR = '/usr/lib/python3/dist-packages/django'
const NPM_PREFIX = join(tmpdir(), 'parapet-peers-npm')
const NPM_FETCH = `npm install --prefix ${NPM_PREFIX} --no-audit --no-fund --ignore-scripts express koa`
const PY_EXTENSIONS = new Set(['.py'])
const JS_EXTENSIONS = new Set(['.js', '.cjs', '.mjs', '.jsx', '.ts', '.tsx', '.mts', '.cts'])
const ESLINT_CONFIG = join(projectRoot, 'bench', 'peers.eslint.config.js')

type Tool = 'parapet' | 'bandit' | 'eslint'

interface Target {
  name: string
  language: 'Python' | 'JS/TS'
  dir: string
  files: number
  lines: number
}

interface Run {
  tool: Tool
  wallMs: number
  cpuMs: number
  maxRssKb: number
  findings: number
  /** files the tool could not read or parse */
  errors: number
  /** Parapet only: from the start of the process to its "analyzing N files" log line */
  firstFileMs?: number
  /** Parapet only: from the start of the process to its first log line (the modules are loaded) */
  firstLogMs?: number
}

function commandExists(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0
}

/** apt-get install, with an `apt-get update` and a second try when the first fails. */
function aptInstall(pkg: string): boolean {
  if (!commandExists('apt-get') || process.getuid?.() !== 0) {
    console.error(`apt-get is not available here (or not as root): cannot install ${pkg}`)
    return false
  }
  console.error(`installing ${pkg} with apt-get`)
  const install = () => spawnSync('apt-get', ['install', '-y', '-q', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0
  if (install()) return true
  spawnSync('apt-get', ['update', '-q'], { stdio: 'inherit' })
  return install()
}

/** Copies the files with the given extensions, outside vendored folders, into `to`; counts their lines. */
function stage(from: string, to: string, extensions: Set<string>): { files: number; lines: number } {
  const ignored = new Set(DEFAULT_IGNORED_DIRS)
  let files = 0
  let lines = 0
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (!ignored.has(entry.name)) visit(path)
      } else if (entry.isFile() && extensions.has(extname(entry.name))) {
        const target = join(to, relative(from, path))
        mkdirSync(dirname(target), { recursive: true })
        copyFileSync(path, target)
        const text = readFileSync(path, 'utf8')
        files++
        lines += text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
      }
    }
  }
  visit(from)
  return { files, lines }
}

/**
 * Runs a command under GNU time and reports its wall time, CPU time and peak RSS. `onStderrLine`
 * sees stderr lines as they arrive, with the milliseconds since the spawn.
 */
async function timed(command: string, args: string[], cwd: string, onStderrLine?: (line: string, ms: number) => void): Promise<{ wallMs: number; cpuMs: number; maxRssKb: number; status: number }> {
  const timeFile = join(work, 'time.txt')
  const started = performance.now()
  const child = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', timeFile, command, ...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
  let pending = ''
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', (chunk: string) => {
    const ms = performance.now() - started
    pending += chunk
    const lines = pending.split('\n')
    pending = lines.pop() ?? ''
    for (const line of lines) onStderrLine?.(line, ms)
  })
  const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)))
  const wallMs = performance.now() - started
  const [user, sys, rss] = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1)!.split(' ').map(Number)
  return { wallMs, cpuMs: ((user ?? 0) + (sys ?? 0)) * 1000, maxRssKb: rss ?? 0, status }
}

async function runParapet(dir: string): Promise<Run> {
  const output = join(work, 'parapet.json')
  let firstFileMs: number | undefined
  let firstLogMs: number | undefined
  const result = await timed(process.execPath, [join(projectRoot, 'bin', 'parapet.js'), 'scan', dir, '--verbose', '--output', output], projectRoot, (line, ms) => {
    if (firstLogMs === undefined && line.startsWith('[')) firstLogMs = ms
    if (firstFileMs === undefined && /^\[info\] analyzing \d+ files/.test(line)) firstFileMs = ms
  })
  if (result.status !== 0) throw new Error(`parapet scan ${dir} exited with ${result.status}`)
  const report = JSON.parse(readFileSync(output, 'utf8')) as { findings: unknown[]; stats: { skipped?: Record<string, number> } }
  const skipped = report.stats.skipped ?? {}
  const errors = (skipped['unreadable'] ?? 0) + (skipped['crashed'] ?? 0) + (skipped['timeout'] ?? 0)
  return { tool: 'parapet', ...result, findings: report.findings.length, errors, firstFileMs, firstLogMs }
}

async function runBandit(dir: string): Promise<Run> {
  const output = join(work, 'bandit.json')
  // -q: no progress output; exit status 1 means "issues found"
  const result = await timed('bandit', ['-r', '.', '-f', 'json', '-o', output, '-q'], dir)
  if (result.status > 1) throw new Error(`bandit on ${dir} exited with ${result.status}`)
  const report = JSON.parse(readFileSync(output, 'utf8')) as { results: unknown[]; errors: unknown[] }
  return { tool: 'bandit', ...result, findings: report.results.length, errors: report.errors.length }
}

async function runEslint(dir: string): Promise<Run> {
  const output = join(work, 'eslint.json')
  const eslint = join(projectRoot, 'node_modules', 'eslint', 'bin', 'eslint.js')
  const result = await timed(process.execPath, [eslint, '-c', ESLINT_CONFIG, '-f', 'json', '-o', output, '--no-warn-ignored', '--no-inline-config', '.'], dir)
  if (result.status > 1) throw new Error(`eslint on ${dir} exited with ${result.status}`)
  const files = JSON.parse(readFileSync(output, 'utf8')) as { messages: { ruleId: string | null; fatal?: boolean }[] }[]
  const messages = files.flatMap((file) => file.messages)
  return { tool: 'eslint', ...result, findings: messages.filter((message) => message.ruleId?.startsWith('security/')).length, errors: messages.filter((message) => message.fatal).length }
}

function toolVersion(command: string, args: string[]): string {
  const result = spawnSync(command, args, { encoding: 'utf8' })
  return `${result.stdout}${result.stderr}`.split('\n')[0]?.trim() ?? '?'
}

/** The run with the median wall time (the upper one of an even count). */
function median(all: Run[]): Run {
  const sorted = [...all].sort((a, b) => a.wallMs - b.wallMs)
  return sorted[Math.floor(sorted.length / 2)] as Run
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(2)
}

function ratio(a: number, b: number): string {
  return b === 0 ? 'n/a' : `${(a / b).toFixed(2)}x`
}

async function main(): Promise<void> {
  const runs = Math.max(1, Number(values.runs))
  const skippedNotes: string[] = []
  const hasBandit = commandExists('bandit') || (aptInstall('python3-bandit') && commandExists('bandit'))
  if (!hasBandit) skippedNotes.push('Bandit is not installed and apt-get could not install `python3-bandit`: the Python comparisons are skipped.')
  if (!existsSync(DJANGO_DIR) && hasBandit) aptInstall('python3-django')
  if (!existsSync(join(NPM_PREFIX, 'node_modules', 'express'))) {
    console.error(`fetching express and koa: ${NPM_FETCH}`)
    const npm = spawnSync('npm', ['install', '--prefix', NPM_PREFIX, '--no-audit', '--no-fund', '--ignore-scripts', 'express', 'koa'], { stdio: 'inherit' })
    if (npm.status !== 0) skippedNotes.push(`\`${NPM_FETCH}\` failed: the npm packages are skipped.`)
  }

  const targets: Target[] = []
  const addTarget = (name: string, language: Target['language'], from: string, extensions: Set<string>) => {
    const dir = join(work, 'code', name.replace(/\W+/g, '-'))
    targets.push({ name, language, dir, ...stage(from, dir, extensions) })
  }
  if (hasBandit && existsSync(DJANGO_DIR)) addTarget('django (Debian python3-django)', 'Python', DJANGO_DIR, PY_EXTENSIONS)
  else if (hasBandit) skippedNotes.push(`${DJANGO_DIR} is missing (\`apt-get install python3-django\`): django is skipped.`)
  if (existsSync(join(NPM_PREFIX, 'node_modules', 'express'))) addTarget('express + koa with dependencies (npm)', 'JS/TS', join(NPM_PREFIX, 'node_modules'), JS_EXTENSIONS)
  const generated = join(work, 'generated')
  const corpus = generateCorpus(generated, Number(values.lines))
  if (hasBandit) addTarget('generated corpus, Python files', 'Python', generated, PY_EXTENSIONS)
  addTarget('generated corpus, JS/TS files', 'JS/TS', generated, JS_EXTENSIONS)

  // bin/parapet.js runs dist/ only when it is current: build it, or the figures would be the sources' through tsx
  buildProject()

  // CLI start to first file: from the spawn to the "analyzing N files" log line, on an empty folder
  // (the fixed start-up cost alone) as well as on each target below.
  const empty = join(work, 'empty')
  mkdirSync(empty)
  const emptyRuns: Run[] = []
  for (let round = 0; round < runs; round++) emptyRuns.push(await runParapet(empty))
  const emptyRun = median(emptyRuns)
  console.error(`empty folder: parapet ${seconds(emptyRun.wallMs)} s, first file at ${emptyRun.firstFileMs?.toFixed(0)} ms`)

  const rows: { target: Target; parapet: Run; peer: Run }[] = []
  for (const target of targets) {
    const runPeer = () => (target.language === 'Python' ? runBandit(target.dir) : runEslint(target.dir))
    const parapetRuns: Run[] = []
    const peerRuns: Run[] = []
    for (let round = 0; round < runs; round++) {
      if (round % 2 === 0) {
        parapetRuns.push(await runParapet(target.dir))
        peerRuns.push(await runPeer())
      } else {
        peerRuns.push(await runPeer())
        parapetRuns.push(await runParapet(target.dir))
      }
    }
    const parapet = median(parapetRuns)
    const peer = median(peerRuns)
    rows.push({ target, parapet, peer })
    console.error(`${target.name}: ${target.files} files, ${target.lines} lines; parapet ${seconds(parapet.wallMs)} s (${parapet.findings} findings), ${peer.tool} ${seconds(peer.wallMs)} s (${peer.findings} findings)`)
  }

  const bandit = hasBandit ? toolVersion('bandit', ['--version']) : 'not installed'
  const eslint = toolVersion(process.execPath, [join(projectRoot, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--version'])
  const pluginVersion = (JSON.parse(readFileSync(join(projectRoot, 'node_modules', 'eslint-plugin-security', 'package.json'), 'utf8')) as { version: string }).version
  const nameOf = (run: Run) => (run.tool === 'parapet' ? 'Parapet' : run.tool === 'bandit' ? 'Bandit' : 'ESLint + security')
  const perf = (run: Run, target: Target) =>
    `| ${target.name} | ${nameOf(run)} | ${seconds(run.wallMs)} | ${seconds(run.cpuMs)} | ${Math.round(run.maxRssKb / 1024)} | ${Math.round(target.lines / (run.wallMs / 1000)).toLocaleString('en-US')} | ${run.findings} | ${run.errors} |`

  const body = [
    `Measured with \`npm run bench:peers\` on ${new Date().toISOString().slice(0, 10)}, on this machine (${(await import('node:os')).cpus().length} cores, shared, Node ${process.version}; 1-minute load average ${LOAD_AT_START.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end, a load above the core count slowing every tool): Parapet's default CLI analysis (\`parapet scan <dir>\`: sast, secrets, dataflow, default worker count, run as \`node bin/parapet.js\`) against ${bandit.replace(/^bandit/, 'Bandit')} (\`bandit -r . -f json\`) on Python and ESLint ${eslint.replace(/^v/, '')} with eslint-plugin-security ${pluginVersion} (its recommended rules, \`bench/peers.eslint.config.js\`, TypeScript through @typescript-eslint/parser) on JavaScript/TypeScript. Each tool reads the same copy of the code's \`.py\` or JS/TS files (folders Parapet treats as vendored left out), one tool at a time; each pair ran ${runs} times, alternating which tool went first, and the table shows each tool's run with the median wall time (the machine is shared: single runs vary by a third). Wall time from spawn to exit; CPU is user+sys of the tool and the processes it waited for (GNU time); peak RSS is the largest single process's (Parapet's worker processes are not summed); lines/s divides the staged files' lines by the wall time. Findings are what each tool reports with its default settings (Bandit: all severities and confidences; ESLint: the plugin's warnings); they are different rule sets and are given for context, not as a detection comparison. Errors: files the tool could not read, parse or finish. Parapet runs with \`--verbose\`, which is how the start of file analysis is seen.`,
    '',
    `Code: Debian's python3-django from \`${DJANGO_DIR}\`; express and koa with their dependencies (\`${NPM_FETCH}\`); the generated corpus of bench/lib/corpus-generator.ts at ${corpus.lines.toLocaleString('en-US')} lines over ${corpus.files} files in 16 languages, of which the Python and the JS/TS files are measured.`,
    '',
    '| Code | Tool | Wall s | CPU s | Peak RSS MiB | Lines/s | Findings | Errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.flatMap(({ target, parapet, peer }) => [perf(parapet, target), perf(peer, target)]),
    '',
    '### Parapet / peer',
    '',
    '| Code | Language | Files | Lines | Peer | Wall | CPU | Peak RSS | Parapet within the issue target (wall <= peer) |',
    '| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | --- |',
    ...rows.map(({ target, parapet, peer }) => `| ${target.name} | ${target.language} | ${target.files.toLocaleString('en-US')} | ${target.lines.toLocaleString('en-US')} | ${nameOf(peer)} | ${ratio(parapet.wallMs, peer.wallMs)} | ${ratio(parapet.cpuMs, peer.cpuMs)} | ${ratio(parapet.maxRssKb, peer.maxRssKb)} | ${parapet.wallMs <= peer.wallMs ? 'yes' : 'no'} |`),
    '',
    '### CLI start to first file',
    '',
    `From spawning \`node bin/parapet.js scan\` to its \`[info] analyzing N files\` log line (files collected, rules loaded, worker processes started but not awaited: files wait in the pool for them; the issue's target is under 300 ms): empty folder ${emptyRun.firstFileMs?.toFixed(0) ?? 'n/a'} ms (whole run ${emptyRun.wallMs.toFixed(0)} ms)${rows.map(({ target, parapet }) => `; ${target.name} ${parapet.firstFileMs?.toFixed(0) ?? 'n/a'} ms`).join('')}.`,
    '',
    `Of the empty folder's ${emptyRun.firstFileMs?.toFixed(0) ?? 'n/a'} ms, ${emptyRun.firstLogMs?.toFixed(0) ?? 'n/a'} ms pass before the CLI's first log line (\`collecting files\`): starting Node, checking that dist/ was built from the current sources and loading the scan command's bundle (dist/bundle, \`npm run build\`); the rest is collecting files, reading the built-in rules from the build's cache and starting the worker processes. The log lines arrive through a pipe and are timed on arrival, so each figure is an upper bound by the pipe's delay.`,
  ]
  if (skippedNotes.length) body.push('', '### Skipped', '', ...skippedNotes.map((note) => `- ${note}`))

  const markdown = body.join('\n')
  console.log(`## Peers\n\n${markdown}`)
  if (!values['no-write']) {
    writeMarkdownSection(join(projectRoot, 'docs', 'benchmarks.md'), 'Peers', markdown)
    console.log('\nwritten to docs/benchmarks.md (## Peers)')
  }
  rmSync(work, { recursive: true, force: true })
}

await main()
