/**
 * What a name is bound to in JavaScript and TypeScript: the data-flow analyzer must see the
 * canonical callee (`child_process.exec`, `eval`, `Function`) through the aliases hand-written
 * and compiled code use — require and import aliases, members taken off a module, renamed
 * destructuring, TypeScript's compiled helpers, `util.promisify`, indirect eval.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'

/** Scans the files with the data-flow analyzer only; returns `path:line ruleId` of each finding. */
async function findingsIn(files: Record<string, string>): Promise<string[]> {
  const sources = Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text, 'utf8') }))
  const report = await scanSources(sources, { analyzers: ['dataflow'], ignoredDirs: [] })
  return report.findings.filter((finding) => finding.analyzer === 'dataflow').map((finding) => `${finding.filePath}:${finding.lineNumber} ${finding.ruleId}`)
}

/** Scans one file with the data-flow analyzer only; returns `line ruleId` of each finding in it. */
async function dataFlowFindings(path: string, text: string): Promise<string[]> {
  return (await findingsIn({ [path]: text })).map((finding) => finding.slice(path.length + 1))
}

/**
 * An express handler whose `input` comes from the query string; `binding` lines go first, `sink`
 * is the handler's first line after it. Statements end with `;` as compiled code's do (a line
 * starting with `(` would otherwise continue the one before it).
 */
function expressApp(binding: string, sink: string): { text: string; sinkLine: number } {
  const head = `${binding}\nconst express = require('express')\nconst app = express()\napp.get('/run', (req, res) => {\n  const input = req.query.input;\n`
  return { text: `${head}  ${sink}\n  res.send('ok')\n})\n`, sinkLine: head.split('\n').length }
}

function esmApp(binding: string, sink: string): { text: string; sinkLine: number } {
  const head = `${binding}\nimport express from 'express'\nconst app = express()\napp.get('/run', (req, res) => {\n  const input = req.query.input;\n`
  return { text: `${head}  ${sink}\n  res.send('ok')\n})\n`, sinkLine: head.split('\n').length }
}

describe('command sinks reached through a name bound to child_process', () => {
  it.each([
    ['a require alias', "const shell = require('child_process')", 'shell.execSync(input)'],
    ['a member taken off the require', "const proc = require('child_process').exec", 'proc(input)'],
    ['a destructured member', "const { exec } = require('child_process')", 'exec(input)'],
    ['a renamed destructured member', "const { exec: run } = require('node:child_process')", 'run(input)'],
    ['an alias of an alias', "const cp = require('child_process')\nconst run = cp.execSync", 'run(input)'],
    ["TypeScript's compiled require", 'const child_process_1 = require("child_process")', 'child_process_1.execSync(input)'],
    ["TypeScript's compiled call through (0, member)", 'const child_process_1 = require("child_process")', '(0, child_process_1.exec)(input)'],
    ['__importStar', 'const cp = __importStar(require("child_process"))', 'cp.exec(input)'],
    ['__importDefault', 'const cp = __importDefault(require("child_process"))', 'cp.default.exec(input)'],
    ['util.promisify of a member', "const util = require('util')\nconst cp = require('child_process')\nconst run = util.promisify(cp.exec)", 'run(input)'],
    ['a destructured promisify of a destructured exec', "const { promisify } = require('util')\nconst { exec } = require('child_process')\nconst run = promisify(exec)", 'run(input)'],
  ])('in CommonJS: %s', async (_, binding, sink) => {
    const app = expressApp(binding, sink)
    expect(await dataFlowFindings('app.js', app.text)).toEqual([`${app.sinkLine} dataflow.javascript.command-injection`])
  })

  it.each([
    ['a namespace import', "import * as cp from 'node:child_process'", 'cp.execSync(input)'],
    ['a renamed named import', "import { exec as run } from 'child_process'", 'run(input)'],
    ['a default import', "import cp from 'child_process'", 'cp.exec(input)'],
    ['promisify of a named import', "import { promisify } from 'node:util'\nimport { exec } from 'node:child_process'\nconst run = promisify(exec)", 'run(input)'],
  ])('in ES modules: %s', async (_, binding, sink) => {
    const app = esmApp(binding, sink)
    expect(await dataFlowFindings('app.mjs', app.text)).toEqual([`${app.sinkLine} dataflow.javascript.command-injection`])
  })

  it.each([
    ['a local function named exec', 'function exec(s) { return s }', 'exec(input)'],
    ['an alias of a safe member', "const cp = require('child_process')\nconst run = cp.execFileSync", "run('ls', [input])"],
    ['a module of the same shape that is not child_process', "const shell = require('./shell')", 'shell.execSync(input)'],
  ])('not through %s', async (_, binding, sink) => {
    const app = expressApp(binding, sink)
    expect(await dataFlowFindings('app.js', app.text)).toEqual([])
  })
})

describe('code sinks reached indirectly', () => {
  it.each([
    ['indirect eval', '', '(0, eval)(input)'],
    ['Function called without new', '', "Function('a', 'return ' + input)"],
    ['new Function', '', "new Function('a', 'return ' + input)"],
    ['an alias of eval', 'const evaluate = eval', 'evaluate(input)'],
  ])('%s', async (_, binding, sink) => {
    const app = expressApp(binding, sink)
    expect(await dataFlowFindings('app.js', app.text)).toEqual([`${app.sinkLine} dataflow.javascript.code-injection`])
  })
})

describe('names bound in another file', () => {
  it.each([
    ['a member of require exported through module.exports', 'lib/shell.js', "module.exports.run = require('child_process').exec\n", "const { run } = require('./lib/shell')", 'app.js'],
    ['a promisified import exported', 'src/shell.ts', "import { promisify } from 'util'\nimport { exec } from 'child_process'\nexport const run = promisify(exec)\n", "import { run } from './shell'", 'src/app.ts'],
    ['a renamed re-export of a package member', 'src/shell.ts', "export { exec as run } from 'node:child_process'\n", "import { run } from './shell'", 'src/app.ts'],
    ['a re-export of a project function', 'src/index.ts', "export { runCommand as run } from './commands'\n", "import { run } from './index'", 'src/app.ts'],
  ])('%s', async (_, libraryPath, library, binding, appPath) => {
    const app = expressApp(binding, 'run(input)')
    const files = { [libraryPath]: library, 'src/commands.ts': "import { execSync } from 'child_process'\nexport function runCommand(command: string) {\n  return execSync(command)\n}\n", [appPath]: app.text }
    const language = appPath.endsWith('.ts') ? 'typescript' : 'javascript'
    const sink = libraryPath === 'src/index.ts' ? `src/commands.ts:3 dataflow.typescript.command-injection` : `${appPath}:${app.sinkLine} dataflow.${language}.command-injection`
    expect(await findingsIn(files)).toEqual([sink])
  })

  it('through a namespace re-export', async () => {
    const app = expressApp("import { shell } from './index'", 'shell.execSync(input)')
    expect(await findingsIn({ 'src/index.ts': "export * as shell from 'child_process'\n", 'src/app.ts': app.text })).toEqual([`src/app.ts:${app.sinkLine} dataflow.typescript.command-injection`])
  })
})
