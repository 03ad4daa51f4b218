/**
 * Semgrep rule files, read as they are: a YAML document whose top-level `rules:` holds a list of
 * Semgrep rules is compiled, rule by rule, to RuleDocuments carrying a SemgrepRule (types.ts),
 * one per target language. rules/loader.ts tells the two formats apart (isSemgrepDocument) and
 * applies the same text limits to both; this file checks every key against Semgrep's rule
 * syntax and refuses what Parapet cannot run (`mode: join`, `generic`, `metavariable-type`...)
 * with a problem naming the rule, the line of the offending key and the feature, never
 * ignoring it silently. The support matrix is in docs/rules.md ("Semgrep rules").
 */
import { isAlias, isMap, isPair, isScalar, isSeq } from 'yaml'
import type { Document, Node as YamlNode } from 'yaml'
import type { RuleDocument, Severity } from '../core/types.ts'
import type { CodeLanguage } from '../core/languages.ts'
import { bracketNesting } from '../rules/limits.ts'
import type { RuleLimits } from '../rules/limits.ts'
import { RULE_ID, titleFromMessage } from '../rules/schema.ts'
import { SEMGREP_SEVERITIES, issueFieldsOf } from './metadata.ts'
import type { SemgrepClause, SemgrepFormula, SemgrepPropagator, SemgrepRule, SemgrepTaint, SemgrepTaintSpec } from './types.ts'

/** Whether a YAML document's value is a Semgrep rule file (a mapping with a top-level `rules:`). */
export function isSemgrepDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'rules')
}

/** One Semgrep rule of the file, compiled: one RuleDocument per language, all with the rule's id. */
export interface CompiledSemgrepRule {
  id: string
  /** line of the rule's `id` (or of the rule, without one) */
  line: number
  documents: RuleDocument[]
}

export interface SemgrepProblem {
  ruleId: string | null
  line: number
  message: string
}

/** Semgrep language names (as its `languages:` takes them) for the languages Parapet parses. */
const SEMGREP_LANGUAGES: Readonly<Record<string, CodeLanguage>> = {
  python: 'python',
  python2: 'python',
  python3: 'python',
  py: 'python',
  javascript: 'javascript',
  js: 'javascript',
  typescript: 'typescript',
  ts: 'typescript',
  java: 'java',
  go: 'go',
  golang: 'go',
  kotlin: 'kotlin',
  kt: 'kotlin',
  swift: 'swift',
  c: 'c',
  cpp: 'cpp',
  'c++': 'cpp',
  csharp: 'csharp',
  'c#': 'csharp',
  rust: 'rust',
  ruby: 'ruby',
  php: 'php',
  scala: 'scala',
  bash: 'bash',
  sh: 'bash',
}

/** Languages Semgrep has and Parapet refuses, with why. */
const REFUSED_LANGUAGES: Readonly<Record<string, string>> = {
  generic: 'generic (text) matching is not supported: Parapet matches syntax trees; write the rule for the code language',
  regex: 'the regex language is not supported: use pattern-regex in a rule for the code language',
  none: 'the none language is not supported: use pattern-regex in a rule for the code language',
}

const SUPPORTED_LANGUAGE_NAMES = [...new Set(Object.values(SEMGREP_LANGUAGES))].join(', ')

/**
 * Semgrep's `options` with their documented defaults. An option at its default changes nothing
 * and is accepted; one set otherwise would change what matches, which Parapet does not do, so it
 * is refused. The generic_* options only concern `generic` rules (refused anyway).
 */
const OPTION_DEFAULTS: Readonly<Record<string, unknown>> = {
  ac_matching: true,
  attr_expr: true,
  commutative_boolop: false,
  constant_propagation: true,
  decorators_order_matters: false,
  implicit_return: true,
  symmetric_eq: false,
  symbolic_propagation: false,
  taint_assume_safe_functions: false,
  taint_assume_safe_indexes: false,
  taint_assume_safe_booleans: false,
  taint_assume_safe_numbers: false,
  taint_unify_mvars: false,
  taint_only_propagate_through_assignments: false,
  vardef_assign: true,
  xml_attrs_implicit_ellipsis: true,
  arrow_is_function: true,
  let_is_var: true,
}
/** Options accepted with any value: they do not change matching here. */
const HARMLESS_OPTIONS = new Set([
  // cross-file analysis: Parapet's inter-procedural summaries apply where they exist
  'interfile',
  'generic_comment_style',
  'generic_ellipsis_max_span',
])

