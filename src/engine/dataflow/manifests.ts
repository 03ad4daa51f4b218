/**
 * The repository's dependency manifests (`package.json`), read so that a sink can depend on the
 * version of the library that provides it: js-yaml's `load` runs code through its default schema
 * before version 4 and not since. A file's manifest is the nearest `package.json` above it; a
 * dependency it does not declare (or no manifest at all) has an unknown version, and the catalog
 * then assumes the dangerous one.
 */

/** Manifests read: the application's own, not its dependencies' or build output's. */
const MANIFEST = /(^|\/)package\.json$/
const FOREIGN_DIR = /(^|\/)(node_modules|vendor|dist|build)\//
const LIMITS = { files: 200, bytesPerFile: 256 * 1024 }

export function isDependencyManifest(path: string): boolean {
  return MANIFEST.test(path) && !FOREIGN_DIR.test(path)
}

/** Declared dependency versions by manifest folder (`''` is the repository root). */
export class DependencyManifests {
  private readonly byFolder = new Map<string, ReadonlyMap<string, string>>()

  constructor(files: ReadonlyArray<{ path: string; text: string }>) {
    let read = 0
    for (const file of files) {
      if (!isDependencyManifest(file.path) || file.text.length > LIMITS.bytesPerFile) continue
      if (++read > LIMITS.files) break
      const declared = declaredVersions(file.text)
      if (declared) this.byFolder.set(folderOf(file.path), declared)
    }
  }

  /** The version range the nearest manifest above `path` declares for `name`, or null. */
  versionFor(path: string, name: string): string | null {
    let folder = folderOf(path)
    for (;;) {
      const declared = this.byFolder.get(folder)
      if (declared) return declared.get(name) ?? null
      if (folder === '') return null
      folder = folderOf(folder)
    }
  }
}

function folderOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

function declaredVersions(text: string): Map<string, string> | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return null
  }
  if (typeof parsed !== 'object' || parsed === null) return null
  const result = new Map<string, string>()
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const entries = (parsed as Record<string, unknown>)[field]
    if (typeof entries !== 'object' || entries === null) continue
    for (const [name, version] of Object.entries(entries)) if (typeof version === 'string' && !result.has(name)) result.set(name, version)
  }
  return result
}

/**
 * The lowest major version a range admits (`^4.1.0`, `~4.0`, `>=4`, `4.x` -> 4), or null when
 * the range is not a plain version (a URL, a tag, `*`, alternatives).
 */
export function lowestMajor(range: string): number | null {
  const match = /^\s*(?:[\^~]|>=?|=)?\s*v?(\d+)(?:\.(?:\d+|x|\*)){0,2}(?:[-+][\w.-]*)?\s*$/.exec(range)
  return match ? Number(match[1]) : null
}
