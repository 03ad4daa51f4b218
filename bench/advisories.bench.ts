/**
 * npm advisory corpus (`npm run bench:advisories`, not in CI: it needs the npm registry): older
 * published versions of npm packages with public advisories, each pinned (bench/advisories/
 * <class>.json) to the vulnerable line of the vulnerable version and the same code in the version
 * that fixed it. Every version is fetched with `npm pack` (no install scripts run) into a folder
 * outside the repository, scanned as a library (sast and dataflow through `scanDirectory`), and
 * scored per class:
 * - recall: vulnerable versions with a finding of the class's CWE within PIN_WINDOW lines of a
 *   pinned line;
 * - false alarms: fixed versions with such a finding at their pinned line (the fix should silence it),
 *   unless the pin records why that code is still vulnerable (`stillVulnerable`: a later advisory
 *   and a measured attack), which the table shows as confirmed.
 * Writes the "npm advisories" section of docs/quality.md.
 *
 * A pin whose line pattern matches no line of its file is reported and left out of the figures:
 * the pins were written by reading the installed code, and a pin that drifted from it says nothing.
 *
 * Options: --dir <folder> (where packages are fetched; default /tmp/parapet-advisories, kept
 * between runs), --library-sources <auto|always|never> (default always; an engine without
 * library mode ignores it), --no-write (print only), --json <file> (every pin's findings).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { scanDirectory } from '../src/engine/scan/scan.ts'
import type { ScanOptions } from '../src/engine/scan/scan.ts'
import type { LibrarySources } from '../src/engine/dataflow/index.ts'
import type { Finding } from '../src/engine/core/types.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/parapet-advisories' },
    'library-sources': { type: 'string', default: 'always' },
    'no-write': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
})
const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const PINS_DIR = join(projectRoot, 'bench', 'advisories')
const SECTION = 'npm advisories'
/** A finding this many lines from a pinned line counts as on it (the sink and the line the advisory names may differ by a statement). */
const PIN_WINDOW = 3


/** The CWEs a finding may carry to count for a class (the class's own and its parents'). */
const CLASS_CWES: Record<string, readonly string[]> = {
  'command-injection': ['CWE-78', 'CWE-77'],
  'path-traversal': ['CWE-22', 'CWE-23', 'CWE-73'],
  'prototype-pollution': ['CWE-1321', 'CWE-915'],
  redos: ['CWE-1333', 'CWE-730', 'CWE-400'],
  'code-injection': ['CWE-95', 'CWE-94'],
}

interface PinnedVersion {
  version: string
  /** relative to the package's root */
  file: string
  /** a regular expression matching the pinned line(s) */
  line: string
  /**
   * For a fixed version: why its pinned code is known to be still vulnerable (a later advisory, a
   * measured attack). A finding there is reported as confirmed, not as a false alarm.
   */
  stillVulnerable?: string
}

interface Pin {
  package: string
  advisory: string
  /** the exported function the advisory names, where the input enters */
  entry: string
  vulnerable: PinnedVersion
  fixed: PinnedVersion
}

interface VersionResult {
  /** 1-based lines the pattern matched; empty: the pin is broken */
  pinnedLines: number[]
  /** findings of the class within the window of a pinned line */
  onPin: Finding[]
  /** findings of the class anywhere in the package */
  inPackage: number
  error?: string
}

interface PinResult {
  className: string
  pin: Pin
  vulnerable: VersionResult
  fixed: VersionResult
}

