/**
 * The build's bundle of what a scan starts (scripts/build-bundle.mjs) and the `parapet` command's
 * choice of what runs (bin/parapet.js): bundled code finds files and modules as its compiled file
 * does, and `parapet scan` runs the bundle only from a build of the current sources.
 */
import { spawnSync } from 'node:child_process'
import { cpSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { projectRoot } from './support/cli.ts'
import { tempTree } from './support/helpers.ts'

interface BuildScripts {
  bundleEntryPoints(projectRoot: string, distDir: string, entryPoints: Record<string, string>): Promise<unknown>
  inputSignature(root: string): string
}

/** The build scripts are plain JavaScript: imported by URL. */
async function buildScript(name: string): Promise<BuildScripts> {
  return (await import(pathToFileURL(join(projectRoot, 'scripts', name)).href)) as BuildScripts
}

describe('the scan bundle', () => {
  it('reads files from beside the compiled modules, and a computed import() loads the bundled entry or else the compiled file', async () => {
    const root = tempTree({
      'src/engine/shared.ts': 'export const state = { loads: 0 }\n',
      'src/engine/start.ts': [
        "import { readFileSync } from 'node:fs'",
        "import { state } from './shared.ts'",
        'export const location = import.meta.url',
        "export const data = readFileSync(new URL('./data.txt', import.meta.url), 'utf8')",
        'export { state }',
        '// computed, as secrets/bridge.ts loads the detector',
        'export async function load(name: string) {',
        '  const specifier = `./${name}.ts`',
        '  return await import(specifier)',
        '}',
        '',
      ].join('\n'),
      'src/engine/task.ts': "import { state } from './shared.ts'\nstate.loads++\nexport { state }\n",
      'src/engine/other.ts': 'export const from = "the sources"\n',
      'dist/src/engine/data.txt': 'beside the compiled start.js',
      'dist/src/engine/other.js': 'export const from = "the compiled file"\n',
    })
    const { bundleEntryPoints } = await buildScript('build-bundle.mjs')
    await bundleEntryPoints(root, join(root, 'dist'), { start: 'src/engine/start.ts', task: 'src/engine/task.ts' })
    expect(JSON.parse(readFileSync(join(root, 'dist/bundle/entries.json'), 'utf8'))).toEqual({ 'src/engine/start.js': 'start.js', 'src/engine/task.js': 'task.js' })

    const start = await import(pathToFileURL(join(root, 'dist/bundle/start.js')).href)
    expect(start.location).toBe(pathToFileURL(join(root, 'dist/src/engine/start.js')).href)
    expect(start.data).toBe('beside the compiled start.js')
    // the bundled task, with the same modules as its importer: one copy of the shared state
    const task = await start.load('task')
    expect(task.state).toBe(start.state)
    expect(start.state.loads).toBe(1)
    expect((await start.load('other')).from).toBe('the compiled file')
  })

  it('starts a scan without the rule schema library: built-in rules come from the cache, and zod loads on the first rule checked', async () => {
    const dist = join(tempTree({ 'dist/.keep': '' }), 'dist')
    const { bundleEntryPoints } = await buildScript('build-bundle.mjs')
    await bundleEntryPoints(projectRoot, dist, { 'scan-command': 'src/engine/cli/scan-command.ts', 'analysis-worker': 'src/engine/scan/analysis-worker.ts' })
    const bundled = readdirSync(join(dist, 'bundle'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => readFileSync(join(dist, 'bundle', name), 'utf8'))
      .join('\n')
    // the rule schema itself is in the bundle: only the library is left out
    expect(bundled).toContain('must be dot-separated words')
    expect(bundled).not.toContain('$ZodError')
  })
})

describe('bin/parapet.js', () => {
  /** A project with the command, stand-ins for the sources, the compiled CLI and the scan bundle, each saying which it is. */
  function project(): string {
    const root = tempTree({
      'package.json': JSON.stringify({ type: 'module' }),
      'src/cli/main.ts': "process.stdout.write(`sources: ${process.argv.slice(2).join(' ')}`)\n",
      'dist/src/cli/main.js': "process.stdout.write(`compiled: ${process.argv.slice(2).join(' ')}`)\n",
      'dist/bundle/scan-command.js': 'export async function runCli(args, io) {\n  io.stdout(`bundle: ${args.join(" ")}`)\n  return 0\n}\n',
    })
    cpSync(join(projectRoot, 'bin'), join(root, 'bin'), { recursive: true })
    cpSync(join(projectRoot, 'scripts/build-signature.mjs'), join(root, 'scripts/build-signature.mjs'))
    symlinkSync(join(projectRoot, 'node_modules'), join(root, 'node_modules'))
    return root
  }

  async function stampBuild(root: string): Promise<void> {
    const { inputSignature } = await buildScript('build-signature.mjs')
    writeFileSync(join(root, 'dist/build-stamp.json'), JSON.stringify({ signature: inputSignature(root) }))
  }

  function parapet(root: string, args: string[]): string {
    const result = spawnSync(process.execPath, [join(root, 'bin/parapet.js'), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 })
    expect(result.status, result.stderr).toBe(0)
    return result.stdout
  }

  it('runs a scan from the bundle of a current build, and the other commands from the compiled CLI', async () => {
    const root = project()
    await stampBuild(root)
    expect(parapet(root, ['scan', 'some/dir', '--verbose'])).toBe('bundle: some/dir --verbose')
    expect(parapet(root, ['keys', 'list'])).toBe('compiled: keys list')
  })

  it('runs the sources when the build is older than them, or there is none', async () => {
    const root = project()
    await stampBuild(root)
    writeFileSync(join(root, 'src/cli/main.ts'), "process.stdout.write(`edited sources: ${process.argv.slice(2).join(' ')}`)\n")
    expect(parapet(root, ['scan', 'some/dir'])).toBe('edited sources: scan some/dir')
    const unbuilt = project()
    expect(parapet(unbuilt, ['scan', 'some/dir'])).toBe('sources: scan some/dir')
  })
})
