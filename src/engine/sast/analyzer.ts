/**
 * The syntax-tree analyzer: runs ast-grep rules over a file with a single parse shared by
 * every rule of the file's language. Rules whose textual precondition fails are not run, and
 * a file no rule can apply to is not parsed at all; after parsing, a rule runs only if the
 * tree has the node kinds it needs (the kind it matches, the kinds its sub-rules must find), and
 * without the alternatives of its top-level `any` whose words the file lacks.
 *
 * ast-grep compiles a rule (patterns, regexes, utilities) on every call, which costs more than
 * matching it, so everything here is about calling it less often and with smaller configs.
 *
 * Rules written in Semgrep's format (search mode) run on the same tree through the Semgrep
 * formula evaluator (semgrep/evaluate.ts); their taint-mode rules belong to the data-flow
 * analysis and are not run here.
 */
import { parse } from '@ast-grep/napi'
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import type { Finding, RuleDocument, Severity } from '../core/types.ts'
import type { Analyzer } from '../core/analyzer.ts'
import { modelName } from '../core/analyzer.ts'
import { CODE_LANGUAGES, isCodeLanguage, isLanguageAvailable, napiLanguage, ruleLanguagesFor } from '../core/languages.ts'
import type { CodeLanguage, FileLanguage } from '../core/languages.ts'
import { TextProbe, nodeTextRequirements, ruleAlternativePreconditions, ruleKindPrecondition, ruleTextRequirements } from './preconditions.ts'
import type { RegexFilter } from '../text/regex-filter.ts'
import { WordScanner } from '../text/word-scanner.ts'
import type { Precondition, RuleParts, TextRequirements } from './preconditions.ts'
import { napiConfigOf } from '../rules/loader.ts'
import { withAsciiRegexes } from '../text/ascii-regex.ts'
import { buildFinding, fingerprintOf, normalizeMatchedText, occurrenceIndexes, quoteCode } from '../core/findings.ts'
import type { MatchSpan } from '../core/findings.ts'
import type { SourceFile } from '../core/source-file.ts'
import { evaluateFormula } from '../semgrep/evaluate.ts'
import { semgrepPathSelected } from '../semgrep/paths.ts'
import { semgrepPrecondition } from '../semgrep/precondition.ts'
import type { SemgrepBinding, SemgrepFormula, SemgrepRule } from '../semgrep/types.ts'

export const SAST_VERSION = '1.0'

interface CompiledRule {
  doc: RuleDocument
  severity: Severity
  /** the ast-grep config; null for a Semgrep rule, which `formula` matches */
  config: NapiConfig | null
  formula: SemgrepFormula | null
  precondition: Precondition
  /** Whole-file regex filters that must all pass (checked after the words). */
  filters: RegexFilter[]
  /** Per alternative of the rule's top-level `any`, the words it needs; null without such an `any`. */
  alternatives: Precondition[] | null
  /** Configs without the alternatives a file cannot match, by the alternatives kept. */
  narrowedConfigs: Map<string, NapiConfig>
  /** Conditions on the whole file the rule's config sets through `inside` its root (fileConditionsOf). */
  fileConditions: FileCondition[]
  /** Configs with those conditions settled for a file, by the narrowed config and the outcomes. */
  settledConfigs: Map<NapiConfig, Map<string, NapiConfig>>
  /** Constraints checked on ast-grep's matches rather than compiled into each call (deferredConstraintsOf). */
  deferred: DeferredConstraint[]
  /** Configs with the deferred constraints that read the tree put back, by the config they extend (restoredConfig). */
  restoredConfigs: Map<NapiConfig, NapiConfig>
}

/**
 * A constraint the analyzer checks on ast-grep's matches instead of leaving it in the config:
 * napi compiles every regex and utility of a config on every call, and the constraints with the
 * utilities only they use were most of what some rules compiled, file after file. The matches
 * are the same: ast-grep checks constraints only once a node matched the rule (its
 * RuleCore::do_match, not while `any` picks an alternative), on the metavariables the match bound
 * to one node (an unbound one passes), each constraint on that node alone. Constraints whose
 * patterns name metavariables stay in the config: ast-grep matches those against the match's
 * own captures, which a separate check would not see.
 */
interface DeferredConstraint {
  name: string
  /** The texts it allows, when it only lists them (`regex: ^(query|execute)$`): decided here. */
  texts: ReadonlySet<string> | null
  /** What the bound node's text must hold for ast-grep to say yes (its words and regex filters). */
  requirements: TextRequirements
  /** The constraint as a config of its own, with the utilities it uses, for ast-grep to decide. */
  config: NapiConfig
  /** ast-grep's answers by text, when the constraint reads only the node's text (a lone `regex`). */
  verdicts: Map<string, boolean> | null
  /**
   * The kinds the bound node must have (null when any kind may do): left in the config in place of
   * the constraint, where ast-grep checks them at no compiling cost, so matches with other kinds
   * never reach the analyzer.
   */
  kinds: ReadonlySet<string> | null
}

