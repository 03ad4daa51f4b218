/**
 * Whether a scan reads a package's compiled output (dist/, build/). Such a folder is skipped when
 * the package holds the code it was compiled from (TypeScript sources, a src/ folder): findings
 * there would repeat the source's, on code nobody edits. A published package often ships only
 * its compiled output (a tarball of dist/ and package.json): then it is the only copy of the
 * code, and it is scanned.
 *
 * Vocabulary: a compiled folder is the outermost folder of a path named like compiled output
 * (COMPILED_OUTPUT_DIRS) that the scan would otherwise not enter; its package is the nearest
 * folder above it holding a package.json. A folder without a package (a Python or Gradle build/)
 * stays skipped: only npm packages are known to ship their code compiled.
 */
import { baseNameOf } from './file-selection.ts'

/** Folder names of compiled output, entered only when nothing in their package compiles into them. */
export const COMPILED_OUTPUT_DIRS: readonly string[] = ['dist', 'build']

export interface CompiledFolderDecision {
  /** the compiled folder, relative to the scan root */
  folder: string
  scan: boolean
  /** why, for the scan's log: "compiled from src/ (tsconfig.json outDir)" */
  reason: string
}

/**
 * The compiled folder holding `path` (relative, forward slashes), or null when the path is not in
 * one or is also in a folder the scan never enters (node_modules inside dist/).
 */
export function compiledFolderOf(path: string, ignoredDirs: ReadonlySet<string>): string | null {
  const parts = path.split('/')
  parts.pop()
  let folder: string | null = null
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index] as string
    if (!ignoredDirs.has(part)) continue
    if (!COMPILED_OUTPUT_DIRS.includes(part)) return null
    folder ??= parts.slice(0, index + 1).join('/')
  }
  return folder
}

/** A folder name the walk enters to decide later, instead of skipping it at once. */
export function isCompiledOutputDir(name: string, ignoredDirs: ReadonlySet<string>): boolean {
  return ignoredDirs.has(name) && COMPILED_OUTPUT_DIRS.includes(name)
}

const TYPESCRIPT_SOURCE = /\.(?:ts|tsx|mts|cts)$/
const DECLARATION = /\.d\.(?:ts|mts|cts)$/
const SOURCE_SCRIPT = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/
const TSCONFIG = /^tsconfig(?:\.[\w-]+)?\.json$/

/** A tsconfig file, whose outDir may name a compiled folder. */
export function isTsconfigPath(path: string): boolean {
  return TSCONFIG.test(baseNameOf(path))
}

/**
 * Decides every compiled folder from the paths the scan saw outside compiled folders (those it
 * reads as usual) and the text of their tsconfig files (`configText`, by path).
 */
export function decideCompiledFolders(
  compiledFolders: Iterable<string>,
  otherPaths: readonly string[],
  configText: (path: string) => string | undefined,
): CompiledFolderDecision[] {
  const folders = [...new Set(compiledFolders)]
  if (folders.length === 0) return []
  const packageDirs = new Set(otherPaths.filter((path) => baseNameOf(path) === 'package.json').map(parentOf))
  const pathsByPackage = new Map<string, string[]>()
  for (const path of otherPaths) {
    const packageDir = owningPackage(parentOf(path), packageDirs)
    if (packageDir === null) continue
    const paths = pathsByPackage.get(packageDir)
    if (paths) paths.push(path)
    else pathsByPackage.set(packageDir, [path])
  }
  const decisions: CompiledFolderDecision[] = []
  for (const folder of folders) {
    const packageDir = owningPackage(parentOf(folder), packageDirs)
    if (packageDir === null) {
      decisions.push({ folder, scan: false, reason: 'compiled or build output outside an npm package' })
      continue
    }
    const own = pathsByPackage.get(packageDir) ?? []
    const source = sourceOf(packageDir, own)
    if (source === null) {
      decisions.push({ folder, scan: true, reason: 'the package has no source that compiles into it (no src/, no TypeScript)' })
      continue
    }
    const tsconfig = own.find((path) => parentOf(path) === packageDir && TSCONFIG.test(baseNameOf(path)) && outDirOf(configText(path)) === relativeTo(packageDir, folder))
    decisions.push({ folder, scan: false, reason: `compiled from ${source}${tsconfig ? ` (${baseNameOf(tsconfig)} outDir)` : ''}` })
  }
  return decisions
}

/** "src/" or "TypeScript sources" when the package holds code that compiles into its output. */
function sourceOf(packageDir: string, paths: readonly string[]): string | null {
  const srcPrefix = packageDir === '' ? 'src/' : `${packageDir}/src/`
  if (paths.some((path) => path.startsWith(srcPrefix) && SOURCE_SCRIPT.test(path) && !DECLARATION.test(path))) return 'src/'
  if (paths.some((path) => TYPESCRIPT_SOURCE.test(path) && !DECLARATION.test(path))) return 'TypeScript sources'
  return null
}

/** The nearest folder from `dir` up holding a package.json ('' is the scan root), or null. */
function owningPackage(dir: string, packageDirs: ReadonlySet<string>): string | null {
  for (let current: string | null = dir; current !== null; current = current === '' ? null : parentOf(current)) {
    if (packageDirs.has(current)) return current
  }
  return null
}

function parentOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash === -1 ? '' : path.slice(0, slash)
}

function relativeTo(dir: string, path: string): string {
  return dir === '' ? path : path.slice(dir.length + 1)
}

/** compilerOptions.outDir of a tsconfig, normalized ("./dist/" -> "dist"), or null. */
export function outDirOf(text: string | undefined): string | null {
  if (text === undefined) return null
  let config: unknown
  try {
    config = JSON.parse(withoutCommentsAndTrailingCommas(text))
  } catch {
    return null
  }
  const outDir = (config as { compilerOptions?: { outDir?: unknown } } | null)?.compilerOptions?.outDir
  if (typeof outDir !== 'string') return null
  return outDir.replace(/\\/g, '/').replace(/^(?:\.\/)+/, '').replace(/\/+$/, '')
}

/** tsconfig files are JSON with comments and trailing commas; strings are kept as they are. */
function withoutCommentsAndTrailingCommas(text: string): string {
  let out = ''
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '"') {
      const start = index
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === '\\') index++
      out += text.slice(start, index + 1)
    } else if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index++
      out += '\n'
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2)
      index = end === -1 ? text.length : end + 1
    } else {
      out += char
    }
  }
  return out.replace(/,(\s*[}\]])/g, '$1')
}
