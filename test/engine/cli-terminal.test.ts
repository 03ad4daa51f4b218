/**
 * `parapet scan` at a terminal and in a pipe: on a terminal the report is text and a progress
 * line is drawn on stderr (files done of total, percentage, elapsed and remaining time, findings
 * so far), kept below log lines and erased before the report; in a pipe the report is JSON, as
 * it always was, and stderr gets no progress line.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLI_RUN_TIMEOUT, runCliInTerminal, runCliPiped } from './support/cli-terminal.ts'
import { ruleYaml, tempTree } from './support/helpers.ts'

/** What the progress line writes before each drawing and to erase itself: carriage return, erase to end of line. */
const ERASE_LINE = '\r\x1b[K'
const PROGRESS = /\[[=> ]+\] (\d+)\/(\d+) files {2}(\d+)% {2}\d+:\d\d elapsed {2}(~\d+:\d\d left|estimating…|finishing…) {2}\d+ findings?/

function appWithRules() {
  return tempTree({
    'app/one.py': 'import os\nos.system(cmd)\n',
    'app/two.py': 'import os\nos.system(other)\n',
    'app/three.py': 'print("fine")\n',
    'rules.yml': ruleYaml({ id: 'py.os-system' }),
  })
}

function scanArgs(dir: string, extra: string[] = []): string[] {
  return [join(dir, 'app'), '--rules', join(dir, 'rules.yml'), '--no-builtin-rules', '--analyzers', 'sast', ...extra]
}

describe('parapet scan on a terminal and in a pipe', { timeout: 3 * CLI_RUN_TIMEOUT }, () => {
  it('prints text by default and draws a progress line on stderr, erased before the report; in pipes, JSON and no progress line, even with FORCE_COLOR', () => {
    const dir = appWithRules()
    const piped = runCliPiped(scanArgs(dir), { FORCE_COLOR: '1' })
    expect(piped.status, piped.stderr).toBe(0)
    expect(JSON.parse(piped.stdout).findings).toHaveLength(2)
    expect(piped.stderr).toBe('')

    const { status, output } = runCliInTerminal(scanArgs(dir), { NO_COLOR: '1' })
    expect(status, output).toBe(0)
    const drawings = output.split(ERASE_LINE)
    const lines = drawings.filter((drawing) => PROGRESS.test(drawing))
    expect(lines.length, output).toBeGreaterThan(0)
    expect(lines.at(-1)).toMatch(/^\[=+\] 3\/3 files {2}100% .* finishing… {2}2 findings$/)
    // the last drawing is erased: what follows the last erase is the report alone
    const report = drawings.at(-1) ?? ''
    expect(report).not.toMatch(/elapsed/)
    expect(report.replaceAll('\r\n', '\n')).toMatch(/^one\.py\n {2}2:1 {5}high {6}OS command from a variable {2}py\.os-system\n[\s\S]*\n2 findings \(2 high\) in 2 files\nScanned 3 files/)
  })

  it('keeps log lines above the progress line with --verbose', () => {
    const dir = appWithRules()
    const { status, output } = runCliInTerminal(scanArgs(dir, ['--verbose']), { NO_COLOR: '1' })
    expect(status, output).toBe(0)
    const drawings = output.split(ERASE_LINE)
    const logged = drawings.filter((drawing) => drawing.startsWith('[info] '))
    expect(logged.length, output).toBeGreaterThan(0)
    // each log line starts at the left margin, after the progress line was erased, and ends its line
    for (const line of logged) expect(line, output).toMatch(/^\[info\] [^\r\n]*\r\n/)
    expect(drawings.some((drawing) => PROGRESS.test(drawing)), output).toBe(true)
  })
})
