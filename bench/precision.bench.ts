/**
 * Precision on real code (`npm run bench:precision`): the full analysis (sast, secrets,
 * dataflow) on the published source of widely used, well-reviewed packages, where nearly every
 * finding is a false alarm. Reports findings per 100,000 lines per package and per category,
 * and the rules that fire most, and writes them as the "Precision on real code" section of
 * docs/quality.md. The hand review of a sample lives in its own section, written by hand.
 *
 * Packages (reproducing the numbers):
 * - npm: express, koa, lodash, read from --npm-dir or PRECISION_NPM_DIR (default
 *   /tmp/precision-packages/node_modules), fetched outside the repository with
 *   `npm install --prefix /tmp/precision-packages --no-audit --no-fund --ignore-scripts express koa lodash`;
 * - Python: Debian's python3-django, python3-flask and python3-requests, read from --python-dir
 *   or PRECISION_PYTHON_DIR (default /usr/lib/python3/dist-packages), installed as root with
 *   `apt-get install -y python3-django python3-flask python3-requests`.
 * A package that is not there is reported as missing, with the command that fetches it.
 *
 * Options: --no-write (print only), --json <file> (every finding), --sample <n> (print a
 * reproducible sample of n findings spread over packages and categories, for hand review).
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { scanDirectory } from '../src/engine/scan/scan.ts'
import { ANALYZERS } from '../src/engine/core/types.ts'
import type { Finding } from '../src/engine/core/types.ts'
import { createRng } from './lib/corpus-generator.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'

const { values } = parseArgs({
  options: {
    'no-write': { type: 'boolean', default: false },
    json: { type: 'string' },
    sample: { type: 'string' },
    'npm-dir': { type: 'string' },
    'python-dir': { type: 'string' },
  },
})
const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const SECTION = 'Precision on real code'
const npmDir = values['npm-dir'] ?? process.env['PRECISION_NPM_DIR'] ?? '/tmp/precision-packages/node_modules'
const pythonDir = values['python-dir'] ?? process.env['PRECISION_PYTHON_DIR'] ?? '/usr/lib/python3/dist-packages'
const NPM_FETCH = 'npm install --prefix /tmp/precision-packages --no-audit --no-fund --ignore-scripts express koa lodash'
const APT_FETCH = 'apt-get install -y python3-django python3-flask python3-requests'

interface Target {
  name: string
  ecosystem: 'npm' | 'python'
  dir: string
  /** how to get it when it is missing */
  fetch: string
}

const TARGETS: Target[] = [
  { name: 'express', ecosystem: 'npm', dir: join(npmDir, 'express'), fetch: NPM_FETCH },
  { name: 'koa', ecosystem: 'npm', dir: join(npmDir, 'koa'), fetch: NPM_FETCH },
  { name: 'lodash', ecosystem: 'npm', dir: join(npmDir, 'lodash'), fetch: NPM_FETCH },
  { name: 'django', ecosystem: 'python', dir: join(pythonDir, 'django'), fetch: APT_FETCH },
  { name: 'flask', ecosystem: 'python', dir: join(pythonDir, 'flask'), fetch: APT_FETCH },
  { name: 'requests', ecosystem: 'python', dir: join(pythonDir, 'requests'), fetch: APT_FETCH },
]

interface PackageResult {
  target: Target
  version: string
  files: number
  lines: number
  findings: Finding[]
}

function versionOf(target: Target): string {
  if (target.ecosystem === 'npm') {
    const manifest = JSON.parse(readFileSync(join(target.dir, 'package.json'), 'utf8')) as { version?: string }
    return manifest.version ?? '?'
  }
  // Debian keeps the distribution's metadata next to the package: Django-3.2.25.egg-info, flask-2.2.2.dist-info
  const metadata = readdirSync(join(target.dir, '..')).find((entry) => new RegExp(`^${target.name}-[\\d.]+[^-]*\\.(?:egg|dist)-info$`, 'i').test(entry))
  return metadata ? metadata.replace(/^[^-]+-/, '').replace(/\.(?:egg|dist)-info$/, '') : '?'
}

function per100k(count: number, lines: number): string {
  return lines === 0 ? 'n/a' : ((count / lines) * 100_000).toFixed(1)
}

function thousands(value: number): string {
  return value.toLocaleString('en-US')
}

/** n findings, round-robin over (package, category) groups, each group shuffled with a fixed seed. */
function drawSample(results: PackageResult[], n: number): { packageName: string; finding: Finding }[] {
  const random = createRng(20261122)
  const groups = new Map<string, { packageName: string; finding: Finding }[]>()
  for (const result of results) {
    for (const finding of result.findings) {
      const key = `${result.target.name}|${finding.category}`
      groups.set(key, [...(groups.get(key) ?? []), { packageName: result.target.name, finding }])
    }
  }
  const queues = [...groups.keys()].sort().map((key) => {
    const items = [...(groups.get(key) ?? [])]
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1))
      ;[items[i], items[j]] = [items[j] as (typeof items)[number], items[i] as (typeof items)[number]]
    }
    return items
  })
  const sample: { packageName: string; finding: Finding }[] = []
  while (sample.length < n && queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift()
      if (next && sample.length < n) sample.push(next)
    }
  }
  return sample
}

