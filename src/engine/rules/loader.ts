/**
 * Loads rule documents from YAML text (built-in rule files and user rulesets), validates each
 * one (metadata with zod, the ast-grep rule by compiling it for every language it targets) and
 * reports problems by rule id and line, so a rule author can find the faulty field at once.
 * A text may instead be a Semgrep rule file (a top-level `rules:` list), told apart by that
 * shape and compiled by semgrep/parse.ts under the same limits.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Composer, LineCounter } from 'yaml'
import type { Document } from 'yaml'
import { parse } from '@ast-grep/napi'
import type { NapiConfig } from '@ast-grep/napi'
import type { RuleDocument } from '../core/types.ts'
import { fileLanguagesForRule, isCodeLanguage, isLanguageAvailable, napiLanguage } from '../core/languages.ts'
import type { CodeLanguage } from '../core/languages.ts'
import { DEFAULT_USER_RULE_SEVERITY, normalizeSeverity, ruleSchemas, titleFromMessage, userRuleDefaults, type ParsedRuleDocument } from './schema.ts'
import { DEFAULT_RULE_LIMITS, MAX_YAML_ALIAS_COUNT, ruleValueProblem, tokenizeRuleText } from './limits.ts'
import type { RuleLimits } from './limits.ts'
import { compileSemgrepDocument, isSemgrepDocument } from '../semgrep/parse.ts'
import { checkSemgrepPatterns } from '../semgrep/evaluate.ts'
import { checkTaintRule } from '../semgrep/taint.ts'

export interface RuleProblem {
  ruleId: string | null
  /** 1-based line in the YAML text */
  line: number
  message: string
  /** File (or ruleset name) the text came from, when known. */
  source?: string
}

export function formatRuleProblem(problem: RuleProblem): string {
  const where = problem.ruleId === null ? `document (line ${problem.line})` : `rule "${problem.ruleId}" (line ${problem.line})`
  return `${problem.source ? `${problem.source}: ` : ''}${where}: ${problem.message}`
}

export class RuleValidationError extends Error {
  readonly problems: RuleProblem[]

  constructor(problems: RuleProblem[]) {
    const lines = problems.map(formatRuleProblem)
    super(lines.length === 1 ? (lines[0] ?? '') : `${lines.length} rule problems:\n${lines.join('\n')}`)
    this.name = 'RuleValidationError'
    this.problems = problems
  }
}

export interface RuleOrigin {
  source: string | null
  /** 1-based line where the rule's document starts */
  line: number
}

const origins = new WeakMap<RuleDocument, RuleOrigin>()

/** Where a loaded rule was defined (file and line), for diagnostics. */
export function ruleOrigin(rule: RuleDocument): RuleOrigin | undefined {
  return origins.get(rule)
}

export interface ParseRulesOptions {
  /**
   * The built-in rules' strict form: every metadata field given, ids named
   * `<language>.<category>.<name>`. User rules (the default) may be plain ast-grep rules.
   */
  builtin?: boolean
  /** Bounds on the text (limits.ts); DEFAULT_RULE_LIMITS unless given, none for `null` (the built-in rules). */
  limits?: RuleLimits | null
}

/**
 * Parses and validates every YAML document of `text`. Returns the rules, or throws a
 * RuleValidationError listing every problem found (not just the first).
 */
export function parseRulesText(text: string, source?: string, options: ParseRulesOptions = {}): RuleDocument[] {
  const { rules, problems } = parseRulesTextLeniently(text, source, options)
  if (problems.length > 0) throw new RuleValidationError(problems)
  return rules
}

