/**
 * Semgrep patterns translated to ast-grep rules. A Semgrep pattern is code of the rule's
 * language with Semgrep's extensions; most map directly onto ast-grep's own pattern syntax
 * (`$X` is the same, `...` and `$...ARGS` become `$$$` and `$$$ARGS`), and the rest become
 * generated metavariables (placeholders) checked after ast-grep has matched (evaluate.ts):
 *
 * - string literals: `"..."` (any literal), `"=~/re/"` (content matching re), `"$X"` (any
 *   literal, binding its content), and other literals by value whatever their quotes
 *   (JavaScript, TypeScript, Python, Go);
 * - `<... e ...>` (a node that is, or contains at any depth, a match of e); template literals
 *   `` `...${e}...` ``; Python dictionaries `{..., k: v, ...}` (pairs in any order);
 * - typed metavariables: Java `(String $X)`, Go `($X : string)`, TypeScript `($X: string)` (an
 *   expression whose type the file states: types-of.ts);
 * - statement sequences (`$X = f()` ... `g($X)`): ast-grep matches one node, so each
 *   statement becomes a step of a sequence evaluate.ts matches in order within one block; a
 *   leading or trailing `...` line extends the match to the block's first or last statement.
 *
 * A pattern may also compile to several equivalent forms (alternatives), each an ast-grep
 * search: Python keyword arguments in any order; a trailing `, ...` that matches nothing;
 * `..., $X` at each arity (ast-grep's `$$$` does not backtrack); Java's two `for` loops.
 * Declarations (functions, methods, classes) match by the parts the pattern has, ignoring the
 * modifiers, annotations, return types it leaves out (relaxedDeclaration).
 *
 * Import aliases depend on the file, so evaluate.ts rewrites the pattern text per file
 * (imports.ts) before compiling it here.
 */
import { parse } from '@ast-grep/napi'
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import { ensureLanguagesRegistered, expandoChar, isCodeLanguage, isLanguageAvailable, napiLanguage } from '../core/languages.ts'
import type { CodeLanguage } from '../core/languages.ts'

/** A generated metavariable and what its captured node must satisfy. */
export type Placeholder =
  | { readonly kind: 'string' }
  | { readonly kind: 'string-regex'; readonly regex: RegExp }
  /** `"$X"`: any string literal without interpolation, its content bound to the metavariable */
  | { readonly kind: 'string-content'; readonly metavariable: string }
  /** a string literal with this content, whatever its quotes (`"md5"` matches `'md5'`) */
  | { readonly kind: 'string-value'; readonly value: string }
  | { readonly kind: 'deep'; readonly inner: CompiledPattern }
  /** `` `...${e}...` ``: a template literal with a substitution matching each e */
  | { readonly kind: 'template'; readonly substitutions: readonly CompiledPattern[] }
  /** Python `{..., k: v, ...}`: a dictionary with a pair matching each of these, in any order */
  | { readonly kind: 'dictionary'; readonly pairs: readonly CompiledPattern[] }
  /** `e. ... .`: a receiver that is, or is called or accessed on (at any depth), a match of e */
  | { readonly kind: 'chain'; readonly inner: CompiledPattern }
  /** a number or boolean literal, or a name the file binds once to it (constant propagation) */
  | { readonly kind: 'literal'; readonly value: string }
  /** a user metavariable (the key is its own name) whose expression must have this type */
  | { readonly kind: 'typed'; readonly type: string }

/** One statement of a pattern; `gapBefore`: a `...` separates it from the previous one. */
export interface PatternStep {
  readonly config: NapiConfig
  readonly gapBefore: boolean
}

export interface CompiledPattern {
  /** Equivalent forms (keyword orders); each a sequence of statements, usually of one. */
  readonly alternatives: readonly (readonly PatternStep[])[]
  /** ast-grep metavariable name (no `$`) -> check on its capture */
  readonly placeholders: Readonly<Record<string, Placeholder>>
  /** a `...` line ends the pattern: the match runs on to the block's last statement (`pattern-inside` contexts) */
  readonly toBlockEnd: boolean
  /** a `...` line starts the pattern: the match starts at the block's first statement */
  readonly fromBlockStart: boolean
  /** user metavariables: ast-grep name (no `$`) and Semgrep name (`$X`, `$...ARGS`) */
  readonly metavariables: ReadonlyArray<{ readonly name: string; readonly semgrepName: string; readonly multi: boolean }>
}

export class PatternError extends Error {}

/** Generated metavariable names start with this; a user metavariable never does in practice. */
export const GENERATED_PREFIX = 'PARAPETGEN_'

