/**
 * The progress line of `parapet scan` on a terminal's stderr:
 *
 *   [==========>         ] 412/800 files  51%  0:12 elapsed  ~0:11 left  7 findings
 *
 * One line, redrawn in place (carriage return, erase to end of line) at most every
 * REDRAW_INTERVAL_MS, and cleared before the report is printed. Log lines go through `log`, which
 * clears the line, writes them, and draws it again below them: logs scroll up, the line stays
 * last. The caller decides whether there is a terminal at all: on anything else (CI logs, a file,
 * a pipe) there is no progress line, never a half-drawn one.
 *
 * "Remaining" is extrapolated from the files done since the first one (the start, which loads
 * rules and boots workers, is no guide to the rate). Once every file is done the repository-wide
 * analyses (data flow) run, which report no progress: the line says so and keeps its clock going.
 */
import type { ScanProgress } from '../scan/scan.ts'

export interface ProgressTerminal {
  write(text: string): void
  /** the terminal's width now (it may be resized during a scan) */
  columns(): number
}

export interface ProgressLine {
  update(progress: ScanProgress): void
  /** writes `text` (whole lines) above the progress line */
  log(text: string): void
  /** erases the line and stops its clock; `update` after it draws nothing */
  stop(): void
}

/** At most ten redraws a second: more is flicker, and costs a busy scan. */
const REDRAW_INTERVAL_MS = 100
/** The clock still moves while no file finishes (a slow file, the repository-wide analyses). */
const TICK_INTERVAL_MS = 1000
const ERASE_LINE = '\r\x1b[K'
const BAR_WIDTH = { min: 10, max: 30 }
/** A terminal that reports no width (0, as a pseudo-terminal without a size does) gets this. */
const DEFAULT_COLUMNS = 80

export function makeProgressLine(terminal: ProgressTerminal, now: () => number = Date.now): ProgressLine {
  const startedAt = now()
  let firstFileAt: number | null = null
  let latest: ScanProgress | null = null
  let drawn = false
  let lastDrawAt = -Infinity
  let stopped = false

  const draw = () => {
    const columns = terminal.columns() || DEFAULT_COLUMNS
    terminal.write(`${ERASE_LINE}${formatProgressLine(latest, { elapsedMs: now() - startedAt, sinceFirstFileMs: firstFileAt === null ? 0 : now() - firstFileAt, columns })}`)
    drawn = true
    lastDrawAt = now()
  }
  const erase = () => {
    if (drawn) terminal.write(ERASE_LINE)
    drawn = false
  }
  // a redraw asked for too soon after the last one happens when the interval is up
  let pending: NodeJS.Timeout | null = null
  const requestDraw = (force = false) => {
    const wait = REDRAW_INTERVAL_MS - (now() - lastDrawAt)
    if (force || wait <= 0) {
      if (pending) clearTimeout(pending)
      pending = null
      return draw()
    }
    if (pending) return
    pending = setTimeout(() => {
      pending = null
      draw()
    }, wait)
    pending.unref()
  }
  const ticker = setInterval(() => requestDraw(), TICK_INTERVAL_MS)
  // the clock never keeps the command alive
  ticker.unref()
  draw()

  return {
    update(progress) {
      if (stopped) return
      const first = firstFileAt === null
      if (first) firstFileAt = now()
      latest = progress
      // the first file and the last are always shown: the line then says what the scan is at
      requestDraw(first || progress.filesScanned >= progress.filesTotal)
    },
    log(text) {
      if (stopped) return terminal.write(text)
      erase()
      terminal.write(text)
      requestDraw()
    },
    stop() {
      if (stopped) return
      stopped = true
      clearInterval(ticker)
      if (pending) clearTimeout(pending)
      erase()
    },
  }
}

/** The line for `progress` (null before the first file is done), at most `columns - 1` wide so it never wraps. */
export function formatProgressLine(progress: ScanProgress | null, timing: { elapsedMs: number; sinceFirstFileMs: number; columns: number }): string {
  const elapsed = `${formatClock(timing.elapsedMs)} elapsed`
  const width = timing.columns - 1
  if (!progress) return fit(`Preparing the scan…  ${elapsed}`, width)
  const { filesScanned: done, filesTotal: total } = progress
  const fraction = total === 0 ? 1 : Math.min(done / total, 1)
  const remaining = done >= total ? 'finishing…' : done >= 2 ? `~${formatClock((timing.sinceFirstFileMs / (done - 1)) * (total - done))} left` : 'estimating…'
  const findings = `${progress.findings} finding${progress.findings === 1 ? '' : 's'}`
  const text = `${done}/${total} files  ${Math.floor(fraction * 100)}%  ${elapsed}  ${remaining}  ${findings}`
  const barWidth = Math.min(BAR_WIDTH.max, width - text.length - 3)
  if (barWidth < BAR_WIDTH.min) return fit(text, width)
  return `${drawBar(fraction, barWidth)} ${text}`
}

function drawBar(fraction: number, width: number): string {
  const filled = Math.floor(fraction * width)
  const head = filled < width ? '>' : ''
  return `[${'='.repeat(filled)}${head}${' '.repeat(width - filled - head.length)}]`
}

/** m:ss, or h:mm:ss past an hour. */
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000))
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = String(total % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`
}

function fit(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`
}