/** Keys of a rule that are accepted and read. */
const RULE_KEYS = new Set([
  'id',
  'message',
  'severity',
  'languages',
  'mode',
  'metadata',
  'paths',
  'fix',
  'options',
  'min-version',
  'max-version',
  'pattern',
  'patterns',
  'pattern-either',
  'pattern-regex',
  'pattern-sources',
  'pattern-sinks',
  'pattern-sanitizers',
  'pattern-propagators',
])

/** Semgrep keys Parapet knows and refuses, with the reason (prefixed by the key in the problem). */
const REFUSED_KEYS: Readonly<Record<string, string>> = {
  'fix-regex': 'fix-regex is not supported (use fix with metavariables)',
  'pattern-where-python': 'pattern-where-python is not supported (it runs arbitrary Python)',
  match: 'the experimental match: syntax is not supported (write the rule with pattern, patterns, pattern-either)',
  taint: 'the experimental taint: syntax is not supported (write mode: taint with pattern-sources and pattern-sinks)',
  'metavariable-analysis': 'metavariable-analysis is not supported',
  'metavariable-type': 'metavariable-type is not supported (types are not resolved)',
  'metavariable-name': 'metavariable-name is not supported (names are not resolved to modules)',
  'project-depends-on': 'project-depends-on (supply chain rules) is not supported',
  'r2c-internal-project-depends-on': 'r2c-internal-project-depends-on (supply chain rules) is not supported',
  validators: 'validators (secrets rules) are not supported',
  join: 'join rules are not supported',
  extract: 'extract rules are not supported',
  'dest-language': 'extract rules are not supported',
  equivalences: 'equivalences are not supported',
}

/** Operators that only mean something inside `patterns`, refused elsewhere with that reason. */
const PATTERNS_ONLY = new Set([
  'pattern-not',
  'pattern-not-inside',
  'pattern-not-regex',
  'metavariable-regex',
  'metavariable-pattern',
  'metavariable-comparison',
  'focus-metavariable',
])

/** A Semgrep metavariable: `$X`, `$...ARGS`, `$_`, or a regex group number `$1`. */
const METAVARIABLE = /^\$(?:(?:\.\.\.)?[A-Z_][A-Z0-9_]*|[0-9]+)$/

// ---------------------------------------------------------------------------------------------
// YAML nodes with their lines

/** A YAML value with the line of each node and key: Semgrep problems name the offending key's line. */
type Located =
  | { readonly kind: 'map'; readonly line: number; readonly entries: ReadonlyArray<{ key: string; keyLine: number; value: Located }> }
  | { readonly kind: 'seq'; readonly line: number; readonly items: readonly Located[] }
  | { readonly kind: 'scalar'; readonly line: number; readonly value: unknown }

/**
 * The document's nodes with lines. Aliases resolve to their anchor's node (and line). The value
 * was expanded once already under the alias-count limit (rules/loader.ts), so this walk is
 * bounded by the same expansion; nodes are memoized so an anchor is converted once.
 */
function locate(doc: Document.Parsed, lineOf: (offset: number) => number): Located {
  const memo = new Map<unknown, Located>()
  const convert = (node: unknown, fallbackLine: number, seen: ReadonlySet<unknown>): Located => {
    let current = node
    for (let hops = 0; isAlias(current) && hops < 64; hops++) current = current.resolve(doc)
    if (memo.has(current)) return memo.get(current) as Located
    // a cycle made of aliases (refused earlier by the depth limit): cut it
    if (seen.has(current)) return { kind: 'scalar', line: fallbackLine, value: null }
    const range = (current as YamlNode | undefined)?.range
    const line = range ? lineOf(range[0]) : fallbackLine
    const inner = new Set(seen).add(current)
    let located: Located
    if (isMap(current)) {
      const entries: Array<{ key: string; keyLine: number; value: Located }> = []
      for (const pair of current.items) {
        if (!isPair(pair)) continue
        const keyNode = pair.key as YamlNode | null
        const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode)
        const keyLine = keyNode?.range ? lineOf(keyNode.range[0]) : line
        entries.push({ key, keyLine, value: convert(pair.value, keyLine, inner) })
      }
      located = { kind: 'map', line, entries }
    } else if (isSeq(current)) {
      located = { kind: 'seq', line, items: current.items.map((item) => convert(item, line, inner)) }
    } else {
      located = { kind: 'scalar', line, value: isScalar(current) ? current.value : (current ?? null) }
    }
    memo.set(current, located)
    return located
  }
  return convert(doc.contents, 1, new Set())
}

function entry(node: Located, key: string): { key: string; keyLine: number; value: Located } | undefined {
  return node.kind === 'map' ? node.entries.find((item) => item.key === key) : undefined
}

