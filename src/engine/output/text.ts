/**
 * The human-readable report of `parapet scan --format text`, for a person at a terminal: the
 * findings grouped by file (files in path order), each with its severity, location, rule, title
 * and message, the code line with a caret under the match, and a data-flow finding's path in
 * short; then one summary of what was found and what was scanned. Colour is the caller's
 * decision (`shouldColor`): the same text without it is what a file or a log gets.
 */
import { SEVERITIES } from '../core/types.ts'
import type { DataFlowTrace, Finding, Severity } from '../core/types.ts'
import type { ScanReport } from '../scan/scan.ts'
import { formatSeconds } from '../scan/worker-pool.ts'

export interface TextReportOptions {
  /** ANSI colours (severities, file names, the caret) */
  color: boolean
  /** with a baseline, the report holds only new findings; these say what was left out */
  baseline?: { unchanged: number; absent: number }
}

/**
 * Whether text bound for a stream is coloured: FORCE_COLOR decides when set (as in Node: "0" and
 * "false" turn colour off), then NO_COLOR (https://no-color.org: any non-empty value), then
 * whether the stream is a terminal that understands escapes (TERM=dumb does not).
 */
export function shouldColor(isTerminal: boolean, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force !== 'false'
  if (env.NO_COLOR) return false
  return isTerminal && env.TERM !== 'dumb'
}

type Paint = (text: string) => string

interface Palette {
  severity: Record<Severity, Paint>
  file: Paint
  dim: Paint
  caret: Paint
  bold: Paint
  good: Paint
}

function makePalette(color: boolean): Palette {
  const sgr = (open: string): Paint => (color ? (text) => `\x1b[${open}m${text}\x1b[0m` : (text) => text)
  return {
    severity: { critical: sgr('1;97;41'), high: sgr('1;31'), medium: sgr('33'), low: sgr('36'), info: sgr('2') },
    file: sgr('1;4'),
    dim: sgr('2'),
    caret: sgr('1;31'),
    bold: sgr('1'),
    good: sgr('1;32'),
  }
}

/** Widest severity name: severities line up in one column. */
const SEVERITY_WIDTH = Math.max(...SEVERITIES.map((severity) => severity.length))
/** Lines of a multi-line match shown before "…": the location says where the rest is. */
const MULTILINE_SHOWN = 3

export function renderTextReport(report: ScanReport, options: TextReportOptions): string {
  const palette = makePalette(options.color)
  const byFile = groupByFile(report.findings)
  const sections = [...byFile.keys()]
    .sort(comparePaths)
    .map((path) => renderFile(path, byFile.get(path) ?? [], palette))
  return [...sections, renderSummary(report, options, palette)].join('\n')
}

function groupByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>()
  for (const finding of findings) {
    const list = byFile.get(finding.filePath)
    if (list) list.push(finding)
    else byFile.set(finding.filePath, [finding])
  }
  for (const list of byFile.values()) list.sort((a, b) => a.lineNumber - b.lineNumber || a.columnStart - b.columnStart || a.ruleId.localeCompare(b.ruleId))
  return byFile
}

/** Code-point order, not the locale's: the same order on every machine. */
function comparePaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

function renderFile(path: string, findings: readonly Finding[], palette: Palette): string {
  // one gutter width per file: the code lines of its findings line up
  const gutterWidth = Math.max(...findings.map((finding) => String(lastShownLine(finding)).length))
  return `${palette.file(path)}\n${findings.map((finding) => renderFinding(finding, palette, gutterWidth)).join('\n')}\n`
}

function lastShownLine(finding: Finding): number {
  return finding.lineNumber + Math.min(finding.codeSnippet.split('\n').length, MULTILINE_SHOWN) - 1
}

/**
 *   12:5  high      py.sql-injection  SQL built from a string
 *         query() runs "SELECT ..." + name
 *      12 | cursor.execute("SELECT ..." + name)
 *         |                ^^^^^^^^^^^^^^^^^^^
 *         flow: app/views.py:6 request.args (HTTP query parameter) -> app/db.py:12 SQL query (2 steps between)
 */
