/**
 * Cheap textual preconditions for rules. Parsing and tree matching dominate scan time, and
 * most rules cannot match most files: a rule for `os.system($CMD)` needs the words `os` and
 * `system` somewhere in the file. From each rule we derive words that must appear for any
 * match, in conjunctive normal form (every clause needs one of its words), and skip the
 * rule, or the whole parse, when the file text lacks them.
 *
 * Sources of required words: pattern text outside metavariables (every pattern leaf matches
 * verbatim), `pattern: {context, selector}` (the selected node's text), mandatory literals of
 * `regex`, relational sub-rules (`has`, `inside`... need their node in the same file),
 * `matches` (through `utils`) and `constraints` on metavariables every match captures (or every
 * match through one branch of an `any`, for that branch).
 *
 * Mandatory regexes also give whole-file regex filters (regex-filter.ts: automata that read each
 * character once, never a backtracking RegExp), checked after the words.
 *
 * The derivation must be sound (never reject a file the rule could match), so anything it
 * cannot reason about (kinds, negations, strictness options, verbose regexes...) yields "no
 * requirement". Words are tested as substrings, which keeps that easy to guarantee.
 */
import { parse } from '@ast-grep/napi'
import { expandoChar, napiLanguage } from '../core/languages.ts'
import { regexFilter } from '../text/regex-filter.ts'
import { skipCharacterClass, topLevelAlternatives } from '../text/regex-syntax.ts'
import type { RegexFilter } from '../text/regex-filter.ts'
import type { CodeLanguage } from '../core/languages.ts'

/** Clauses that must all hold; a clause holds when any of its words occurs in the text. */
export type Precondition = string[][]

export const NO_REQUIREMENT: Precondition = []

/** Prefix of a word that is matched case-insensitively (from `(?i)` regexes). */
export const CASE_INSENSITIVE = '\u0001'

type RuleObject = Record<string, unknown>

const METAVARIABLE = /\$\$\$[A-Z_][A-Z0-9_]*|\$\$\$|\$[A-Z_][A-Z0-9_]*/g
const CAPTURING_METAVARIABLE = /(?<!\$)\$([A-Z][A-Z0-9_]*)/g
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g

interface Context {
  language: CodeLanguage | null
  utils: Record<string, unknown>
  resolving: Set<string>
  /** Whole-file regex filters, collected where a regex is mandatory (null inside `any`). */
  filters: RegexFilter[] | null
  /**
   * While reading the rule itself (not its constraints or utilities): the rule's constraints, and
   * the metavariables every match captures, whose constraints are required of the whole rule.
   */
  branchConstraints: { constraints: Record<string, unknown>; required: Set<string> } | null
  /**
   * Requirements on one node's text rather than the file's (nodeTextRequirements): relations that
   * look outside the node (`inside`, `precedes`, `follows`) then require nothing.
   */
  withinNode?: boolean
}

export interface RuleParts {
  rule: RuleObject
  utils?: Record<string, unknown>
  constraints?: Record<string, unknown>
  /** Needed to resolve `pattern: {context, selector}`; without it those yield nothing. */
  language?: CodeLanguage
}

/** Precondition of a whole rule document. */
export function rulePrecondition(parts: RuleParts): Precondition {
  return analyzeRule(parts).clauses
}

/**
 * Automata (built from the rule's mandatory `regex` conditions) that must each find a match
 * somewhere in a file for the rule to match in it; see regex-filter.ts.
 */
export function ruleRegexFilters(parts: RuleParts): RegexFilter[] {
  return analyzeRule(parts).filters
}

/**
 * Per alternative of the rule's top-level `any`, the words that alternative needs (null when the
 * rule has no such `any`). An alternative whose words a file lacks cannot match in it: the rule
 * runs on that file without it.
 */
export function ruleAlternativePreconditions(parts: RuleParts): Precondition[] | null {
  const alternatives = parts.rule.any
  if (!Array.isArray(alternatives)) return null
  // Without constraints: an alternative whose pattern matches a node but whose captures fail a
  // constraint still takes that node from the alternatives after it, so it must stay.
  const context: Context = { language: parts.language ?? null, utils: parts.utils ?? {}, resolving: new Set(), filters: null, branchConstraints: null }
  return alternatives.map((alternative) => simplify(ofRule(alternative, context)))
}

/** What a rule needs of a file's text: its words (as rulePrecondition) and regex filters (as ruleRegexFilters), from one reading of the rule. */
export interface TextRequirements {
  clauses: Precondition
  filters: RegexFilter[]
}

