/**
 * Repository-relative paths (forward slashes, no leading slash), as the analyzers that follow
 * imports across files resolve them: parent folders, `..`/`.` normalization that refuses to climb
 * out of the repository, and the file extensions a JavaScript/TypeScript import may omit.
 */

export const JS_MODULE_EXTENSIONS = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'] as const

export function parentDir(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash === -1 ? '' : path.slice(0, slash)
}

/** `a/b/../c/./d` -> `a/c/d`; null when it climbs out of the repository. */
export function normalizeRepoPath(path: string): string | null {
  const parts: string[] = []
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') {
      if (parts.length === 0) return null
      parts.pop()
    } else parts.push(part)
  }
  return parts.join('/')
}

export function joinRepoPath(dir: string, rest: string): string | null {
  return normalizeRepoPath(dir === '' ? rest : `${dir}/${rest}`)
}
