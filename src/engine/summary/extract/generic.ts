/**
 * Languages the summary has no framework knowledge of (Go, Rust, C/C++, C#, Kotlin, Scala,
 * Swift, Ruby, PHP, shell): imports and the package they declare, for the dependency graph,
 * and conventional entry points (`main` functions, `@main`, `extends App`).
 *
 * These files are parsed only as far as their import section reaches (see `headerCut`), or
 * whole when a `main` might be in them: that keeps a large polyglot repository cheap.
 */
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import type { CodeLanguage } from '../../core/languages.ts'
import type { FileFacts } from '../model.ts'
import { fastRule, literalString, namedChildren, startLine } from '../syntax.ts'

interface GenericSpec {
  rule: NapiConfig
  /** Lines that belong to the import section. */
  header: RegExp
  /** Brackets an import may leave open over several lines (`import (`, `use a::{`). */
  balance?: '(' | '{'
  /** Text that means a conventional entry point may be in the file (then it is parsed whole). */
  main?: RegExp
  read(facts: FileFacts, node: SgNode): void
}

function push(facts: FileFacts, node: SgNode, specifier: string): void {
  if (specifier) facts.imports.push({ specifier, line: startLine(node), bindings: [] })
}

function main(facts: FileFacts, node: SgNode, name: string): void {
  if (!facts.entries.some((entry) => entry.kind === 'main')) facts.entries.push({ kind: 'main', name, line: startLine(node), handler: -1 })
}

function rule(...kinds: Array<string | Record<string, unknown>>): NapiConfig {
  return fastRule({ rule: { any: kinds.map((kind) => (typeof kind === 'string' ? { kind } : kind)) } })
}

