/**
 * Bounds on a rule text (a ruleset's rules_text, a `--rules` file), checked before anything
 * recursive or native reads it. Rule texts come from tenants, and three readers trust their
 * shape: the YAML composer and `toJS` recurse once per nesting level; ast-grep parses pattern
 * code with native recursion, so a pattern nested some twenty thousand calls deep overflows the
 * native stack and kills the whole process (a SIGSEGV, not an exception); and ast-grep compiles
 * every regex of a rule each time it runs it (a short regex with counted repetitions costs
 * 50-100 ms to compile, on whatever thread asks).
 *
 * So a text is measured in this order, each check cheap and linear: its size; the nesting of
 * its flow collections (YAML's lexer, no recursion); the nesting of every collection and the
 * number of rule documents (YAML's parser, no recursion either); alias expansion (`toJS` with
 * `maxAliasCount`); then, on the resulting values, nesting again (aliases can nest) and the
 * length and bracket nesting of every string of a rule's ast-grep part. Only then does
 * validation compile rules, within a time budget.
 */
import { Lexer, Parser } from 'yaml'
import type { CST } from 'yaml'

export interface RuleLimits {
  /** UTF-8 bytes of one rule text */
  maxBytes: number
  /** rule documents in one text */
  maxRules: number
  /** nesting of YAML collections (mappings and sequences) */
  maxDepth: number
  /** characters of one string of a rule's `rule`, `constraints` or `utils` (patterns, regexes, kinds) */
  maxPatternLength: number
  /** nesting of brackets `(`, `[`, `{` in the code of a `pattern` (or its `context`) */
  maxPatternNesting: number
  /** milliseconds of ast-grep compilation spent validating one text */
  validationBudgetMs: number
}

export const DEFAULT_RULE_LIMITS: RuleLimits = {
  maxBytes: 512 * 1024,
  maxRules: 500,
  maxDepth: 32,
  maxPatternLength: 4096,
  maxPatternNesting: 64,
  validationBudgetMs: 5000,
}

/**
 * Alias expansions allowed per document, as the `yaml` package counts them (its own default):
 * a "billion laughs" document of nested anchors and aliases is refused instead of expanded.
 */
export const MAX_YAML_ALIAS_COUNT = 100

/** The deepest bracket nesting in pattern code (`f(g([x]))` is 3). Brackets in strings count too. */
export function bracketNesting(code: string): number {
  let depth = 0
  let deepest = 0
  for (let i = 0; i < code.length; i++) {
    const char = code.charCodeAt(i)
    // ( [ {
    if (char === 0x28 || char === 0x5b || char === 0x7b) {
      depth++
      if (depth > deepest) deepest = depth
    } else if ((char === 0x29 || char === 0x5d || char === 0x7d) && depth > 0) {
      depth--
    }
  }
  return deepest
}

type Path = Array<string | number>

export interface ValueProblem {
  path: Path
  message: string
}

/**
 * The first problem of a rule document's value: nesting deeper than the limit (a cycle made of
 * aliases counts as infinitely deep), or a string of the ast-grep part (`rule`, `constraints`,
 * `utils`) that is too long or, in a pattern, nests brackets too deep. Iterative: the value may
 * be as deep as aliases made it.
 */
export function ruleValueProblem(value: unknown, limits: RuleLimits): ValueProblem | null {
  const stack: Array<{ value: unknown; path: Path; astGrep: boolean }> = [{ value, path: [], astGrep: false }]
  while (stack.length > 0) {
    const { value: current, path, astGrep } = stack.pop() as (typeof stack)[number]
    if (typeof current === 'string') {
      if (!astGrep) continue
      const field = path.join('.')
      if (current.length > limits.maxPatternLength) {
        return { path, message: `${field} is ${current.length} characters long, over the limit of ${limits.maxPatternLength}` }
      }
      const key = path[path.length - 1]
      if (key === 'pattern' || key === 'context') {
        const nesting = bracketNesting(current)
        if (nesting > limits.maxPatternNesting) {
          return { path, message: `${field} nests brackets ${nesting} levels deep, over the limit of ${limits.maxPatternNesting}` }
        }
      }
      continue
    }
    if (typeof current !== 'object' || current === null) continue
    if (path.length >= limits.maxDepth) {
      return { path: path.slice(0, 1), message: `${path.slice(0, 1).join('.') || 'the document'} is nested more than ${limits.maxDepth} levels deep` }
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(current) ? current.map((item, index) => [index, item]) : Object.entries(current)
    for (const [key, child] of entries) {
      const isAstGrep = astGrep || (path.length === 0 && (key === 'rule' || key === 'constraints' || key === 'utils'))
      stack.push({ value: child, path: [...path, key], astGrep: isAstGrep })
    }
  }
  return null
}

/** A limit the text breaks, where it first breaks it. */
export interface TextProblem {
  /** 1-based line in the text */
  line: number
  message: string
}

/** Zero-width markers the YAML lexer emits between tokens (document, flow end, scalar). */
const LEXER_MARKERS = new Set(['\x02', '\x18', '\x1f'])

/**
 * The rule text's YAML syntax tokens, or the first structural limit it breaks: size, nesting,
 * number of documents. Neither the lexer nor the parser recurses, and the lexer pass stops at
 * the first bracket too deep, so a text of nothing but `[[[[...` costs microseconds.
 */
export function tokenizeRuleText(text: string, limits: RuleLimits, onNewLine?: (offset: number) => void): { tokens: CST.Token[] } | { problem: TextProblem } {
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > limits.maxBytes) return { problem: { line: 1, message: `the text is ${bytes} bytes, over the limit of ${limits.maxBytes}` } }

  let offset = 0
  let flowDepth = 0
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++flowDepth > limits.maxDepth) return { problem: { line: lineAt(text, offset), message: tooDeep(limits) } }
    } else if ((token === ']' || token === '}') && flowDepth > 0) {
      flowDepth--
    }
    if (!LEXER_MARKERS.has(token)) offset += token.length
  }

  const tokens = Array.from(new Parser(onNewLine).parse(text))
  let documents = 0
  for (const token of tokens) {
    if (token.type !== 'document' || !hasContent(token.value)) continue
    if (++documents > limits.maxRules) return { problem: { line: lineAt(text, token.offset), message: `more than ${limits.maxRules} rules, the limit for one text` } }
  }
  const stack: Array<{ token: CST.Token | null | undefined; depth: number }> = tokens.map((token) => ({ token, depth: 0 }))
  while (stack.length > 0) {
    const { token, depth: outer } = stack.pop() as (typeof stack)[number]
    if (!token) continue
    if (token.type === 'document') {
      stack.push({ token: token.value, depth: outer })
    } else if (token.type === 'block-map' || token.type === 'block-seq' || token.type === 'flow-collection') {
      const depth = outer + 1
      if (depth > limits.maxDepth) return { problem: { line: lineAt(text, token.offset), message: tooDeep(limits) } }
      for (const item of token.items) {
        if (item.key) stack.push({ token: item.key, depth })
        if (item.value) stack.push({ token: item.value, depth })
      }
    }
  }
  return { tokens }
}

function lineAt(text: string, offset: number): number {
  let line = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++
  return line
}

function tooDeep(limits: RuleLimits): string {
  return `YAML nested more than ${limits.maxDepth} levels deep`
}

function hasContent(token: CST.Token | undefined): boolean {
  if (!token) return false
  return !((token.type === 'scalar' || token.type === 'alias') && token.source.trim() === '')
}