/** The plain value of a node (for metadata, read leniently). */
function plain(node: Located): unknown {
  if (node.kind === 'scalar') return node.value
  if (node.kind === 'seq') return node.items.map(plain)
  return Object.fromEntries(node.entries.map((item) => [item.key, plain(item.value)]))
}

function describe(node: Located): string {
  if (node.kind === 'map') return 'a mapping'
  if (node.kind === 'seq') return 'a list'
  return node.value === null ? 'empty' : JSON.stringify(node.value)
}

// ---------------------------------------------------------------------------------------------
// Compilation

/** Raised inside one rule's compilation: the rule is refused, the next one is read. */
class Refusal extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message)
  }
}

/** The problems of one rule (all of them, not just the first, where they are independent). */
class RuleScope {
  readonly problems: Array<{ line: number; message: string }> = []
  constructor(readonly limits: RuleLimits) {}

  report(line: number, message: string): void {
    this.problems.push({ line, message })
  }

  /** Runs `read`, recording its refusal; returns undefined when it refused. */
  attempt<T>(read: () => T): T | undefined {
    try {
      return read()
    } catch (error) {
      if (!(error instanceof Refusal)) throw error
      this.report(error.line, error.message)
      return undefined
    }
  }
}

function refuse(line: number, message: string): never {
  throw new Refusal(line, message)
}

function text(node: Located, field: string, scope: RuleScope, options: { code?: boolean; limit?: boolean } = {}): string {
  if (node.kind !== 'scalar' || (typeof node.value !== 'string' && typeof node.value !== 'number' && typeof node.value !== 'boolean')) {
    refuse(node.line, `${field} must be a string, got ${describe(node)}`)
  }
  const value = String(node.value)
  if (value.trim() === '') refuse(node.line, `${field} must not be empty`)
  if (options.limit !== false && value.length > scope.limits.maxPatternLength) {
    refuse(node.line, `${field} is ${value.length} characters long, over the limit of ${scope.limits.maxPatternLength}`)
  }
  if (options.code) {
    const nesting = bracketNesting(value)
    if (nesting > scope.limits.maxPatternNesting) refuse(node.line, `${field} nests brackets ${nesting} levels deep, over the limit of ${scope.limits.maxPatternNesting}`)
  }
  return value
}

function list(node: Located, field: string): readonly Located[] {
  if (node.kind !== 'seq') refuse(node.line, `${field} must be a list, got ${describe(node)}`)
  if (node.items.length === 0) refuse(node.line, `${field} must not be empty`)
  return node.items
}

function mapping(node: Located, field: string): Extract<Located, { kind: 'map' }> {
  if (node.kind !== 'map') refuse(node.line, `${field} must be a mapping, got ${describe(node)}`)
  return node
}

function metavariable(node: Located, field: string, scope: RuleScope): string {
  const value = text(node, field, scope).trim()
  if (!METAVARIABLE.test(value)) refuse(node.line, `${field} must be a metavariable like $X, got ${JSON.stringify(value)}`)
  return value
}

function bool(node: Located, field: string): boolean {
  if (node.kind !== 'scalar' || typeof node.value !== 'boolean') refuse(node.line, `${field} must be true or false, got ${describe(node)}`)
  return node.value
}

/** A key refused wherever it appears (internal and unsupported operators), or null. */
function refusedKey(key: string): string | null {
  if (key.startsWith('r2c-internal-') || key.startsWith('semgrep-internal-')) return `${key} is an internal Semgrep feature and is not supported`
  const reason = REFUSED_KEYS[key]
  return reason ?? null
}

/** Where a formula is read: decides which operators are allowed and what a missing positive means. */
type FormulaPlace = 'rule' | 'either' | 'patterns' | 'not' | 'metavariable-pattern' | 'taint'

/**
 * The formula of a mapping holding exactly one of `pattern`, `patterns`, `pattern-either`,
 * `pattern-regex`; the keys in `extra` are the caller's (a taint entry's options...).
 */
