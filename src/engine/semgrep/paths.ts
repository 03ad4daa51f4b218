/**
 * A Semgrep rule's `paths:` (include / exclude globs) against a repository-relative file path,
 * with Semgrep's gitignore-like semantics: a glob without a slash (`*.py`, `tests`) matches any
 * file or folder name at any depth, one with a slash (`src/*.py`, `/lib`) is anchored at the
 * repository root (`**` crosses folders), a trailing slash (`tests/`) matches folders only, and a
 * folder that matches takes everything under it. A file must match an `include` glob (when
 * there are any) and no `exclude` glob.
 */
import type { SemgrepRule } from './types.ts'

const compiled = new Map<string, RegExp>()

export function semgrepPathSelected(paths: SemgrepRule['paths'] | undefined, filePath: string): boolean {
  if (!paths) return true
  const path = filePath.replace(/\\/g, '/').replace(/^\.\//, '')
  if ((paths.exclude ?? []).some((glob) => globMatches(glob, path))) return false
  const include = paths.include ?? []
  return include.length === 0 || include.some((glob) => globMatches(glob, path))
}

function globMatches(glob: string, path: string): boolean {
  let regex = compiled.get(glob)
  if (!regex) {
    regex = globRegExp(glob)
    compiled.set(glob, regex)
  }
  return regex.test(path)
}

function globRegExp(glob: string): RegExp {
  let pattern = glob.trim().replace(/^\.\//, '')
  const folderOnly = pattern.endsWith('/')
  pattern = pattern.replace(/\/+$/, '')
  const anchored = pattern.includes('/')
  pattern = pattern.replace(/^\//, '')
  const body = globBody(pattern)
  const prefix = anchored ? '^' : '^(?:.*/)?'
  // A folder match takes the files under it; a file-or-folder glob may also be the file itself.
  const suffix = folderOnly ? '/.*$' : '(?:/.*)?$'
  return new RegExp(`${prefix}${body}${suffix}`)
}

function globBody(glob: string): string {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string
    if (glob.startsWith('**/', i)) {
      source += '(?:.*/)?'
      i += 2
    } else if (glob.startsWith('**', i)) {
      source += '.*'
      i += 1
    } else if (char === '*') {
      source += '[^/]*'
    } else if (char === '?') {
      source += '[^/]'
    } else if (char === '[') {
      const close = glob.indexOf(']', i + 1)
      if (close < 0) {
        source += '\\['
        continue
      }
      const inner = glob.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\')
      source += `[${inner}]`
      i = close
    } else if (char === '{') {
      const close = glob.indexOf('}', i + 1)
      if (close < 0) {
        source += '\\{'
        continue
      }
      source += `(?:${glob
        .slice(i + 1, close)
        .split(',')
        .map((option) => globBody(option))
        .join('|')})`
      i = close
    } else {
      source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    }
  }
  return source
}
