/**
 * Library mode on installed packages (`npm run bench:library`): every package folder of a
 * node_modules tree (default: this project's), scanned on its own with the data-flow analyzer
 * in library mode (`packageApiSources: 'auto'`), as a user's upload of that package would be.
 * Nearly all of these packages are well reviewed, so findings whose input enters through an
 * exported function (tag `library-argument`) are mostly what a reviewer would call noise: the
 * count per class, before and after a change, is the precision side of the npm advisory corpus
 * (bench/advisories.bench.ts), and a sample is read by hand (docs/quality.md).
 *
 * Options: --dir <node_modules> (default this project's), --json <file> (every library finding:
 * package, rule, file, line, CWE, description), --limit <n> (first n packages, for a quick look).
 * Prints per-class counts and the packages with the most findings; writes nothing in the project.
 */
import { readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadavg } from 'node:os'
import { scanDirectory } from '../src/engine/scan/scan.ts'

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    json: { type: 'string' },
    limit: { type: 'string' },
  },
})
const root = values.dir ?? fileURLToPath(new URL('../node_modules', import.meta.url))

interface LibraryFinding {
  package: string
  ruleId: string
  category: string
  cwe: string
  file: string
  line: number
  description: string
  sinkNote: string
}

/** Top-level and scoped package folders (`express`, `@babel/core`), sorted. */
function packageFolders(dir: string): string[] {
  const result: string[] = []
  for (const name of readdirSync(dir).sort()) {
    if (name.startsWith('.')) continue
    const path = join(dir, name)
    if (!statSync(path).isDirectory()) continue
    if (name.startsWith('@')) for (const inner of readdirSync(path).sort()) result.push(`${name}/${inner}`)
    else result.push(name)
  }
  return result
}

async function main(): Promise<void> {
  const started = Date.now()
  const loadAtStart = loadavg()[0]?.toFixed(1)
  let packages = packageFolders(root)
  if (values.limit) packages = packages.slice(0, Number(values.limit))
  const findings: LibraryFinding[] = []
  const failed: string[] = []
  for (const [index, name] of packages.entries()) {
    try {
      // Nested node_modules are other packages, scanned (or not) on their own.
      const report = await scanDirectory(join(root, name), { analyzers: ['dataflow'], packageApiSources: 'auto', workers: 0, ignoredDirs: ['.git', 'node_modules'] })
      for (const finding of report.findings) {
        if (!finding.tags.includes('library-argument')) continue
        findings.push({
          package: name,
          ruleId: finding.ruleId,
          category: finding.category,
          cwe: finding.cweIds[0] ?? '',
          file: finding.filePath,
          line: finding.lineNumber,
          description: finding.description,
          sinkNote: finding.dataFlow?.sink.note ?? '',
        })
      }
    } catch (error) {
      failed.push(`${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
    }
    if ((index + 1) % 50 === 0) console.error(`${index + 1}/${packages.length} packages, ${findings.length} library findings`)
  }
  const byCategory = new Map<string, number>()
  for (const finding of findings) byCategory.set(finding.category, (byCategory.get(finding.category) ?? 0) + 1)
  const byPackage = new Map<string, number>()
  for (const finding of findings) byPackage.set(finding.package, (byPackage.get(finding.package) ?? 0) + 1)
  console.log(`${packages.length} package folders under ${root}; ${findings.length} library findings in ${byPackage.size} packages; ${((Date.now() - started) / 1000).toFixed(0)} s; load ${loadAtStart} at start, ${loadavg()[0]?.toFixed(1)} at end`)
  for (const [category, count] of [...byCategory].sort((a, b) => b[1] - a[1])) console.log(`  ${category}: ${count}`)
  console.log('most findings:')
  for (const [name, count] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${name}: ${count}`)
  if (failed.length > 0) console.log(`failed: ${failed.join('; ')}`)
  if (values.json) writeFileSync(values.json, JSON.stringify(findings, null, 2))
}

await main()
