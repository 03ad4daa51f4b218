/**
 * Real-world corpus benchmark (`npm run bench:realworld`): the full analysis (sast, secrets,
 * dataflow) through the engine's scan API on each application under bench/corpus/, scored
 * against the applications' labels (bench/lib/realworld-corpus.ts): TP, FN, FP, TN, true and
 * false positive rates and the score TPR - FPR per category, language and application, plus
 * the findings on unlabelled lines.
 *
 * Prints the report and writes it as the "Real-world corpus" section of docs/quality.md.
 * Options: --no-write (print only), --json <file> (every case and finding, for comparing runs).
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { scanDirectory } from '../src/engine/scan/scan.ts'
import { ANALYZERS } from '../src/engine/core/types.ts'
import type { Finding } from '../src/engine/core/types.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'
import { CORPUS_ROOT, languageOfCorpusFile, listApplicationFiles, listApplications, readApplicationLabels, scoreApplication } from './lib/realworld-corpus.ts'
import type { ApplicationScore, CaseResult, LabelProblem } from './lib/realworld-corpus.ts'

const { values } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false }, json: { type: 'string' } } })
const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const SECTION = 'Real-world corpus'

interface Tally {
  tp: number
  fn: number
  fp: number
  tn: number
  unlabelled: number
}

function emptyTally(): Tally {
  return { tp: 0, fn: 0, fp: 0, tn: 0, unlabelled: 0 }
}

function add(groups: Map<string, Tally>, key: string, update: (tally: Tally) => void): void {
  const tally = groups.get(key) ?? emptyTally()
  update(tally)
  groups.set(key, tally)
}

function countOutcome(tally: Tally, result: CaseResult): void {
  if (result.outcome === 'TP') tally.tp++
  if (result.outcome === 'FN') tally.fn++
  if (result.outcome === 'FP') tally.fp++
  if (result.outcome === 'TN') tally.tn++
}

function rate(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : numerator / denominator
}

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`
}

function score(tally: Tally): number | null {
  const tpr = rate(tally.tp, tally.tp + tally.fn)
  const fpr = rate(tally.fp, tally.fp + tally.tn)
  if (tpr === null && fpr === null) return null
  return (tpr ?? 0) - (fpr ?? 0)
}

function row(name: string, tally: Tally): string {
  const cases = tally.tp + tally.fn + tally.fp + tally.tn
  const tpr = rate(tally.tp, tally.tp + tally.fn)
  const fpr = rate(tally.fp, tally.fp + tally.tn)
  return `| ${name} | ${cases} | ${tally.tp} | ${tally.fn} | ${tally.fp} | ${tally.tn} | ${percent(tpr)} | ${percent(fpr)} | ${percent(score(tally))} | ${tally.unlabelled} |`
}

function table(title: string, groups: Map<string, Tally>, order?: string[]): string[] {
  const keys = order ?? [...groups.keys()].sort()
  return [
    `| ${title} | Cases | TP | FN | FP | TN | TPR | FPR | Score | Unlabelled findings |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...keys.filter((key) => groups.has(key)).map((key) => row(key, groups.get(key) as Tally)),
  ]
}

function oneLine(text: string, max = 110): string {
  const flat = text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|').replace(/`/g, "'")
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

function findingLine(application: string, finding: Finding): string {
  const snippet = finding.codeSnippet.split('\n')[0] ?? ''
  return `- \`${application}/${finding.filePath}:${finding.lineNumber}\` ${finding.category} (\`${finding.ruleId}\`): \`${oneLine(snippet)}\``
}

function caseLine(result: CaseResult): string {
  const first = result.corpusCase.locations[0]
  const where = first ? `${result.corpusCase.application}/${first.file}:${first.line}` : result.corpusCase.id
  const rules = result.findings.length ? ` (${[...new Set(result.findings.map((finding) => `\`${finding.ruleId}\``))].join(', ')})` : ''
  return `- \`${where}\` ${result.corpusCase.category}${rules}: \`${oneLine(result.corpusCase.code)}\``
}

async function main(): Promise<void> {
  const applications = listApplications()
  const scores: ApplicationScore[] = []
  const problems: LabelProblem[] = []
  const scanProblems: string[] = []
  const sizes = new Map<string, { files: number; lines: number }>()
  for (const application of applications) {
    const labels = readApplicationLabels(application)
    problems.push(...labels.problems)
    const report = await scanDirectory(join(CORPUS_ROOT, application), {
      analyzers: [...ANALYZERS],
      onLog: (event) => {
        if (event.level === 'error' || event.level === 'warning') scanProblems.push(`${application}: ${event.message}`)
      },
    })
    sizes.set(application, { files: listApplicationFiles(join(CORPUS_ROOT, application)).length, lines: report.stats.linesScanned })
    scores.push(scoreApplication(labels, report.findings))
  }

  const total = emptyTally()
  const byCategory = new Map<string, Tally>()
  const byLanguage = new Map<string, Tally>()
  const byApplication = new Map<string, Tally>()
  for (const { application, results, unlabelled } of scores) {
    for (const result of results) {
      countOutcome(total, result)
      add(byCategory, result.corpusCase.category, (tally) => countOutcome(tally, result))
      add(byLanguage, result.corpusCase.language, (tally) => countOutcome(tally, result))
      add(byApplication, application, (tally) => countOutcome(tally, result))
    }
    for (const finding of unlabelled) {
      total.unlabelled++
      add(byCategory, finding.category, (tally) => tally.unlabelled++)
      add(byApplication, application, (tally) => tally.unlabelled++)
    }
  }
  // unlabelled findings are attributed to a language by their file
  for (const { unlabelled } of scores) {
    for (const finding of unlabelled) add(byLanguage, languageOfCorpusFile(finding.filePath), (tally) => tally.unlabelled++)
  }
  const categoryScores = [...byCategory.values()].filter((tally) => tally.tp + tally.fn + tally.fp + tally.tn > 0).map(score).filter((value): value is number => value !== null)
  const meanScore = categoryScores.length ? categoryScores.reduce((sum, value) => sum + value, 0) / categoryScores.length : null

  const all = scores.flatMap((entry) => entry.results)
  const cases = all.length
  const vulnerable = all.filter((result) => result.corpusCase.polarity === 'vuln').length
  const misses = all.filter((result) => result.outcome === 'FN')
  const falseAlarms = all.filter((result) => result.outcome === 'FP')
  const sizeList = applications.map((application) => {
    const size = sizes.get(application) ?? { files: 0, lines: 0 }
    return `\`${application}\` (${size.files} files, ${size.lines} lines)`
  })

  const body = [
    `Measured with \`npm run bench:realworld\` on ${new Date().toISOString().slice(0, 10)}: the full analysis (\`sast\`, \`secrets\`, \`dataflow\`, through \`scanDirectory\`) on the ${applications.length} applications under \`bench/corpus/\`: ${sizeList.join(', ')}. They hold ${cases} labelled cases: ${vulnerable} vulnerable lines and ${cases - vulnerable} safe look-alikes (constant input, a sanitizer or guard, a safe API or parser configuration). The applications were written as ordinary application code (servlets with helper and nested classes, Spring controllers and JdbcTemplate, Flask and Django views and settings, Express and Koa/TypeScript services, configuration files), not from the rules or their fixtures.`,
    '',
    'How cases are counted (labels: `bench/corpus/README.md`): a label names a category, not a rule. A case is the labelled line, extended to the following lines while brackets opened on it are still open (a statement written over several lines); labels sharing a `[group]` in one application are one case (a value drawn in one place and used in another). Any finding of the case\'s category starting on one of its lines matches it: a matched vulnerable case is a true positive (TP), an unmatched one a false negative (FN); a matched safe case is a false positive (FP), an unmatched one a true negative (TN). TPR = TP / (TP + FN), FPR = FP / (FP + TN), and the score is TPR - FPR, as standard benchmarks score tools: 0 is what flagging everything, or nothing, earns. Findings matching no case of their category are unlabelled: either a missing label or a false alarm, each listed below.',
    '',
    '### Totals',
    '',
    ...table('Scope', new Map([['all cases', total]])),
    '',
    `Mean of the category scores: ${percent(meanScore)} (over ${categoryScores.length} categories with cases).`,
    '',
    '### By category',
    '',
    ...table('Category', byCategory),
    '',
    '### By language',
    '',
    ...table('Language', byLanguage),
    '',
    '### By application',
    '',
    ...table('Application', byApplication, applications),
    '',
    `### Misses (${misses.length})`,
    '',
    ...(misses.length ? misses.map(caseLine) : ['None.']),
    '',
    `### False alarms on safe look-alikes (${falseAlarms.length})`,
    '',
    ...(falseAlarms.length ? falseAlarms.map(caseLine) : ['None.']),
    '',
    `### Unlabelled findings (${total.unlabelled})`,
    '',
    ...(total.unlabelled ? scores.flatMap(({ application, unlabelled }) => unlabelled.map((finding) => findingLine(application, finding))) : ['None.']),
  ]
  if (problems.length) body.push('', '### Label problems', '', ...problems.map((problem) => `- \`${problem.application}/${problem.file}:${problem.line}\`: ${problem.message}`))
  if (scanProblems.length) body.push('', '### Scan warnings', '', ...scanProblems.map((message) => `- ${oneLine(message, 200)}`))

  const markdown = body.join('\n')
  console.log(`## ${SECTION}\n\n${markdown}`)
  if (values.json) {
    const dump = scores.map(({ application, results, unlabelled }) => ({
      application,
      cases: results.map(({ corpusCase, outcome, findings }) => ({ ...corpusCase, outcome, rules: findings.map((finding) => finding.ruleId) })),
      unlabelled: unlabelled.map((finding) => ({ file: finding.filePath, line: finding.lineNumber, category: finding.category, ruleId: finding.ruleId, code: finding.codeSnippet })),
    }))
    writeFileSync(values.json, JSON.stringify(dump, null, 2))
    console.log(`cases and findings written to ${values.json}`)
  }
  if (!values['no-write']) {
    writeMarkdownSection(join(projectRoot, 'docs', 'quality.md'), SECTION, markdown, '# Rule quality')
    console.log('written to docs/quality.md')
  }
}

await main()