/** `^name$` or `^(a|b|c)$` (`(?:` too): word characters, `!`, and escaped `.` or `$`. */
const TEXT_CHOICE = /^\^(?:\((?:\?:)?((?:[\w!]|\\[.$])+(?:\|(?:[\w!]|\\[.$])+)*)\)|((?:[\w!]|\\[.$])+))\$$/

/** Verdicts kept per constraint, and the longest text kept: enough for the names and short expressions they see. */
const MAX_VERDICTS = 1024
const MAX_VERDICT_TEXT = 128

/** The rule's constraints that can be checked on its matches, those listing texts first. */
function deferredConstraintsOf(doc: RuleDocument): DeferredConstraint[] {
  const utils = (doc.utils ?? {}) as Record<string, unknown>
  const language = isCodeLanguage(doc.language) ? doc.language : undefined
  const deferred: DeferredConstraint[] = []
  for (const [name, constraint] of Object.entries(doc.constraints ?? {})) {
    if (typeof constraint !== 'object' || constraint === null) continue
    const config = withAsciiRegexes(withoutUnusedUtils({ rule: constraint, ...(doc.utils ? { utils } : {}) } as NapiConfig))
    if (namesMetavariables(config)) continue
    const regex = (constraint as Record<string, unknown>).regex
    const loneRegex = typeof regex === 'string' && Object.keys(constraint).length === 1
    deferred.push({
      name,
      texts: loneRegex ? textChoices(regex) : null,
      requirements: nodeTextRequirements(constraint, utils, language),
      config,
      verdicts: loneRegex ? new Map() : null,
      kinds: ownKinds(constraint, utils, new Set()),
    })
  }
  return deferred.sort((a, b) => Number(b.texts !== null) - Number(a.texts !== null))
}

/** The texts a `^(a|b|c)$` regex allows, or null for any other regex. */
function textChoices(regex: string): ReadonlySet<string> | null {
  const match = TEXT_CHOICE.exec(regex)
  if (!match) return null
  return new Set((match[1] ?? match[2] ?? '').split('|').map((text) => text.replace(/\\([.$])/g, '$1')))
}

const PATTERN_METAVARIABLE = /\$[A-Z_$]/

/** Whether a pattern of the config (its rule or a utility) names a metavariable. */
function namesMetavariables(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(namesMetavariables)
  if (typeof value !== 'object' || value === null) return false
  return Object.entries(value).some(([key, child]) =>
    key === 'pattern' ? PATTERN_METAVARIABLE.test(JSON.stringify(child)) : key !== 'regex' && namesMetavariables(child),
  )
}

/**
 * The kinds a node matching `rule` can have, from its `kind` fields through `any`, `all` and
 * utilities; null when it may have any kind.
 */
function ownKinds(rule: unknown, utils: Record<string, unknown>, resolving: Set<string>): Set<string> | null {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return null
  let kinds: Set<string> | null = null
  const narrow = (more: Set<string> | null) => {
    if (more) kinds = kinds ? new Set([...kinds].filter((kind) => more.has(kind))) : more
  }
  for (const [field, child] of Object.entries(rule)) {
    if (field === 'kind' && typeof child === 'string') narrow(new Set([child]))
    else if (field === 'all' && Array.isArray(child)) for (const item of child) narrow(ownKinds(item, utils, resolving))
    else if (field === 'any' && Array.isArray(child) && child.length > 0) {
      const branches = child.map((item) => ownKinds(item, utils, resolving))
      if (branches.every((branch) => branch !== null)) narrow(new Set(branches.flatMap((branch) => [...(branch as Set<string>)])))
    } else if (field === 'matches' && typeof child === 'string' && child in utils && !resolving.has(child)) {
      resolving.add(child)
      narrow(ownKinds(utils[child], utils, resolving))
      resolving.delete(child)
    }
  }
  return kinds
}

/** The constraint left in the config for a deferred one: its kinds, or nothing. */
function kindConstraint(constraint: DeferredConstraint): Record<string, unknown> | null {
  if (!constraint.kinds || constraint.kinds.size === 0) return null
  const kinds = [...constraint.kinds]
  return kinds.length === 1 ? { kind: kinds[0] } : { any: kinds.map((kind) => ({ kind })) }
}

/** The config with the deferred constraints left out, or reduced to the kinds they allow. */
function withoutDeferred(config: NapiConfig, deferred: readonly DeferredConstraint[]): NapiConfig {
  const constraints = config.constraints as Record<string, unknown> | undefined
  if (!constraints || deferred.length === 0) return config
  const kept = Object.entries(constraints).flatMap(([name, constraint]): Array<[string, unknown]> => {
    const own = deferred.find((candidate) => candidate.name === name)
    if (!own) return [[name, constraint]]
    const kinds = kindConstraint(own)
    return kinds ? [[name, kinds]] : []
  })
  const pruned: NapiConfig = { ...config }
  if (kept.length === 0) delete pruned.constraints
  else pruned.constraints = Object.fromEntries(kept) as NapiConfig['constraints']
  return pruned
}