/** Like parseRulesText, but returns the valid rules along with the problems of the others. */
export function parseRulesTextLeniently(
  text: string,
  source?: string,
  options: ParseRulesOptions = {},
): { rules: RuleDocument[]; problems: RuleProblem[] } {
  const limits = options.limits === undefined ? DEFAULT_RULE_LIMITS : (options.limits ?? UNLIMITED)
  const lineCounter = new LineCounter()
  const lineOf = (offset: number) => lineCounter.linePos(offset).line
  const problems: RuleProblem[] = []
  const rules: RuleDocument[] = []
  const firstLineById = new Map<string, number>()
  let textFormat: { format: 'semgrep' | 'parapet'; line: number } | undefined
  const report = (ruleId: string | null, line: number, message: string) =>
    problems.push(source === undefined ? { ruleId, line, message } : { ruleId, line, message, source })

  const tokenized = tokenizeRuleText(text, limits, lineCounter.addNewLine)
  if ('problem' in tokenized) {
    report(null, tokenized.problem.line, tokenized.problem.message)
    return { rules, problems }
  }
  const docList = Array.from(new Composer({ prettyErrors: false, uniqueKeys: true }).compose(tokenized.tokens))
  // ast-grep compiles rules synchronously: a text whose rules take too long to compile is refused.
  const budget: CompileBudget = { remainingMs: limits.validationBudgetMs }

  /** A Semgrep rule file's rules, each refused whole on any problem; its documents (one per language) share its id. */
  const addSemgrepRules = (doc: Document.Parsed): typeof BUDGET_SPENT | undefined => {
    const compiled = compileSemgrepDocument(doc, lineOf, limits)
    for (const problem of compiled.problems) report(problem.ruleId, problem.line, problem.message)
    for (const semgrepRule of compiled.rules) {
      const previous = firstLineById.get(semgrepRule.id)
      if (previous !== undefined) {
        report(semgrepRule.id, semgrepRule.line, `duplicate rule id (first defined at line ${previous})`)
        continue
      }
      const patternProblems = semgrepPatternProblems(semgrepRule.documents, budget)
      if (patternProblems === BUDGET_SPENT) {
        report(semgrepRule.id, semgrepRule.line, budgetSpent(limits))
        return BUDGET_SPENT
      }
      if (patternProblems.length > 0) {
        for (const problem of patternProblems) report(semgrepRule.id, problem.line, problem.message)
        continue
      }
      firstLineById.set(semgrepRule.id, semgrepRule.line)
      for (const rule of semgrepRule.documents) {
        origins.set(rule, { source: source ?? null, line: semgrepRule.line })
        rules.push(rule)
      }
    }
    return undefined
  }

  for (const doc of docList) {
    const start = documentStartLine(doc, lineOf)
    const syntaxErrors = doc.errors
    const ruleId = idOf(doc)
    if (syntaxErrors.length > 0) {
      // Later errors are mostly consequences of the first one.
      const first = syntaxErrors[0] as (typeof syntaxErrors)[number]
      const more = syntaxErrors.length > 1 ? ` (and ${syntaxErrors.length - 1} more YAML errors after it)` : ''
      report(ruleId, lineOf(first.pos[0]), `YAML syntax error: ${firstLine(first.message)}${more}`)
      continue
    }
    let data: unknown
    try {
      // Aliases are expanded here: a "billion laughs" document stops at the alias count.
      data = doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT })
    } catch (error) {
      report(ruleId, start, yamlAliasProblem(error))
      continue
    }
    if (data === null || data === undefined) continue // empty document (e.g. trailing `---`)
    const shape = ruleValueProblem(data, limits)
    if (shape) {
      report(ruleId, pathLine(doc, shape.path, lineOf) ?? start, shape.message)
      continue
    }

    // One text is one format: a Semgrep rule file, or Parapet's rule documents.
    const format = isSemgrepDocument(data) ? 'semgrep' : 'parapet'
    textFormat ??= { format, line: start }
    if (format !== textFormat.format) {
      const first = textFormat.format === 'semgrep' ? 'a Semgrep rule file' : "Parapet's rule format"
      const other = format === 'semgrep' ? 'a Semgrep rule file' : "Parapet's rule format"
      report(ruleId, start, `this document is ${other}, but the text is ${first} (line ${textFormat.line}); put each format in a text of its own`)
      continue
    }
    if (format === 'semgrep' && options.builtin) {
      report(ruleId, start, "built-in rules are written in Parapet's rule format, not Semgrep's")
      continue
    }
    if (format === 'semgrep') {
      if (addSemgrepRules(doc) === BUDGET_SPENT) break
      continue
    }

    const schemas = ruleSchemas()
    const parsed = (options.builtin ? schemas.builtin : schemas.user).safeParse(data)
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol')
        if (issue.code === 'unrecognized_keys') {
          for (const key of issue.keys) report(ruleId, keyLine(doc, [...path, key], lineOf) ?? start, `unknown field "${key}"`)
        } else if (path.length > 0 && valueAt(data, path) === undefined) {
          report(ruleId, pathLine(doc, path.slice(0, -1), lineOf) ?? start, `missing required field "${path.join('.')}"`)
        } else {
          report(ruleId, pathLine(doc, path, lineOf) ?? start, issue.message)
        }
      }
      // Still compile the ast-grep part so an author sees all problems of the rule at once.
      const partial = data as Partial<RuleDocument>
      if (typeof partial.language === 'string' && isCodeLanguage(partial.language) && isPlainObject(partial.rule)) {
        const compileError = astGrepCompileError(partial as RuleDocument, budget)
        if (compileError === BUDGET_SPENT) {
          report(ruleId, start, budgetSpent(limits))
          break
        }
        if (compileError) report(ruleId, keyLine(doc, [compileError.field], lineOf) ?? start, compileError.message)
      }
      continue
    }

    const value: ParsedRuleDocument = parsed.data
    const severity = value.severity === undefined ? DEFAULT_USER_RULE_SEVERITY : normalizeSeverity(value.severity)
    const defaults = userRuleDefaults(severity)
    const rule: RuleDocument = {
      id: value.id,
      language: value.language,
      rule: value.rule,
      ...(value.constraints ? { constraints: value.constraints } : {}),
      ...(value.utils ? { utils: value.utils } : {}),
      severity,
      message: value.message,
      ...(value.note !== undefined ? { note: value.note } : {}),
      ...(value.fix !== undefined ? { fix: value.fix } : {}),
      title: value.title ?? titleFromMessage(value.message),
      category: value.category ?? 'custom',
      cwe: value.cwe ?? [],
      owasp: value.owasp ?? null,
      cvss: value.cvss ?? defaults.cvss,
      confidence: value.confidence ?? defaults.confidence,
      remediation: value.remediation ?? null,
      tags: value.tags ?? [],
    }

    if (options.builtin) {
      const prefix = `${rule.language}.${rule.category}.`
      if (!rule.id.startsWith(prefix) || rule.id.length === prefix.length) {
        report(rule.id, pathLine(doc, ['id'], lineOf) ?? start, `built-in rule ids must be "${prefix}<name>"`)
      }
    }

    const compileError = astGrepCompileError(rule, budget)
    if (compileError === BUDGET_SPENT) {
      report(rule.id, start, budgetSpent(limits))
      break
    }
    if (compileError) {
      report(rule.id, keyLine(doc, [compileError.field], lineOf) ?? start, compileError.message)
      continue
    }

    const previous = firstLineById.get(rule.id)
    if (previous !== undefined) {
      report(rule.id, pathLine(doc, ['id'], lineOf) ?? start, `duplicate rule id (first defined at line ${previous})`)
      continue
    }
    firstLineById.set(rule.id, start)
    origins.set(rule, { source: source ?? null, line: start })
    rules.push(rule)
  }

  return { rules, problems }
}

