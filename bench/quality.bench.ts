/**
 * Quality benchmark (`npm run bench:quality`): precision and recall of the built-in rules on
 * the fixture corpus (test/engine/fixtures/rules/**), using the annotation convention:
 * `ruleid:` / `todoruleid:` lines should be reported, `ok:` / `todook:` lines should not, and
 * any other finding is a false positive. Known misses (todoruleid) and known false positives
 * (todook) count here although the fixture test lets them pass.
 *
 * Prints the tables and writes them to docs/quality.md. Option: --no-write.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { RuleDocument } from '../src/engine/core/types.ts'
import { formatRuleProblem, loadBuiltinRulesLeniently } from '../src/engine/rules/loader.ts'
import { runFixtureSuite } from '../src/engine/rules/fixtures.ts'
import type { FixtureResult } from '../src/engine/rules/fixtures.ts'

const { values } = parseArgs({ options: { 'no-write': { type: 'boolean', default: false } } })
const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const fixtureRoot = join(projectRoot, 'test', 'engine', 'fixtures', 'rules')

interface Tally {
  rules: Set<string>
  truePositives: number
  falsePositives: number
  falseNegatives: number
  trueNegatives: number
  knownMisses: number
  knownFalsePositives: number
}

function emptyTally(): Tally {
  return { rules: new Set(), truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0, knownMisses: 0, knownFalsePositives: 0 }
}

function count(tally: Tally, result: FixtureResult): void {
  tally.rules.add(result.ruleId)
  if (result.outcome === 'true-positive') tally.truePositives++
  if (result.outcome === 'false-positive') tally.falsePositives++
  if (result.outcome === 'false-negative') tally.falseNegatives++
  if (result.outcome === 'true-negative') tally.trueNegatives++
  if (result.annotation === 'todoruleid' && result.outcome === 'false-negative') tally.knownMisses++
  if (result.annotation === 'todook' && result.outcome === 'false-positive') tally.knownFalsePositives++
}

function ratio(numerator: number, denominator: number): string {
  return denominator === 0 ? 'n/a' : `${((numerator / denominator) * 100).toFixed(1)}%`
}

function tableRow(name: string, tally: Tally): string {
  const precision = ratio(tally.truePositives, tally.truePositives + tally.falsePositives)
  const recall = ratio(tally.truePositives, tally.truePositives + tally.falseNegatives)
  return `| ${name} | ${tally.rules.size} | ${tally.truePositives} | ${tally.falsePositives} | ${tally.falseNegatives} | ${tally.trueNegatives} | ${precision} | ${recall} | ${tally.knownMisses} / ${tally.knownFalsePositives} |`
}

function table(title: string, groups: Map<string, Tally>): string[] {
  const header = [
    `| ${title} | Rules | TP | FP | FN | TN | Precision | Recall | Known misses / known FPs |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ]
  return [...header, ...[...groups.keys()].sort().map((key) => tableRow(key, groups.get(key) as Tally))]
}

async function main(): Promise<void> {
  const { rules, problems } = loadBuiltinRulesLeniently()
  const byId = new Map<string, RuleDocument>(rules.map((rule) => [rule.id, rule]))
  const run = await runFixtureSuite(fixtureRoot, rules)
  const total = emptyTally()
  const byCategory = new Map<string, Tally>()
  const byLanguage = new Map<string, Tally>()
  const byRule = new Map<string, Tally>()
  for (const result of run.results) {
    const rule = byId.get(result.ruleId)
    if (!rule) continue // annotations naming unknown rules are reported by the fixture test
    for (const [groups, key] of [
      [byCategory, rule.category],
      [byLanguage, rule.language],
      [byRule, rule.id],
    ] as const) {
      const tally = groups.get(key) ?? emptyTally()
      count(tally, result)
      groups.set(key, tally)
    }
    count(total, result)
  }
  const untested = rules.filter((rule) => !byRule.has(rule.id)).map((rule) => rule.id)
  const weakest = [...byRule.entries()]
    .filter(([, tally]) => tally.falsePositives + tally.falseNegatives > 0)
    .sort(([, a], [, b]) => b.falsePositives + b.falseNegatives - (a.falsePositives + a.falseNegatives))
    .slice(0, 15)

  const lines = [
    '# Rule quality',
    '',
    `Precision and recall of the ${rules.length} built-in rules on the fixture corpus (${run.files.length} files under \`test/engine/fixtures/rules/\`), measured with \`npm run bench:quality\` on ${new Date().toISOString().slice(0, 10)}.`,
    '',
    'How cases are counted (see [rules.md](rules.md#fixtures)): a `ruleid:` or `todoruleid:` line reported by its rule is a true positive (TP), not reported a false negative (FN); an `ok:` or `todook:` line reported is a false positive (FP), not reported a true negative (TN); a finding on a line without an annotation for its rule is a false positive. `todoruleid:` / `todook:` mark known misses and known false positives: they count here, while the fixture test lets them pass.',
    '',
    '## Totals',
    '',
    ...table('Scope', new Map([['all rules', total]])),
    '',
    '## By category',
    '',
    ...table('Category', byCategory),
    '',
    '## By language',
    '',
    ...table('Language', byLanguage),
    '',
    '## Rules with misses or false positives',
    '',
    ...(weakest.length === 0 ? ['None.'] : table('Rule', new Map(weakest))),
    '',
  ]
  if (untested.length > 0) lines.push('## Rules without fixture cases', '', ...untested.map((id) => `- \`${id}\``), '')
  if (problems.length > 0) lines.push('## Rule files with problems (left out)', '', ...problems.map((problem) => `- ${formatRuleProblem(problem)}`), '')
  if (run.skippedFiles.length > 0) lines.push('## Fixture files not analyzed', '', ...run.skippedFiles.map((file) => `- \`${file.path}\`: ${file.reason}`), '')

  const markdown = lines.join('\n')
  console.log(markdown)
  if (!values['no-write']) {
    const target = join(projectRoot, 'docs', 'quality.md')
    writeFileSync(target, markdown + sectionsOwnedElsewhere(target))
    console.log('written to docs/quality.md')
  }
}

/** The `## ` sections this benchmark writes; every other section of the file belongs to another benchmark or was written by hand. */
const OWN_SECTIONS = new Set([
  'Totals',
  'By category',
  'By language',
  'Rules with misses or false positives',
  'Rules without fixture cases',
  'Rule files with problems (left out)',
  'Fixture files not analyzed',
])

/** The file's sections this benchmark does not own, as they are and in their order. */
function sectionsOwnedElsewhere(file: string): string {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : ''
  const sections = current.split(/^(?=## )/m).slice(1)
  const kept = sections.filter((section) => !OWN_SECTIONS.has((/^## (.*)$/m.exec(section)?.[1] ?? '').trim()))
  return kept.length ? `\n${kept.map((section) => section.trimEnd()).join('\n\n')}\n` : ''
}

await main()