/** Whether the constraint is decided by ast-grep on each node (not by its text alone). */
function readsTree(constraint: DeferredConstraint): boolean {
  return constraint.texts === null && constraint.verdicts === null
}

/**
 * The matches that satisfy the deferred constraints. Those decided by text are checked here (a
 * regex's verdict memoized by text); each constraint that reads the tree costs ast-grep a compile
 * per node it is asked about, so when more than one match of a file needs such an answer, the
 * rule runs once more with those constraints back in its config, compiled once for the file.
 */
function withDeferredChecked(root: SgNode, rule: CompiledRule, config: NapiConfig, nodes: SgNode[]): SgNode[] {
  const screened = nodes.map((node) => screen(node, rule.deferred, false))
  const asking = screened.filter((pending) => pending !== false && pending.length > 0).length
  if (asking <= 1) {
    return nodes.filter((node, index) => {
      const pending = screened[index] as DeferredConstraint[] | false
      return pending !== false && pending.every((constraint) => (node.getMatch(constraint.name) as SgNode).matches(constraint.config))
    })
  }
  const restored = findAllNarrowed(root, restoredConfig(rule, config), rule.config && restoredConfig(rule, rule.config))
  return restored.filter((node) => screen(node, rule.deferred, true) !== false)
}

/**
 * false when a deferred constraint fails on its metavariable's text, else those ast-grep must
 * still decide on the node (none when `inConfig`: the config held them).
 */
function screen(node: SgNode, deferred: readonly DeferredConstraint[], inConfig: boolean): DeferredConstraint[] | false {
  const pending: DeferredConstraint[] = []
  for (const constraint of deferred) {
    if (inConfig && readsTree(constraint)) continue
    const bound = node.getMatch(constraint.name)
    if (bound === null) continue
    const text = bound.text()
    if (constraint.texts) {
      if (!constraint.texts.has(text)) return false
      continue
    }
    const probe = new TextProbe(text)
    if (!probe.satisfies(constraint.requirements.clauses) || !probe.passes(constraint.requirements.filters)) return false
    if (constraint.verdicts) {
      if (!regexVerdict(bound, text, constraint)) return false
    } else pending.push(constraint)
  }
  return pending
}

/** ast-grep's verdict on a lone-regex constraint, by the bound text. */
function regexVerdict(bound: SgNode, text: string, constraint: DeferredConstraint): boolean {
  const verdicts = constraint.verdicts
  if (!verdicts || text.length > MAX_VERDICT_TEXT) return bound.matches(constraint.config)
  let verdict = verdicts.get(text)
  if (verdict === undefined) {
    verdict = bound.matches(constraint.config)
    if (verdicts.size >= MAX_VERDICTS) verdicts.clear()
    verdicts.set(text, verdict)
  }
  return verdict
}

/** The config with the deferred constraints that read the tree back in (those it can capture), memoized per config. */
function restoredConfig(rule: CompiledRule, config: NapiConfig): NapiConfig {
  let restored = rule.restoredConfigs.get(config)
  if (!restored) {
    const constraints: Record<string, unknown> = { ...(config.constraints as Record<string, unknown> | undefined) }
    const utils: Record<string, unknown> = { ...(config.utils as Record<string, unknown> | undefined) }
    for (const constraint of rule.deferred.filter(readsTree)) {
      constraints[constraint.name] = constraint.config.rule
      Object.assign(utils, constraint.config.utils)
    }
    const withConstraints: NapiConfig = { ...config, constraints: constraints as NapiConfig['constraints'] }
    if (Object.keys(utils).length > 0) withConstraints.utils = utils as NapiConfig['utils']
    restored = withoutUncapturedConstraints(withConstraints)
    rule.restoredConfigs.set(config, restored)
  }
  return restored
}

/**
 * `inside: {kind: <the tree's root kind>, stopBy: end, ...}` without metavariables: a node satisfies
 * it when the file's root satisfies the rest, whatever the node (the root kind is the grammar's
 * start rule, never a child: no other node has it). ast-grep evaluates it again for every candidate
 * node, reading the whole file's text each time for a `regex` (quadratic in large files); the
 * analyzer decides it once per file with `matches` on the root, then leaves only the climb to the
 * root in the config, or drops the rule (or the `not` around the condition) when it fails.
 */
interface FileCondition {
  /** Where the `inside` sits: the rule object, an item of its top-level `all`, or its `not`. */
  at: { field: 'inside' } | { field: 'all'; index: number } | { field: 'not' }
  kind: string
  /** What the root must match, with the cheapest regex forms; its JSON is the memo key. */
  test: NapiConfig
  key: string
}