type Path = Array<string | number>

/** For the built-in rules; a finite depth still stops a walk over values that aliases made cyclic. */
const UNLIMITED: RuleLimits = {
  maxBytes: Infinity,
  maxRules: Infinity,
  maxDepth: 256,
  maxPatternLength: Infinity,
  maxPatternNesting: Infinity,
  validationBudgetMs: Infinity,
}

function budgetSpent(limits: RuleLimits): string {
  return `compiling the rules took more than ${limits.validationBudgetMs} ms, the limit for one text; the rules from here on were not validated (split the text or simplify its regexes)`
}

/** The `yaml` package throws from toJS on too many alias expansions and on aliases to no anchor. */
function yamlAliasProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  if (/excessive alias count/i.test(message)) return `YAML aliases expand too much (more than ${MAX_YAML_ALIAS_COUNT} expansions), as in a "billion laughs" document`
  return `YAML error: ${firstLine(message)}`
}

function valueAt(data: unknown, path: Path): unknown {
  let current = data
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return current
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function documentStartLine(doc: Document.Parsed, lineOf: (offset: number) => number): number {
  const contents = doc.contents
  const offset = contents?.range?.[0] ?? doc.range[0]
  return lineOf(offset)
}

function idOf(doc: Document.Parsed): string | null {
  try {
    const id: unknown = doc.get('id')
    return typeof id === 'string' ? id : null
  } catch {
    return null
  }
}

/** Line of the value at `path`, or of its closest existing ancestor. */
function pathLine(doc: Document.Parsed, path: Path, lineOf: (offset: number) => number): number | null {
  for (let length = path.length; length > 0; length--) {
    const node: unknown = doc.getIn(path.slice(0, length), true)
    const range = (node as { range?: [number, number, number] } | undefined)?.range
    if (range) return lineOf(range[0])
    // A scalar value is returned unwrapped when the node is null-valued; fall back to its key.
    const key = keyLine(doc, path.slice(0, length), lineOf)
    if (key !== null) return key
  }
  return null
}

/** Line of the key (not the value) of the last path element, e.g. for unknown fields. */
function keyLine(doc: Document.Parsed, path: Path, lineOf: (offset: number) => number): number | null {
  const parent: unknown = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true)
  const items = (parent as { items?: Array<{ key?: { value?: unknown; range?: [number, number, number] } }> } | null)?.items
  const wanted = path[path.length - 1]
  const pair = items?.find((item) => item.key?.value === wanted)
  return pair?.key?.range ? lineOf(pair.key.range[0]) : null
}