function formulaOf(node: Extract<Located, { kind: 'map' }>, place: FormulaPlace, scope: RuleScope, extra: ReadonlySet<string>, what: string): SemgrepFormula {
  const operators = node.entries.filter((item) => !extra.has(item.key))
  for (const item of operators) {
    const refused = refusedKey(item.key)
    if (refused) refuse(item.keyLine, refused)
  }
  const formulas = operators.filter((item) => item.key === 'pattern' || item.key === 'patterns' || item.key === 'pattern-either' || item.key === 'pattern-regex')
  for (const item of operators) {
    if (formulas.includes(item)) continue
    if (PATTERNS_ONLY.has(item.key) || item.key === 'pattern-inside') refuse(item.keyLine, `${item.key} is only valid inside patterns`)
    refuse(item.keyLine, `unknown field "${item.key}" in ${what}`)
  }
  if (formulas.length === 0) refuse(node.line, `${what} needs one of pattern, patterns, pattern-either, pattern-regex`)
  if (formulas.length > 1) {
    const second = formulas[1] as (typeof formulas)[number]
    refuse(second.keyLine, `${what} takes only one of pattern, patterns, pattern-either, pattern-regex (found ${formulas.map((item) => item.key).join(' and ')})`)
  }
  const only = formulas[0] as (typeof formulas)[number]
  return operatorFormula(only.key, only.value, only.keyLine, place, scope)
}

/** The formula of one positive operator (`pattern`, `patterns`, `pattern-either`, `pattern-regex`). */
function operatorFormula(key: string, value: Located, line: number, place: FormulaPlace, scope: RuleScope): SemgrepFormula {
  switch (key) {
    case 'pattern':
      return { kind: 'pattern', pattern: text(value, key, scope, { code: true }), line }
    case 'pattern-regex':
      return { kind: 'regex', regex: regexText(value, key, scope), line }
    case 'pattern-either':
      return { kind: 'either', of: list(value, key).map((item) => eitherBranch(item, scope)), line }
    case 'patterns':
      return patternsFormula(value, line, place, scope)
    default:
      return refuse(line, `unknown operator "${key}"`)
  }
}

/** A regex operand; whether it compiles is checked with the patterns (checkSemgrepPatterns). */
function regexText(node: Located, field: string, scope: RuleScope): string {
  return text(node, field, scope)
}

/** One entry of `pattern-either`: a positive formula, or `pattern-inside` (kept as an inside-only `patterns`). */
function eitherBranch(node: Located, scope: RuleScope): SemgrepFormula {
  const item = mapping(node, 'a pattern-either entry')
  if (item.entries.length === 1) {
    const only = item.entries[0] as (typeof item.entries)[number]
    if (only.key === 'pattern-inside') {
      return { kind: 'patterns', clauses: [{ kind: 'inside', formula: codeOrFormula(only.value, only.key, only.keyLine, scope) }], line: only.keyLine }
    }
    if (only.key === 'pattern-not' || only.key === 'pattern-not-inside' || only.key === 'pattern-not-regex') {
      refuse(only.keyLine, `${only.key} is only valid inside patterns (a pattern-either entry must match something)`)
    }
  }
  return formulaOf(item, 'either', scope, new Set(), 'a pattern-either entry')
}

/** `pattern-not` / `pattern-inside` / `pattern-not-inside`: pattern code, or a nested formula. */
function codeOrFormula(node: Located, key: string, line: number, scope: RuleScope): SemgrepFormula {
  if (node.kind === 'map') return formulaOf(node, 'not', scope, new Set(), key)
  return { kind: 'pattern', pattern: text(node, key, scope, { code: true }), line }
}

function patternsFormula(node: Located, line: number, place: FormulaPlace, scope: RuleScope): SemgrepFormula {
  const clauses: SemgrepClause[] = []
  for (const itemNode of list(node, 'patterns')) {
    const item = mapping(itemNode, 'a patterns entry')
    if (item.entries.length !== 1) {
      const second = item.entries[1]
      refuse(second?.keyLine ?? item.line, `a patterns entry holds exactly one operator${second ? ` (found ${item.entries.map((each) => each.key).join(', ')})` : ''}`)
    }
    const { key, keyLine, value } = item.entries[0] as (typeof item.entries)[number]
    clauses.push(patternsClause(key, keyLine, value, scope))
  }
  const positive = clauses.some((clause) => clause.kind === 'positive' || clause.kind === 'inside')
  // inside metavariable-pattern, Semgrep matches the metavariable's content implicitly
  if (!positive && place !== 'metavariable-pattern') {
    refuse(line, 'patterns needs at least one positive operator (pattern, patterns, pattern-either, pattern-regex or pattern-inside)')
  }
  return { kind: 'patterns', clauses, line }
}