/** The rules of one file language, compiled on first use, with their precondition words. */
interface LanguagePlan {
  rules: CompiledRule[]
  /** Every precondition word of these rules, found in a file in one pass. */
  words: WordScanner
  /** Per rule, its precondition as clauses of word ids. */
  clauses: Int32Array[][]
  /** Per rule, node kinds a parsed file must contain (null when none is known). */
  kinds: Array<Precondition | null>
  /** Per rule, the precondition of each alternative of its top-level `any` as clauses of word ids (null when it has none). */
  alternativeClauses: Array<Int32Array[][] | null>
}

/** A rule to run on a file: its node-kind precondition and the config to match with there. */
interface Candidate {
  rule: CompiledRule
  kinds: Precondition | null
  config: NapiConfig | null
}

/** Counters for benchmarks and scan logs. */
export interface SastMetrics {
  filesParsed: number
  /** Files not parsed because no rule's precondition held. */
  filesNotParsed: number
  ruleRuns: number
  /** Rule runs avoided by preconditions. */
  ruleRunsSkipped: number
  /** Rules that threw while matching (logged by the pipeline through onRuleError). */
  ruleErrors: number
  /** Syntax trees parsed by the whole scan, every analyzer included (core/source-file.ts). */
  treesParsed: number
}

export function emptySastMetrics(): SastMetrics {
  return { filesParsed: 0, filesNotParsed: 0, ruleRuns: 0, ruleRunsSkipped: 0, ruleErrors: 0, treesParsed: 0 }
}

export interface SastOptions {
  metrics?: SastMetrics
  onRuleError?(ruleId: string, path: string, message: string): void
}

/**
 * The config ast-grep matches with: the rule's, without the utilities it never reaches (ast-grep
 * compiles every utility, used or not, for every file it matches), with the cheapest equivalent
 * form of each regex (ascii-regex.ts; each form is checked to compile there).
 */
function matchConfig(doc: RuleDocument, deferred: readonly DeferredConstraint[]): NapiConfig {
  return withAsciiRegexes(withoutUnusedUtils(withoutDeferred(napiConfigOf(doc), deferred)))
}

/** The config without `utils` entries that neither the rule, the constraints nor a used utility reference. */
export function withoutUnusedUtils(config: NapiConfig): NapiConfig {
  const utils = config.utils as Record<string, unknown> | undefined
  if (!utils) return config
  const used = new Set<string>()
  const pending = [...referencedUtils(config.rule), ...referencedUtils(config.constraints)]
  while (pending.length > 0) {
    const name = pending.pop() as string
    if (used.has(name) || !(name in utils)) continue
    used.add(name)
    pending.push(...referencedUtils(utils[name]))
  }
  if (used.size === Object.keys(utils).length) return config
  const pruned: NapiConfig = { ...config }
  if (used.size === 0) delete pruned.utils
  else pruned.utils = Object.fromEntries(Object.entries(utils).filter(([name]) => used.has(name))) as NapiConfig['utils']
  return pruned
}

/** Names that `matches:` fields anywhere inside `value` refer to. */
function referencedUtils(value: unknown, names: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) referencedUtils(item, names)
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'matches' && typeof child === 'string') names.push(child)
      else referencedUtils(child, names)
    }
  }
  return names
}

function compile(doc: RuleDocument): CompiledRule {
  if (doc.semgrep) {
    const formula = doc.semgrep.formula ?? null
    return {
      doc,
      severity: doc.severity as Severity,
      config: null,
      formula,
      precondition: semgrepPrecondition(formula ?? undefined),
      filters: [],
      alternatives: null,
      narrowedConfigs: new Map(),
      fileConditions: [],
      settledConfigs: new Map(),
      deferred: [],
      restoredConfigs: new Map(),
    }
  }
  const parts: RuleParts = {
    rule: doc.rule,
    ...(doc.utils ? { utils: doc.utils } : {}),
    ...(doc.constraints ? { constraints: doc.constraints } : {}),
    ...(isCodeLanguage(doc.language) ? { language: doc.language } : {}),
  }
  const { clauses, filters } = ruleTextRequirements(parts)
  const deferred = deferredConstraintsOf(doc)
  return {
    doc,
    severity: doc.severity as Severity,
    config: matchConfig(doc, deferred),
    formula: null,
    precondition: clauses,
    filters,
    alternatives: ruleAlternativePreconditions(parts),
    narrowedConfigs: new Map(),
    fileConditions: fileConditionsOf(doc.rule),
    settledConfigs: new Map(),
    deferred,
    restoredConfigs: new Map(),
  }
}

const METAVARIABLE_NAME = /\$[A-Z_$]/

function fileConditionOf(inside: unknown): { kind: string; test: NapiConfig; key: string } | null {
  if (typeof inside !== 'object' || inside === null || Array.isArray(inside)) return null
  const { kind, stopBy, ...rest } = inside as Record<string, unknown>
  // `field` says where the node sits in its ancestor, which the root alone cannot tell.
  if (typeof kind !== 'string' || stopBy !== 'end' || Object.keys(rest).length === 0 || 'field' in rest) return null
  // Metavariables would tie it to the node; utilities are not followed.
  const text = JSON.stringify(rest)
  if (METAVARIABLE_NAME.test(text) || text.includes('"matches"')) return null
  const test = withAsciiRegexes({ rule: { kind, ...rest } } as NapiConfig)
  return { kind, test, key: JSON.stringify(test) }
}