function firstLine(message: string): string {
  return message.split('\n')[0]?.trim() ?? message
}

interface CompileError {
  field: 'rule' | 'constraints' | 'utils'
  message: string
}

/** The ast-grep config a rule is matched with (language is given by the parsed tree). */
export function napiConfigOf(rule: RuleDocument): NapiConfig {
  const config: NapiConfig = { rule: rule.rule as NapiConfig['rule'] }
  if (rule.constraints) config.constraints = rule.constraints as NapiConfig['constraints']
  if (rule.utils) config.utils = rule.utils as NapiConfig['utils']
  return config
}

const emptyRoots = new Map<string, ReturnType<typeof parse>>()

/** What is left of a text's compilation budget (RuleLimits.validationBudgetMs). */
interface CompileBudget {
  remainingMs: number
}

/** Returned instead of a compile error once the budget is spent: the rest of the text is not validated. */
const BUDGET_SPENT = 'budget-spent'

/**
 * Compiles the rule for every file language it will run on by matching it against an empty
 * tree, which makes ast-grep validate the rule (kinds, regexes, utils references...). Each
 * compilation is charged to the budget.
 */
function astGrepCompileError(rule: RuleDocument, budget: CompileBudget): CompileError | typeof BUDGET_SPENT | null {
  if (!isCodeLanguage(rule.language)) return null
  for (const target of fileLanguagesForRule(rule.language)) {
    if (!isLanguageAvailable(target)) continue
    if (budget.remainingMs <= 0) return BUDGET_SPENT
    const started = performance.now()
    try {
      emptyRootFor(target).root().findAll(napiConfigOf(rule))
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const named = /`(rule|constraints|utils)`/.exec(message)?.[1]
      const field: CompileError['field'] = named === 'constraints' || named === 'utils' ? named : 'rule'
      const suffix = target === rule.language ? '' : ` (when applied to ${target} files)`
      return { field, message: `invalid ast-grep rule${suffix}: ${flattenAstGrepError(message)}` }
    } finally {
      budget.remainingMs -= performance.now() - started
    }
  }
  return null
}

/**
 * The patterns, regexes and comparisons of a Semgrep rule's documents that cannot be compiled
 * for their language (each problem once, though the rule has a document per language), charged
 * to the budget like ast-grep rules.
 */
function semgrepPatternProblems(documents: readonly RuleDocument[], budget: CompileBudget): Array<{ line: number; message: string }> | typeof BUDGET_SPENT {
  const problems: Array<{ line: number; message: string }> = []
  for (const document of documents) {
    if (!document.semgrep || !isCodeLanguage(document.language) || !isLanguageAvailable(document.language)) continue
    if (budget.remainingMs <= 0) return BUDGET_SPENT
    const started = performance.now()
    try {
      // a taint rule in a language the data-flow engine does not follow would never run
      for (const problem of [...checkTaintRule(document.semgrep, document.language), ...checkSemgrepPatterns(document.semgrep, document.language)]) {
        if (!problems.some((known) => known.line === problem.line && known.message === problem.message)) problems.push(problem)
      }
    } finally {
      budget.remainingMs -= performance.now() - started
    }
  }
  return problems
}

/** ast-grep reports nested causes on separate `|->` lines; keep them on one line. */
function flattenAstGrepError(message: string): string {
  return message
    .split('\n')
    .map((line) => line.replace(/^\s*\|->/, '').trim())
    .filter((line) => line !== '' && line !== '^')
    .join(': ')
    .replace(/\.:/g, ':')
}

function emptyRootFor(language: CodeLanguage): ReturnType<typeof parse> {
  let root = emptyRoots.get(language)
  if (!root) {
    root = parse(napiLanguage(language), '')
    emptyRoots.set(language, root)
  }
  return root
}

/** Folder holding the built-in rule files (`<language>/<category>.yml`). */
export function builtinRulesDir(): string {
  return fileURLToPath(new URL('./', import.meta.url))
}

/** The .yml/.yaml files under `dir`, recursively, sorted by path; none when it cannot be read. */
export function listRuleFiles(dir: string): string[] {
  let entries
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const files: string[] = []
  for (const entry of entries) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) files.push(...listRuleFiles(path))
    else if (entry.isFile() && /\.ya?ml$/.test(entry.name)) files.push(path)
  }
  return files.sort()
}

export interface BuiltinRulesLoad {
  rules: RuleDocument[]
  /** Problems of the documents left out (empty when every rule file is valid). */
  problems: RuleProblem[]
}

