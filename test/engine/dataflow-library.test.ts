/**
 * Library mode: in a package (a package.json naming an entry, no server started), what callers
 * pass to the exported API is untrusted. Made-up packages through scanSources (and the CLI):
 * which exports count, which findings they give, with which confidence and explanation, and
 * the flows through prototype methods, options objects and helpers of other files.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import type { LibrarySources } from '../../src/engine/dataflow/index.ts'
import { source, tempTree } from './support/helpers.ts'
import { runCli } from './support/cli.ts'

type Files = Record<string, string>

const LIBRARY_PACKAGE = JSON.stringify({ name: 'made-up-lib', version: '1.0.0', main: 'index.js' })

async function scan(files: Files, packageApiSources?: LibrarySources): Promise<Finding[]> {
  const report = await scanSources(
    Object.entries(files).map(([path, text]) => source(path, text)),
    { analyzers: ['dataflow'], workers: 0, ...(packageApiSources ? { packageApiSources } : {}) },
  )
  return report.findings
}

/** `path:line category` of the library findings. */
function reported(findings: readonly Finding[]): string[] {
  return findings.filter((finding) => finding.tags.includes('library-argument')).map((finding) => `${finding.filePath}:${finding.lineNumber} ${finding.category}`)
}

describe('exported functions of a library package', () => {
  it('makes the arguments of an exported function sources, naming the function, with a lower confidence', async () => {
    const findings = await scan({
      'package.json': LIBRARY_PACKAGE,
      'index.js': "const cp = require('child_process')\n\nfunction checkout(branch) {\n  return cp.execSync('git checkout ' + branch)\n}\n\nmodule.exports = { checkout }\n",
    })
    expect(reported(findings)).toEqual(['index.js:4 command-injection'])
    const finding = findings[0] as Finding
    expect(finding.confidence).toBe(0.6)
    expect(finding.explanation).toContain('argument `branch` of exported function `checkout` (index.js)')
  })

  it.each([
    ['module.exports = fn', "module.exports = function build(name) {\n  return fs.readFileSync('/srv/' + name)\n}\n", 'index.js:3 path-traversal'],
    ['exports.name = fn', "exports.load = function (id) {\n  return fs.readFileSync(`data/${id}.json`)\n}\n", 'index.js:3 path-traversal'],
    ['an exported class method', "class Store {\n  read(name) {\n    return fs.readFileSync(name)\n  }\n}\nmodule.exports = Store\n", 'index.js:4 path-traversal'],
    ['a prototype method', "function Store() {}\nStore.prototype.read = function (name) {\n  return fs.readFileSync(name)\n}\nmodule.exports = Store\n", 'index.js:4 path-traversal'],
    ['a UMD wrapper\'s factory', ";(function (root, factory) {\n  if (typeof module === 'object' && module.exports) module.exports = factory()\n  else root.store = factory()\n})(this, function () {\n  return { read: function (name) { return fs.readFileSync('data/' + name) } }\n})\n", 'index.js:6 path-traversal'],
    ['an immediately invoked function assigning module.exports, with helpers declared inside', ";(function (isNode) {\n  var Store = function () {}\n  Store.read = function (name) { return load(name) }\n  function load(name) { return fs.readFileSync('data/' + name) }\n  if (isNode) module.exports = Store\n  else window.store = Store\n})(typeof module === 'object' && module.exports)\n", 'index.js:5 path-traversal'],
    ['a member given later to the object module.exports holds, through a variable assigned with it', "var api = module.exports = { get: {} }\napi.get.file = function (name) {\n  return fs.readFileSync('data/' + name)\n}\n", 'index.js:4 path-traversal'],
    ['a member given later to the object module.exports was assigned', "const api = {}\nmodule.exports = api\napi.read = function (name) {\n  return fs.readFileSync('data/' + name)\n}\n", 'index.js:5 path-traversal'],
    ['a member given to an exported function declared below', "module.exports = load\nload.raw = raw\nfunction load(id) {\n  return JSON.parse(fs.readFileSync('data/ids.json'))[id]\n}\nfunction raw(id) {\n  return fs.readFileSync('data/' + id)\n}\n", 'index.js:8 path-traversal'],
  ])('%s', async (_, body, expected) => {
    const findings = await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': `const fs = require('fs')\n${body}` })
    expect(reported(findings)).toEqual([expected])
  })

  it('follows ES re-exports from the entry file and a TypeScript source of a compiled main', async () => {
    const findings = await scan({
      'package.json': JSON.stringify({ name: 'made-up-ts', main: 'dist/index.js', types: 'dist/index.d.ts' }),
      'src/index.ts': "export { evaluate } from './evaluate'\n",
      'src/evaluate.ts': 'export function evaluate(formula: string): unknown {\n  return eval(`(${formula})`)\n}\n',
    })
    expect(reported(findings)).toEqual(['src/evaluate.ts:2 code-injection'])
  })

  it('reports the field of an options object that reaches the sink', async () => {
    const findings = await scan({
      'package.json': LIBRARY_PACKAGE,
      'index.js': "const { exec } = require('child_process')\nmodule.exports = function open(options) {\n  exec('xdg-open ' + options.target)\n}\n",
    })
    expect(reported(findings)).toEqual(['index.js:3 command-injection'])
    expect(findings[0]?.explanation).toContain('field `target` of argument `options` of exported function `open`')
  })

  it('leaves arguments named for what the sink takes: the API does what the caller asked', async () => {
    const findings = await scan({
      'package.json': LIBRARY_PACKAGE,
      'index.js': "const fs = require('fs')\nconst cp = require('child_process')\nexports.read = (file) => fs.readFileSync(file)\nexports.spawn = (command, options) => cp.execSync(command, { cwd: options.cwd })\nexports.copy = (opts) => fs.copyFileSync(opts.src, opts.dest)\n",
    })
    expect(reported(findings)).toEqual([])
  })

  it('leaves an options field named for the program to run (exec, program)', async () => {
    const findings = await scan({
      'package.json': LIBRARY_PACKAGE,
      'index.js': "const cp = require('child_process')\nexports.notify = (message, options) => cp.spawn(options.exec, [message])\nexports.run = (program, args) => cp.spawn(program, args)\n",
    })
    expect(reported(findings)).toEqual([])
  })

  it('reads the program of an argument list from its first position, which appends leave in place', async () => {
    const notify = (first: string) =>
      `const { spawn } = require('child_process')\nconst app = require('express')()\napp.post('/notify', (req, res) => {\n  const args = [${first}]\n  if (req.body.priority) args.push('--priority', req.body.priority)\n  args.push(req.body.message)\n  const program = args.shift()\n  spawn(program, args)\n  res.end()\n})\n`
    const commands = async (first: string) =>
      (await scan({ 'app.js': notify(first) })).map((finding) => `${finding.filePath}:${finding.lineNumber} ${finding.category}`)
    expect(await commands("'notify-send'")).toEqual([])
    expect(await commands('req.body.title')).toEqual(['app.js:8 command-injection'])
  })

  it("leaves the program a caller chooses to run, and finds the caller's text where a shell parses it", async () => {
    const notify = (run: string) =>
      `const cp = require('child_process')\nfunction notify(message, options) {\n  const command = options.template.replace('%s', message)\n  const words = command.split(' ')\n  return ${run}\n}\nmodule.exports = notify\n`
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': notify('cp.spawn(words.shift(), words)') }))).toEqual([])
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': notify("cp.spawn(words.shift(), words, { shell: true })") }))).toEqual(['index.js:5 command-injection'])
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': notify("cp.spawn(command, [], { shell: true })") }))).toEqual(['index.js:5 command-injection'])
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': notify('cp.exec(command)') }))).toEqual(['index.js:5 command-injection'])
  })

  it('takes JSON.stringify as the escaping of text compiled into code: its result is a string literal', async () => {
    const compile = (quoted: string) => `function compile(format) {\n  const body = 'return ' + ${quoted}\n  return new Function('tokens', body)\n}\nmodule.exports = { compile }\n`
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': compile('JSON.stringify(format)') }))).toEqual([])
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': compile(`'"' + format.replace(/"/g, '\\\\"') + '"'`) }))).toEqual(['index.js:3 code-injection'])
  })

  it('leaves a callback checked to be a function before it is scheduled', async () => {
    const schedule = (check: string) => `module.exports = function every(task, ms) {\n  ${check}\n  return setInterval(task, ms)\n}\n`
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': schedule("if (typeof task !== 'function') throw new TypeError('task')") }))).toEqual([])
    expect(reported(await scan({ 'package.json': LIBRARY_PACKAGE, 'index.js': schedule("if (!task) throw new TypeError('task')") }))).toEqual(['index.js:3 code-injection'])
  })

  it('leaves functions the package does not export, and sink kinds that depend on the caller', async () => {
    const findings = await scan({
      'package.json': LIBRARY_PACKAGE,
      'index.js': "const fs = require('fs')\nfunction internal(p) {\n  return fs.readFileSync(p)\n}\nfunction log(message) {\n  console.log(message)\n}\nmodule.exports = { log }\n",
    })
    expect(reported(findings)).toEqual([])
  })
})

describe('when library mode applies', () => {
  const files = {
    'package.json': LIBRARY_PACKAGE,
    'index.js': "const cp = require('child_process')\nexports.tag = (name) => cp.execSync('git tag ' + name)\n",
  }

  it('not in an application that starts a server', async () => {
    const app = { ...files, 'server.js': "const express = require('express')\nconst app = express()\napp.listen(3000)\n" }
    expect(reported(await scan(app))).toEqual([])
    expect(reported(await scan(app, 'always'))).toEqual(['index.js:2 command-injection'])
  })

  it('not without a package.json naming an entry, unless always', async () => {
    const loose = { 'index.js': files['index.js'] }
    expect(reported(await scan(loose))).toEqual([])
    expect(reported(await scan(loose, 'always'))).toEqual(['index.js:2 command-injection'])
  })

  it('never when turned off', async () => {
    expect(reported(await scan(files, 'never'))).toEqual([])
  })

  it('in each package of a monorepo, not in its server', async () => {
    const findings = await scan({
      'package.json': JSON.stringify({ private: true, workspaces: ['packages/*'] }),
      'packages/util/package.json': JSON.stringify({ name: 'util', exports: { '.': { require: './lib/index.js' } } }),
      'packages/util/lib/index.js': "const cp = require('child_process')\nexports.tag = (name) => cp.execSync('git tag ' + name)\n",
      'packages/api/package.json': JSON.stringify({ name: 'api', main: 'main.js' }),
      'packages/api/main.js': "const cp = require('child_process')\nconst app = require('express')()\nexports.tag = (name) => cp.execSync('git tag ' + name)\napp.listen(8080)\n",
    })
    expect(reported(findings)).toEqual(['packages/util/lib/index.js:2 command-injection'])
  })
})

describe('flows across functions and files', () => {
  it('a path handed to a prototype method through this', async () => {
    const findings = await scan({
      'package.json': LIBRARY_PACKAGE,
      'index.js': [
        "const fs = require('fs')",
        'function Cache(root) { this.root = root }',
        'Cache.prototype.load = function (name) {',
        "  return this.read(this.root + '/' + name)",
        '}',
        'Cache.prototype.read = function (file) {',
        '  return fs.readFileSync(file)',
        '}',
        'module.exports = Cache',
        '',
      ].join('\n'),
    })
    expect(reported(findings)).toContain('index.js:7 path-traversal')
  })

  it('an options object built by the exported function and read by a helper', async () => {
    const findings = await scan({
      'package.json': LIBRARY_PACKAGE,
      'index.js': "const { spawnShell } = require('./lib/shell')\nexports.build = function (target) {\n  return spawnShell({ cmd: 'make ' + target })\n}\n",
      'lib/shell.js': "const cp = require('child_process')\nexports.spawnShell = function (opts) {\n  return cp.execSync(opts.cmd)\n}\n",
    })
    expect(reported(findings)).toEqual(['lib/shell.js:3 command-injection'])
    expect(findings[0]?.tags).toContain('cross-file')
  })

  it('a helper in another file, imported with ES modules', async () => {
    const findings = await scan({
      'package.json': JSON.stringify({ name: 'made-up-esm', type: 'module', exports: './index.mjs' }),
      'index.mjs': "import { readInside } from './files.mjs'\nexport default function read(name) {\n  return readInside('/srv/data/' + name)\n}\n",
      'files.mjs': "import { readFileSync } from 'node:fs'\nexport function readInside(path) {\n  return readFileSync(path, 'utf8')\n}\n",
    })
    expect(reported(findings)).toEqual(['files.mjs:3 path-traversal'])
  })
})

describe('the CLI', () => {
  it('takes --library-sources auto|always|never', { timeout: 200_000 }, () => {
    const dir = tempTree({ 'package.json': LIBRARY_PACKAGE, 'index.js': "const cp = require('child_process')\nexports.tag = (name) => cp.execSync('git tag ' + name)\n" })
    const categories = (mode: string) => {
      const run = runCli([dir, '--format', 'json', '--analyzers', 'dataflow', '--library-sources', mode], 90_000)
      return (JSON.parse(run.stdout) as { findings: Finding[] }).findings.map((finding) => finding.category)
    }
    expect(categories('auto')).toEqual(['command-injection'])
    expect(categories('never')).toEqual([])
    expect(runCli([dir, '--library-sources', 'sometimes']).status).toBe(2)
  })
})
