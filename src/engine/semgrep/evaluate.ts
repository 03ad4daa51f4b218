/**
 * Semgrep formulas evaluated over an ast-grep syntax tree, with Semgrep's semantics: a match is
 * a range of the file and what its metavariables captured. `pattern-either` unions;
 * `patterns` intersects its positive terms (bindings must agree), keeps the ranges inside a
 * `pattern-inside` match, drops those inside a `pattern-not-inside` match or equal to a
 * `pattern-not` match, then applies the metavariable filters in the order written, then
 * `focus-metavariable`. Bindings agree when their code is the same up to whitespace.
 * `pattern-regex` runs on the text (behind the deterministic prefilter of regex-filter.ts);
 * `metavariable-regex` anchors at the captured code's start, as Python's re.match;
 * `metavariable-comparison` reads single-assignment constants (constants.ts).
 *
 * Import aliases are resolved per file: `subprocess.call(...)` is also tried as `call(...)`
 * after `from subprocess import call`, as `sp.call(...)` after `import subprocess as sp`
 * (imports.ts).
 */
import { parse } from '@ast-grep/napi'
import type { SgNode } from '@ast-grep/napi'
import { isCodeLanguage, isLanguageAvailable, napiLanguage } from '../core/languages.ts'
import type { SemgrepBinding, SemgrepClause, SemgrepFormula, SemgrepMatch, SemgrepRule } from './types.ts'
import { PatternError, compilePattern, equivalentForms, sameRange, toJsRegex, unescapeQuotes } from './pattern.ts'
import type { CompiledPattern, PatternStep, Placeholder } from './pattern.ts'
import { evaluateComparison, parseComparison } from './comparison.ts'
import { aliasVariants, importAliases } from './imports.ts'
import { declaredTypes, typeMatches } from './types-of.ts'
import { fileConstants } from './constants.ts'
import { regexFilter } from '../text/regex-filter.ts'
import type { RegexFilter } from '../text/regex-filter.ts'

type Bindings = Record<string, SemgrepBinding>

/** The syntax node each binding was captured from, for `metavariable-pattern` and typed checks. */
const bindingNodes = new WeakMap<SemgrepBinding, SgNode>()

/**
 * The matches of a formula in a file. `root` is the file's tree, parsed as `language` (the
 * patterns are parsed with the same grammar). Throws PatternError for a pattern that cannot
 * be compiled for the language (checkSemgrepPatterns reports those when a rule is written).
 */
export function evaluateFormula(root: SgNode, fileText: string, language: string, formula: SemgrepFormula): SemgrepMatch[] {
  return new Evaluator(root, fileText, language, { start: 0, end: fileText.length }).formula(formula)
}

/** Every pattern, regex and comparison of a rule that cannot be compiled for `language`, with its YAML line. */
export function checkSemgrepPatterns(rule: SemgrepRule, language: string): Array<{ line: number; message: string }> {
  const problems: Array<{ line: number; message: string }> = []
  const formulas: SemgrepFormula[] = []
  if (rule.formula) formulas.push(rule.formula)
  if (rule.taint) {
    for (const spec of [...rule.taint.sources, ...rule.taint.sinks, ...rule.taint.sanitizers, ...rule.taint.propagators]) formulas.push(spec.formula)
  }
  for (const formula of formulas) checkFormula(formula, language, problems)
  return problems
}