function patternsClause(key: string, line: number, value: Located, scope: RuleScope): SemgrepClause {
  const refused = refusedKey(key)
  if (refused) refuse(line, refused)
  switch (key) {
    case 'pattern':
    case 'patterns':
    case 'pattern-either':
    case 'pattern-regex':
      return { kind: 'positive', formula: operatorFormula(key, value, line, 'patterns', scope) }
    case 'pattern-not':
      return { kind: 'not', formula: codeOrFormula(value, key, line, scope) }
    case 'pattern-inside':
      return { kind: 'inside', formula: codeOrFormula(value, key, line, scope) }
    case 'pattern-not-inside':
      return { kind: 'not-inside', formula: codeOrFormula(value, key, line, scope) }
    case 'pattern-not-regex':
      return { kind: 'not-regex', regex: regexText(value, key, scope), line }
    case 'focus-metavariable': {
      const names = value.kind === 'seq' ? list(value, key).map((item) => metavariable(item, key, scope)) : [metavariable(value, key, scope)]
      return { kind: 'focus', metavariables: names, line }
    }
    case 'metavariable-regex': {
      const body = mapping(value, key)
      const fields = readFields(body, key, { metavariable: true, regex: true }, { 'constant-propagation': true })
      if (fields['constant-propagation'] && bool(fields['constant-propagation'].value, `${key}.constant-propagation`) === false) {
        refuse(fields['constant-propagation'].keyLine, `${key}.constant-propagation: false is not supported`)
      }
      return {
        kind: 'metavariable-regex',
        metavariable: metavariable(required(fields, 'metavariable', body, key).value, `${key}.metavariable`, scope),
        regex: regexText(required(fields, 'regex', body, key).value, `${key}.regex`, scope),
        line,
      }
    }
    case 'metavariable-pattern': {
      const body = mapping(value, key)
      const own = new Set(['metavariable', 'language'])
      const name = metavariable(required(indexFields(body), 'metavariable', body, key).value, `${key}.metavariable`, scope)
      const languageEntry = entry(body, 'language')
      const formula = formulaOf(body, 'metavariable-pattern', scope, own, key)
      if (!languageEntry) return { kind: 'metavariable-pattern', metavariable: name, formula, line }
      const language = languageOf(languageEntry.value, `${key}.language`, scope)
      return { kind: 'metavariable-pattern', metavariable: name, formula, language, line }
    }
    case 'metavariable-comparison': {
      const body = mapping(value, key)
      const fields = readFields(body, key, { comparison: true }, { metavariable: true, base: true, strip: true })
      const comparison = text(required(fields, 'comparison', body, key).value, `${key}.comparison`, scope)
      const name = fields['metavariable'] ? metavariable(fields['metavariable'].value, `${key}.metavariable`, scope) : undefined
      let rewritten = comparison
      // The legacy keys, written the way Semgrep's documentation recommends instead: int($X).
      const base = fields['base']
      const strip = fields['strip']
      if (base || (strip && bool(strip.value, `${key}.strip`))) {
        if (!name) refuse((base ?? strip)?.keyLine ?? line, `${key}: base and strip need a metavariable`)
        const radix = base ? baseOf(base.value, `${key}.base`) : 10
        const occurrences = new RegExp(`${name.replace(/[$.]/g, '\\$&')}(?![A-Za-z0-9_])`, 'g')
        rewritten = comparison.replace(occurrences, () => (radix === 10 ? `int(${name})` : `int(${name}, ${radix})`))
      }
      return { kind: 'metavariable-comparison', comparison: rewritten, ...(name ? { metavariable: name } : {}), line }
    }
    default:
      return refuse(line, `unknown operator "${key}" in patterns`)
  }
}

function baseOf(node: Located, field: string): number {
  if (node.kind !== 'scalar' || typeof node.value !== 'number' || ![2, 8, 10, 16].includes(node.value)) refuse(node.line, `${field} must be 2, 8, 10 or 16`)
  return node.value
}

type Fields = Record<string, { keyLine: number; value: Located }>

function indexFields(node: Extract<Located, { kind: 'map' }>): Fields {
  return Object.fromEntries(node.entries.map((item) => [item.key, { keyLine: item.keyLine, value: item.value }]))
}

/** The fields of an operator's mapping, refusing unknown ones. */
function readFields(node: Extract<Located, { kind: 'map' }>, what: string, known: Record<string, true>, optional: Record<string, true>): Fields {
  for (const item of node.entries) {
    if (!(item.key in known) && !(item.key in optional)) {
      const refused = refusedKey(item.key)
      refuse(item.keyLine, refused ?? `unknown field "${item.key}" in ${what}`)
    }
  }
  return indexFields(node)
}

function required(fields: Fields, key: string, node: Located, what: string): { keyLine: number; value: Located } {
  const found = fields[key]
  if (!found) refuse(node.line, `${what} needs ${key}`)
  return found
}