function renderFinding(finding: Finding, palette: Palette, gutterWidth: number): string {
  const location = `${finding.lineNumber}:${finding.columnStart}`
  // padded outside the colour: a coloured background covers the word alone
  const severity = `${palette.severity[finding.severity](finding.severity)}${' '.repeat(SEVERITY_WIDTH - finding.severity.length)}`
  const lines = [`  ${location.padEnd(7)} ${severity}  ${palette.bold(finding.title)}  ${palette.dim(finding.ruleId)}`]
  const indent = ' '.repeat(10)
  if (finding.description && finding.description !== finding.title) lines.push(`${indent}${finding.description}`)
  lines.push(...renderCode(finding, palette, indent, gutterWidth))
  if (finding.dataFlow) lines.push(`${indent}${palette.dim(`flow: ${describeFlow(finding.dataFlow)}`)}`)
  return lines.join('\n')
}

/** The matched line(s) with their numbers; a caret line under a match on one line. */
function renderCode(finding: Finding, palette: Palette, indent: string, gutterWidth: number): string[] {
  if (!finding.codeSnippet) return []
  const code = finding.codeSnippet.split('\n')
  const shown = code.slice(0, MULTILINE_SHOWN)
  const gutter = (label: string) => `${indent}${palette.dim(`${label.padStart(gutterWidth)} |`)}`
  const lines = shown.map((text, index) => `${gutter(String(finding.lineNumber + index))} ${text}`)
  if (code.length > MULTILINE_SHOWN) lines.push(`${gutter('')} …`)
  const firstLine = shown[0] ?? ''
  if (finding.endLineNumber === finding.lineNumber) {
    const start = Math.min(finding.columnStart - 1, firstLine.length)
    const end = Math.min(Math.max(finding.columnEnd - 1, start + 1), Math.max(firstLine.length, start + 1))
    // tabs before the match are kept so the caret lines up however wide the terminal draws them
    const lead = firstLine.slice(0, start).replace(/[^\t]/g, ' ')
    lines.splice(1, 0, `${gutter('')} ${lead}${palette.caret('^'.repeat(end - start))}`)
  }
  return lines
}

/** Where untrusted data enters and where it is used, each as file:line and what happens there. */
function describeFlow(flow: DataFlowTrace): string {
  const at = (step: { filePath: string; lineNumber: number; note: string }) => `${step.filePath}:${step.lineNumber} ${step.note}`
  const between = flow.steps.length > 0 ? ` (${flow.steps.length} ${flow.steps.length === 1 ? 'step' : 'steps'} between)` : ''
  return `${at(flow.source)} -> ${at(flow.sink)}${between}`
}

/**
 * 3 findings (1 critical, 2 low) in 2 files
 * Scanned 14 files (1,204 lines) in 2.3 s; skipped 3: 2 binary, 1 too-large; 1 suppressed by comment
 */
function renderSummary(report: ScanReport, options: TextReportOptions, palette: Palette): string {
  const findings = report.findings
  const fileCount = new Set(findings.map((finding) => finding.filePath)).size
  const counted = SEVERITIES.map((severity) => [severity, findings.filter((finding) => finding.severity === severity).length] as const).filter(([, count]) => count > 0)
  const noun = options.baseline ? 'new finding' : 'finding'
  const headline =
    findings.length === 0
      ? palette.good(`No ${noun}s`)
      : `${palette.bold(plural(findings.length, noun))} (${counted.map(([severity, count]) => palette.severity[severity](`${count} ${severity}`)).join(', ')}) in ${plural(fileCount, 'file')}`
  const baseline = options.baseline ? `; ${options.baseline.unchanged} in the baseline (not shown), ${options.baseline.absent} gone since` : ''
  const stats = report.stats
  const scanned = `Scanned ${plural(stats.filesScanned, 'file')} (${plural(stats.linesScanned, 'line')}) in ${formatSeconds(report.durationMs)}`
  const skippedTotal = Object.values(stats.skipped).reduce((sum, count) => sum + count, 0)
  const skipped = skippedTotal > 0 ? `; skipped ${skippedTotal}: ${Object.entries(stats.skipped).sort(([, a], [, b]) => b - a).map(([reason, count]) => `${count} ${reason}`).join(', ')}` : ''
  const suppressed = stats.suppressed > 0 ? `; ${stats.suppressed} suppressed by comment${stats.suppressed === 1 ? '' : 's'}` : ''
  return `${headline}${baseline}\n${palette.dim(`${scanned}${skipped}${suppressed}`)}\n`
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`
}
