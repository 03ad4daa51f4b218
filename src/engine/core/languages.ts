/**
 * Languages the engine understands: which files belong to which language (extension, file
 * name, shebang), which ast-grep grammar parses them, their comment syntax (for suppression
 * comments and fixture annotations), and which rule languages apply to them.
 *
 * Tree-sitter grammars other than JavaScript/TypeScript/TSX come from the @ast-grep/lang-*
 * packages and must be registered with ast-grep exactly once per process.
 */
import { createRequire } from 'node:module'
import { Lang, registerDynamicLanguage } from '@ast-grep/napi'
import type { DynamicLangRegistrations } from '@ast-grep/napi'

/** Languages with a syntax tree (rules can target them). */
export const CODE_LANGUAGES = [
  'javascript',
  'typescript',
  'tsx',
  'python',
  'java',
  'go',
  'kotlin',
  'swift',
  'c',
  'cpp',
  'csharp',
  'rust',
  'ruby',
  'php',
  'scala',
  'bash',
] as const
export type CodeLanguage = (typeof CODE_LANGUAGES)[number]

/**
 * Text formats without a grammar that still commonly hold credentials; only the secrets
 * analyzer reads them.
 */
export const DATA_LANGUAGES = ['dotenv', 'yaml', 'json', 'toml', 'ini', 'properties', 'xml', 'terraform', 'dockerfile'] as const
export type DataLanguage = (typeof DATA_LANGUAGES)[number]

export type FileLanguage = CodeLanguage | DataLanguage

export interface CommentSyntax {
  /** Markers that start a comment running to the end of the line. */
  line: string[]
  /** Block comment delimiters, if the language has them. */
  block: Array<[start: string, end: string]>
}

interface CodeLanguageSpec {
  /** Name ast-grep knows the grammar by (built-in Lang or the dynamic registration key). */
  napiLang: string
  /** npm package of a dynamically loaded grammar; built-in grammars have none. */
  grammarPackage?: string
  extensions: string[]
  /** Exact file names (e.g. Rakefile) that are this language. */
  fileNames?: string[]
  /** Interpreter names as they appear in shebang lines. */
  interpreters?: string[]
  comments: CommentSyntax
}

const C_STYLE: CommentSyntax = { line: ['//'], block: [['/*', '*/']] }
const HASH_STYLE: CommentSyntax = { line: ['#'], block: [] }

const CODE_LANGUAGE_SPECS: Record<CodeLanguage, CodeLanguageSpec> = {
  javascript: {
    napiLang: Lang.JavaScript,
    extensions: ['.js', '.mjs', '.cjs', '.jsx'],
    interpreters: ['node', 'nodejs', 'deno', 'bun'],
    comments: C_STYLE,
  },
  typescript: {
    napiLang: Lang.TypeScript,
    extensions: ['.ts', '.mts', '.cts'],
    interpreters: ['ts-node', 'tsx'],
    comments: C_STYLE,
  },
  tsx: { napiLang: Lang.Tsx, extensions: ['.tsx'], comments: C_STYLE },
  python: {
    napiLang: 'python',
    grammarPackage: '@ast-grep/lang-python',
    extensions: ['.py', '.pyw', '.pyi'],
    interpreters: ['python', 'python2', 'python3', 'pypy', 'pypy3'],
    comments: HASH_STYLE,
  },
  java: { napiLang: 'java', grammarPackage: '@ast-grep/lang-java', extensions: ['.java'], comments: C_STYLE },
  go: { napiLang: 'go', grammarPackage: '@ast-grep/lang-go', extensions: ['.go'], comments: C_STYLE },
  kotlin: { napiLang: 'kotlin', grammarPackage: '@ast-grep/lang-kotlin', extensions: ['.kt', '.kts'], comments: C_STYLE },
  swift: { napiLang: 'swift', grammarPackage: '@ast-grep/lang-swift', extensions: ['.swift'], comments: C_STYLE },
  c: { napiLang: 'c', grammarPackage: '@ast-grep/lang-c', extensions: ['.c', '.h'], comments: C_STYLE },
  cpp: {
    napiLang: 'cpp',
    grammarPackage: '@ast-grep/lang-cpp',
    extensions: ['.cc', '.cpp', '.cxx', '.c++', '.hpp', '.hh', '.hxx', '.h++'],
    comments: C_STYLE,
  },
  csharp: { napiLang: 'csharp', grammarPackage: '@ast-grep/lang-csharp', extensions: ['.cs'], comments: C_STYLE },
  rust: { napiLang: 'rust', grammarPackage: '@ast-grep/lang-rust', extensions: ['.rs'], comments: C_STYLE },
  ruby: {
    napiLang: 'ruby',
    grammarPackage: '@ast-grep/lang-ruby',
    extensions: ['.rb', '.rbw', '.rake', '.gemspec', '.ru'],
    fileNames: ['Rakefile', 'Gemfile', 'Guardfile', 'Capfile', 'Vagrantfile'],
    interpreters: ['ruby', 'jruby'],
    comments: HASH_STYLE,
  },
  php: {
    napiLang: 'php',
    grammarPackage: '@ast-grep/lang-php',
    extensions: ['.php', '.phtml', '.php5', '.php7', '.phps'],
    interpreters: ['php'],
    comments: { line: ['//', '#'], block: [['/*', '*/']] },
  },
  scala: { napiLang: 'scala', grammarPackage: '@ast-grep/lang-scala', extensions: ['.scala', '.sc'], comments: C_STYLE },
  bash: {
    napiLang: 'bash',
    grammarPackage: '@ast-grep/lang-bash',
    extensions: ['.sh', '.bash'],
    interpreters: ['sh', 'bash', 'dash', 'ksh', 'zsh'],
    comments: HASH_STYLE,
  },
}

