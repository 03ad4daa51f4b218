/**
 * Bundles what a scan starts (the `parapet scan` command, the analysis worker and the modules
 * it loads on request) into dist/bundle with esbuild, from the sources tsc has just compiled to
 * dist/: Node then reads and compiles a few files at the start of a scan instead of the engine's
 * hundreds of modules and their dependencies' (zod alone is a hundred). Called by build.mjs.
 *
 * Bundled code behaves as its compiled file does:
 * - `import.meta.url` is the URL of the module's compiled file under dist/, so that files read
 *   from next to a module (the built-in rules) and module URLs (the worker, its tasks) are the
 *   compiled tree's;
 * - an import() with a computed specifier loads what the compiled file would load (a relative
 *   `.ts` specifier as `.js`, from the compiled file), or the bundle's own copy of it when that
 *   module is one of the entry points;
 * - native packages (@ast-grep) are loaded from node_modules, as from the compiled files.
 * The modules shared by the entry points are in chunks of their own: a task the worker imports
 * runs with the worker's modules, not a second copy of them.
 *
 * dist/bundle/entries.json maps each entry's compiled module (path under dist/) to its bundle
 * file: scan/worker-pool.ts starts workers and their tasks from it.
 */
import { readFile } from 'node:fs/promises'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { build } from 'esbuild'
import ts from 'typescript'

/** Bundle file name (without .js) -> source. */
const ENTRY_POINTS = {
  'scan-command': 'src/engine/cli/scan-command.ts',
  'analysis-worker': 'src/engine/scan/analysis-worker.ts',
  // the scan's repository stage, a task run on a worker
  'repository-stage': 'src/engine/scan/repository-stage.ts',
  // loaded by secrets/bridge.ts through a computed specifier
  'secrets-detector': 'src/engine/secrets/index.ts',
}
export const BUNDLE_FOLDER = 'bundle'
export const BUNDLE_MANIFEST = 'entries.json'
/** Packages with native code: loaded from node_modules at run time. */
const EXTERNAL_PACKAGES = ['@ast-grep/*']

/** The compiled file of a source, relative to dist/ (tsc's rootDir is the project). */
const compiledPath = (source) => source.replace(/\.([cm]?)tsx?$/, '.$1js')

/** Writes dist/bundle; `entryPoints` (bundle file name without .js -> source) are the scan's unless given. */
export async function bundleEntryPoints(projectRoot, distDir, entryPoints = ENTRY_POINTS) {
  const outDir = join(distDir, BUNDLE_FOLDER)
  rmSync(outDir, { recursive: true, force: true })
  const manifest = Object.fromEntries(Object.entries(entryPoints).map(([name, source]) => [compiledPath(source), `${name}.js`]))
  const result = await build({
    absWorkingDir: projectRoot,
    entryPoints,
    outdir: outDir,
    // every file in one folder: the rewritten URLs below are relative to it
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL_PACKAGES,
    banner: { js: chunkPrelude(manifest) },
    plugins: [asCompiled(projectRoot)],
    metafile: true,
    logLevel: 'warning',
  })
  writeFileSync(join(outDir, BUNDLE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
  const outputs = Object.entries(result.metafile.outputs)
  checkNoCommonJsGlobals(outputs.map(([path]) => join(projectRoot, path)))
  return { files: outputs.length, bytes: outputs.reduce((sum, [, output]) => sum + output.bytes, 0), modules: Object.keys(result.metafile.inputs).length }
}

/**
 * The start of every output file: `require` for the CommonJS packages bundled (yaml), and how a
 * computed import() specifier resolves (see the header).
 */
function chunkPrelude(manifest) {
  const entries = Object.entries(manifest).map(([compiled, file]) => `[new URL(${JSON.stringify(`../${compiled}`)}, import.meta.url).href, new URL(${JSON.stringify(`./${file}`)}, import.meta.url).href]`)
  return [
    "import { createRequire as __bundleCreateRequire } from 'node:module';",
    'const require = __bundleCreateRequire(import.meta.url);',
    `const __bundledEntries = new Map([${entries.join(', ')}]);`,
    'const __importTarget = (specifier, importer) => {',
    "  const compiled = /^\\.\\.?\\//.test(specifier) ? new URL(specifier.replace(/(?<!\\.d)\\.([cm]?)tsx?$/, '.$1js'), importer).href : specifier;",
    '  return __bundledEntries.get(compiled) ?? compiled;',
    '};',
  ].join('\n')
}

/** An esbuild plugin: the project's sources, with the rewrites of the header. */
function asCompiled(projectRoot) {
  return {
    name: 'as-compiled',
    setup(builder) {
      builder.onLoad({ filter: /\.[cm]?tsx?$/ }, async ({ path }) => {
        const text = await readFile(path, 'utf8')
        const source = relative(projectRoot, path)
        if (source.startsWith('..') || source.split(/[\\/]/).includes('node_modules')) return undefined
        const compiledUrl = `new URL(${JSON.stringify(`../${compiledPath(source.split('\\').join('/'))}`)}, import.meta.url).href`
        return { contents: rewriteModuleReferences(text, path, compiledUrl), loader: 'ts' }
      })
    },
  }
}

/** `import.meta.url` and computed import() specifiers rewritten (the header); other text as is. */
function rewriteModuleReferences(text, path, compiledUrl) {
  if (!text.includes('import.meta') && !text.includes('import(')) return text
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS)
  const edits = []
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && ts.isMetaProperty(node.expression) && node.expression.keywordToken === ts.SyntaxKind.ImportKeyword && node.name.text === 'url') {
      edits.push({ start: node.getStart(file), end: node.getEnd(), text: `(${compiledUrl})` })
      return
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments
      if (specifier && !ts.isStringLiteralLike(specifier)) {
        edits.push({ start: specifier.getStart(file), end: specifier.getStart(file), text: '__importTarget(' })
        edits.push({ start: specifier.getEnd(), end: specifier.getEnd(), text: `, ${compiledUrl})` })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  let rewritten = text
  // from the end, a replacement before an insertion at its start: every offset stays the original text's
  for (const edit of edits.sort((a, b) => b.start - a.start || b.end - a.end)) rewritten = rewritten.slice(0, edit.start) + edit.text + rewritten.slice(edit.end)
  return rewritten
}

/** CommonJS's module globals do not exist in an ES module: a bundled package using them would fail at run time. */
function checkNoCommonJsGlobals(files) {
  for (const file of files) {
    const found = readFileSync(file, 'utf8').match(/\b(__dirname|__filename)\b/)
    if (found) throw new Error(`${file} uses ${found[1]}, which bundled code does not have: leave its package out of the bundle (EXTERNAL_PACKAGES)`)
  }
}
