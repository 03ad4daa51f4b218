/**
 * Whether dist/ was built from the sources as they are now. The build records a signature of
 * its inputs (every file's path, size and modification time) taken before it compiled; a
 * process that would run dist/ computes it again and compares. Any file added, removed or edited
 * since (a `git checkout` touches what it changes) makes dist/ stale, and the caller runs the
 * sources instead. Plain JavaScript: it runs before anything is compiled.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url))
export const DIST_DIR = join(PROJECT_ROOT, 'dist')
/** Written last by the build: the signature of the inputs dist/ was compiled from. */
export const STAMP_FILE = join(DIST_DIR, 'build-stamp.json')

/** What the build reads: the compiled trees, the resources copied next to them, the dashboard, and how it compiles. */
const INPUT_FOLDERS = ['src', 'worker', 'migrations', 'schema', 'web']
// the lockfile: the dashboard's bundle holds its dependencies' code
const INPUT_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json', 'scripts/build.mjs', 'scripts/build-bundle.mjs', 'scripts/build-web.mjs', 'scripts/build-signature.mjs']

function listFiles(folder, into) {
  let entries
  try {
    entries = readdirSync(folder, { withFileTypes: true })
  } catch {
    return
  }
  for (const entry of entries) {
    // as join(folder, entry.name), without normalizing a path that is already normal: a
    // process pays this walk before it starts (bin/parapet.js)
    const path = `${folder}/${entry.name}`
    if (entry.isDirectory()) listFiles(path, into)
    else if (entry.isFile()) into.push(path)
  }
}

/** A digest of every input's path, size and modification time. */
export function inputSignature(root = PROJECT_ROOT) {
  const files = INPUT_FILES.map((file) => join(root, file))
  for (const folder of INPUT_FOLDERS) listFiles(join(root, folder), files)
  const hash = createHash('sha1')
  for (const file of files.sort()) {
    const stats = statSync(file, { throwIfNoEntry: false })
    hash.update(`${file}\0${stats?.size ?? -1}\0${stats?.mtimeMs ?? -1}\n`)
  }
  return hash.digest('hex')
}

/** The signature dist/ was built from, or null when there is no finished build. */
export function builtSignature() {
  try {
    return JSON.parse(readFileSync(STAMP_FILE, 'utf8')).signature ?? null
  } catch {
    return null
  }
}

/** dist/ is present and built from the current sources. */
export function isDistCurrent() {
  const built = builtSignature()
  return built !== null && built === inputSignature()
}