const cache = new Map<string, CompiledPattern | PatternError>()
const MAX_CACHE = 5000
const MAX_KEYWORD_PERMUTATIONS = 4
/** Forms of one pattern (keyword orders x optional trailing `...` x arities), each an ast-grep search per file. */
const MAX_ALTERNATIVES = 256
/** Arity forms of one statement: two `..., $X` lists get all seven arities each. */
const MAX_ARITY_FORMS = 49
/**
 * A Go block whose body is only `...` over several lines. Go's grammar puts a block's statements
 * in a statement_list but a comment before them beside it, and the line break after `...` makes
 * the pattern's statement_list a node of its own, which then has to face the comment: `if c {`
 * + newline + `...` + newline + `}` would miss a block that opens with a comment (or is empty).
 * On one line, `{ $$$ }` is the block's whole body, comments included, as Semgrep means it.
 */
const GO_ELLIPSIS_BLOCK = /\{\s*(\$\$\$(?:[A-Z_][A-Z0-9_]*)?)\s*\}/g
const TRAILING_ELLIPSIS = /,\s*\$\$\$(?:[A-Z_][A-Z0-9_]*)?(?=\s*[)\]}])/g

/** The pattern compiled for a language (cached); throws PatternError when it cannot be. */
export function compilePattern(pattern: string, language: string, selector?: string): CompiledPattern {
  const key = `${language}\u0000${selector ?? ''}\u0000${pattern}`
  let compiled = cache.get(key)
  if (compiled === undefined) {
    try {
      compiled = new Translator(language, selector).compile(pattern)
    } catch (error) {
      compiled = error instanceof PatternError ? error : new PatternError(error instanceof Error ? error.message : String(error))
    }
    if (cache.size >= MAX_CACHE) cache.clear()
    cache.set(key, compiled)
  }
  if (compiled instanceof PatternError) throw compiled
  return compiled
}

const METAVARIABLE = /\$(\$\$)?([A-Z_][A-Z0-9_]*)/g
const STRING_QUOTES = new Set(['"', "'", '`'])
/** Languages where a string may be written with either quote (and Go's raw strings): Semgrep matches the value. */
const ANY_QUOTES = new Set(['javascript', 'typescript', 'tsx', 'python', 'go'])