/** The rule's conditions on the whole file (FileCondition), where it needs them or excludes them. */
function fileConditionsOf(rule: Record<string, unknown>): FileCondition[] {
  const conditions: FileCondition[] = []
  const inside = fileConditionOf(rule.inside)
  if (inside) conditions.push({ at: { field: 'inside' }, ...inside })
  if (Array.isArray(rule.all)) {
    rule.all.forEach((item: unknown, index) => {
      const keys = typeof item === 'object' && item !== null ? Object.keys(item) : []
      const condition = keys.length === 1 && keys[0] === 'inside' ? fileConditionOf((item as Record<string, unknown>).inside) : null
      if (condition) conditions.push({ at: { field: 'all', index }, ...condition })
    })
  }
  const not = rule.not as Record<string, unknown> | undefined
  if (typeof not === 'object' && not !== null && Object.keys(not).length === 1) {
    const condition = fileConditionOf(not.inside)
    if (condition) conditions.push({ at: { field: 'not' }, ...condition })
  }
  return conditions
}

/**
 * "Does the file's root satisfy this condition?", memoized per condition; null when the condition
 * is not on the root's kind, or ast-grep refuses it (it then reports the error with the rule's
 * own config).
 */
function fileConditionProbe(root: SgNode): (condition: FileCondition) => boolean | null {
  let rootKind: string | undefined
  const answers = new Map<string, boolean | null>()
  return (condition) => {
    rootKind ??= String(root.kind())
    if (condition.kind !== rootKind) return null
    let answer = answers.get(condition.key)
    if (answer === undefined) {
      try {
        answer = root.matches(condition.test)
      } catch {
        answer = null
      }
      answers.set(condition.key, answer)
    }
    return answer
  }
}

/** The config to run in this file: with its file conditions settled when all are decided, null when one it needs fails. */
function settledForFile(rule: CompiledRule, config: NapiConfig, holdsInFile: (condition: FileCondition) => boolean | null): NapiConfig | null {
  const holds = rule.fileConditions.map(holdsInFile)
  return holds.every((answer) => answer !== null) ? settledConfig(rule, config, holds as boolean[]) : config
}

/**
 * The config with the rule's file conditions settled by `holds` (one outcome per condition), or
 * null when a condition the rule needs fails: the rule cannot match in the file.
 */
function settledConfig(rule: CompiledRule, config: NapiConfig, holds: boolean[]): NapiConfig | null {
  const needed = rule.fileConditions.some((condition, index) => condition.at.field !== 'not' && !holds[index])
  if (needed) return null
  let byOutcome = rule.settledConfigs.get(config)
  if (!byOutcome) rule.settledConfigs.set(config, (byOutcome = new Map()))
  const key = holds.map(Number).join('')
  let settled = byOutcome.get(key)
  if (!settled) {
    const object = { ...(config.rule as Record<string, unknown>) }
    rule.fileConditions.forEach((condition, index) => {
      const climb = { kind: condition.kind, stopBy: 'end' }
      if (condition.at.field === 'inside') object.inside = climb
      else if (condition.at.field === 'all') {
        const all = [...(object.all as unknown[])]
        all[condition.at.index] = { inside: climb }
        object.all = all
      } else if (holds[index]) object.not = { inside: climb }
      else delete object.not
    })
    settled = { ...config, rule: object as NapiConfig['rule'] }
    byOutcome.set(key, settled)
  }
  return settled
}

/**
 * The rule's config with only the alternatives of its top-level `any` at `kept`. An alternative
 * whose words the file lacks matches nothing there, and `any` takes its first matching
 * alternative, so the matches and what they capture are the same; ast-grep compiles every
 * alternative on each call, so leaving the dead ones out is what saves the time. Constraints on
 * metavariables the remaining rule cannot capture never applied, and ast-grep refuses them: they
 * go, and so do the utilities nothing uses any more.
 */
function narrowedConfig(rule: CompiledRule, kept: number[]): NapiConfig {
  const key = kept.join(',')
  let config = rule.narrowedConfigs.get(key)
  if (!config) {
    const full = withoutDeferred(napiConfigOf(rule.doc), rule.deferred)
    const alternatives = full.rule.any as unknown[]
    const narrowed: NapiConfig = { ...full, rule: { ...full.rule, any: kept.map((index) => alternatives[index]) } as NapiConfig['rule'] }
    config = withAsciiRegexes(withoutUnusedUtils(withoutUncapturedConstraints(withoutUnusedUtils(narrowed))))
    rule.narrowedConfigs.set(key, config)
  }
  return config
}