function checkFormula(formula: SemgrepFormula, language: string, problems: Array<{ line: number; message: string }>): void {
  const report = (line: number, what: string, error: unknown): void => {
    problems.push({ line, message: `${what}: ${error instanceof Error ? error.message : String(error)}` })
  }
  switch (formula.kind) {
    case 'pattern':
      try {
        compilePattern(formula.pattern, language)
      } catch (error) {
        report(formula.line, `pattern \`${oneLine(formula.pattern)}\` cannot be used for ${language}`, error)
      }
      return
    case 'regex':
      try {
        toJsRegex(formula.regex, 'gm')
      } catch (error) {
        report(formula.line, `invalid pattern-regex`, error)
      }
      return
    case 'either':
      for (const inner of formula.of) checkFormula(inner, language, problems)
      return
    case 'patterns':
      for (const clause of formula.clauses) {
        switch (clause.kind) {
          case 'positive':
          case 'not':
          case 'inside':
          case 'not-inside':
            checkFormula(clause.formula, language, problems)
            break
          case 'not-regex':
          case 'metavariable-regex':
            try {
              toJsRegex(clause.regex)
            } catch (error) {
              report(clause.line, `invalid ${clause.kind === 'not-regex' ? 'pattern-not-regex' : 'metavariable-regex'}`, error)
            }
            break
          case 'metavariable-pattern': {
            const inner = clause.language ?? language
            if (!isCodeLanguage(inner) || !isLanguageAvailable(inner)) {
              problems.push({ line: clause.line, message: `metavariable-pattern language ${inner} is not supported` })
            } else {
              checkFormula(clause.formula, inner, problems)
            }
            break
          }
          case 'metavariable-comparison':
            try {
              parseComparison(clause.comparison)
            } catch (error) {
              report(clause.line, 'invalid metavariable-comparison', error)
            }
            break
          case 'focus':
            break
        }
      }
      return
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat
}

interface Scope {
  start: number
  end: number
  /** the node the scope is (metavariable-pattern on a captured node); absent: the whole file */
  node?: SgNode
}

class Evaluator {
  private aliases: Map<string, string> | undefined
  private types: ReturnType<typeof declaredTypes> | undefined
  private constants: Map<string, string> | undefined

  constructor(
    private readonly root: SgNode,
    private readonly text: string,
    private readonly language: string,
    private readonly scope: Scope,
  ) {}

  formula(formula: SemgrepFormula): SemgrepMatch[] {
    switch (formula.kind) {
      case 'pattern':
        return this.pattern(formula.pattern)
      case 'regex':
        return this.regex(formula.regex)
      case 'either':
        return dedupe(formula.of.flatMap((inner) => this.formula(inner)))
      case 'patterns':
        return this.patterns(formula.clauses)
    }
  }

  private patterns(clauses: readonly SemgrepClause[]): SemgrepMatch[] {
    const positives = clauses.filter((clause) => clause.kind === 'positive')
    const insides = clauses.filter((clause) => clause.kind === 'inside')
    let ranges: SemgrepMatch[] | null = null
    for (const clause of positives) {
      const found = this.formula(clause.formula)
      ranges = ranges === null ? found : intersect(ranges, found)
    }
    for (const clause of insides) {
      const contexts = this.formula(clause.formula)
      // Without a positive term, the inside matches are the ranges (Semgrep allows `patterns` of only insides).
      ranges =
        ranges === null
          ? contexts
          : ranges.flatMap((match) => {
              for (const context of contexts) {
                if (contains(context, match)) {
                  const merged = unify(match.bindings, context.bindings)
                  if (merged) return [{ ...match, bindings: merged }]
                }
              }
              return []
            })
    }
    // Only negative terms (inside metavariable-pattern): they filter the captured code itself.
    ranges ??= [{ start: this.scope.start, end: this.scope.end, bindings: {} }]
    for (const clause of clauses) {
      if (ranges.length === 0) return []
      switch (clause.kind) {
        case 'not-inside': {
          const contexts = this.formula(clause.formula)
          ranges = ranges.filter((match) => !contexts.some((context) => contains(context, match) && unify(match.bindings, context.bindings)))
          break
        }
        case 'not': {
          const excluded = this.formula(clause.formula)
          ranges = ranges.filter(
            (match) => !excluded.some((other) => other.start === match.start && other.end === match.end && unify(match.bindings, other.bindings)),
          )
          break
        }
        case 'not-regex': {
          const excluded = this.regex(clause.regex)
          // Semgrep drops a match that a regex match overlaps.
          ranges = ranges.filter((match) => !excluded.some((other) => other.start < match.end && match.start < other.end))
          break
        }
        default:
          break
      }
    }
    for (const clause of clauses) {
      if (ranges.length === 0) return []
      switch (clause.kind) {
        case 'metavariable-regex': {
          const name = metavariableName(clause.metavariable)
          const regex = anchoredAtStart(clause.regex)
          const filter = prefilterOf(clause.regex)
          ranges = ranges.filter((match) => {
            const bound = match.bindings[name]
            return bound !== undefined && (!filter || filter.test(bound.text)) && regex.test(bound.text)
          })
          break
        }
        case 'metavariable-comparison': {
          const expression = parseComparison(clause.comparison)
          ranges = ranges.filter((match) => evaluateComparison(expression, this.withConstants(match.bindings)))
          break
        }
        case 'metavariable-pattern': {
          const name = metavariableName(clause.metavariable)
          ranges = ranges.flatMap((match) => {
            const bound = match.bindings[name]
            if (!bound) return []
            const inner = this.insideBinding(bound, clause.formula, clause.language)
            for (const found of inner) {
              const merged = unify(match.bindings, found.bindings)
              if (merged) return [{ ...match, bindings: merged }]
            }
            return []
          })
          break
        }
        default:
          break
      }
    }
    const focuses = clauses.filter((clause) => clause.kind === 'focus')
    if (focuses.length > 0) ranges = ranges.flatMap((match) => focus(match, focuses.map((clause) => clause.metavariables.map(metavariableName))))
    return dedupe(ranges)
  }

  /** Matches of `formula` within a captured node: same language on the node, another on the string's content. */
  private insideBinding(bound: SemgrepBinding, formula: SemgrepFormula, language: string | undefined): SemgrepMatch[] {
    if (language !== undefined && language !== this.language) {
      if (!isCodeLanguage(language) || !isLanguageAvailable(language)) throw new PatternError(`metavariable-pattern language ${language} is not supported`)
      const quoted = /^(?:[rbuf]{0,2})("""|'''|"|'|`)([\s\S]*)\1$/i.exec(bound.text)
      const content = quoted ? (quoted[2] as string) : bound.text
      const offset = bound.start + (quoted ? bound.text.indexOf(content, (quoted[1] as string).length) : 0)
      const subRoot = parse(napiLanguage(language), content).root()
      const found = new Evaluator(subRoot, content, language, { start: 0, end: content.length }).formula(formula)
      return found.map((match) => shift(match, offset))
    }
    const node = bindingNodes.get(bound)
    return new Evaluator(this.root, this.text, this.language, { start: bound.start, end: bound.end, ...(node ? { node } : {}) }).formula(formula)
  }

  private regex(source: string): SemgrepMatch[] {
    const regex = toJsRegex(source, 'gmd')
    const text = this.text.slice(this.scope.start, this.scope.end)
    // The JavaScript engine backtracks; a text the deterministic prefilter rules out never reaches it.
    const filter = prefilterOf(source)
    if (filter && !filter.test(text)) return []
    const matches: SemgrepMatch[] = []
    for (const found of text.matchAll(regex)) {
      if (found[0] === '') continue
      const start = this.scope.start + (found.index ?? 0)
      const bindings: Bindings = {}
      const indices = found.indices
      found.forEach((group, index) => {
        const at = indices?.[index]
        if (index === 0 || group === undefined || !at) return
        bindings[`$${index}`] = { start: this.scope.start + at[0], end: this.scope.start + at[1], text: group }
      })
      for (const [name, group] of Object.entries(found.groups ?? {})) {
        const at = indices?.groups?.[name]
        if (group === undefined || !at) continue
        bindings[`$${name}`] = { start: this.scope.start + at[0], end: this.scope.start + at[1], text: group }
      }
      matches.push({ start, end: start + found[0].length, bindings })
    }
    return matches
  }

  private pattern(pattern: string): SemgrepMatch[] {
    const variants = aliasVariants(pattern, this.language, this.importAliases()).flatMap((variant) => equivalentForms(variant, this.language))
    const matches: SemgrepMatch[] = []
    for (const [index, variant] of variants.entries()) {
      let compiled: CompiledPattern
      try {
        compiled = compilePattern(variant, this.language)
      } catch (error) {
        // The pattern as written must compile; an alias rewrite that does not is just not tried.
        if (index === 0) throw error
        continue
      }
      for (const sequence of compiled.alternatives) {
        const found = this.sequence(sequence, compiled)
        matches.push(...found.map((match) => blockExtent(match, compiled, this.scope)))
      }
    }
    return dedupe(matches)
  }

  /** The literal a name is bound to once in the file (Semgrep's constant propagation), or null. */
  private constantOf(node: SgNode): string | null {
    if (node.kind() !== 'identifier') return null
    this.constants ??= fileConstants(this.root, this.language)
    return this.constants.get(node.text()) ?? null
  }

  /** The content of the string literal a name is bound to once in the file, or null. */
  private constantString(node: SgNode): string | null {
    const constant = this.constantOf(node)
    return constant !== null && /^(["'`])[\s\S]*\1$/.test(constant) ? constant.slice(1, -1) : null
  }

  /** Bindings to variables assigned a single literal in the file, read as that literal (Semgrep's constant propagation). */
  private withConstants(bindings: Readonly<Bindings>): Readonly<Bindings> {
    this.constants ??= fileConstants(this.root, this.language)
    if (this.constants.size === 0) return bindings
    let resolved: Bindings | null = null
    for (const [name, binding] of Object.entries(bindings)) {
      const constant = this.constants.get(binding.text.trim())
      if (constant === undefined) continue
      resolved ??= { ...bindings }
      resolved[name] = { ...binding, text: constant }
    }
    return resolved ?? bindings
  }

  private importAliases(): Map<string, string> {
    this.aliases ??= importAliases(this.root, this.language)
    return this.aliases
  }

  /** The matches of one step (a node pattern), with their bindings and checks passed. */
  private step(step: PatternStep, compiled: CompiledPattern): Array<SemgrepMatch & { node: SgNode }> {
    const searchRoot = this.scope.node ?? this.root
    const found: Array<SemgrepMatch & { node: SgNode }> = []
    const lone = isLoneMetavariable(step)
    for (const node of searchRoot.findAll(step.config)) {
      const range = node.range()
      if (range.start.index < this.scope.start || range.end.index > this.scope.end) continue
      // A lone `$X` matches code, not the pieces of a string literal or punctuation.
      if (lone && (!node.isNamed() || isStringPiece(node))) continue
      const bindings = this.bindingsOf(node, compiled)
      if (bindings) found.push({ start: range.start.index, end: range.end.index, bindings, node })
    }
    return found
  }

  /** Matches of a statement sequence; `first` and `last`: the nodes of the first and last statements matched. */
  private sequence(steps: readonly PatternStep[], compiled: CompiledPattern): Array<SemgrepMatch & { first: SgNode; last: SgNode }> {
    const first = steps[0] as PatternStep
    const heads = this.step(first, compiled)
    if (steps.length === 1) return heads.map(({ node, ...match }) => ({ ...match, first: node, last: node }))
    const rest = steps.slice(1).map((step) => this.step(step, compiled))
    const results: Array<SemgrepMatch & { first: SgNode; last: SgNode }> = []
    // One match per first statement (the earliest way to complete it), within a bounded search.
    let budget = 0
    const extend = (index: number, statement: SgNode, bindings: Bindings, start: number, outer: SgNode, first: SgNode): boolean => {
      if (index === steps.length) {
        results.push({ start, end: statement.range().end.index, bindings, first, last: statement })
        return true
      }
      // Candidates are in document order: those starting where the next statement may be.
      const candidates = rest[index - 1] ?? []
      const step = steps[index] as PatternStep
      const next = step.gapBefore ? null : nextStatement(statement)
      if (!step.gapBefore && !next) return false
      // After `...`, the statement may be any later one of the block, at any depth.
      const from = next ? next.range().start.index : statement.range().end.index
      const to = next ? next.range().end.index : outer.range().end.index
      for (let i = firstStartingAt(candidates, from); i < candidates.length && (candidates[i] as SemgrepMatch).start <= to; i++) {
        if (--budget < 0) return false
        const candidate = candidates[i] as SemgrepMatch & { node: SgNode }
        if (candidate.end > to) continue
        const candidateStatement = statementOf(candidate.node)
        if (next && !sameRange(candidateStatement, next)) continue
        const merged = unify(bindings, candidate.bindings)
        if (merged && extend(index + 1, candidateStatement, merged, start, outer, first)) return true
      }
      return false
    }
    for (const head of heads) {
      const statement = statementOf(head.node)
      const block = statement.parent()
      if (!block) continue
      budget = SEQUENCE_BUDGET
      extend(1, statement, head.bindings, head.start, block, statement)
    }
    return results
  }

  /** The bindings of an ast-grep match, or null when a generated metavariable's check fails. */
  private bindingsOf(node: SgNode, compiled: CompiledPattern): Bindings | null {
    let bindings: Bindings = {}
    for (const variable of compiled.metavariables) {
      const binding = capture(node, variable.name, variable.multi, this.text)
      if (binding) bindings[variable.semgrepName] = binding
    }
    for (const [name, placeholder] of Object.entries(compiled.placeholders)) {
      const captured = node.getMatch(name)
      if (!captured) continue
      const extra = this.check(captured, placeholder)
      if (extra === null) return null
      const merged = unify(bindings, extra)
      if (!merged) return null
      bindings = merged
    }
    return bindings
  }

  /** Whether a generated metavariable's capture satisfies its placeholder; the bindings it adds. */
  private check(captured: SgNode, placeholder: Placeholder): Bindings | null {
    switch (placeholder.kind) {
      case 'string':
        return isStringLiteral(captured) || this.constantString(captured) !== null ? {} : null
      case 'chain': {
        // down the receivers: `a.b().c` -> `a.b()` -> `a.b` -> `a`
        const step = (placeholder.inner.alternatives[0] as readonly PatternStep[])[0] as PatternStep
        for (let receiver: SgNode | null = captured; receiver; receiver = receiverOf(receiver)) {
          const found = receiver.find(step.config)
          const bindings = found && sameRange(found, receiver) ? this.bindingsOf(found, placeholder.inner) : null
          if (bindings) return bindings
        }
        return null
      }
      case 'literal':
        return captured.text() === placeholder.value || this.constantOf(captured) === placeholder.value ? {} : null
      case 'string-content': {
        if (!isStringLiteral(captured)) return null
        const text = captured.text()
        const content = stringContent(text)
        const start = captured.range().start.index + text.lastIndexOf(content, text.length - 1)
        return { [placeholder.metavariable]: { start, end: start + content.length, text: content } }
      }
      case 'string-value': {
        const content = isStringLiteral(captured) ? stringContent(captured.text()) : this.constantString(captured)
        return content !== null && unescapeQuotes(content) === placeholder.value ? {} : null
      }
      case 'string-regex': {
        const content = isStringLiteral(captured) ? stringContent(captured.text()) : this.constantString(captured)
        placeholder.regex.lastIndex = 0
        return content !== null && placeholder.regex.test(content) ? {} : null
      }
      case 'typed': {
        this.types ??= declaredTypes(this.root, this.language)
        return typeMatches(captured, placeholder.type, this.types, this.language) ? {} : null
      }
      case 'dictionary': {
        if (captured.kind() !== 'dictionary') return null
        const pairs = captured.children().filter((child) => child.kind() === 'pair')
        let bindings: Bindings = {}
        for (const inner of placeholder.pairs) {
          const step = (inner.alternatives[0] as readonly PatternStep[])[0] as PatternStep
          let found: Bindings | null = null
          for (const pair of pairs) {
            // (find, not matches: only a found node carries its captures)
            const matched = pair.find(step.config)
            const candidate = matched && sameRange(matched, pair) ? this.bindingsOf(matched, inner) : null
            found = candidate ? unify(bindings, candidate) : null
            if (found) break
          }
          if (!found) return null
          bindings = found
        }
        return bindings
      }
      case 'template': {
        if (captured.kind() !== 'template_string') return null
        const substitutions = captured.children().filter((child) => child.kind() === 'template_substitution')
        let bindings: Bindings = {}
        for (const inner of placeholder.substitutions) {
          let found: Bindings | null = null
          for (const substitution of substitutions) {
            const expression = substitution.children().find((child) => child.isNamed())
            if (!expression) continue
            for (const sequence of inner.alternatives) {
              const step = sequence[0] as PatternStep
              const match = expression.find(step.config)
              const node = match && sameRange(match, expression) ? match : null
              const candidate = node ? this.bindingsOf(node, inner) : null
              const merged = candidate ? unify(bindings, candidate) : null
              if (merged) {
                found = merged
                break
              }
            }
            if (found) break
          }
          if (!found) return null
          bindings = found
        }
        return bindings
      }
      case 'deep': {
        for (const sequence of placeholder.inner.alternatives) {
          const step = sequence[0] as PatternStep
          for (const inner of captured.findAll(step.config)) {
            const bindings = this.bindingsOf(inner, placeholder.inner)
            if (bindings) return bindings
          }
        }
        return null
      }
    }
  }
}

const prefilters = new Map<string, RegexFilter | null>()

/** The linear-time prefilter of a Semgrep regex (regex-filter.ts), or null when it has none. */
function prefilterOf(source: string): RegexFilter | null {
  let filter = prefilters.get(source)
  if (filter === undefined) {
    try {
      filter = regexFilter(source.replace(/\(\?P</g, '(?<'))
    } catch {
      filter = null
    }
    if (prefilters.size >= 1000) prefilters.clear()
    prefilters.set(source, filter)
  }
  return filter
}

/** Candidate statements tried per first statement of a sequence pattern. */
const SEQUENCE_BUDGET = 20_000

/** Index of the first match starting at or after `offset` (matches in document order). */
function firstStartingAt(matches: readonly SemgrepMatch[], offset: number): number {
  let low = 0
  let high = matches.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((matches[middle] as SemgrepMatch).start < offset) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * A match as a range: a pattern that starts (ends) with a `...` line runs from the first (to the
 * last) statement of the block its first (last) statement is in, so that `pattern-inside` and
 * `pattern-not` compare such patterns by the statements they cover.
 */
function blockExtent(match: SemgrepMatch & { first: SgNode; last: SgNode }, compiled: CompiledPattern, scope: Scope): SemgrepMatch {
  let { start, end } = match
  if (compiled.fromBlockStart) {
    const statements = blockStatements(statementOf(match.first).parent())
    start = Math.min(start, statements[0]?.range().start.index ?? scope.start)
  }
  if (compiled.toBlockEnd) {
    const statements = blockStatements(statementOf(match.last).parent())
    end = Math.max(end, statements[statements.length - 1]?.range().end.index ?? scope.end)
  }
  return { start, end, bindings: match.bindings }
}

/** The expression a call or field access is made on, or null. */
function receiverOf(node: SgNode): SgNode | null {
  return node.field('object') ?? node.field('function') ?? node.field('operand') ?? null
}

function blockStatements(block: SgNode | null): SgNode[] {
  if (!block) return []
  return block.children().filter((child) => child.isNamed() && !String(child.kind()).includes('comment'))
}

function capture(node: SgNode, name: string, multi: boolean, fileText: string): SemgrepBinding | null {
  if (!multi) {
    const single = node.getMatch(name)
    if (!single) return null
    const range = single.range()
    const binding = { start: range.start.index, end: range.end.index, text: single.text() }
    bindingNodes.set(binding, single)
    return binding
  }
  const nodes = node.getMultipleMatches(name).filter((captured) => captured.isNamed() || captured.text().trim() !== ',')
  if (nodes.length === 0) return null
  const start = (nodes[0] as SgNode).range().start.index
  const end = (nodes[nodes.length - 1] as SgNode).range().end.index
  const binding = { start, end, text: fileText.slice(start, end) }
  if (nodes.length === 1) bindingNodes.set(binding, nodes[0] as SgNode)
  return binding
}

const STRING_KINDS = /^(?:string|string_literal|interpreted_string_literal|raw_string_literal|template_string|string_fragment|concatenated_string|text_block|character_literal)$/

/** A string literal without interpolation (an f-string or a template with `${}` is code, not a literal). */
function isStringLiteral(node: SgNode): boolean {
  if (!STRING_KINDS.test(String(node.kind()))) return false
  return !node.children().some((child) => /^(?:interpolation|template_substitution)$/.test(String(child.kind())))
}

function isStringPiece(node: SgNode): boolean {
  const parent = node.parent()
  return parent !== null && STRING_KINDS.test(String(parent.kind()))
}

function isLoneMetavariable(step: PatternStep): boolean {
  const pattern = (step.config.rule as { pattern?: unknown }).pattern
  return typeof pattern === 'string' && /^\s*\$[A-Z_][A-Z0-9_]*\s*$/.test(pattern)
}

function stringContent(literal: string): string {
  const quoted = /^(?:[rbuf]{0,2})("""|'''|"|'|`)([\s\S]*)\1$/i.exec(literal)
  return quoted ? (quoted[2] as string) : literal
}

/** The statement a match is (a match's node may be wrapped by nodes of the same range, e.g. expression_statement). */
function statementOf(node: SgNode): SgNode {
  let current = node
  for (;;) {
    const parent = current.parent()
    if (!parent || parent.parent() === null) return current
    const outer = parent.range()
    const inner = current.range()
    const same = outer.start.index === inner.start.index && (outer.end.index === inner.end.index || (outer.end.index === inner.end.index + 1 && /;$/.test(parent.text())))
    if (!same) return current
    current = parent
  }
}

function nextStatement(statement: SgNode): SgNode | null {
  let next = statement.next()
  while (next && (!next.isNamed() || String(next.kind()).includes('comment'))) next = next.next()
  return next
}

function metavariableName(name: string): string {
  return name.startsWith('$') ? name : `$${name}`
}

/** A metavariable-regex: Python's re.match, anchored at the start of the captured text. */
function anchoredAtStart(source: string): RegExp {
  const regex = toJsRegex(source)
  return new RegExp(`^(?:${regex.source})`, regex.flags)
}

function normalized(text: string): string {
  return text.replace(/\s+/g, '')
}

/** Both sets of bindings merged, or null when a metavariable bound in both captured different code. */
function unify(left: Readonly<Bindings>, right: Readonly<Bindings>): Bindings | null {
  let merged: Bindings | null = null
  for (const [name, binding] of Object.entries(right)) {
    const existing = left[name]
    if (existing) {
      if (normalized(existing.text) !== normalized(binding.text)) return null
      continue
    }
    merged ??= { ...left }
    merged[name] = binding
  }
  return merged ?? { ...left }
}

function contains(outer: SemgrepMatch, inner: SemgrepMatch): boolean {
  return outer.start <= inner.start && inner.end <= outer.end
}

/** Matches of both sets whose ranges nest (the inner range is kept) and whose bindings agree. */
function intersect(left: SemgrepMatch[], right: SemgrepMatch[]): SemgrepMatch[] {
  const result: SemgrepMatch[] = []
  for (const a of left) {
    for (const b of right) {
      let range: SemgrepMatch | null = null
      if (contains(b, a)) range = a
      else if (contains(a, b)) range = b
      if (!range) continue
      const merged = unify(a.bindings, b.bindings)
      if (merged) result.push({ start: range.start, end: range.end, bindings: merged })
    }
  }
  return dedupe(result)
}

/**
 * focus-metavariable: the match becomes the captured code's range. The metavariables of one
 * clause are a union (one match each); several clauses intersect (the overlap of their ranges).
 */
function focus(match: SemgrepMatch, clauses: string[][]): SemgrepMatch[] {
  let ranges: Array<{ start: number; end: number }> | null = null
  for (const names of clauses) {
    const focused = names.flatMap((name) => {
      const bound = match.bindings[name]
      return bound ? [{ start: bound.start, end: bound.end }] : []
    })
    ranges =
      ranges === null
        ? focused
        : ranges.flatMap((range) =>
            focused.flatMap((other) => {
              const start = Math.max(range.start, other.start)
              const end = Math.min(range.end, other.end)
              return start < end ? [{ start, end }] : []
            }),
          )
  }
  return (ranges ?? []).map((range) => ({ ...range, bindings: match.bindings }))
}

function shift(match: SemgrepMatch, offset: number): SemgrepMatch {
  const bindings: Bindings = {}
  for (const [name, binding] of Object.entries(match.bindings)) bindings[name] = { ...binding, start: binding.start + offset, end: binding.end + offset }
  return { start: match.start + offset, end: match.end + offset, bindings }
}

/** One match per range and bindings. */
function dedupe(matches: SemgrepMatch[]): SemgrepMatch[] {
  const seen = new Set<string>()
  return matches.filter((match) => {
    const key = `${match.start}:${match.end}:${Object.entries(match.bindings)
      .map(([name, binding]) => `${name}=${binding.start}-${binding.end}`)
      .sort()
      .join(',')}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