interface DataLanguageSpec {
  extensions: string[]
  fileNames?: string[]
  /** File names starting with one of these (e.g. `.env.production`). */
  fileNamePrefixes?: string[]
  comments: CommentSyntax
}

const DATA_LANGUAGE_SPECS: Record<DataLanguage, DataLanguageSpec> = {
  dotenv: { extensions: ['.env'], fileNames: ['.env'], fileNamePrefixes: ['.env.'], comments: HASH_STYLE },
  yaml: { extensions: ['.yml', '.yaml'], comments: HASH_STYLE },
  json: { extensions: ['.json'], comments: { line: [], block: [] } },
  toml: { extensions: ['.toml'], comments: HASH_STYLE },
  ini: { extensions: ['.ini', '.cfg', '.conf'], fileNames: ['.npmrc', '.pypirc', '.netrc'], comments: { line: [';', '#'], block: [] } },
  properties: { extensions: ['.properties'], comments: { line: ['#', '!'], block: [] } },
  xml: { extensions: ['.xml', '.config', '.plist'], comments: { line: [], block: [['<!--', '-->']] } },
  terraform: { extensions: ['.tf', '.tfvars', '.hcl'], comments: { line: ['#', '//'], block: [['/*', '*/']] } },
  dockerfile: { extensions: ['.dockerfile'], fileNames: ['Dockerfile', 'Containerfile'], comments: HASH_STYLE },
}

/** Which rule `language:` values apply to files of a language (JS rules also run on TS/TSX). */
const RULE_LANGUAGES_FOR_FILE: Record<CodeLanguage, CodeLanguage[]> = {
  javascript: ['javascript'],
  typescript: ['typescript', 'javascript'],
  tsx: ['tsx', 'typescript', 'javascript'],
  python: ['python'],
  java: ['java'],
  go: ['go'],
  kotlin: ['kotlin'],
  swift: ['swift'],
  c: ['c'],
  cpp: ['cpp'],
  csharp: ['csharp'],
  rust: ['rust'],
  ruby: ['ruby'],
  php: ['php'],
  scala: ['scala'],
  bash: ['bash'],
}

const EXTENSION_INDEX = new Map<string, FileLanguage>()
const FILE_NAME_INDEX = new Map<string, FileLanguage>()
const INTERPRETER_INDEX = new Map<string, CodeLanguage>()
for (const language of CODE_LANGUAGES) {
  const spec = CODE_LANGUAGE_SPECS[language]
  for (const ext of spec.extensions) EXTENSION_INDEX.set(ext, language)
  for (const name of spec.fileNames ?? []) FILE_NAME_INDEX.set(name, language)
  for (const name of spec.interpreters ?? []) INTERPRETER_INDEX.set(name, language)
}
for (const language of DATA_LANGUAGES) {
  const spec = DATA_LANGUAGE_SPECS[language]
  for (const ext of spec.extensions) if (!EXTENSION_INDEX.has(ext)) EXTENSION_INDEX.set(ext, language)
  for (const name of spec.fileNames ?? []) FILE_NAME_INDEX.set(name, language)
}

export function isCodeLanguage(value: string): value is CodeLanguage {
  return (CODE_LANGUAGES as readonly string[]).includes(value)
}

