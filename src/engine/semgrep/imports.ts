/**
 * Import aliases, for Semgrep's import equivalence: a pattern naming `subprocess.call` also
 * matches code that imported the function or its module under another name. A file's imports
 * give a table local name -> qualified name; a pattern is then also tried with each qualified
 * name it mentions replaced by its local name.
 *
 * - Python: `import a.b as c` (c = a.b), `from a import b` (b = a.b), `from a import b as c`.
 * - JavaScript / TypeScript: `import x from 'm'`, `import * as x from 'm'`, `import { a as b } from 'm'`,
 *   `const x = require('m')`, `const { a: b } = require('m')`, `const b = require('m').a`, and
 *   compiled code's `__importStar(require('m'))` (x = m) and `__importDefault(require('m'))`
 *   (x.default = m) (`node:` prefixes dropped; modules whose name is not an identifier cannot
 *   appear in a pattern and are ignored).
 * - Java: `import a.b.C;` (C = a.b.C), `import static a.b.C.m;` (m = a.b.C.m), and `java.lang`
 *   names, imported implicitly.
 * - Go: `import x "a/b"` (x = b: Go patterns name a package by its default name).
 */
import type { SgNode } from '@ast-grep/napi'

const IMPORT_KINDS: Record<string, string[]> = {
  python: ['import_statement', 'import_from_statement'],
  javascript: ['import_statement', 'variable_declarator'],
  typescript: ['import_statement', 'variable_declarator'],
  tsx: ['import_statement', 'variable_declarator'],
  java: ['import_declaration'],
  go: ['import_spec'],
}

/** The file's import aliases: local name -> qualified name (only where they differ). */
export function importAliases(root: SgNode, language: string): Map<string, string> {
  const aliases = new Map<string, string>()
  const kinds = IMPORT_KINDS[language]
  if (!kinds) return aliases
  const add = (local: string, qualified: string): void => {
    if (local !== '' && qualified !== '' && local !== qualified && !aliases.has(local)) aliases.set(local, qualified)
  }
  for (const node of root.findAll({ rule: { any: kinds.map((kind) => ({ kind })) } })) {
    const text = node.text().replace(/\s+/g, ' ').trim()
    switch (language) {
      case 'python':
        pythonImport(text, add)
        break
      case 'java': {
        const match = /^import (static )?([\w.]+)\s*;?$/.exec(text)
        if (match) add((match[2] as string).split('.').pop() as string, match[2] as string)
        break
      }
      case 'go': {
        const match = /^(?:([\w]+) )?"([^"]+)"$/.exec(text)
        if (match && match[1]) add(match[1], (match[2] as string).split('/').pop() as string)
        break
      }
      default:
        javascriptImport(text, add)
    }
  }
  return aliases
}

function pythonImport(text: string, add: (local: string, qualified: string) => void): void {
  const from = /^from ([\w.]+) import \(?([^)]*)\)?$/.exec(text)
  if (from) {
    const module = from[1] as string
    if (module.startsWith('.')) return
    for (const part of (from[2] as string).split(',')) {
      const [name, alias] = part.trim().split(/\s+as\s+/)
      if (!name || name === '*') continue
      add(alias ?? name, `${module}.${name}`)
    }
    return
  }
  const plain = /^import (.+)$/.exec(text)
  if (!plain) return
  for (const part of (plain[1] as string).split(',')) {
    const [name, alias] = part.trim().split(/\s+as\s+/)
    if (name && alias) add(alias, name)
  }
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

/**
 * `require('m')`, as written or wrapped by the interop helper of TypeScript (`__importStar`,
 * `tslib_1.__importDefault`) or Babel (`_interopRequireWildcard`), then any members taken off it.
 */