async function main(): Promise<void> {
  const results: PackageResult[] = []
  const missing: Target[] = []
  for (const target of TARGETS) {
    if (!existsSync(target.dir)) {
      missing.push(target)
      console.error(`${target.name}: not found in ${target.dir}; fetch it with: ${target.fetch}`)
      continue
    }
    const report = await scanDirectory(target.dir, { analyzers: [...ANALYZERS] })
    results.push({ target, version: versionOf(target), files: report.stats.filesScanned, lines: report.stats.linesScanned, findings: report.findings })
    console.error(`${target.name}: ${report.stats.filesScanned} files, ${report.stats.linesScanned} lines, ${report.findings.length} findings`)
  }

  const totalLines = results.reduce((sum, result) => sum + result.lines, 0)
  const totalFindings = results.reduce((sum, result) => sum + result.findings.length, 0)
  const categories = [...new Set(results.flatMap((result) => result.findings.map((finding) => finding.category)))].sort()
  const byRule = new Map<string, { count: number; packages: Set<string> }>()
  for (const result of results) {
    for (const finding of result.findings) {
      const entry = byRule.get(finding.ruleId) ?? { count: 0, packages: new Set<string>() }
      entry.count++
      entry.packages.add(result.target.name)
      byRule.set(finding.ruleId, entry)
    }
  }
  const topRules = [...byRule.entries()].sort(([a, x], [b, y]) => y.count - x.count || (a < b ? -1 : 1)).slice(0, 20)
  const countBy = (result: PackageResult, predicate: (finding: Finding) => boolean) => result.findings.filter(predicate).length

  const body = [
    `Measured with \`npm run bench:precision\` on ${new Date().toISOString().slice(0, 10)}: the full analysis (\`sast\`, \`secrets\`, \`dataflow\`, through \`scanDirectory\`) on the published source of widely used, well-reviewed packages: npm packages from \`${npmDir}\` (\`${NPM_FETCH}\`) and Debian's Python packages from \`${pythonDir}\` (\`${APT_FETCH}\`); \`--npm-dir\` / \`PRECISION_NPM_DIR\` and \`--python-dir\` / \`PRECISION_PYTHON_DIR\` read them elsewhere. These are libraries and frameworks, not applications: they hold the dangerous calls applications make safely or not (sending files, redirecting, merging objects), and nearly every finding on them is a false alarm. Lines are the lines of the files the scan analyzed.`,
    '',
    '### By package',
    '',
    '| Package | Version | Files | Lines | Findings | Per 100k lines | sast | secrets | dataflow |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...results.map(
      (result) =>
        `| ${result.target.name} | ${result.version} | ${thousands(result.files)} | ${thousands(result.lines)} | ${result.findings.length} | ${per100k(result.findings.length, result.lines)} | ${countBy(result, (finding) => finding.analyzer === 'sast')} | ${countBy(result, (finding) => finding.analyzer === 'secrets')} | ${countBy(result, (finding) => finding.analyzer === 'dataflow')} |`,
    ),
    `| **all** |  | ${thousands(results.reduce((sum, result) => sum + result.files, 0))} | ${thousands(totalLines)} | ${totalFindings} | ${per100k(totalFindings, totalLines)} |  |  |  |`,
    '',
    '### By category (findings, per 100k lines in parentheses)',
    '',
    `| Category | ${results.map((result) => result.target.name).join(' | ')} | all |`,
    `| --- | ${results.map(() => '---:').join(' | ')} | ---: |`,
    ...categories.map((category) => {
      const cells = results.map((result) => {
        const count = countBy(result, (finding) => finding.category === category)
        return count === 0 ? '0' : `${count} (${per100k(count, result.lines)})`
      })
      const all = results.reduce((sum, result) => sum + countBy(result, (finding) => finding.category === category), 0)
      return `| ${category} | ${cells.join(' | ')} | ${all} (${per100k(all, totalLines)}) |`
    }),
    '',
    '### Rules that fire most',
    '',
    '| Rule | Findings | Packages |',
    '| --- | ---: | --- |',
    ...topRules.map(([ruleId, entry]) => `| \`${ruleId}\` | ${entry.count} | ${[...entry.packages].sort().join(', ')} |`),
  ]
  if (missing.length) body.push('', '### Packages not found', '', ...missing.map((target) => `- ${target.name}: not in \`${target.dir}\`; fetch with \`${target.fetch}\``))

  const markdown = body.join('\n')
  console.log(`## ${SECTION}\n\n${markdown}`)
  const sampleSize = values.sample ? Number(values.sample) : 0
  if (sampleSize > 0) {
    console.log(`\n### Sample for hand review (${sampleSize})\n`)
    drawSample(results, sampleSize).forEach(({ packageName, finding }, index) => {
      console.log(`${index + 1}. ${packageName}/${finding.filePath}:${finding.lineNumber} ${finding.category} ${finding.ruleId}\n   ${finding.codeSnippet.split('\n').join('\n   ')}`)
    })
  }
  if (values.json) {
    const dump = results.map((result) => ({ package: result.target.name, version: result.version, lines: result.lines, findings: result.findings.map(({ filePath, lineNumber, category, ruleId, analyzer, codeSnippet }) => ({ filePath, lineNumber, category, ruleId, analyzer, codeSnippet })) }))
    writeFileSync(values.json, JSON.stringify(dump, null, 2))
    console.log(`findings written to ${values.json}`)
  }
  if (!values['no-write']) {
    writeMarkdownSection(join(projectRoot, 'docs', 'quality.md'), SECTION, markdown, '# Rule quality')
    console.log('written to docs/quality.md')
  }
}

await main()