function readPins(): Array<{ className: string; pin: Pin }> {
  return readdirSync(PINS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .flatMap((name) => {
      const className = name.replace(/\.json$/, '')
      if (!CLASS_CWES[className]) throw new Error(`bench/advisories/${name}: unknown class (known: ${Object.keys(CLASS_CWES).join(', ')})`)
      const pins = JSON.parse(readFileSync(join(PINS_DIR, name), 'utf8')) as Pin[]
      return pins.map((pin) => ({ className, pin }))
    })
}

/** The package's root folder, fetched with `npm pack` (no scripts run) unless already there. */
function fetchPackage(name: string, version: string): string {
  const target = join(values.dir, `${name.replace('/', '+')}@${version}`)
  const marker = join(target, '.fetched')
  if (!existsSync(marker)) {
    rmSync(target, { recursive: true, force: true })
    mkdirSync(target, { recursive: true })
    const tarball = execFileSync('npm', ['pack', `${name}@${version}`, '--ignore-scripts', '--silent', '--pack-destination', target], { encoding: 'utf8' }).trim().split('\n').pop()
    if (!tarball) throw new Error(`npm pack ${name}@${version} gave no tarball`)
    execFileSync('tar', ['xzf', join(target, tarball), '-C', target, '--warning=no-unknown-keyword'])
    rmSync(join(target, tarball))
    writeFileSync(marker, '')
  }
  // Tarballs hold one folder, usually package/ (some publishers name it otherwise).
  const roots = readdirSync(target, { withFileTypes: true }).filter((entry) => entry.isDirectory())
  if (roots.length !== 1 || !roots[0]) throw new Error(`${name}@${version}: expected one folder in the tarball`)
  return join(target, roots[0].name)
}

function pinnedLinesOf(root: string, pinned: PinnedVersion): number[] {
  const path = join(root, pinned.file)
  if (!existsSync(path)) return []
  const pattern = new RegExp(pinned.line)
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((text, index) => (pattern.test(text) ? [index + 1] : []))
}

function ofClass(finding: Finding, className: string): boolean {
  const cwes = CLASS_CWES[className] ?? []
  return finding.cweIds.some((cwe) => cwes.includes(cwe))
}

async function scanVersion(name: string, pinned: PinnedVersion, className: string, cache: Map<string, Finding[]>): Promise<VersionResult> {
  let root: string
  try {
    root = fetchPackage(name, pinned.version)
  } catch (error) {
    return { pinnedLines: [], onPin: [], inPackage: 0, error: error instanceof Error ? error.message.split('\n')[0] : String(error) }
  }
  const pinnedLines = pinnedLinesOf(root, pinned)
  const key = `${name}@${pinned.version}`
  let findings = cache.get(key)
  if (!findings) {
    const options: ScanOptions = { analyzers: ['sast', 'dataflow'], packageApiSources: values['library-sources'] as LibrarySources }
    findings = (await scanDirectory(root, options)).findings
    cache.set(key, findings)
  }
  const classFindings = findings.filter((finding) => ofClass(finding, className))
  const onPin = classFindings.filter((finding) => finding.filePath === pinned.file && pinnedLines.some((line) => Math.abs(finding.lineNumber - line) <= PIN_WINDOW))
  return { pinnedLines, onPin, inPackage: classFindings.length }
}

function percent(numerator: number, denominator: number): string {
  return denominator === 0 ? 'n/a' : `${((numerator / denominator) * 100).toFixed(0)}%`
}

function isFalseAlarm(result: PinResult): boolean {
  return result.fixed.onPin.length > 0 && !result.pin.fixed.stillVulnerable
}

function usable(result: PinResult): boolean {
  return result.vulnerable.pinnedLines.length > 0 && result.fixed.pinnedLines.length > 0
}

function render(results: PinResult[], date: string): string {
  const classes = [...new Set(results.map((result) => result.className))]
  const lines: string[] = []
  lines.push(
    `Measured with \`npm run bench:advisories\` on ${date} (not in CI: it fetches from the npm registry): ${new Set(results.map((result) => result.pin.package)).size} npm packages with public advisories, each version fetched with \`npm pack\` (no install scripts) into \`${values.dir}\` and scanned whole (\`sast\` and \`dataflow\` through \`scanDirectory\`) in library mode (\`packageApiSources: '${values['library-sources']}'\`). The pins in \`bench/advisories/<class>.json\` name the advisory, the exported function the input enters through, and a pattern for the vulnerable line in the vulnerable version and for the same code in the fixed one; each was written by reading both versions' code. Recall: vulnerable versions with a finding of the class's CWE within ${PIN_WINDOW} lines of the pinned line. False alarms: fixed versions with such a finding at their pinned line, except where the pin records that the fixed code is still vulnerable (shown as confirmed, with the reason). "In package" counts every finding of the class in the package's files.`,
  )
  lines.push('', '### By class', '', '| Class | Pins | Recall (vulnerable) | False alarms (fixed) | Findings of the class in package, vulnerable / fixed |', '| --- | ---: | ---: | ---: | ---: |')
  let pins = 0
  let found = 0
  let alarms = 0
  for (const className of classes) {
    const ofThisClass = results.filter((result) => result.className === className && usable(result))
    const hits = ofThisClass.filter((result) => result.vulnerable.onPin.length > 0).length
    const falseAlarms = ofThisClass.filter(isFalseAlarm).length
    const inVulnerable = ofThisClass.reduce((sum, result) => sum + result.vulnerable.inPackage, 0)
    const inFixed = ofThisClass.reduce((sum, result) => sum + result.fixed.inPackage, 0)
    pins += ofThisClass.length
    found += hits
    alarms += falseAlarms
    lines.push(`| ${className} | ${ofThisClass.length} | ${hits}/${ofThisClass.length} (${percent(hits, ofThisClass.length)}) | ${falseAlarms}/${ofThisClass.length} | ${inVulnerable} / ${inFixed} |`)
  }
  lines.push(`| **all** | ${pins} | ${found}/${pins} (${percent(found, pins)}) | ${alarms}/${pins} |  |`)
  lines.push('', '### By pin', '', '| Class | Package | Advisory | Entry | Vulnerable | Found | Fixed | False alarm |', '| --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const result of results) {
    const { pin } = result
    const cell = (version: VersionResult, yes: string, no: string) =>
      version.error ? `error: ${version.error}` : version.pinnedLines.length === 0 ? 'pin matches no line' : version.onPin.length > 0 ? `${yes} (${version.onPin.map((finding) => finding.ruleId).join(', ')})` : no
    lines.push(
      `| ${result.className} | ${pin.package} | ${pin.advisory} | \`${pin.entry}\` | ${pin.vulnerable.version} \`${pin.vulnerable.file}:${result.vulnerable.pinnedLines.join(',')}\` | ${cell(result.vulnerable, 'yes', 'no')} | ${pin.fixed.version} \`${pin.fixed.file}:${result.fixed.pinnedLines.join(',')}\` | ${cell(result.fixed, pin.fixed.stillVulnerable ? `no, confirmed: ${pin.fixed.stillVulnerable}` : 'yes', 'no')} |`,
    )
  }
  return lines.join('\n')
}

async function main(): Promise<void> {
  mkdirSync(values.dir, { recursive: true })
  const cache = new Map<string, Finding[]>()
  const results: PinResult[] = []
  for (const { className, pin } of readPins()) {
    const vulnerable = await scanVersion(pin.package, pin.vulnerable, className, cache)
    const fixed = await scanVersion(pin.package, pin.fixed, className, cache)
    results.push({ className, pin, vulnerable, fixed })
    const state = (version: VersionResult) => (version.error ? `error ${version.error}` : version.pinnedLines.length === 0 ? 'PIN MATCHES NO LINE' : version.onPin.length > 0 ? 'finding' : 'none')
    console.log(`${className.padEnd(20)} ${`${pin.package}@${pin.vulnerable.version}`.padEnd(26)} ${state(vulnerable).padEnd(10)} fixed ${pin.fixed.version}: ${state(fixed)}`)
  }
  const body = render(results, new Date().toISOString().slice(0, 10))
  console.log(`\n${body}`)
  if (values.json) writeFileSync(values.json, JSON.stringify(results, null, 2))
  if (!values['no-write']) {
    writeMarkdownSection(join(projectRoot, 'docs', 'quality.md'), SECTION, body)
    console.log('written to docs/quality.md')
  }
}

await main()