export function ruleTextRequirements(parts: RuleParts): TextRequirements {
  return analyzeRule(parts)
}

/**
 * What a node's own text must hold for `rule` to match that node (a constraint on the node a
 * metavariable captured): the words and regex filters of the rule's fields, of its `has`
 * descendants (whose text is part of the node's) and of the utilities it uses. `inside`,
 * `precedes` and `follows` look at other nodes and require nothing of this one.
 */
export function nodeTextRequirements(rule: unknown, utils: Record<string, unknown> = {}, language?: CodeLanguage): TextRequirements {
  const filters: RegexFilter[] = []
  const context: Context = { language: language ?? null, utils, resolving: new Set(), filters, branchConstraints: null, withinNode: true }
  const clauses = ofRule(rule, context)
  const unique = new Map(filters.map((filter) => [filter.key, filter]))
  return { clauses: simplify(clauses), filters: [...unique.values()] }
}

function analyzeRule(parts: RuleParts): TextRequirements {
  const filters: RegexFilter[] = []
  const context: Context = { language: parts.language ?? null, utils: parts.utils ?? {}, resolving: new Set(), filters, branchConstraints: null }
  const required = alwaysCaptured(parts.rule, context)
  if (parts.constraints) context.branchConstraints = { constraints: parts.constraints, required }
  const clauses = ofRule(parts.rule, context)
  context.branchConstraints = null
  for (const [name, constraint] of Object.entries(parts.constraints ?? {})) {
    // A constraint only filters matches that captured its metavariable.
    if (required.has(name)) clauses.push(...ofRule(constraint, context))
  }
  const unique = new Map(filters.map((filter) => [filter.key, filter]))
  return { clauses: simplify(clauses), filters: [...unique.values()] }
}

function isRuleObject(value: unknown): value is RuleObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function ofRule(value: unknown, context: Context): Precondition {
  if (!isRuleObject(value)) return []
  // The fields of one rule object are implicitly and-ed.
  const clauses: Precondition = []
  for (const [field, child] of Object.entries(value)) {
    switch (field) {
      case 'pattern':
        clauses.push(...ofPatternField(child, context))
        break
      case 'regex':
        if (typeof child === 'string') {
          clauses.push(...ofRegex(child))
          const filter = context.filters ? regexFilter(child) : null
          if (filter) context.filters?.push(filter)
        }
        break
      case 'has':
        clauses.push(...ofRule(child, context))
        break
      case 'inside':
      case 'precedes':
      case 'follows':
        if (!context.withinNode) clauses.push(...ofRule(child, context))
        break
      case 'all':
        if (Array.isArray(child)) for (const item of child) clauses.push(...ofRule(item, context))
        break
      case 'any':
        if (Array.isArray(child)) {
          // A branch's regex is not mandatory for the rule.
          const filters = context.filters
          context.filters = null
          clauses.push(...anyOf(child.map((item) => [...ofRule(item, context), ...branchConstraintClauses(item, context)])))
          context.filters = filters
        }
        break
      case 'matches':
        if (typeof child === 'string' && !context.resolving.has(child) && child in context.utils) {
          const branchConstraints = context.branchConstraints
          context.branchConstraints = null
          context.resolving.add(child)
          clauses.push(...ofRule(context.utils[child], context))
          context.resolving.delete(child)
          context.branchConstraints = branchConstraints
        }
        break
      default:
        // kind, not, nthChild, range, stopBy, field...: no textual requirement.
        break
    }
  }
  return clauses
}

function ofPatternField(pattern: unknown, context: Context): Precondition {
  if (isRuleObject(pattern)) {
    const strictness = pattern.strictness
    // Looser strictness levels ignore some leaves (or all text, for `signature`).
    if (strictness !== undefined && strictness !== 'smart' && strictness !== 'cst') return []
  }
  return wordsOf(patternText(pattern, context))
}

/** The pattern code a match is compared with: the string, or the selected part of a context. */
function patternText(pattern: unknown, context: Context): string {
  if (typeof pattern === 'string') return pattern
  if (!isRuleObject(pattern)) return ''
  const { context: code, selector } = pattern
  if (typeof code !== 'string') return ''
  if (typeof selector !== 'string') return code
  return (context.language ? selectedText(context.language, code, selector) : null) ?? ''
}

/** Every word of pattern text outside metavariables is a leaf that must match verbatim. */
function wordsOf(patternText: string): Precondition {
  const words = new Set(patternText.replace(METAVARIABLE, ' ').match(WORD) ?? [])
  return [...words].map((word) => [word])
}