function languageOf(node: Located, field: string, scope: RuleScope): CodeLanguage {
  const name = text(node, field, scope).trim().toLowerCase()
  const language = SEMGREP_LANGUAGES[name]
  if (language) return language
  const reason = REFUSED_LANGUAGES[name]
  if (reason) refuse(node.line, `${field}: ${reason}`)
  return refuse(node.line, `${field}: language ${JSON.stringify(name)} is not supported (supported: ${SUPPORTED_LANGUAGE_NAMES})`)
}

// Taint mode

const TAINT_KEYS = ['pattern-sources', 'pattern-sinks', 'pattern-sanitizers', 'pattern-propagators'] as const
type TaintKey = (typeof TAINT_KEYS)[number]

/** Per kind of taint entry: options read, and options refused with why. */
const TAINT_OPTIONS: Record<TaintKey, { read: ReadonlySet<string>; refused: Readonly<Record<string, string>> }> = {
  'pattern-sources': {
    read: new Set(['exact', 'by-side-effect']),
    refused: { label: 'taint labels are not supported', requires: 'taint labels are not supported', control: 'control sources are not supported' },
  },
  'pattern-sinks': {
    read: new Set(['exact']),
    refused: { requires: 'taint labels are not supported', 'at-exit': 'at-exit sinks are not supported' },
  },
  'pattern-sanitizers': {
    read: new Set(['exact', 'by-side-effect']),
    refused: { 'not-conflicting': 'not-conflicting sanitizers are not supported' },
  },
  'pattern-propagators': {
    read: new Set(['from', 'to', 'by-side-effect']),
    refused: { label: 'taint labels are not supported', requires: 'taint labels are not supported', 'replace-labels': 'taint labels are not supported' },
  },
}

function taintSpec(node: Located, key: TaintKey, scope: RuleScope): SemgrepTaintSpec | SemgrepPropagator {
  const item = mapping(node, `a ${key} entry`)
  const { read, refused } = TAINT_OPTIONS[key]
  for (const field of item.entries) {
    const reason = refused[field.key]
    if (reason) refuse(field.keyLine, `${key}: ${field.key}: ${reason}`)
  }
  const fields = indexFields(item)
  const formula = formulaOf(item, 'taint', scope, read, `a ${key} entry`)
  const exact = fields['exact'] ? bool(fields['exact'].value, `${key}.exact`) : undefined
  const sideEffect = fields['by-side-effect']
  if (key === 'pattern-propagators') {
    if (sideEffect && bool(sideEffect.value, `${key}.by-side-effect`) === false) refuse(sideEffect.keyLine, `${key}: by-side-effect: false is not supported`)
    return {
      formula,
      from: metavariable(required(fields, 'from', item, `a ${key} entry`).value, `${key}.from`, scope),
      to: metavariable(required(fields, 'to', item, `a ${key} entry`).value, `${key}.to`, scope),
      line: item.line,
    }
  }
  let bySideEffect: boolean | undefined
  if (sideEffect) {
    // `by-side-effect: only` (a source that taints only what it mutates) is a finer mode
    if (sideEffect.value.kind === 'scalar' && sideEffect.value.value === 'only') refuse(sideEffect.keyLine, `${key}: by-side-effect: only is not supported`)
    bySideEffect = bool(sideEffect.value, `${key}.by-side-effect`)
  }
  return { formula, ...(exact !== undefined ? { exact } : {}), ...(bySideEffect !== undefined ? { bySideEffect } : {}), line: item.line }
}

function taintOf(rule: Extract<Located, { kind: 'map' }>, scope: RuleScope): SemgrepTaint | undefined {
  const read = (key: TaintKey) => {
    const found = entry(rule, key)
    if (!found) return []
    const items = scope.attempt(() => list(found.value, key)) ?? []
    return items.flatMap((item) => {
      const spec = scope.attempt(() => taintSpec(item, key, scope))
      return spec ? [spec] : []
    })
  }
  const sources = read('pattern-sources') as SemgrepTaintSpec[]
  const sinks = read('pattern-sinks') as SemgrepTaintSpec[]
  const sanitizers = read('pattern-sanitizers') as SemgrepTaintSpec[]
  const propagators = read('pattern-propagators') as SemgrepPropagator[]
  if (!entry(rule, 'pattern-sources')) scope.report(rule.line, 'mode: taint needs pattern-sources')
  if (!entry(rule, 'pattern-sinks')) scope.report(rule.line, 'mode: taint needs pattern-sinks')
  return { sources, sinks, sanitizers, propagators }
}

// The rule