/** The config without constraints on metavariables that neither the rule nor a utility names. */
function withoutUncapturedConstraints(config: NapiConfig): NapiConfig {
  const constraints = config.constraints as Record<string, unknown> | undefined
  if (!constraints) return config
  const ruleText = JSON.stringify([config.rule, config.utils ?? null])
  const named = (name: string) => new RegExp(`\\$(?:\\$\\$)?${name.replace(/[^A-Za-z0-9_]/g, '\\$&')}(?![A-Za-z0-9_])`).test(ruleText)
  const kept = Object.entries(constraints).filter(([name]) => named(name))
  if (kept.length === Object.keys(constraints).length) return config
  const pruned: NapiConfig = { ...config }
  if (kept.length === 0) delete pruned.constraints
  else pruned.constraints = Object.fromEntries(kept) as NapiConfig['constraints']
  return pruned
}

const patternKinds = new Map<string, string | null>()
const LONE_METAVARIABLE = /^\s*\$(?:\$\$)?[A-Z_][A-Z0-9_]*\s*$/

/**
 * The kind of every node a pattern matches in `language`, or null. ast-grep only matches a
 * pattern whose root is not a metavariable against nodes of the root's kind, so matching the
 * pattern against its own source finds nodes of exactly that kind; several kinds (a root
 * metavariable) or none (a pattern that does not parse as itself) give null.
 */
export function patternRootKind(language: CodeLanguage, pattern: unknown): string | null {
  if (typeof pattern !== 'string' || LONE_METAVARIABLE.test(pattern)) return null
  const key = `${language}\u0000${pattern}`
  let kind = patternKinds.get(key)
  if (kind === undefined) {
    kind = null
    try {
      const kinds = new Set(
        parse(napiLanguage(language), pattern)
          .root()
          .findAll({ rule: { pattern } })
          .map((node) => String(node.kind())),
      )
      if (kinds.size === 1) kind = [...kinds][0] ?? null
    } catch {
      kind = null
    }
    patternKinds.set(key, kind)
  }
  return kind
}

interface RawMatch {
  rule: CompiledRule
  /** the ast-grep match, or null for a Semgrep rule's match (its captures are in `bindings`) */
  node: SgNode | null
  bindings: Readonly<Record<string, SemgrepBinding>> | null
  span: MatchSpan
  startIndex: number
  endIndex: number
  text: string
}

export class SastAnalyzer implements Analyzer {
  readonly name = 'sast' as const
  readonly version = SAST_VERSION
  readonly ruleCount: number
  /** Rule documents per file language; compiled into a plan the first time a file needs them. */
  private readonly docsByLanguage = new Map<CodeLanguage, RuleDocument[]>()
  private readonly plans = new Map<CodeLanguage, LanguagePlan>()
  /** Compiled rules shared by the languages they apply to (JavaScript rules serve TS and TSX). */
  private readonly compiled = new Map<RuleDocument, CompiledRule>()
  private readonly metrics: SastMetrics
  private readonly onRuleError: SastOptions['onRuleError']

  constructor(allRules: RuleDocument[], options: SastOptions = {}) {
    this.metrics = options.metrics ?? emptySastMetrics()
    this.onRuleError = options.onRuleError
    // Semgrep taint rules are run by the data-flow analysis (scan/scan.ts), not file by file here.
    const rules = allRules.filter((rule) => rule.semgrep?.mode !== 'taint')
    this.ruleCount = rules.length
    for (const language of CODE_LANGUAGES) {
      const applicable = ruleLanguagesFor(language)
      this.docsByLanguage.set(
        language,
        rules.filter((rule) => (applicable as readonly string[]).includes(rule.language)),
      )
    }
  }

  accepts(language: FileLanguage): boolean {
    return isCodeLanguage(language) && (this.docsByLanguage.get(language)?.length ?? 0) > 0 && isLanguageAvailable(language)
  }

  /**
   * Compiling is deferred to the first file of each language: a scan of a JavaScript project
   * never pays for the other languages' rules, and a scan on worker threads does not compile
   * the rules in the scanning thread at all.
   */
  private planFor(language: CodeLanguage): LanguagePlan {
    let plan = this.plans.get(language)
    if (!plan) {
      const rules = (this.docsByLanguage.get(language) ?? []).map((doc) => {
        let rule = this.compiled.get(doc)
        if (!rule) {
          rule = compile(doc)
          this.compiled.set(doc, rule)
        }
        return rule
      })
      const words = new WordScanner(
        rules.flatMap((rule) => [...rule.precondition.flat(), ...(rule.alternatives ?? []).flatMap((alternative) => alternative.flat())]),
      )
      const idsOf = (precondition: Precondition) => precondition.map((clause) => Int32Array.from(clause, (word) => words.idOf(word)))
      const clauses = rules.map((rule) => idsOf(rule.precondition))
      const alternativeClauses = rules.map((rule) => rule.alternatives?.map(idsOf) ?? null)
      // Patterns are parsed with the file's grammar (JavaScript rules run on TypeScript trees).
      const kinds = rules.map((rule) => {
        if (rule.formula) return null
        const precondition = ruleKindPrecondition(rule.doc.utils ? { rule: rule.doc.rule, utils: rule.doc.utils } : { rule: rule.doc.rule }, (pattern) =>
          patternRootKind(language, pattern),
        )
        return precondition.length > 0 ? precondition : null
      })
      plan = { rules, words, clauses, kinds, alternativeClauses }
      this.plans.set(language, plan)
    }
    return plan
  }

