/**
 * What a name is bound to in JavaScript and TypeScript: the data-flow analyzer must see the
 * canonical callee (`child_process.exec`, `eval`, `Function`) through the aliases hand-written
 * and compiled code use — require and import aliases, members taken off a module, renamed
 * destructuring, TypeScript's compiled helpers, `util.promisify`, indirect eval.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'

/** Scans one file with the data-flow analyzer only; returns `line ruleId` of each finding in it. */
async function dataFlowFindings(path: string, text: string): Promise<string[]> {
  const report = await scanSources([{ path, content: Buffer.from(text, 'utf8') }], { analyzers: ['dataflow'], ignoredDirs: [] })
  return report.findings.filter((finding) => finding.analyzer === 'dataflow').map((finding) => `${finding.lineNumber} ${finding.ruleId}`)
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