function pathsOf(node: Located, scope: RuleScope): SemgrepRule['paths'] {
  const body = mapping(node, 'paths')
  const fields = readFields(body, 'paths', {}, { include: true, exclude: true })
  const globs = (key: 'include' | 'exclude') => {
    const found = fields[key]
    if (!found) return undefined
    const items = found.value.kind === 'seq' ? found.value.items : [found.value]
    return items.map((item) => text(item, `paths.${key}`, scope).trim())
  }
  const include = globs('include')
  const exclude = globs('exclude')
  return { ...(include ? { include } : {}), ...(exclude ? { exclude } : {}) }
}

function checkOptions(node: Located, scope: RuleScope): void {
  const body = mapping(node, 'options')
  for (const item of body.entries) {
    if (HARMLESS_OPTIONS.has(item.key)) continue
    if (!(item.key in OPTION_DEFAULTS)) {
      scope.report(item.keyLine, `options: ${item.key} is not supported`)
      continue
    }
    const fallback = OPTION_DEFAULTS[item.key]
    const value = plain(item.value)
    if (value !== fallback) scope.report(item.keyLine, `options: ${item.key}: ${JSON.stringify(value)} is not supported (Parapet matches as with ${item.key}: ${JSON.stringify(fallback)})`)
  }
}

/** Compiles one rule of the `rules:` list; the problems name its id when it has one. */
function compileRule(node: Located, limits: RuleLimits): { id: string | null; line: number; documents: RuleDocument[]; problems: Array<{ line: number; message: string }> } {
  const scope = new RuleScope(limits)
  if (node.kind !== 'map') return { id: null, line: node.line, documents: [], problems: [{ line: node.line, message: `a rule must be a mapping, got ${describe(node)}` }] }
  const idEntry = entry(node, 'id')
  const id = idEntry ? (scope.attempt(() => text(idEntry.value, 'id', scope).trim()) ?? null) : null
  const line = idEntry?.keyLine ?? node.line
  if (!idEntry) scope.report(node.line, 'missing required field "id"')
  else if (id !== null && !RULE_ID.test(id)) scope.report(idEntry.value.line, 'id must be dot-separated words of letters, digits, "-" or "_"')

  const field = (key: string) => entry(node, key)
  let mode: SemgrepRule['mode'] = 'search'
  const modeEntry = field('mode')
  if (modeEntry) {
    const word = scope.attempt(() => text(modeEntry.value, 'mode', scope).trim())
    if (word === 'taint' || word === 'search') mode = word
    else {
      // join and extract rules have keys of their own: the rest of the rule is not read
      if (word !== undefined) scope.report(modeEntry.keyLine, `mode: ${word} is not supported`)
      return { id, line, documents: [], problems: scope.problems }
    }
  }

  for (const item of node.entries) {
    const refused = refusedKey(item.key)
    if (refused) scope.report(item.keyLine, refused)
    else if (PATTERNS_ONLY.has(item.key) || item.key === 'pattern-inside') scope.report(item.keyLine, `${item.key} is only valid inside patterns`)
    else if (!RULE_KEYS.has(item.key)) scope.report(item.keyLine, `unknown field "${item.key}"`)
  }

  const messageEntry = field('message')
  if (!messageEntry) scope.report(node.line, 'missing required field "message"')
  const message = messageEntry ? scope.attempt(() => text(messageEntry.value, 'message', scope, { limit: false })) : undefined

  let severity: Severity | undefined
  const severityEntry = field('severity')
  if (!severityEntry) scope.report(node.line, 'missing required field "severity"')
  else {
    const word = scope.attempt(() => text(severityEntry.value, 'severity', scope).trim().toUpperCase())
    if (word === 'EXPERIMENT') scope.report(severityEntry.value.line, 'severity EXPERIMENT is not supported (Semgrep does not report experiments; give the rule a severity)')
    else if (word !== undefined) {
      severity = SEMGREP_SEVERITIES[word]
      if (!severity) scope.report(severityEntry.value.line, `unknown severity ${JSON.stringify(word)} (known: ${Object.keys(SEMGREP_SEVERITIES).join(', ')})`)
    }
  }

  const languages: CodeLanguage[] = []
  const languagesEntry = field('languages')
  if (!languagesEntry) scope.report(node.line, 'missing required field "languages"')
  else {
    const items = scope.attempt(() => list(languagesEntry.value, 'languages')) ?? []
    for (const item of items) {
      const language = scope.attempt(() => languageOf(item, 'languages', scope))
      if (language && !languages.includes(language)) languages.push(language)
    }
  }

  let formula: SemgrepFormula | undefined
  let taint: SemgrepTaint | undefined
  const formulaKeys = ['pattern', 'patterns', 'pattern-either', 'pattern-regex'].filter((key) => field(key))
  if (mode === 'taint') {
    for (const key of formulaKeys) scope.report((field(key) as { keyLine: number }).keyLine, `${key} is not valid in mode: taint (use pattern-sources and pattern-sinks)`)
    taint = taintOf(node, scope)
  } else {
    for (const key of TAINT_KEYS) if (field(key)) scope.report((field(key) as { keyLine: number }).keyLine, `${key} is only valid in mode: taint`)
    if (formulaKeys.length === 0) scope.report(node.line, 'a rule needs one of pattern, patterns, pattern-either, pattern-regex')
    else if (formulaKeys.length > 1) scope.report((field(formulaKeys[1] as string) as { keyLine: number }).keyLine, `a rule takes only one of pattern, patterns, pattern-either, pattern-regex (found ${formulaKeys.join(' and ')})`)
    else {
      const only = field(formulaKeys[0] as string) as { key: string; keyLine: number; value: Located }
      formula = scope.attempt(() => operatorFormula(only.key, only.value, only.keyLine, 'rule', scope))
    }
  }

  const pathsEntry = field('paths')
  const paths = pathsEntry ? scope.attempt(() => pathsOf(pathsEntry.value, scope)) : undefined
  const optionsEntry = field('options')
  if (optionsEntry) scope.attempt(() => checkOptions(optionsEntry.value, scope))
  const fixEntry = field('fix')
  const fix = fixEntry ? scope.attempt(() => text(fixEntry.value, 'fix', scope, { limit: false })) : undefined
  for (const key of ['min-version', 'max-version']) {
    const version = field(key)
    if (version) scope.attempt(() => text(version.value, key, scope))
  }
  const metadataEntry = field('metadata')
  if (metadataEntry && metadataEntry.value.kind !== 'map') scope.report(metadataEntry.keyLine, `metadata must be a mapping, got ${describe(metadataEntry.value)}`)

  if (scope.problems.length > 0 || id === null || message === undefined || severity === undefined || languages.length === 0) {
    return { id, line, documents: [], problems: scope.problems }
  }
  const semgrep: SemgrepRule = {
    mode,
    ...(formula ? { formula } : {}),
    ...(taint ? { taint } : {}),
    ...(paths && (paths.include || paths.exclude) ? { paths } : {}),
    line: node.line,
  }
  const fields = issueFieldsOf(metadataEntry ? plain(metadataEntry.value) : undefined, severity)
  const documents = languages.map(
    (language): RuleDocument => ({
      id,
      language,
      rule: {},
      severity,
      message,
      ...(fix !== undefined ? { fix } : {}),
      title: titleFromMessage(message),
      category: fields.category,
      cwe: fields.cwe,
      owasp: fields.owasp,
      cvss: fields.cvss,
      confidence: fields.confidence,
      remediation: fields.remediation,
      tags: fields.tags,
      semgrep,
    }),
  )
  return { id, line, documents, problems: [] }
}