/** A string's content with quote escapes resolved, to compare contents written with different quotes. */
export function unescapeQuotes(content: string): string {
  return content.replace(/\\(["'`])/g, '$1')
}

class Translator {
  private readonly placeholders: Record<string, Placeholder> = {}
  /** statements that are matched in the context of the whole pattern (statements()) */
  private readonly contextual = new Map<string, NapiConfig>()
  private counter = 0
  private readonly language: CodeLanguage

  /** `selector`: the kind of the pattern's node to match (a dictionary pair), the rest being its context */
  constructor(
    language: string,
    private readonly selector?: string,
  ) {
    if (!isCodeLanguage(language) || !isLanguageAvailable(language)) throw new PatternError(`language ${language} has no syntax tree here`)
    ensureLanguagesRegistered()
    this.language = language
  }

  compile(pattern: string): CompiledPattern {
    const text = dedent(pattern)
    if (text.trim() === '') throw new PatternError('the pattern is empty')
    const steps: Array<{ text: string; gapBefore: boolean }> = []
    let gap = false
    const segments = splitAtGapLines(text, this.language)
    const fromBlockStart = segments[0] === null
    for (const segment of segments) {
      if (segment === null) {
        gap = true
        continue
      }
      const translated = this.translate(segment)
      for (const [index, statement] of this.statements(translated).entries()) {
        steps.push({ text: statement, gapBefore: index === 0 && gap && steps.length > 0 })
      }
      gap = false
    }
    if (steps.length === 0) throw new PatternError('the pattern is only `...`')
    const toBlockEnd = gap
    // Keyword orders: one alternative per order of the first step with keywords.
    let alternatives: Array<Array<{ text: string; gapBefore: boolean }>> = [steps]
    if (this.language === 'python') {
      const orders = steps.map((step) => keywordOrders(step.text))
      const at = orders.findIndex((order, index) => order.length > 1 || order[0] !== (steps[index] as { text: string }).text)
      if (at >= 0) {
        alternatives = (orders[at] as string[]).map((variant) =>
          steps.map((step, index) => (index === at ? { ...step, text: variant } : step)),
        )
      }
    }
    // ast-grep's `, $$$` needs the comma, so a trailing `...` that matches nothing is a variant without it.
    alternatives = alternatives.flatMap((sequence) =>
      sequence.reduce<Array<Array<{ text: string; gapBefore: boolean }>>>(
        (prefixes, step) =>
          prefixes.flatMap((prefix) => trailingEllipsisVariants(step.text).flatMap((text) => fixedArityVariants(text)).map((text) => [...prefix, { ...step, text }])),
        [[]],
      ),
    )
    if (alternatives.length > MAX_ALTERNATIVES) throw new PatternError(`the pattern has too many forms (${alternatives.length}); use fewer \`...\` and keyword arguments`)
    const metavariables = new Map<string, { name: string; semgrepName: string; multi: boolean }>()
    for (const step of steps) {
      for (const match of step.text.matchAll(METAVARIABLE)) {
        const name = match[2] as string
        if (name.startsWith(GENERATED_PREFIX) || name === '_' || metavariables.has(name)) continue
        const multi = match[1] !== undefined
        metavariables.set(name, { name, semgrepName: multi ? `$...${name}` : `$${name}`, multi })
      }
    }
    return {
      alternatives: alternatives.map((sequence) =>
        sequence.map((step) => ({ config: this.config(sequence.length === 1 ? this.asExpression(step.text) : step.text), gapBefore: step.gapBefore })),
      ),
      placeholders: this.placeholders,
      toBlockEnd,
      fromBlockStart,
      metavariables: [...metavariables.values()],
    }
  }

  private generated(placeholder: Placeholder): string {
    const name = `${GENERATED_PREFIX}${this.counter++}`
    this.placeholders[name] = placeholder
    return `$${name}`
  }

  /** Semgrep's extensions replaced by ast-grep syntax and generated metavariables. */
  private translate(text: string): string {
    let out = ''
    let i = 0
    /** text index -> length of `out` when the loop reached it */
    const outAt = new Map<number, number>()
    while (i < text.length) {
      outAt.set(i, out.length)
      const char = text[i] as string
      const chain = /^\.\s*\.\.\.\s*\./.exec(text.slice(i, i + 40))
      if (chain) {
        // `$O.objects. ... .extra()`: the receiver is a chain of calls and fields starting with `$O.objects`
        const start = receiverStart(text, i)
        const emitted = outAt.get(start)
        if (start < i && emitted !== undefined) {
          const inner = compilePattern(text.slice(start, i), this.language)
          out = `${out.slice(0, emitted)}${this.generated({ kind: 'chain', inner })}.`
          i += chain[0].length
          continue
        }
      }
      if (STRING_QUOTES.has(char) || (char === '"' && text.startsWith('"""', i))) {
        const end = stringEnd(text, i)
        const literal = text.slice(i, end)
        const quote = text.startsWith('"""', i) || text.startsWith("'''", i) ? 3 : 1
        const content = literal.slice(quote, literal.length - quote)
        const template = char === '`' ? this.template(content) : null
        if (template) out += template
        else if (content === '...') out += this.generated({ kind: 'string' })
        else if (/^\$[A-Z_][A-Z0-9_]*$/.test(content)) out += this.generated({ kind: 'string-content', metavariable: content })
        else if (/^=~\/.*\/[a-z]*$/s.test(content)) out += this.generated({ kind: 'string-regex', regex: stringRegex(content) })
        else if (ANY_QUOTES.has(this.language) && !/\$\{|^[fF]|^\w*[{]/.test(literal) && !/[{}]/.test(content)) {
          out += this.generated({ kind: 'string-value', value: unescapeQuotes(content) })
        } else out += literal
        i = end
        continue
      }
      if (char === '{' && this.language === 'python') {
        const dictionary = this.dictionary(text, i)
        if (dictionary) {
          out += dictionary.replacement
          i = dictionary.end
          continue
        }
      }
      const literal = /^(?:true|false|True|False|\d+(?:\.\d+)?)(?![\w$])/.exec(text.slice(i, i + 40))
      if (literal && !/[\w$.]/.test(text[i - 1] ?? '')) {
        out += this.generated({ kind: 'literal', value: literal[0] })
        i += literal[0].length
        continue
      }
      if (text.startsWith('$...', i) && /[A-Z_]/.test(text[i + 4] ?? '')) {
        out += '$$$'
        i += 4
        continue
      }
      if (text.startsWith('<...', i)) {
        const close = deepEnd(text, i)
        const inner = text.slice(i + 4, close).trim()
        let compiled: CompiledPattern
        try {
          compiled = compilePattern(inner, this.language)
        } catch (error) {
          throw new PatternError(`in <... ${inner} ...>: ${error instanceof Error ? error.message : String(error)}`)
        }
        if (compiled.alternatives.some((sequence) => sequence.length !== 1)) throw new PatternError(`<... ${inner} ...> must be one expression`)
        out += this.generated({ kind: 'deep', inner: compiled })
        i = close + 4
        continue
      }
      if (text.startsWith('...', i)) {
        out += '$$$'
        i += 3
        continue
      }
      if (char === '(') {
        const typed = this.typedMetavariable(text, i)
        if (typed) {
          out += typed.replacement
          i = typed.end
          continue
        }
      }
      out += char
      i++
    }
    return this.language === 'go' ? out.replace(GO_ELLIPSIS_BLOCK, '{ $1 }') : out
  }

  /** A Python dictionary pattern with `...` among its entries (Semgrep matches its pairs in any order), or null. */
  private dictionary(text: string, at: number): { replacement: string; end: number } | null {
    const entries: string[] = []
    let depth = 0
    let start = at + 1
    let end = -1
    for (let i = at; i < text.length; i++) {
      const char = text[i] as string
      if (STRING_QUOTES.has(char)) {
        i = stringEnd(text, i) - 1
        continue
      }
      if (char === '(' || char === '[' || char === '{') depth++
      else if (char === ')' || char === ']' || char === '}') {
        depth--
        if (depth === 0) {
          entries.push(text.slice(start, i).trim())
          end = i + 1
          break
        }
      } else if (char === ',' && depth === 1) {
        entries.push(text.slice(start, i).trim())
        start = i + 1
      }
    }
    if (end < 0 || !entries.includes('...')) return null
    const pairs = entries.filter((entry) => entry !== '...' && entry !== '')
    if (pairs.length === 0 || !pairs.every((pair) => /:/.test(pair))) return null
    const compiled = pairs.map((pair) => compilePattern(`{${pair}}`, this.language, 'pair'))
    return { replacement: this.generated({ kind: 'dictionary', pairs: compiled }), end }
  }

  /** A template literal pattern with `...` around its substitutions, or null to match it as written. */
  private template(content: string): string | null {
    const substitutions: string[] = []
    let outside = ''
    for (let i = 0; i < content.length; i++) {
      if (content.startsWith('${', i)) {
        let depth = 1
        let j = i + 2
        for (; j < content.length && depth > 0; j++) {
          if (content[j] === '{') depth++
          else if (content[j] === '}') depth--
        }
        substitutions.push(content.slice(i + 2, j - 1).trim())
        i = j - 1
      } else {
        outside += content[i]
      }
    }
    if (!outside.includes('...') || substitutions.length === 0) return null
    const compiled = substitutions.map((expression) => compilePattern(expression, this.language))
    return this.generated({ kind: 'template', substitutions: compiled })
  }

  /** `(String $X)` (Java), `($X : string)` (Go), `($X: string)` (TypeScript) at `at`, not a parameter list. */
  private typedMetavariable(text: string, at: number): { replacement: string; end: number } | null {
    const before = text.slice(0, at).trimEnd()
    // After a name, `)` or `>`, a parenthesis opens a parameter or argument list.
    if (/[\w$)\]>]$/.test(before)) return null
    const rest = text.slice(at)
    let match: RegExpExecArray | null = null
    let name = ''
    let type = ''
    if (this.language === 'java') {
      match = /^\(\s*([A-Za-z_][\w.]*(?:<[\w.<>, ?]*>)?(?:\[\])*)\s+\$([A-Z_][A-Z0-9_]*)\s*\)/.exec(rest)
      if (match) [name, type] = [match[2] as string, match[1] as string]
    } else if (this.language === 'go' || this.language === 'typescript' || this.language === 'tsx') {
      match = /^\(\s*\$([A-Z_][A-Z0-9_]*)\s*:\s*([\w.*[\]<>]+)\s*\)/.exec(rest)
      if (match) [name, type] = [match[1] as string, match[2] as string]
    }
    if (!match) return null
    const existing = this.placeholders[name]
    if (existing && (existing.kind !== 'typed' || existing.type !== type)) throw new PatternError(`$${name} is given two types`)
    this.placeholders[name] = { kind: 'typed', type }
    return { replacement: `$${name}`, end: at + match[0].length }
  }

  /** The statements of a translated segment (one, or several that must follow each other). */
  private statements(text: string): string[] {
    const parsed = parseFragment(text, this.language)
    if (!parsed || parsed.nodes.length <= 1) return [text]
    const root = (parsed.nodes[0] as SgNode).getRoot().root()
    return parsed.nodes.map((node) => {
      const statement = text.slice(node.range().start.index - parsed.offset, node.range().end.index - parsed.offset)
      // A part that only parses where it is (a TypeScript decorator before its method) is
      // selected in the whole pattern, when it is the first node of its kind there.
      const first = root.find({ rule: { kind: String(node.kind()) } })
      if (!parseFragment(statement, this.language) && first && sameRange(first, node)) {
        this.contextual.set(statement, { rule: { pattern: { context: `${parsed.prefix}${text}${parsed.suffix}`, selector: String(node.kind()) } } })
      }
      return statement
    })
  }

  /**
   * A lone expression statement `foo();` as the expression `foo()`: Semgrep matches it also where
   * the call is returned or assigned, not only as a statement of its own.
   */
  private asExpression(text: string): string {
    const trimmed = text.trimEnd()
    if (!trimmed.endsWith(';') || this.contextual.has(text)) return text
    const parsed = parseFragment(text, this.language)
    const node = parsed?.nodes.length === 1 ? (parsed.nodes[0] as SgNode) : null
    if (node?.kind() !== 'expression_statement' || node.children().filter((child) => child.isNamed()).length !== 1) return text
    const expression = trimmed.slice(0, -1)
    return parsesAsPattern(expression, this.language) ? expression : text
  }

  private config(text: string): NapiConfig {
    if (this.selector) return { rule: { pattern: { context: text, selector: this.selector } } }
    const contextual = this.contextual.get(text)
    if (contextual) return contextual
    // A lone metavariable matches any node; a wrapper would narrow it to one kind.
    if (/^\s*\$[A-Z_][A-Z0-9_]*\s*$/.test(text)) return { rule: { pattern: text.trim() } }
    const parsed = parseFragment(text, this.language)
    if (!parsed && !parsesAsPattern(text, this.language)) throw new PatternError(`\`${text.trim()}\` does not parse as ${this.language}`)
    if (parsed && parsed.nodes.length === 1) {
      const relaxed = relaxedDeclaration(parsed.nodes[0] as SgNode, `${parsed.prefix}${text}${parsed.suffix}`, this.language)
      if (relaxed) return { rule: relaxed }
    }
    if (!parsed || (parsed.prefix === '' && parsed.suffix === '')) return { rule: { pattern: text } }
    const node = parsed.nodes[0] as SgNode
    const inner = node.kind() === 'expression_statement' && node.children().filter((child) => child.isNamed()).length === 1 ? node.child(0) : null
    const selector = inner && inner.text().trim() === node.text().trim() ? String(inner.kind()) : String(node.kind())
    return { rule: { pattern: { context: `${parsed.prefix}${text}${parsed.suffix}`, selector } } }
  }
}

/** Declarations whose parts a pattern may leave out (modifiers, annotations, return types, throws...). */
const DECLARATION_KINDS: Partial<Record<CodeLanguage, ReadonlySet<string>>> = {
  java: new Set(['method_declaration', 'constructor_declaration', 'class_declaration', 'interface_declaration']),
  go: new Set(['function_declaration', 'method_declaration']),
  javascript: new Set(['function_declaration', 'class_declaration', 'method_definition']),
  typescript: new Set(['function_declaration', 'class_declaration', 'method_definition']),
  tsx: new Set(['function_declaration', 'class_declaration', 'method_definition']),
  python: new Set(['function_definition', 'class_definition']),
}

const FIELD_NAMES = ['name', 'type', 'parameters', 'body', 'result', 'receiver', 'return_type', 'type_parameters', 'superclass', 'superclasses', 'interfaces', 'dimensions']

/**
 * A declaration pattern as "a node of this kind with these parts": Semgrep matches
 * `$RET $METHOD(...) { ... }` on `@Override public String m(int a) throws E { ... }`, while an
 * ast-grep pattern must account for every part. Each part the pattern has must match the
 * code's part (a field's by field); parts it leaves out are not looked at. Null when a part
 * cannot be selected unambiguously from the pattern's code (the pattern is then matched as written).
 */
function relaxedDeclaration(node: SgNode, context: string, language: CodeLanguage): Record<string, unknown> | null {
  const kind = String(node.kind())
  if (!DECLARATION_KINDS[language]?.has(kind)) return null
  const root = node.getRoot().root()
  // A Go function pattern also means methods (functions with a receiver).
  const parts: Array<Record<string, unknown>> = [kind === 'function_declaration' && language === 'go' ? { any: [{ kind }, { kind: 'method_declaration' }] } : { kind }]
  for (const child of node.children()) {
    if (!child.isNamed() || String(child.kind()).includes('comment')) continue
    // a part that is only `...` (a body) matches any such part, and so does its absence
    if (/^[$µ]{3}[A-Z0-9_]*$/.test(child.text().trim())) continue
    const field = FIELD_NAMES.find((name) => {
      const part = node.field(name)
      return part !== null && sameRange(part, child)
    })
    const text = child.text()
    let rule: Record<string, unknown>
    if (child.kind() === 'modifiers') {
      // Java: each modifier and annotation the pattern names, among the code's others
      const modifiers = javaModifiers(child, root, context)
      if (!modifiers) return null
      rule = modifiers
    } else if (/^[$µ][A-Z_][A-Z0-9_]*$/.test(text)) {
      rule = { pattern: `$${text.slice(1)}` }
    } else if (child.children().length === 0) {
      rule = { kind: String(child.kind()), regex: `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$` }
    } else {
      // ast-grep selects the first node of the kind in the context: it must be this part.
      const first = root.find({ rule: { kind: String(child.kind()) } })
      if (!first || !sameRange(first, child)) return null
      rule = { pattern: { context, selector: String(child.kind()) } }
    }
    parts.push({ has: field ? { field, ...rule } : rule })
  }
  return { all: parts }
}

/** A rule for Java `modifiers` holding every keyword and annotation of the pattern's, or null. */
function javaModifiers(modifiers: SgNode, root: SgNode, context: string): Record<string, unknown> | null {
  const all: Array<Record<string, unknown>> = []
  for (const part of modifiers.children()) {
    if (!part.isNamed()) {
      all.push({ regex: `(?:^|\\s)${part.text()}(?:\\s|$)` })
      continue
    }
    const first = root.find({ rule: { kind: String(part.kind()) } })
    if (!first || !sameRange(first, part)) return null
    all.push({ has: { pattern: { context, selector: String(part.kind()) } } })
  }
  return { kind: 'modifiers', all }
}

/** Whether two nodes cover the same code. */
export function sameRange(a: SgNode, b: SgNode): boolean {
  const x = a.range()
  const y = b.range()
  return x.start.index === y.start.index && x.end.index === y.end.index
}

interface ParsedFragment {
  /** the top-level statements (or declarations) of the fragment */
  nodes: SgNode[]
  /** where the fragment starts in the parsed text (after the wrapper's prefix) */
  offset: number
  prefix: string
  suffix: string
}

/**
 * Wrappers a fragment is parsed in, first that parses wins: Go statements only parse in a
 * function body (and `f(x)` alone parses as a type conversion there), Java members in a class
 * and annotations before one, JavaScript objects in parentheses and class members in a class.
 */
const WRAPPERS: Partial<Record<CodeLanguage, Array<[string, string]>>> = {
  go: [
    ['package p\nfunc _() {\n', '\n}'],
    ['', ''],
  ],
  java: [
    ['', ''],
    ['class _ {\n', '\n}'],
    ['class _ { void _() {\n', '\n} }'],
    // an annotation alone
    ['', '\nclass _ {}'],
  ],
  // `{..., key: value, ...}` is an object only where an expression is expected
  javascript: [
    ['', ''],
    ['(', ')'],
    ['class _ {\n', '\n}'],
  ],
  typescript: [
    ['', ''],
    ['(', ')'],
    ['class _ {\n', '\n}'],
  ],
  tsx: [
    ['', ''],
    ['(', ')'],
    ['class _ {\n', '\n}'],
  ],
}

const CONTAINER_KINDS = new Set(['block', 'statement_list', 'class_body'])

function parseFragment(text: string, language: CodeLanguage): ParsedFragment | null {
  const expando = expandoChar(language)
  // Same length: `$` and the expando character are each one UTF-16 unit.
  const source = expando === '$' ? text : text.replaceAll('$', expando)
  for (const [prefix, suffix] of WRAPPERS[language] ?? [['', '']]) {
    const root = parse(napiLanguage(language), `${prefix}${source}${suffix}`).root()
    if (hasError(root, expando)) continue
    const start = prefix.length
    const end = prefix.length + source.length
    const container = prefix === '' && suffix === '' ? root : innermostContainer(root, start, end)
    let nodes: SgNode[]
    if (container) {
      nodes = container
        .children()
        .filter((node) => node.isNamed() && !String(node.kind()).includes('comment') && node.range().start.index >= start && node.range().end.index <= end)
    } else {
      const exact = exactNode(root, start, source.trimEnd().length + start)
      nodes = exact ? [exact] : []
    }
    if (nodes.length === 0) continue
    return { nodes, offset: prefix.length, prefix, suffix }
  }
  return null
}

/** The outermost node spanning exactly the range. */
function exactNode(node: SgNode, start: number, end: number): SgNode | null {
  const range = node.range()
  if (range.start.index === start && range.end.index === end && node.isNamed()) return node
  for (const child of node.children()) {
    const inner = child.range()
    if (inner.start.index <= start && inner.end.index >= end) return exactNode(child, start, end)
  }
  return null
}

/** The smallest block-like node holding the range. */
function innermostContainer(node: SgNode, start: number, end: number): SgNode | null {
  for (const child of node.children()) {
    const range = child.range()
    if (range.start.index <= start && range.end.index >= end) {
      const inner = innermostContainer(child, start, end)
      if (inner) return inner
    }
  }
  return CONTAINER_KINDS.has(String(node.kind())) ? node : null
}

/**
 * Whether ast-grep can use the text as a pattern: it parses, possibly as an expression that
 * needs a `;` to be a statement of the language (Java's `f($X)`; ast-grep matches the expression).
 */
function parsesAsPattern(text: string, language: CodeLanguage): boolean {
  if (parseFragment(text, language)) return true
  return SEMICOLON_LANGUAGES.has(language) && parseFragment(`${text};`, language) !== null
}

const SEMICOLON_LANGUAGES = new Set<CodeLanguage>(['java', 'c', 'cpp', 'csharp', 'php', 'rust', 'kotlin', 'scala', 'swift'])


/** Whether a (small) pattern tree has a syntax error or a token the parser had to invent (zero width). */
function hasError(node: SgNode, expando: string): boolean {
  // A `...` where the grammar has no place for an expression (Java parameters): ast-grep still matches it as a list.
  if (node.kind() === 'ERROR') return node.text().split(/[\s,]+/).some((part) => part !== '' && !isMultiMetavariable(part, expando))
  const children = node.children()
  if (children.length === 0) {
    const range = node.range()
    const parent = node.parent()
    // (an invented name after a `...` taken for a type, as in Java's `f(String a, ...)`, is no error)
    return range.start.index === range.end.index && parent !== null && !isMultiMetavariable(parent.text().trim(), expando)
  }
  return children.some((child) => hasError(child, expando))
}

function isMultiMetavariable(text: string, expando: string): boolean {
  const marker = expando.repeat(3)
  return (text.startsWith('$$$') || text.startsWith(marker)) && /^[A-Z0-9_]*$/.test(text.slice(3))
}

/** Lines that are `...` alone at the outermost level separate a pattern's statements; null marks them. */
function splitAtGapLines(text: string, language: CodeLanguage): Array<string | null> {
  const segments: Array<string | null> = []
  let current: string[] = []
  let depth = 0
  for (const line of text.split('\n')) {
    const trimmed = line.trim()
    const indented = /^\s/.test(line)
    if (depth === 0 && (trimmed === '...' || trimmed === '...;') && !(language === 'python' && indented)) {
      if (current.length > 0) segments.push(current.join('\n'))
      current = []
      segments.push(null)
      continue
    }
    current.push(line)
    depth = Math.max(0, depth + bracketBalance(line))
  }
  if (current.length > 0 && current.join('').trim() !== '') segments.push(current.join('\n'))
  return segments
}

function bracketBalance(line: string): number {
  let balance = 0
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string
    if (STRING_QUOTES.has(char)) {
      i = stringEnd(line, i) - 1
      continue
    }
    if (char === '(' || char === '[' || char === '{') balance++
    else if (char === ')' || char === ']' || char === '}') balance--
  }
  return balance
}

/** Where the receiver expression ending at `end` starts: names, `$X`, dots and balanced brackets. */
function receiverStart(text: string, end: number): number {
  let i = end
  let depth = 0
  while (i > 0) {
    const char = text[i - 1] as string
    if (char === ')' || char === ']') depth++
    else if (char === '(' || char === '[') {
      if (depth === 0) break
      depth--
    } else if (depth === 0 && !/[\w$.]/.test(char)) break
    i--
  }
  return i
}

/** Index just past the string literal starting at `start` (or the text's end). */
function stringEnd(text: string, start: number): number {
  const triple = text.startsWith('"""', start) || text.startsWith("'''", start)
  const quote = triple ? text.slice(start, start + 3) : (text[start] as string)
  let i = start + quote.length
  while (i < text.length) {
    if (text[i] === '\\') {
      i += 2
      continue
    }
    if (text.startsWith(quote, i)) return i + quote.length
    if (!triple && quote !== '`' && text[i] === '\n') return i
    i++
  }
  return text.length
}

/** Index of the `...>` closing the `<...` at `start`. */
function deepEnd(text: string, start: number): number {
  let depth = 0
  for (let i = start; i < text.length; i++) {
    if (text.startsWith('<...', i)) {
      depth++
      i += 3
    } else if (text.startsWith('...>', i)) {
      depth--
      if (depth === 0) return i
      i += 3
    }
  }
  throw new PatternError('`<...` without its `...>`')
}

/** `=~/re/flags` -> a RegExp over a string literal's content. */
function stringRegex(content: string): RegExp {
  const last = content.lastIndexOf('/')
  const flags = content.slice(last + 1).replace(/[^ims]/g, '')
  try {
    return toJsRegex(content.slice(3, last), flags)
  } catch (error) {
    throw new PatternError(`invalid regex in "${content}": ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * A Semgrep (PCRE / Python) regex as a JavaScript one: `(?P<name>` groups, `\A` / `\Z`, and
 * inline flags `(?i)`, `(?s)`, `(?m)` (for the whole regex); `(?x)` is refused.
 */
export function toJsRegex(regex: string, extraFlags = ''): RegExp {
  let source = regex
  let flags = extraFlags
  // JavaScript has no inline flags: `(?i)` and the like apply to the whole regex, wherever they are.
  source = source.replace(/\(\?([imsx]+)\)/g, (_whole: string, inline: string) => {
    if (inline.includes('x')) throw new PatternError('the (?x) regex flag is not supported')
    for (const flag of inline) if (!flags.includes(flag)) flags += flag
    return ''
  })
  source = source.replace(/\(\?P<([A-Za-z_]\w*)>/g, '(?<$1>').replace(/\(\?P=([A-Za-z_]\w*)\)/g, '\\k<$1>').replace(/\\A/g, '^').replace(/\\[Zz]/g, '$')
  return new RegExp(source, flags)
}

function dedent(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  while (lines.length > 0 && (lines[0] as string).trim() === '') lines.shift()
  while (lines.length > 0 && (lines[lines.length - 1] as string).trim() === '') lines.pop()
  const indents = lines.filter((line) => line.trim() !== '').map((line) => (/^[ \t]*/.exec(line) as RegExpExecArray)[0].length)
  const common = indents.length > 0 ? Math.min(...indents) : 0
  return lines.map((line) => line.slice(common)).join('\n')
}

/**
 * The orders a Python call's keyword arguments may appear in: Semgrep matches keyword arguments
 * by name, not position. `f(a=1, b=$X)` gives both orders; with a `...` among the arguments,
 * other arguments may come between and after (`f(..., shell=True)` matches `f(x, shell=True, cwd=d)`).
 * One text (the pattern itself) when the pattern has no such call.
 */
function keywordOrders(text: string): string[] {
  const parsed = parseFragment(text, 'python')
  if (!parsed) return [text]
  const fragment = parsed.nodes[0] as SgNode
  const call = fragment.find({ rule: { kind: 'argument_list', has: { kind: 'keyword_argument' } } })
  if (!call) return [text]
  const args = call.children().filter((child) => child.isNamed() && !String(child.kind()).includes('comment'))
  const keywords = args.filter((arg) => arg.kind() === 'keyword_argument').map((arg) => text.slice(arg.range().start.index, arg.range().end.index))
  const ellipsis = args.some((arg) => /^\$\$\$$|^µµµ$/.test(arg.text()))
  const others = args
    .filter((arg) => arg.kind() !== 'keyword_argument' && !/^(?:\$\$\$|µµµ)$/.test(arg.text()))
    .map((arg) => text.slice(arg.range().start.index, arg.range().end.index))
  if (keywords.length > MAX_KEYWORD_PERMUTATIONS || (keywords.length < 2 && !ellipsis)) return [text]
  const before = text.slice(0, call.range().start.index)
  const after = text.slice(call.range().end.index)
  return permutations(keywords).map((order) => {
    const parts = ellipsis ? [...others, '$$$', ...order.flatMap((keyword) => [keyword, '$$$'])] : [...others, ...order]
    return `${before}(${parts.join(', ')})${after}`
  })
}

const MAX_FILLERS = 6
const ELLIPSIS_BEFORE_METAVARIABLE = /\$\$\$\s*,\s*(?=\$[A-Z_][A-Z0-9_]*\s*[,)\]}])/

/**
 * ast-grep's `$$$` stops at the first node the next pattern element matches, so `f($$$, $X)`
 * misses `f(a, b, c)` (`$X` takes `a`); such a `$$$` becomes zero to six `$_` wildcards instead.
 */
function fixedArityVariants(text: string, budget = MAX_ARITY_FORMS): string[] {
  const match = ELLIPSIS_BEFORE_METAVARIABLE.exec(text)
  // Past the budget, the remaining `$$$` keep ast-grep's reading.
  if (!match || budget < MAX_FILLERS + 1) return [text]
  const before = text.slice(0, match.index)
  const after = text.slice(match.index + match[0].length)
  const inner = Math.floor(budget / (MAX_FILLERS + 1))
  return Array.from({ length: MAX_FILLERS + 1 }, (_, count) => `${before}${'$_, '.repeat(count)}${after}`).flatMap((variant) => fixedArityVariants(variant, inner))
}

/**
 * Forms of a pattern Semgrep treats as the same code: Java's `for (...)` is also a for-each loop,
 * a decorated class may be exported, a TypeScript function may declare its return type.
 * (Quotes, keyword order, import aliases and `...` are handled where they are translated.)
 */
export function equivalentForms(pattern: string, language: string): string[] {
  const forms = [pattern]
  const anyFor = /\bfor\s*\(\s*\.\.\.\s*\)/g
  if (language === 'java' && anyFor.test(pattern)) {
    forms.push(pattern.replace(anyFor, 'for ($_ $_ : $_)'))
    forms.push(pattern.replace(anyFor, `for ($...${GENERATED_PREFIX}INIT; $...${GENERATED_PREFIX}CONDITION; $...${GENERATED_PREFIX}UPDATE)`))
  }
  // A decorated class is written `@D() export class C`; the pattern `@D()\nclass C` means it too.
  const decoratedClass = /^((?:\s*@[\s\S]*?\n)+)(\s*)(class\b)/
  if ((language === 'typescript' || language === 'tsx' || language === 'javascript') && decoratedClass.test(pattern)) {
    forms.push(pattern.replace(decoratedClass, '$1$2export $3'))
  }
  // TypeScript functions may declare their return type where the pattern does not.
  const untypedFunction = /(\bfunction\b[^(){}]*\([^(){}]*\))(\s*\{)/g
  if ((language === 'typescript' || language === 'tsx') && untypedFunction.test(pattern)) {
    forms.push(...forms.map((form) => form.replace(untypedFunction, '$1: $$_$2')))
  }
  return forms
}

/** The text, and the text without each combination of its trailing `, $$$` list elements. */
function trailingEllipsisVariants(text: string): string[] {
  const spots = [...text.matchAll(TRAILING_ELLIPSIS)].map((match) => ({ start: match.index ?? 0, end: (match.index ?? 0) + match[0].length }))
  if (spots.length === 0) return [text]
  const variants: string[] = []
  for (let mask = 0; mask < 1 << Math.min(spots.length, 5); mask++) {
    let variant = ''
    let at = 0
    spots.forEach((spot, index) => {
      if (mask & (1 << index)) {
        variant += text.slice(at, spot.start)
        at = spot.end
      }
    })
    variants.push(variant + text.slice(at))
  }
  return variants
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items]
  return items.flatMap((item, index) => permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]))
}