  /**
   * Rules whose precondition holds for the file's text, with their node-kind preconditions and the
   * config to match with: without the alternatives of a top-level `any` that cannot match in this
   * file (a rule none of whose alternatives can is not run).
   */
  private candidateRules(file: SourceFile): Candidate[] {
    if (!isCodeLanguage(file.language)) return []
    const { rules, words, clauses, kinds, alternativeClauses } = this.planFor(file.language)
    const present = words.scan(file.text)
    const holds = (precondition: Int32Array[]) => precondition.every((clause) => clause.some((word) => present[word] === 1))
    const probe = new TextProbe(file.text)
    const candidates: Candidate[] = []
    rules.forEach((rule, index) => {
      const semgrep: SemgrepRule | undefined = rule.doc.semgrep
      if (semgrep && !semgrepPathSelected(semgrep.paths, file.path)) return
      if (!holds(clauses[index] ?? []) || !probe.passes(rule.filters)) return
      let config = rule.config
      const alternatives = alternativeClauses[index]
      if (alternatives && config) {
        const kept = alternatives.flatMap((alternative, position) => (holds(alternative) ? [position] : []))
        if (kept.length === 0) return
        if (kept.length < alternatives.length) config = narrowedConfig(rule, kept)
      }
      candidates.push({ rule, kinds: kinds[index] ?? null, config })
    })
    this.metrics.ruleRunsSkipped += rules.length - candidates.length
    return candidates
  }

  analyze(file: SourceFile): Finding[] {
    const rules = this.candidateRules(file)
    if (rules.length === 0 || !isCodeLanguage(file.language)) {
      this.metrics.filesNotParsed++
      return []
    }
    this.metrics.filesParsed++
    const root = file.root
    const hasKind = kindProbe(root)
    const matches: RawMatch[] = []
    const seenSpans = new Set<string>()
    const holdsInFile = fileConditionProbe(root)
    for (const candidate of rules) {
      const { rule, kinds } = candidate
      let { config } = candidate
      if (kinds && !kinds.every((clause) => clause.some(hasKind))) {
        this.metrics.ruleRunsSkipped++
        continue
      }
      if (config && rule.fileConditions.length > 0) {
        config = settledForFile(rule, config, holdsInFile)
        if (config === null) {
          this.metrics.ruleRunsSkipped++
          continue
        }
      }
      this.metrics.ruleRuns++
      if (config === null) {
        if (rule.formula) this.semgrepMatches(rule, rule.formula, root, file, matches, seenSpans)
        continue
      }
      let nodes: SgNode[]
      try {
        nodes = findAllNarrowed(root, config, rule.config)
        if (rule.deferred.length > 0) nodes = withDeferredChecked(root, rule, config, nodes)
      } catch (error) {
        this.metrics.ruleErrors++
        this.onRuleError?.(rule.doc.id, file.path, error instanceof Error ? error.message : String(error))
        continue
      }
      for (const node of nodes) {
        const range = node.range()
        const key = `${rule.doc.id}\u0000${range.start.index}\u0000${range.end.index}`
        if (seenSpans.has(key)) continue // same rule, same span: one finding
        seenSpans.add(key)
        matches.push({
          rule,
          node,
          bindings: null,
          span: { startLine: range.start.line, startColumn: range.start.column, endLine: range.end.line, endColumn: range.end.column },
          startIndex: range.start.index,
          endIndex: range.end.index,
          text: node.text(),
        })
      }
    }
    return this.toFindings(file, matches)
  }

  private semgrepMatches(rule: CompiledRule, formula: SemgrepFormula, root: SgNode, file: SourceFile, matches: RawMatch[], seenSpans: Set<string>): void {
    let found
    try {
      found = evaluateFormula(root, file.text, file.language, formula)
    } catch (error) {
      this.metrics.ruleErrors++
      this.onRuleError?.(rule.doc.id, file.path, error instanceof Error ? error.message : String(error))
      return
    }
    if (found.length === 0) return
    const position = positionsOf(file.text)
    for (const match of found) {
      const key = `${rule.doc.id}\u0000${match.start}\u0000${match.end}`
      if (seenSpans.has(key)) continue
      seenSpans.add(key)
      const start = position(match.start)
      const end = position(match.end)
      matches.push({
        rule,
        node: null,
        bindings: match.bindings,
        span: { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column },
        startIndex: match.start,
        endIndex: match.end,
        text: file.text.slice(match.start, match.end),
      })
    }
  }

