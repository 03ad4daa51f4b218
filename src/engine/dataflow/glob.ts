/**
 * Qualified-name globs (`**.execute`, `subprocess.*`, `*.{info,warn}`) compiled to regular
 * expressions, and an index by last segment so that matching a name against hundreds of catalog
 * entries costs one map lookup for the usual name that matches none.
 */

/** `*` one segment (or part of one), `**.` any leading segments, `{a,b}` alternatives. */
export function globToRegExp(glob: string): RegExp {
  let source = ''
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string
    if (glob.startsWith('**.', i)) {
      source += '(?:[^.]+\\.)*'
      i += 2
    } else if (char === '*') {
      source += '[^.]*'
    } else if (char === '{') {
      const close = glob.indexOf('}', i)
      const options = glob.slice(i + 1, close).split(',').map(escapeRegExp)
      source += `(?:${options.join('|')})`
      i = close
    } else {
      source += escapeRegExp(char)
    }
  }
  return new RegExp(`^${source}$`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The literal last segments a glob can end with, or null when it ends with a wildcard. */
function lastSegments(glob: string): string[] | null {
  const dot = glob.lastIndexOf('.', glob.endsWith('}') ? glob.lastIndexOf('{') : glob.length)
  const last = glob.slice(dot + 1)
  if (last.includes('*')) return null
  const brace = /^\{([^}]*)\}$/.exec(last)
  if (brace) return (brace[1] ?? '').split(',')
  if (last.includes('{')) return null
  return [last]
}

/** Last segment of a qualified name: `a.b().c` -> `c`, `x[]` -> `x[]`. */
export function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1)
}

/** Entries keyed by the globs they declare; `match` returns those whose glob matches a name. */
export class GlobIndex<T> {
  private readonly byLast = new Map<string, Array<{ regex: RegExp; entry: T }>>()
  private readonly wildcard: Array<{ regex: RegExp; entry: T }> = []

  add(globs: readonly string[], entry: T): void {
    for (const glob of globs) {
      const compiled = { regex: globToRegExp(glob), entry }
      const lasts = lastSegments(glob)
      if (lasts === null) {
        this.wildcard.push(compiled)
        continue
      }
      for (const last of lasts) {
        const list = this.byLast.get(last) ?? []
        list.push(compiled)
        this.byLast.set(last, list)
      }
    }
  }

  /** Entries matching any of the names (each entry once, in declaration order per bucket). */
  match(names: ReadonlyArray<string | null>): T[] {
    const found: T[] = []
    for (const name of names) {
      if (!name) continue
      const bucket = this.byLast.get(lastSegment(name))
      if (bucket) for (const { regex, entry } of bucket) if (!found.includes(entry) && regex.test(name)) found.push(entry)
      for (const { regex, entry } of this.wildcard) if (!found.includes(entry) && regex.test(name)) found.push(entry)
    }
    return found
  }

  /** Whether a name's last segment can match anything at all (cheap pre-check). */
  mayMatch(last: string): boolean {
    return this.wildcard.length > 0 || this.byLast.has(last)
  }
}

/**
 * Per-language lookup tables kept beside the language specs (`{ java: [...], python: [...] }`):
 * a function giving each language's index, built on first use.
 */
export function indexByLanguage<T>(table: Readonly<Record<string, readonly T[]>>, globsOf: (entry: T) => readonly string[]): (language: string) => GlobIndex<T> {
  const indexes = new Map<string, GlobIndex<T>>()
  return (language) => {
    let index = indexes.get(language)
    if (!index) {
      index = new GlobIndex<T>()
      for (const entry of table[language] ?? []) index.add(globsOf(entry), entry)
      indexes.set(language, index)
    }
    return index
  }
}