let builtinCache: { signature: string; load: BuiltinRulesLoad } | null = null

/**
 * The built-in rules as the build validated them (scripts/build.mjs writes it next to the
 * compiled loader, writeBuiltinRulesCache): a process started from a build reads it instead of
 * parsing and compiling every rule file, unless a rule file changed since.
 */
const BUILTIN_CACHE_FILE = 'builtin-rules.cache.json'

interface BuiltinRulesCacheFile {
  signature: string
  rules: Array<{ rule: RuleDocument; origin: RuleOrigin }>
  problems: RuleProblem[]
}

/** The rule files' names (from `dir`), sizes and modification times: what invalidates the caches. */
function ruleFilesSignature(dir: string, files: readonly string[]): string {
  return files
    .map((file) => {
      const stats = statSync(file, { throwIfNoEntry: false })
      return `${relative(dir, file)}:${stats?.size ?? -1}:${stats?.mtimeMs ?? -1}`
    })
    .join('|')
}

/**
 * Loads every built-in rule file, keeping the valid rules and collecting the problems of the
 * others. Cached in memory and, from a build, on disk; both caches are keyed by the files'
 * names, sizes and modification times, so rule files added or edited later are picked up.
 */
export function loadBuiltinRulesLeniently(dir: string = builtinRulesDir()): BuiltinRulesLoad {
  const files = listRuleFiles(dir)
  const signature = `${dir}|${ruleFilesSignature(dir, files)}`
  if (builtinCache && builtinCache.signature === signature) return builtinCache.load
  const load = readBuiltinRulesCache(dir, files) ?? parseBuiltinRuleFiles(dir, files)
  builtinCache = { signature, load }
  return load
}

function parseBuiltinRuleFiles(dir: string, files: readonly string[]): BuiltinRulesLoad {
  // Name built-in files from the project root (src/engine/rules/...) so messages are clickable.
  const sourceBase = dir === builtinRulesDir() ? join(dir, '..', '..', '..') : dir
  const problems: RuleProblem[] = []
  const rules: RuleDocument[] = []
  const seen = new Map<string, string>()
  for (const file of files) {
    const source = relative(sourceBase, file).split(sep).join('/')
    let text: string
    try {
      text = readFileSync(file, 'utf8')
    } catch {
      continue // removed between listing and reading
    }
    const { rules: valid, problems: invalid } = parseRulesTextLeniently(text, source, { builtin: true, limits: null })
    problems.push(...invalid)
    for (const rule of valid) {
      const first = seen.get(rule.id)
      if (first !== undefined) {
        problems.push({ ruleId: rule.id, line: ruleOrigin(rule)?.line ?? 1, message: `duplicate rule id (also defined in ${first})`, source })
        continue
      }
      seen.set(rule.id, source)
      rules.push(rule)
    }
  }
  return { rules, problems }
}

/** The cached load of the built-in rules in `dir`, when it was written from these very files. */
function readBuiltinRulesCache(dir: string, files: readonly string[]): BuiltinRulesLoad | null {
  let cached: BuiltinRulesCacheFile
  try {
    cached = JSON.parse(readFileSync(join(dir, BUILTIN_CACHE_FILE), 'utf8')) as BuiltinRulesCacheFile
  } catch {
    return null
  }
  if (cached.signature !== ruleFilesSignature(dir, files)) return null
  const rules = cached.rules.map(({ rule, origin }) => {
    origins.set(rule, origin)
    return rule
  })
  return { rules, problems: cached.problems }
}

/** Validates the built-in rules in `dir` and writes them to its cache file (the build calls this). */
export function writeBuiltinRulesCache(dir: string = builtinRulesDir()): BuiltinRulesLoad {
  const path = join(dir, BUILTIN_CACHE_FILE)
  rmSync(path, { force: true })
  const files = listRuleFiles(dir)
  const load = parseBuiltinRuleFiles(dir, files)
  const cached: BuiltinRulesCacheFile = {
    signature: ruleFilesSignature(dir, files),
    rules: load.rules.map((rule) => ({ rule, origin: ruleOrigin(rule) ?? { source: null, line: 1 } })),
    problems: load.problems,
  }
  writeFileSync(path, JSON.stringify(cached))
  return load
}

/** Loads every built-in rule; throws a RuleValidationError if any rule file has a problem. */
export function loadBuiltinRules(dir: string = builtinRulesDir()): RuleDocument[] {
  const { rules, problems } = loadBuiltinRulesLeniently(dir)
  if (problems.length > 0) throw new RuleValidationError(problems)
  return rules
}