/** Text of the node a `{context, selector}` pattern matches with, as ast-grep picks it. */
function selectedText(language: CodeLanguage, code: string, selector: string): string | null {
  try {
    const expando = expandoChar(language)
    const prepared = expando === '$' ? code : code.replace(/\$(?=[A-Z_$])/g, expando)
    const node = parse(napiLanguage(language), prepared).root().find({ rule: { kind: selector } })
    if (!node) return null
    return expando === '$' ? node.text() : node.text().split(expando).join('$')
  } catch {
    return null
  }
}

/** The kind of node a `pattern` value always matches, or null when it can match several. */
export type PatternKind = (pattern: unknown) => string | null

/**
 * Node kinds the syntax tree must contain for the rule to match, as clauses of alternatives
 * (like the word precondition): the kind of the matched node (its `kind`, or the root kind of its
 * `pattern` when `patternKind` knows it) and of every node a mandatory relational sub-rule
 * (`inside`, `has`, ...) or utility (`matches`) must find. Checking that a parsed file has, say,
 * a `call_expression` at all costs at most one tree walk, and compiling a rule for the file costs
 * several: declaration files (`.d.ts`) and code without the rule's constructs skip the rule.
 */
export function ruleKindPrecondition(parts: Pick<RuleParts, 'rule' | 'utils'>, patternKind: PatternKind = () => null): Precondition {
  return simplify(kindsOf(parts.rule, parts.utils ?? {}, new Set(), patternKind))
}

function kindsOf(value: unknown, utils: Record<string, unknown>, resolving: Set<string>, patternKind: PatternKind): Precondition {
  if (!isRuleObject(value)) return []
  const clauses: Precondition = []
  for (const [field, child] of Object.entries(value)) {
    switch (field) {
      case 'kind':
        if (typeof child === 'string') clauses.push([child])
        break
      case 'pattern': {
        const kind = patternKind(child)
        if (kind !== null) clauses.push([kind])
        break
      }
      case 'inside':
      case 'has':
      case 'precedes':
      case 'follows':
        clauses.push(...kindsOf(child, utils, resolving, patternKind))
        break
      case 'all':
        if (Array.isArray(child)) for (const item of child) clauses.push(...kindsOf(item, utils, resolving, patternKind))
        break
      case 'any':
        if (Array.isArray(child)) clauses.push(...anyOf(child.map((item) => kindsOf(item, utils, resolving, patternKind))))
        break
      case 'matches':
        if (typeof child === 'string' && !resolving.has(child) && child in utils) {
          resolving.add(child)
          clauses.push(...kindsOf(utils[child], utils, resolving, patternKind))
          resolving.delete(child)
        }
        break
      default:
        // regex, not, nthChild, range...: no kind the tree must contain.
        break
    }
  }
  return clauses
}

/**
 * What the constraints need of a match that went through this branch of an `any`: the
 * metavariables the branch always captures stay captured in the match, so their constraints
 * apply to it. Those every match captures are required of the whole rule already (analyzeRule),
 * and would only crowd out the branch's own words when `anyOf` keeps one clause per branch.
 */
function branchConstraintClauses(branch: unknown, context: Context): Precondition {
  const outer = context.branchConstraints
  if (!outer) return []
  const clauses: Precondition = []
  context.branchConstraints = null
  for (const name of alwaysCaptured(branch, context)) {
    if (!outer.required.has(name) && name in outer.constraints) clauses.push(...ofRule(outer.constraints[name], context))
  }
  context.branchConstraints = outer
  return clauses
}

/** Metavariables every match of the rule captures (so constraints on them always apply). */
function alwaysCaptured(value: unknown, context: Context): Set<string> {
  const captured = new Set<string>()
  if (!isRuleObject(value)) return captured
  for (const [field, child] of Object.entries(value)) {
    switch (field) {
      case 'pattern': {
        for (const match of patternText(child, context).matchAll(CAPTURING_METAVARIABLE)) captured.add(match[1] as string)
        break
      }
      case 'inside':
      case 'has':
      case 'precedes':
      case 'follows':
        for (const name of alwaysCaptured(child, context)) captured.add(name)
        break
      case 'all':
        if (Array.isArray(child)) for (const item of child) for (const name of alwaysCaptured(item, context)) captured.add(name)
        break
      case 'any':
        if (Array.isArray(child) && child.length > 0) {
          const [first, ...rest] = child.map((item) => alwaysCaptured(item, context))
          for (const name of first ?? []) if (rest.every((set) => set.has(name))) captured.add(name)
        }
        break
      default:
        break
    }
  }
  return captured
}

