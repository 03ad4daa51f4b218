/**
 * Bundles the dashboard (web/) into dist/web with esbuild: web/src/main.tsx and web/styles.css
 * become content-hashed files under dist/web/assets (cached for good by browsers), and
 * web/index.html is written with their names. Everything the page loads is served by our own
 * process: no CDN, works offline. Called by build.mjs.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { build } from 'esbuild'

/** The names index.html refers to, replaced by the hashed names of the bundle. */
const ENTRY_POINTS = { 'main.js': 'web/src/main.tsx', 'styles.css': 'web/styles.css' }

export async function buildDashboard(projectRoot, outDir) {
  const assetsDir = join(outDir, 'assets')
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(assetsDir, { recursive: true })
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints: Object.values(ENTRY_POINTS),
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome120', 'firefox120', 'safari16'],
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
  })
  const hashedNames = new Map()
  for (const [output, { entryPoint }] of Object.entries(result.metafile.outputs)) {
    const name = Object.entries(ENTRY_POINTS).find(([, source]) => source === entryPoint)?.[0]
    if (name) hashedNames.set(name, basename(output))
  }
  let page = readFileSync(join(projectRoot, 'web/index.html'), 'utf8')
  for (const [name, hashed] of hashedNames) page = page.replaceAll(`/assets/${name}`, `/assets/${hashed}`)
  writeFileSync(join(outDir, 'index.html'), page)
  const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
  return { files: [...hashedNames.values()].map((name) => relative(outDir, join(assetsDir, name))), bytes }
}
