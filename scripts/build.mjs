/**
 * `npm run build` (also run by npm at install, and before `npm start`): compiles the TypeScript
 * sources to dist/ (tsc -p tsconfig.build.json, incremental; `.ts` import specifiers become
 * `.js`), copies the files read at run time next to the code that reads them (built-in rules,
 * the GraphQL schema), writes the built-in rules' cache (src/engine/rules/loader.ts), bundles
 * what a scan starts into dist/bundle (build-bundle.mjs) and the dashboard into dist/web
 * (build-web.mjs), and last the stamp that says which sources dist/ holds (build-signature.mjs).
 * Nothing to do when the stamp matches the sources; `--force` builds anyway.
 *
 *   node scripts/build.mjs [--force] [--quiet]
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { extname, join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { DIST_DIR, PROJECT_ROOT, STAMP_FILE, builtSignature, inputSignature } from './build-signature.mjs'
import { BUNDLE_FOLDER, bundleEntryPoints } from './build-bundle.mjs'
import { buildDashboard } from './build-web.mjs'

const args = new Set(process.argv.slice(2))
const quiet = args.has('--quiet')
const say = (text) => quiet || process.stderr.write(`build: ${text}\n`)

/** Files that are read at run time from next to the module that reads them. */
const RESOURCES = [
  { from: 'src', keep: (path) => /\.ya?ml$/.test(path) },
  { from: 'schema', keep: () => true },
]
/** Trees tsc compiles into dist/ (tsconfig.build.json's `include`). */
const COMPILED = ['src', 'worker', 'migrations']

function compile() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc')
  const result = spawnSync(process.execPath, [tsc, '-p', join(PROJECT_ROOT, 'tsconfig.build.json')], { stdio: 'inherit', cwd: PROJECT_ROOT })
  if (result.status !== 0) {
    say('tsc failed: dist/ is not marked as built')
    process.exit(result.status ?? 1)
  }
}

function copyResources() {
  for (const { from, keep } of RESOURCES) {
    cpSync(join(PROJECT_ROOT, from), join(DIST_DIR, from), {
      recursive: true,
      filter: (source) => !extname(source) || keep(source),
    })
  }
}

/** Compiled files whose source was removed would otherwise stay importable. */
function removeOrphans(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) {
      removeOrphans(path)
      continue
    }
    const source = join(PROJECT_ROOT, relative(DIST_DIR, path))
    const sourceExists = entry.name.endsWith('.js') ? existsSync(source.replace(/\.js$/, '.ts')) : existsSync(source)
    if (!sourceExists) rmSync(path)
  }
}

/** The built-in rules validated once here, so that a process starts without parsing their YAML. */
async function writeRulesCache() {
  const loader = pathToFileURL(join(DIST_DIR, 'src/engine/rules/loader.js')).href
  const { writeBuiltinRulesCache } = await import(loader)
  const { rules, problems } = writeBuiltinRulesCache()
  say(`built-in rules cached: ${rules.length} rules${problems.length > 0 ? `, ${problems.length} problems (reported by every scan)` : ''}`)
}

// Taken before compiling: a source edited during the build leaves the stamp behind it.
const signature = inputSignature()
if (!args.has('--force') && builtSignature() === signature) {
  say('dist/ is up to date')
  process.exit(0)
}
const started = performance.now()
rmSync(STAMP_FILE, { force: true })
// a build that fails leaves no bundle of older sources beside the new compiled files
rmSync(join(DIST_DIR, BUNDLE_FOLDER), { recursive: true, force: true })
compile()
copyResources()
for (const folder of [...COMPILED, ...RESOURCES.map((resource) => resource.from)]) {
  if (existsSync(join(DIST_DIR, folder))) removeOrphans(join(DIST_DIR, folder))
}
await writeRulesCache()
const bundle = await bundleEntryPoints(PROJECT_ROOT, DIST_DIR)
say(`scan entry points bundled: ${bundle.modules} modules in ${bundle.files} files (${(bundle.bytes / 1024).toFixed(0)} KiB)`)
const dashboard = await buildDashboard(PROJECT_ROOT, join(DIST_DIR, 'web'))
say(`dashboard bundled: ${dashboard.files.join(', ')} (${(dashboard.bytes / 1024).toFixed(0)} KiB)`)
writeFileSync(STAMP_FILE, `${JSON.stringify({ signature, builtAt: new Date().toISOString() })}\n`)
say(`dist/ built in ${((performance.now() - started) / 1000).toFixed(1)} s`)