  private toFindings(file: SourceFile, matches: RawMatch[]): Finding[] {
    const normalized = matches.map((match) => normalizeMatchedText(match.text))
    const occurrences = occurrenceIndexes(
      matches.map((match, index) => ({ ruleId: match.rule.doc.id, normalizedText: normalized[index] ?? '', offset: match.startIndex })),
    )
    return matches.map((match, index) => {
      const { doc } = match.rule
      const description = match.node
        ? substituteMetavariables(doc.message, match.node, file.text, true)
        : substituteBindings(doc.message, match.bindings ?? {}, true)
      const fingerprint = fingerprintOf(doc.id, file.path, normalized[index] ?? '', occurrences[index] ?? 0)
      return buildFinding(
        file,
        match.span,
        {
          ruleId: doc.id,
          analyzer: 'sast',
          modelUsed: modelName('sast', SAST_VERSION),
          category: doc.category,
          severity: match.rule.severity,
          confidence: doc.confidence,
          title: doc.title,
          description,
          explanation: explain(doc, description, match, file.path),
          remediation: doc.remediation,
          remediationCode:
            doc.fix === undefined
              ? null
              : match.node
                ? substituteMetavariables(doc.fix, match.node, file.text, false)
                : substituteBindings(doc.fix, match.bindings ?? {}, false),
          cweIds: doc.cwe,
          owaspCategory: doc.owasp,
          cvssScore: doc.cvss,
          tags: doc.tags ?? [],
        },
        fingerprint,
      )
    })
  }
}

/**
 * Matches with a narrowed config; should ast-grep refuse it (a metavariable named in a way the
 * narrowing does not see), with the rule's full config, which finds the same matches.
 */
function findAllNarrowed(root: SgNode, config: NapiConfig, full: NapiConfig | null): SgNode[] {
  if (config === full || full === null) return root.findAll(config)
  try {
    return root.findAll(config)
  } catch {
    return root.findAll(full)
  }
}

/** "Does the tree contain a node of this kind?", memoized per kind; unknown kinds count as present. */
function kindProbe(root: SgNode): (kind: string) => boolean {
  const answers = new Map<string, boolean>()
  return (kind) => {
    let answer = answers.get(kind)
    if (answer === undefined) {
      try {
        answer = root.find({ rule: { kind } }) !== null
      } catch {
        answer = true
      }
      answers.set(kind, answer)
    }
    return answer
  }
}

const METAVARIABLE_REFERENCE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g

/**
 * Replaces `$NAME` / `$$$NAME` with the code the metavariable captured. In messages the code
 * is flattened and shortened to fit a sentence; in fixes it is kept verbatim.
 */
export function substituteMetavariables(template: string, node: SgNode, fileText: string, forSentence: boolean): string {
  return template.replace(METAVARIABLE_REFERENCE, (whole: string, multi: string | undefined, single: string | undefined) => {
    const name = multi ?? single ?? ''
    const captured = capturedText(node, name, fileText, multi !== undefined)
    if (captured === null) return whole
    return forSentence ? quoteCode(captured, 80) : captured
  })
}

const SEMGREP_METAVARIABLE_REFERENCE = /\$(?:\.\.\.)?[A-Z_][A-Z0-9_]*|\$[0-9]+/g

/** Semgrep's `$X` / `$...ARGS` in a message or fix, replaced with what the match captured (unknown names stay). */
export function substituteBindings(template: string, bindings: Readonly<Record<string, SemgrepBinding>>, forSentence: boolean): string {
  return template.replace(SEMGREP_METAVARIABLE_REFERENCE, (name: string) => {
    const bound = bindings[name]
    if (!bound) return name
    return forSentence ? quoteCode(bound.text, 80) : bound.text
  })
}

/** Offset -> 0-based line and UTF-16 column, by binary search over the line starts. */
function positionsOf(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0]
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return (offset) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((starts[middle] as number) <= offset) low = middle
      else high = middle - 1
    }
    return { line: low, column: offset - (starts[low] as number) }
  }
}

function capturedText(node: SgNode, name: string, fileText: string, preferMultiple: boolean): string | null {
  if (!preferMultiple) {
    const single = node.getMatch(name)
    if (single) return single.text()
  }
  const multiple = node.getMultipleMatches(name)
  if (multiple.length > 0) {
    const first = multiple[0] as SgNode
    const last = multiple[multiple.length - 1] as SgNode
    return fileText.slice(first.range().start.index, last.range().end.index)
  }
  if (preferMultiple) {
    const single = node.getMatch(name)
    if (single) return single.text()
    return ''
  }
  return null
}

function explain(doc: RuleDocument, description: string, match: RawMatch, path: string): string {
  const why = doc.note?.trim() || `${doc.title}: code like this is a common cause of ${doc.category.replace(/-/g, ' ')} (${doc.cwe.join(', ')}).`
  const where = `Matched \`${quoteCode(match.text)}\` in ${path} at line ${match.span.startLine + 1}, column ${match.span.startColumn + 1}.`
  return `${ensureSentence(description)} ${ensureSentence(why)} ${where}`
}

function ensureSentence(text: string): string {
  const trimmed = text.trim()
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`
}
