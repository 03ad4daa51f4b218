/**
 * Compiled output (dist/, build/) is read when it is the only copy of a package's code (a
 * published tarball), and skipped when the package's sources compile into it; the scan's log says
 * which folders and why.
 */
import { describe, expect, it } from 'vitest'
import { scanDirectory, scanSources } from '../../src/engine/scan/scan.ts'
import type { LogEvent, ScanReport } from '../../src/engine/scan/scan.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { ruleYaml, source, tempTree } from './support/helpers.ts'

const evalRule = parseRulesText(ruleYaml({ id: 'js.code-injection.eval', language: 'javascript', category: 'code-injection', rule: '\n  pattern: eval($X)', message: 'eval of $X' }))
const options = { analyzers: ['sast' as const], builtinRules: false, extraRules: evalRule }

const packageJson = (main: string) => JSON.stringify({ name: 'made-up', version: '1.0.0', main })

type Tree = Record<string, string>

/** The same tree scanned from disk and as in-memory sources (an uploaded zip). */
async function scanBothWays(tree: Tree): Promise<Array<{ report: ScanReport; logs: string[] }>> {
  const results = []
  for (const scan of [
    (onLog: (event: LogEvent) => void) => scanDirectory(tempTree(tree), { ...options, onLog }),
    (onLog: (event: LogEvent) => void) => scanSources(Object.entries(tree).map(([path, text]) => source(path, text)), { ...options, onLog }),
  ]) {
    const logs: string[] = []
    const report = await scan((event) => {
      if (event.level === 'info') logs.push(event.message)
    })
    results.push({ report, logs })
  }
  return results
}

const findingFiles = (report: ScanReport) => report.findings.map((finding) => finding.filePath).sort()
const folderLines = (logs: string[]) => logs.filter((line) => /^(?:skipped|scanning) \S+\/: /.test(line))

describe('compiled output', () => {
  it('scans dist/ of a package that ships only its compiled code', async () => {
    for (const { report, logs } of await scanBothWays({
      'package.json': packageJson('dist/index.js'),
      'dist/index.js': 'exports.run = function (code) { return eval(code) }\n',
      'dist/index.d.ts': 'export declare function run(code: string): unknown\n',
      'README.md': '# made-up\n',
    })) {
      expect(findingFiles(report)).toEqual(['dist/index.js'])
      expect(folderLines(logs)).toEqual(['scanning dist/: the package has no source that compiles into it (no src/, no TypeScript)'])
    }
  })

  it('skips dist/ that the package compiles from src/, naming the tsconfig outDir', async () => {
    for (const { report, logs } of await scanBothWays({
      'package.json': packageJson('dist/index.js'),
      'tsconfig.json': '{\n  // compiled for Node\n  "compilerOptions": { "outDir": "./dist/", "rootDir": "src", },\n}\n',
      'src/index.ts': 'export function run(code: string) { return eval(code) }\n',
      'dist/index.js': 'exports.run = function (code) { return eval(code) }\n',
    })) {
      expect(findingFiles(report)).toEqual(['src/index.ts'])
      expect(folderLines(logs)).toEqual(['skipped dist/: compiled from src/ (tsconfig.json outDir)'])
    }
  })

  it('skips build/ of a package with TypeScript sources outside src/', async () => {
    for (const { report, logs } of await scanBothWays({
      'package.json': packageJson('build/index.js'),
      'index.ts': 'export function run(code: string) { return eval(code) }\n',
      'build/index.js': 'exports.run = function (code) { return eval(code) }\n',
    })) {
      expect(findingFiles(report)).toEqual(['index.ts'])
      expect(folderLines(logs)).toEqual(['skipped build/: compiled from TypeScript sources'])
    }
  })

  it('decides per package in a monorepo, and keeps folders without a package skipped', async () => {
    for (const { report, logs } of await scanBothWays({
      'package.json': JSON.stringify({ name: 'monorepo', private: true, workspaces: ['packages/*'] }),
      'packages/app/package.json': packageJson('dist/main.js'),
      'packages/app/src/main.js': 'eval(process.argv[2])\n',
      'packages/app/dist/main.js': 'eval(process.argv[2])\n',
      'packages/vendored-sdk/package.json': packageJson('dist/sdk.js'),
      'packages/vendored-sdk/dist/sdk.js': 'module.exports = (code) => eval(code)\n',
    })) {
      expect(findingFiles(report)).toEqual(['packages/app/src/main.js', 'packages/vendored-sdk/dist/sdk.js'])
      expect(folderLines(logs)).toEqual([
        'skipped packages/app/dist/: compiled from src/',
        'scanning packages/vendored-sdk/dist/: the package has no source that compiles into it (no src/, no TypeScript)',
      ])
    }
    for (const { report, logs } of await scanBothWays({ 'setup.py': 'from setuptools import setup\n', 'build/lib/x.js': 'eval(x)\n' })) {
      expect(findingFiles(report)).toEqual([])
      expect(folderLines(logs)).toEqual(['skipped build/: compiled or build output outside an npm package'])
    }
  })

  it('keeps minified files and folders such as node_modules skipped inside a scanned dist/', async () => {
    for (const { report } of await scanBothWays({
      'package.json': packageJson('dist/index.js'),
      'dist/index.js': 'module.exports = (code) => eval(code)\n',
      'dist/index.min.js': 'module.exports=(c)=>eval(c)',
      'dist/node_modules/dep/index.js': 'eval(x)\n',
    })) {
      expect(findingFiles(report)).toEqual(['dist/index.js'])
      expect(report.stats.skipped).toMatchObject({ minified: 1, vendored: 1 })
    }
  })
})