/** A disjunction of CNFs, weakened to one clause: the best clause of every branch, or-ed. */
function anyOf(branches: Precondition[]): Precondition {
  if (branches.length === 0) return []
  const clause = new Set<string>()
  for (const branch of branches) {
    const best = bestClause(branch)
    if (!best) return []
    for (const word of best) clause.add(word)
  }
  return [[...clause]]
}

function wordLength(word: string): number {
  return word.startsWith(CASE_INSENSITIVE) ? word.length - 1 : word.length
}

/** The clause most likely to fail on unrelated files: few alternatives, long words. */
function bestClause(precondition: Precondition): string[] | undefined {
  let best: string[] | undefined
  let bestScore = -Infinity
  for (const clause of precondition) {
    const score = minLength(clause) * 4 - clause.length
    if (score > bestScore) {
      best = clause
      bestScore = score
    }
  }
  return best
}

function minLength(clause: string[]): number {
  return Math.min(...clause.map(wordLength))
}

/**
 * What every match of a regex must contain: per top-level alternative, its longest mandatory
 * literal run or the requirement of a mandatory group; or-ed over the alternatives.
 */
export function ofRegex(source: string): Precondition {
  let body = source
  let caseInsensitive = false
  const leadingFlags = /^\(\?([a-zA-Z]+)\)/.exec(body)
  if (leadingFlags) {
    const flags = leadingFlags[1] ?? ''
    if (/[^is]/.test(flags)) return []
    caseInsensitive = flags.includes('i')
    body = body.slice(leadingFlags[0].length)
  }
  // Flags switched on later in the pattern (or scoped flag groups) are not worth reasoning about.
  if (/\(\?[a-zA-Z-]+[:)]/.test(body)) return []
  const clause = requirementOfAlternation(body)
  if (!clause) return []
  return [caseInsensitive ? clause.map((word) => CASE_INSENSITIVE + word.toLowerCase()) : clause]
}

/** One clause for an alternation, or null when some alternative requires nothing. */
function requirementOfAlternation(source: string): string[] | null {
  const words = new Set<string>()
  for (const alternative of topLevelAlternatives(source)) {
    const requirement = requirementOfSequence(alternative)
    if (!requirement) return null
    for (const word of requirement) words.add(word)
  }
  return words.size > 0 ? minimalWords([...words]) : null
}

/** Whether what follows position `i` makes the preceding atom optional. */
function optionalAfter(text: string, i: number): boolean {
  const next = text[i]
  return next === '?' || next === '*' || (next === '{' && /^\{0\s*[,}]/.test(text.slice(i)))
}

/** Whether what follows position `i` repeats the preceding atom (so nothing may follow it in a run). */
function repeatedAfter(text: string, i: number): boolean {
  return text[i] === '+' || text[i] === '{'
}

/** Position after a quantifier (and its lazy `?`) starting at `i`, or `i` when there is none. */
function skipQuantifier(text: string, i: number): number {
  let end = i
  if (text[end] === '?' || text[end] === '*' || text[end] === '+') end++
  else if (text[end] === '{') {
    const close = text.indexOf('}', end)
    end = close === -1 ? text.length : close + 1
  } else return i
  if (text[end] === '?') end++
  return end
}

const MAX_LITERAL_SET = 32
const ZERO_WIDTH_ESCAPES = new Set(['b', 'B', 'A', 'z'])
const SPECIAL = new Set(['.', '^', '$', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '\\'])

/**
 * The literal strings one of which every match of a group's content contains, when the content
 * is an alternation of plain literals (e.g. `req|request`); null otherwise.
 */
function literalAlternatives(content: string): string[] | null {
  const alternatives = topLevelAlternatives(content)
  const result: string[] = []
  for (const alternative of alternatives) {
    let literal = ''
    for (let i = 0; i < alternative.length; i++) {
      const char = alternative[i] as string
      if (char === '\\') {
        const next = alternative[i + 1]
        if (next === undefined || /[A-Za-z0-9]/.test(next)) return null
        literal += next
        i++
      } else if (SPECIAL.has(char)) {
        return null
      } else {
        literal += char
      }
    }
    result.push(literal)
  }
  return result
}

/**
 * The best requirement of a sequence: the set of literal strings (one of which every match
 * contains) built from consecutive mandatory atoms (characters, escaped punctuation, groups of
 * literal alternatives); zero-width assertions do not interrupt it, anything else does.
 */
