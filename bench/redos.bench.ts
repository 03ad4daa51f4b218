/**
 * Cost of judging regular expressions for ReDoS (`npm run bench:redos`): every distinct regex
 * literal in the JavaScript files of a folder of published packages (default: the project's own
 * node_modules) goes through dataflow/redos.ts `judgeRegex` once, as a scan does the first time
 * it meets a pattern run on untrusted text. Prints the time per pattern (median, p90, p99, max),
 * how many are vulnerable, and the cost of the same patterns again from the cache.
 *
 * Options: --dir <folder> (default node_modules), --limit <n> distinct literals (default 500),
 * --slowest <n> (print the n slowest patterns).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { Lang, parse } from '@ast-grep/napi'
import { judgeRegex } from '../src/engine/dataflow/redos.ts'

const { values } = parseArgs({ options: { dir: { type: 'string' }, limit: { type: 'string' }, slowest: { type: 'string' } } })
const root = values.dir ?? fileURLToPath(new URL('../node_modules', import.meta.url))
const limit = Number(values.limit ?? 500)

/** Regex literals of the folder's .js files, in a stable order, up to the limit. */
function collectLiterals(dir: string, found: Set<string>, depth = 0): Set<string> {
  if (found.size >= limit || depth > 6) return found
  for (const name of readdirSync(dir).sort()) {
    if (found.size >= limit) break
    const full = join(dir, name)
    const stat = statSync(full, { throwIfNoEntry: false })
    if (!stat) continue
    if (stat.isDirectory()) collectLiterals(full, found, depth + 1)
    else if (name.endsWith('.js') && stat.size < 300_000) {
      for (const node of parse(Lang.JavaScript, readFileSync(full, 'utf8')).root().findAll({ rule: { kind: 'regex' } })) {
        if (found.size < limit) found.add(node.text())
      }
    }
  }
  return found
}

function quantile(sorted: readonly number[], q: number): string {
  return (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1)
}

const literals = collectLiterals(root, new Set())
const times: number[] = []
const timed: Array<{ literal: string; ms: number }> = []
let vulnerable = 0
let exponential = 0
const started = performance.now()
for (const literal of literals) {
  const before = performance.now()
  const verdict = judgeRegex(literal)
  times.push(performance.now() - before)
  timed.push({ literal, ms: performance.now() - before })
  if (verdict) vulnerable++
  if (verdict?.complexity === 'exponential') exponential++
}
const total = performance.now() - started
const cachedStart = performance.now()
for (const literal of literals) judgeRegex(literal)
const cached = performance.now() - cachedStart
times.sort((a, b) => a - b)
console.log(`${literals.size} distinct regex literals from ${root}`)
console.log(`first judgement: total ${total.toFixed(0)} ms; per pattern median ${quantile(times, 0.5)} ms, p90 ${quantile(times, 0.9)} ms, p99 ${quantile(times, 0.99)} ms, max ${quantile(times, 1)} ms`)
console.log(`vulnerable: ${vulnerable} (${exponential} exponential); all again from the cache: ${cached.toFixed(1)} ms`)
for (const { literal, ms } of timed.sort((a, b) => b.ms - a.ms).slice(0, Number(values.slowest ?? 0))) console.log(`${ms.toFixed(0)} ms ${literal.slice(0, 120)}`)
