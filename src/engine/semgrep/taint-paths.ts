/**
 * A Semgrep rule's `paths:` (include / exclude), matched as Semgrep matches them: gitignore-style
 * globs over repository-relative paths. A pattern without a leading `/` may match at any depth
 * (`tests/` is any folder named tests, `*.py` any Python file); a pattern matching a folder
 * matches everything under it; `*` stays within one segment, `**` crosses them.
 */

export function matchesSemgrepPaths(path: string, paths: { readonly include?: readonly string[]; readonly exclude?: readonly string[] } | undefined): boolean {
  if (!paths) return true
  if (paths.include && paths.include.length > 0 && !paths.include.some((pattern) => matchesPathPattern(path, pattern))) return false
  return !(paths.exclude ?? []).some((pattern) => matchesPathPattern(path, pattern))
}

const compiled = new Map<string, RegExp>()

function globRegExp(glob: string): RegExp {
  let regex = compiled.get(glob)
  if (!regex) {
    let source = ''
    for (let index = 0; index < glob.length; index++) {
      const char = glob[index] as string
      if (char === '*' && glob[index + 1] === '*') {
        // `**/` is any number of folders (none included); a trailing `**` anything
        if (glob[index + 2] === '/') {
          source += '(?:.*/)?'
          index += 2
        } else {
          source += '.*'
          index += 1
        }
      } else if (char === '*') source += '[^/]*'
      else if (char === '?') source += '[^/]'
      else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&')
    }
    regex = new RegExp(`^${source}$`)
    compiled.set(glob, regex)
  }
  return regex
}

/** Whether the pattern names the file, or a folder it is in. */
export function matchesPathPattern(path: string, pattern: string): boolean {
  const anchored = pattern.startsWith('/')
  const folderOnly = pattern.endsWith('/')
  const body = pattern.replace(/^\/+/, '').replace(/\/+$/, '')
  if (body === '') return false
  const regex = globRegExp(body)
  const segments = path.split('/')
  for (let first = 0; first < (anchored ? 1 : segments.length); first++) {
    for (let last = first + 1; last <= segments.length - (folderOnly ? 1 : 0); last++) {
      if (regex.test(segments.slice(first, last).join('/'))) return true
    }
  }
  return false
}