function requirementOfSequence(sequence: string): string[] | null {
  const candidates: string[][] = []
  let current: string[] = ['']
  const endRun = () => {
    if (current.every((literal) => literal.length > 0)) candidates.push(current)
    current = ['']
  }
  const append = (options: string[]) => {
    const next = current.flatMap((prefix) => options.map((option) => prefix + option))
    if (next.length > MAX_LITERAL_SET) {
      endRun()
      current = options.length <= MAX_LITERAL_SET ? options : ['']
    } else {
      current = next
    }
  }
  for (let i = 0; i < sequence.length; i++) {
    const char = sequence[i] as string
    let options: string[] | null = null
    let atomEnd = i
    if (char === '^' || char === '$') continue
    if (char === '\\') {
      const next = sequence[i + 1]
      atomEnd = i + 1
      if (next !== undefined && ZERO_WIDTH_ESCAPES.has(next)) {
        i = atomEnd
        continue
      }
      options = next !== undefined && !/[A-Za-z0-9]/.test(next) ? [next] : null
    } else if (char === '[') {
      atomEnd = skipCharacterClass(sequence, i)
    } else if (char === '(') {
      atomEnd = skipGroup(sequence, i)
      const inner = sequence.slice(i + 1, atomEnd)
      if (/^\?<?[=!]/.test(inner)) {
        // Look-arounds consume nothing.
        i = skipQuantifier(sequence, atomEnd + 1) - 1
        continue
      }
      const body = inner.replace(/^\?(?::|P?<[A-Za-z_][A-Za-z0-9_]*>)/, '')
      options = literalAlternatives(body)
      if (!options) {
        // A group that is not plain literals can still carry a requirement on its own.
        const clause = optionalAfter(sequence, atomEnd + 1) ? null : requirementOfAlternation(body)
        if (clause) candidates.push(clause)
      }
    } else if (char !== '.' && !SPECIAL.has(char)) {
      options = [char]
    }
    const after = atomEnd + 1
    if (optionalAfter(sequence, after) || !options || options.some((option) => option === '')) {
      endRun()
    } else {
      append(options)
      if (repeatedAfter(sequence, after)) endRun()
    }
    i = skipQuantifier(sequence, after) - 1
  }
  endRun()
  return bestClause(candidates.map(minimalWords)) ?? null
}

/** Drops words that contain another word of the same clause (they add nothing). */
function minimalWords(clause: string[]): string[] {
  const unique = [...new Set(clause)]
  return unique.filter((word) => !unique.some((other) => other !== word && word.includes(other)))
}

function skipGroup(text: string, open: number): number {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    const char = text[i]
    if (char === '\\') i++
    else if (char === '[') i = skipCharacterClass(text, i)
    else if (char === '(') depth++
    else if (char === ')' && --depth === 0) return i
  }
  return text.length
}

/** Drops duplicate clauses and clauses implied by a single-word clause they contain. */
function simplify(precondition: Precondition): Precondition {
  const singles = new Set(precondition.filter((clause) => clause.length === 1).map((clause) => clause[0] as string))
  const seen = new Set<string>()
  const result: Precondition = []
  for (const clause of precondition) {
    if (clause.length === 0) continue
    if (clause.length > 1 && clause.some((word) => singles.has(word))) continue
    const key = [...clause].sort().join('\u0000')
    if (seen.has(key)) continue
    seen.add(key)
    result.push(clause)
  }
  // Check long (rare) words first: they fail fastest on unrelated files.
  return result.sort((a, b) => minLength(b) - minLength(a))
}

/** Answers "does the text contain this word?" with memoization across rules of one file. */
export class TextProbe {
  private readonly answers = new Map<string, boolean>()
  private lowered: string | undefined

  constructor(private readonly text: string) {}

  has(word: string): boolean {
    let answer = this.answers.get(word)
    if (answer === undefined) {
      if (word.startsWith(CASE_INSENSITIVE)) {
        this.lowered ??= this.text.toLowerCase()
        answer = this.lowered.includes(word.slice(1))
      } else {
        answer = this.text.includes(word)
      }
      this.answers.set(word, answer)
    }
    return answer
  }

  satisfies(precondition: Precondition): boolean {
    return precondition.every((clause) => clause.some((word) => this.has(word)))
  }

  /** Whether every filter matches somewhere in the text (memoized per filter). */
  passes(filters: RegexFilter[]): boolean {
    for (const filter of filters) {
      const key = `\u0002${filter.key}`
      let answer = this.answers.get(key)
      if (answer === undefined) {
        answer = filter.test(this.text)
        this.answers.set(key, answer)
      }
      if (!answer) return false
    }
    return true
  }
}