/**
 * Compiles a Semgrep rule file's document (isSemgrepDocument is true for its value). Returns the
 * compiled rules and the problems of the refused ones; a rule with any problem is refused whole.
 */
export function compileSemgrepDocument(doc: Document.Parsed, lineOf: (offset: number) => number, limits: RuleLimits): { rules: CompiledSemgrepRule[]; problems: SemgrepProblem[] } {
  const root = locate(doc, lineOf)
  const problems: SemgrepProblem[] = []
  const rules: CompiledSemgrepRule[] = []
  if (root.kind !== 'map') return { rules, problems }
  for (const item of root.entries) {
    if (item.key !== 'rules') problems.push({ ruleId: null, line: item.keyLine, message: `unknown top-level field "${item.key}" in a Semgrep rule file (only rules: is read)` })
  }
  const list = entry(root, 'rules') as { keyLine: number; value: Located }
  if (list.value.kind !== 'seq') {
    problems.push({ ruleId: null, line: list.keyLine, message: `rules must be a list of Semgrep rules, got ${describe(list.value)}` })
    return { rules, problems }
  }
  if (list.value.items.length > limits.maxRules) {
    problems.push({ ruleId: null, line: list.value.items[limits.maxRules]?.line ?? list.keyLine, message: `more than ${limits.maxRules} rules, the limit for one text` })
    return { rules, problems }
  }
  for (const item of list.value.items) {
    const compiled = compileRule(item, limits)
    for (const problem of compiled.problems) problems.push({ ruleId: compiled.id, ...problem })
    if (compiled.problems.length === 0 && compiled.id !== null) rules.push({ id: compiled.id, line: compiled.line, documents: compiled.documents })
  }
  return { rules, problems }
}