const REQUIRED = /^(.+?)\s*=\s*(?:(?:[\w$]+\.)?(__importStar|__importDefault|_interopRequireWildcard|_interopRequireDefault)\(\s*)?require\(\s*(['"`])([^'"`]+)\3\s*\)(?:\s*\))?((?:\.[A-Za-z_$][\w$]*)*)$/
/** Helpers whose result holds the module as its `default`. */
const DEFAULT_INTEROP = new Set(['__importDefault', '_interopRequireDefault'])

function javascriptImport(text: string, add: (local: string, qualified: string) => void): void {
  const required = REQUIRED.exec(text)
  if (required) return requiredModule(required, add)
  const imported = /^import (?:type )?(.+?) from (['"])([^'"]+)\2;?$/.exec(text)
  if (imported) bindModule((imported[1] as string).trim(), imported[3] as string, '', false, add)
}

function requiredModule(match: RegExpExecArray, add: (local: string, qualified: string) => void): void {
  const [, bindings = '', helper, , specifier = '', members = ''] = match
  const wrapped = helper !== undefined && members === '' && IDENTIFIER.test(bindings.trim())
  if (wrapped && DEFAULT_INTEROP.has(helper)) return bindModule(`${bindings.trim()}.default`, specifier, '', true, add)
  if (helper !== undefined && !wrapped) return
  bindModule(bindings.trim(), specifier, members, true, add)
}

/** `bindings` name the module (with `members`: `.a` of `require('m').a`): a name, `{ a: b }`, `* as x`, `x, { a }`. */
function bindModule(written: string, specifier: string, members: string, required: boolean, add: (local: string, qualified: string) => void): void {
  const moduleName = specifier.replace(/^node:/, '')
  if (!IDENTIFIER.test(moduleName)) return
  const module = moduleName + members
  let bindings = written
  // `import x, { a } from 'm'`: the default import first.
  const defaultFirst = /^([A-Za-z_$][\w$]*)\s*,\s*(.+)$/.exec(bindings)
  if (defaultFirst) {
    add(defaultFirst[1] as string, module)
    bindings = defaultFirst[2] as string
  }
  const namespace = /^\*\s+as\s+([A-Za-z_$][\w$]*)$/.exec(bindings)
  if (namespace) return add(namespace[1] as string, module)
  if (IDENTIFIER.test(bindings) || /^[A-Za-z_$][\w$]*\.default$/.test(bindings)) return add(bindings, module)
  const braces = /^\{(.*)\}$/.exec(bindings)
  if (!braces) return
  for (const part of (braces[1] as string).split(',')) {
    const [name, alias] = part.trim().split(required ? /\s*:\s*/ : /\s+as\s+/)
    if (!name || !IDENTIFIER.test(name)) continue
    add(alias && IDENTIFIER.test(alias) ? alias : name, `${module}.${name}`)
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The pattern, then the pattern with qualified names the file imports under other names replaced by those names. */
export function aliasVariants(pattern: string, language: string, aliases: ReadonlyMap<string, string>): string[] {
  const variants = [pattern]
  const rewrites: Array<[RegExp, string]> = []
  for (const [local, qualified] of aliases) {
    if (!pattern.includes(qualified)) continue
    rewrites.push([new RegExp(`(?<![\\w.$])${escapeRegExp(qualified)}(?![\\w$])`, 'g'), local])
  }
  if (language === 'java' && /(?<![\w.])java\.lang\.[A-Z]/.test(pattern)) rewrites.push([/(?<![\w.])java\.lang\.(?=[A-Z])/g, ''])
  for (const [regex, local] of rewrites) {
    const rewritten = pattern.replace(regex, local)
    if (!variants.includes(rewritten)) variants.push(rewritten)
  }
  if (rewrites.length > 1) {
    let all = pattern
    for (const [regex, local] of rewrites) all = all.replace(regex, local)
    if (!variants.includes(all)) variants.push(all)
  }
  const compiled = language === 'python' || language === 'java' || language === 'go' ? [] : rewrites.map(([, local]) => local).filter((local) => COMPILED_MODULE_NAME.test(local))
  for (const local of compiled) {
    const member = new RegExp(`(?<![\\w.$])(${escapeRegExp(local)}\\.[A-Za-z_$][\\w$]*)\\(`, 'g')
    for (const variant of [...variants]) {
      const called = variant.replace(member, '(0, $1)(')
      if (!variants.includes(called)) variants.push(called)
    }
  }
  return variants
}

/**
 * TypeScript's name for a required module (`child_process_1`, or its `.default`): its compiled
 * output calls the module's functions as `(0, child_process_1.exec)(...)`, which patterns then match too.
 */
const COMPILED_MODULE_NAME = /^[A-Za-z_$][\w$]*_\d+(?:\.default)?$/