export function isDataLanguage(value: string): value is DataLanguage {
  return (DATA_LANGUAGES as readonly string[]).includes(value)
}

function baseName(path: string): string {
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'))
  return slash === -1 ? path : path.slice(slash + 1)
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot).toLowerCase()
}

/** Language from the file name alone, or null when the name says nothing (see shebangs). */
export function languageFromPath(path: string): FileLanguage | null {
  const name = baseName(path)
  const byName = FILE_NAME_INDEX.get(name)
  if (byName) return byName
  for (const language of DATA_LANGUAGES) {
    const prefixes = DATA_LANGUAGE_SPECS[language].fileNamePrefixes ?? []
    if (prefixes.some((prefix) => name.startsWith(prefix))) return language
  }
  return EXTENSION_INDEX.get(extensionOf(name)) ?? null
}

/** True when a file without a known extension could still be a script with a shebang. */
export function mayHaveShebang(path: string): boolean {
  return extensionOf(baseName(path)) === ''
}

const SHEBANG = /^#!\s*(\S+)(?:[ \t]+(.*))?/

/** Language named by a `#!` line (`#!/usr/bin/env python3`, `#!/bin/sh`...), or null. */
export function languageFromShebang(firstLine: string): CodeLanguage | null {
  const match = SHEBANG.exec(firstLine)
  if (!match) return null
  let interpreter = baseName(match[1] ?? '')
  let rest = (match[2] ?? '').trim().split(/\s+/)
  if (interpreter === 'env') {
    // `env -S node --flags` and `env VAR=1 python` both occur in the wild.
    rest = rest.filter((arg) => !arg.startsWith('-') && !arg.includes('='))
    interpreter = rest[0] ?? ''
  }
  const exact = INTERPRETER_INDEX.get(interpreter)
  if (exact) return exact
  // python3.12, ruby2.7, php8.2...
  const unversioned = interpreter.replace(/[\d.]+$/, '')
  return INTERPRETER_INDEX.get(unversioned) ?? null
}

export function commentSyntax(language: FileLanguage): CommentSyntax {
  return isCodeLanguage(language) ? CODE_LANGUAGE_SPECS[language].comments : DATA_LANGUAGE_SPECS[language].comments
}

/** Rule languages whose rules run on files of `language` (most specific first). */
export function ruleLanguagesFor(language: CodeLanguage): readonly CodeLanguage[] {
  return RULE_LANGUAGES_FOR_FILE[language]
}

/** File languages a rule written for `ruleLanguage` runs on. */
export function fileLanguagesForRule(ruleLanguage: CodeLanguage): CodeLanguage[] {
  return CODE_LANGUAGES.filter((language) => RULE_LANGUAGES_FOR_FILE[language].includes(ruleLanguage))
}

let registered = false

/**
 * Registers every installed tree-sitter grammar with ast-grep. Idempotent; grammars whose
 * package is missing are left out (their files are then reported as unsupported).
 */
export function ensureLanguagesRegistered(): void {
  if (registered) return
  registered = true
  const require = createRequire(import.meta.url)
  const registrations: DynamicLangRegistrations = {}
  for (const language of CODE_LANGUAGES) {
    const spec = CODE_LANGUAGE_SPECS[language]
    if (!spec.grammarPackage) continue
    try {
      registrations[spec.napiLang] = require(spec.grammarPackage) as DynamicLangRegistrations[string]
    } catch {
      unavailable.add(language)
    }
  }
  registerDynamicLanguage(registrations)
  for (const language of CODE_LANGUAGES) {
    const spec = CODE_LANGUAGE_SPECS[language]
    const registration = registrations[spec.napiLang]
    if (registration?.expandoChar) expandoChars.set(language, registration.expandoChar)
  }
}

const expandoChars = new Map<CodeLanguage, string>()

/**
 * The character ast-grep substitutes for `$` in patterns of languages where `$` cannot start
 * an identifier (e.g. `µ` for Python), so metavariables parse as identifiers.
 */
export function expandoChar(language: CodeLanguage): string {
  ensureLanguagesRegistered()
  return expandoChars.get(language) ?? '$'
}

const unavailable = new Set<CodeLanguage>()

/** Whether a grammar for the language is installed (after registration). */
export function isLanguageAvailable(language: CodeLanguage): boolean {
  ensureLanguagesRegistered()
  return !unavailable.has(language)
}

/** The name to pass to ast-grep's parse() for a language. */
export function napiLanguage(language: CodeLanguage): string {
  ensureLanguagesRegistered()
  return CODE_LANGUAGE_SPECS[language].napiLang
}