const SPECS: Partial<Record<CodeLanguage, GenericSpec>> = {
  go: {
    rule: rule('import_spec', 'package_clause', { kind: 'function_declaration', has: { field: 'name', regex: '^main$' } }),
    header: /^\s*(?:package\b|import\b|(?:[\w.]+\s+)?"[^"]*"\s*(?:\/\/.*)?$|\)\s*$)/,
    balance: '(',
    main: /^func main\(\)/m,
    read(facts, node) {
      const kind = node.kind()
      if (kind === 'import_spec') push(facts, node, literalString(node.field('path')) ?? '')
      else if (kind === 'package_clause') facts.packageName = node.text().replace(/^package\s+/, '').trim()
      else if (facts.packageName === 'main') main(facts, node, 'func main()')
    },
  },
  rust: {
    rule: rule('use_declaration', 'extern_crate_declaration', { kind: 'mod_item', not: { has: { field: 'body', kind: 'declaration_list' } } }, { kind: 'function_item', has: { field: 'name', regex: '^main$' } }),
    header: /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:use\s|mod\s+\w+\s*;|extern\s+crate\b)/,
    balance: '{',
    main: /\bfn main\s*\(/,
    read(facts, node) {
      const kind = node.kind()
      if (kind === 'use_declaration') push(facts, node, (node.field('argument')?.text() ?? '').replace(/\s+/g, ''))
      else if (kind === 'extern_crate_declaration') push(facts, node, node.text().replace(/^.*crate\s+|\s*(?:as\s+\w+)?;$/g, ''))
      else if (kind === 'mod_item') push(facts, node, `mod ${node.field('name')?.text() ?? ''}`)
      else main(facts, node, 'fn main()')
    },
  },
  c: cLike(),
  cpp: cLike(),
  csharp: {
    rule: rule('using_directive', 'namespace_declaration', 'file_scoped_namespace_declaration', { kind: 'method_declaration', has: { field: 'name', regex: '^Main$' } }),
    header: /^\s*(?:global\s+)?using\s+(?:static\s+)?[\w.]+(?:\s*=\s*[\w.<>]+)?\s*;|^\s*namespace\s+[\w.]+/,
    main: /\bstatic\s+(?:async\s+)?[\w<>]+\s+Main\s*\(/,
    read(facts, node) {
      const kind = node.kind()
      if (kind === 'using_directive') push(facts, node, node.text().replace(/^(?:global\s+)?using\s+(?:static\s+)?(?:\w+\s*=\s*)?|\s*;$/g, ''))
      else if (kind === 'method_declaration') main(facts, node, 'static Main()')
      else facts.packageName ??= node.field('name')?.text()
    },
  },
  kotlin: {
    rule: rule('import_header', 'package_header', { kind: 'function_declaration', regex: '^(?:[a-z]+\\s+)*fun\\s+main\\s*\\(' }),
    header: /^\s*(?:import|package)\s/,
    main: /^\s*fun main\s*\(/m,
    read(facts, node) {
      const kind = node.kind()
      if (kind === 'import_header') push(facts, node, node.text().replace(/^import\s+|\s+as\s+\w+$|\.\*$/g, '').trim())
      else if (kind === 'package_header') facts.packageName = node.text().replace(/^package\s+/, '').trim()
      else main(facts, node, 'fun main()')
    },
  },
  scala: {
    rule: rule('import_declaration', 'package_clause', { kind: 'object_definition', regex: '\\bextends\\s+App\\b' }, { kind: 'function_definition', has: { field: 'name', regex: '^main$' } }),
    header: /^\s*(?:import|package)\s/,
    balance: '{',
    main: /\bdef main\s*\(|\bextends App\b/,
    read(facts, node) {
      const kind = node.kind()
      if (kind === 'import_declaration') push(facts, node, node.text().replace(/^import\s+|\.\{.*$|\._$|\.\*$/gs, '').trim())
      else if (kind === 'package_clause') facts.packageName = node.text().replace(/^package\s+/, '').trim()
      else main(facts, node, kind === 'object_definition' ? 'object extends App' : 'def main()')
    },
  },
  swift: {
    rule: rule('import_declaration', { kind: 'attribute', regex: '^@main$' }),
    header: /^\s*(?:@testable\s+)?import\s/,
    main: /@main\b/,
    read(facts, node) {
      if (node.kind() === 'import_declaration') push(facts, node, node.text().replace(/^(?:@testable\s+)?import\s+(?:\w+\s+)?/, '').trim())
      else main(facts, node, '@main')
    },
  },
  ruby: {
    rule: rule({ kind: 'call', regex: '^(?:require|require_relative|load)\\b' }),
    header: /^\s*(?:require|require_relative|load)\b/,
    read(facts, node) {
      const method = /^(require_relative|require|load)/.exec(node.text())?.[1] ?? 'require'
      const argument = literalString(namedChildren(node.field('arguments'))[0])
      if (argument) push(facts, node, method === 'require_relative' ? `./${argument.replace(/^\.\//, '')}` : argument)
    },
  },
  php: {
    rule: rule('namespace_use_declaration', 'namespace_definition', 'require_expression', 'require_once_expression', 'include_expression', 'include_once_expression'),
    header: /^\s*(?:use|namespace|require|require_once|include|include_once)\b/,
    balance: '{',
    read(facts, node) {
      const kind = node.kind()
      if (kind === 'namespace_definition') facts.packageName = node.field('name')?.text() ?? facts.packageName
      else if (kind === 'namespace_use_declaration') {
        const text = node.text().replace(/^use\s+(?:function\s+|const\s+)?|;$/g, '')
        const group = /^([\w\\]+)\\\{([^}]*)\}/.exec(text)
        const names = group ? (group[2] ?? '').split(',').map((name) => `${group[1]}\\${name.trim().replace(/\s+as\s+\w+$/, '')}`) : text.split(',').map((name) => name.trim().replace(/\s+as\s+\w+$/, ''))
        for (const name of names) push(facts, node, name.replace(/^\\/, ''))
      } else {
        const literal = /['"]([^'"]+\.php)['"]/.exec(node.text())?.[1]
        if (literal) push(facts, node, literal.startsWith('/') ? `.${literal}` : literal)
      }
    },
  },
  bash: {
    rule: rule({ kind: 'command', has: { field: 'name', regex: '^(?:source|\\.)$' } }),
    header: /^\s*(?:source|\.)\s+\S/,
    read(facts, node) {
      const argument = namedChildren(node).find((child) => child.kind() !== 'command_name')
      const path = argument ? (literalString(argument) ?? argument.text()) : ''
      if (path && !path.includes('$')) push(facts, node, path)
    },
  },
}

function cLike(): GenericSpec {
  return {
    rule: rule('preproc_include', { kind: 'function_declarator', has: { field: 'declarator', regex: '^main$' } }),
    header: /^\s*#\s*include\b/,
    main: /\bmain\s*\(\s*(?:void|int\b|\))/,
    read(facts, node) {
      if (node.kind() === 'function_declarator') return main(facts, node, 'main()')
      const path = node.field('path')
      if (!path) return
      push(facts, node, path.kind() === 'system_lib_string' ? path.text() : (literalString(path) ?? ''))
    },
  }
}

export type ParsePlan = { depth: 'full'; text: string } | { depth: 'header'; text: string } | { depth: 'none' }

const MAX_BALANCE_LINES = 200

/**
 * How much of a file to parse: everything when a conventional entry point may be in it,
 * otherwise the lines up to its last import (plus any bracket an import leaves open).
 */
export function headerCut(language: CodeLanguage, text: string): ParsePlan {
  const spec = SPECS[language]
  if (!spec) return { depth: 'none' }
  if (spec.main?.test(text)) return { depth: 'full', text }
  return importSection(text, spec.header, spec.balance)
}

const multiline = new Map<RegExp, RegExp>()

/** The text up to the last line matching `header`, plus lines closing a bracket it left open. */
export function importSection(text: string, header: RegExp, balance?: '(' | '{'): ParsePlan {
  let global = multiline.get(header)
  if (!global) {
    global = new RegExp(header.source, 'gm')
    multiline.set(header, global)
  }
  // One pass over the text finds the last import line (no split into lines: files can be long).
  let lastMatch = -1
  global.lastIndex = 0
  for (let match = global.exec(text); match; match = global.exec(text)) {
    lastMatch = match.index
    const lineEnd = text.indexOf('\n', match.index)
    if (lineEnd === -1) break
    global.lastIndex = lineEnd + 1
  }
  if (lastMatch === -1) return { depth: 'none' }
  let end = text.indexOf('\n', lastMatch)
  if (end === -1) end = text.length
  if (balance) {
    const close = balance === '(' ? ')' : '}'
    let depth = count(text.slice(0, end), balance) - count(text.slice(0, end), close)
    for (let extra = 0; depth > 0 && end < text.length && extra < MAX_BALANCE_LINES; extra++) {
      const next = text.indexOf('\n', end + 1)
      const lineEnd = next === -1 ? text.length : next
      const line = text.slice(end, lineEnd)
      depth += count(line, balance) - count(line, close)
      end = lineEnd
    }
  }
  return { depth: 'header', text: text.slice(0, end) }
}

function count(line: string, char: string): number {
  let total = 0
  for (let index = line.indexOf(char); index !== -1; index = line.indexOf(char, index + 1)) total++
  return total
}

export function extractGeneric(facts: FileFacts, root: SgNode): void {
  const spec = SPECS[facts.language]
  if (!spec) return
  for (const node of root.findAll(spec.rule)) spec.read(facts, node)
}
