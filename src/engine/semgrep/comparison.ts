/**
 * Semgrep's `metavariable-comparison` expressions (`$PORT < 1024`, `int($X) > 2 and $Y == "a"`,
 * `re.match("^md", str($H))`), parsed into a tree and evaluated without `eval`: integers,
 * floats, strings, booleans, lists; arithmetic, comparisons, `and` / `or` / `not`, `in` /
 * `not in`, and the functions `int()`, `float()`, `str()`, `len()`, `re.match()`.
 *
 * A metavariable's value is its captured code read as a literal where it is one (a number
 * literal is a number, a string literal its content) and otherwise its text.
 */
import { toJsRegex } from './pattern.ts'

export class ComparisonError extends Error {}

type Value = number | string | boolean | Value[]

type Expression =
  | { kind: 'literal'; value: Value }
  | { kind: 'metavariable'; name: string }
  | { kind: 'list'; items: Expression[] }
  | { kind: 'unary'; operator: 'not' | '-'; operand: Expression }
  | { kind: 'binary'; operator: string; left: Expression; right: Expression }
  | { kind: 'call'; name: string; args: Expression[] }

const TOKEN = /\s*(?:(\d+\.\d*|\.\d+|0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|\d[\d_]*)|("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')|(\$[A-Z_][A-Z0-9_]*)|([A-Za-z_][\w.]*)|(==|!=|<=|>=|<|>|\+|-|\*|\/\/|\/|%|\(|\)|\[|\]|,))/y

interface Token {
  kind: 'number' | 'string' | 'metavariable' | 'name' | 'symbol'
  text: string
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  TOKEN.lastIndex = 0
  while (TOKEN.lastIndex < source.length) {
    if (/^\s*$/.test(source.slice(TOKEN.lastIndex))) break
    const at = TOKEN.lastIndex
    const match = TOKEN.exec(source)
    if (!match) throw new ComparisonError(`unexpected \`${source.slice(at).trim().slice(0, 20)}\` in comparison \`${source}\``)
    if (match[1] !== undefined) tokens.push({ kind: 'number', text: match[1] })
    else if (match[2] !== undefined) tokens.push({ kind: 'string', text: match[2] })
    else if (match[3] !== undefined) tokens.push({ kind: 'metavariable', text: match[3] })
    else if (match[4] !== undefined) tokens.push({ kind: 'name', text: match[4] })
    else tokens.push({ kind: 'symbol', text: match[5] as string })
  }
  return tokens
}

const FUNCTIONS = new Set(['int', 'float', 'str', 'len', 're.match'])

/** Parses a comparison expression; throws ComparisonError naming what it cannot read. */
export function parseComparison(source: string): Expression {
  const tokens = tokenize(source)
  let position = 0
  const peek = (): Token | undefined => tokens[position]
  const isSymbol = (text: string): boolean => peek()?.kind === 'symbol' && peek()?.text === text
  const isName = (text: string): boolean => peek()?.kind === 'name' && peek()?.text === text
  const expect = (text: string): void => {
    if (!isSymbol(text)) throw new ComparisonError(`expected \`${text}\` in comparison \`${source}\``)
    position++
  }

  const orExpression = (): Expression => {
    let left = andExpression()
    while (isName('or')) {
      position++
      left = { kind: 'binary', operator: 'or', left, right: andExpression() }
    }
    return left
  }
  const andExpression = (): Expression => {
    let left = notExpression()
    while (isName('and')) {
      position++
      left = { kind: 'binary', operator: 'and', left, right: notExpression() }
    }
    return left
  }
  const notExpression = (): Expression => {
    if (isName('not')) {
      position++
      return { kind: 'unary', operator: 'not', operand: notExpression() }
    }
    return comparison()
  }
  const comparison = (): Expression => {
    let left = additive()
    for (;;) {
      const token = peek()
      if (token?.kind === 'symbol' && ['==', '!=', '<', '<=', '>', '>='].includes(token.text)) {
        position++
        left = { kind: 'binary', operator: token.text, left, right: additive() }
      } else if (isName('in')) {
        position++
        left = { kind: 'binary', operator: 'in', left, right: additive() }
      } else if (isName('not') && tokens[position + 1]?.kind === 'name' && tokens[position + 1]?.text === 'in') {
        position += 2
        left = { kind: 'binary', operator: 'not in', left, right: additive() }
      } else {
        return left
      }
    }
  }
  const additive = (): Expression => {
    let left = multiplicative()
    while (isSymbol('+') || isSymbol('-')) {
      const operator = (peek() as Token).text
      position++
      left = { kind: 'binary', operator, left, right: multiplicative() }
    }
    return left
  }
  const multiplicative = (): Expression => {
    let left = unary()
    while (isSymbol('*') || isSymbol('/') || isSymbol('//') || isSymbol('%')) {
      const operator = (peek() as Token).text
      position++
      left = { kind: 'binary', operator, left, right: unary() }
    }
    return left
  }
  const unary = (): Expression => {
    if (isSymbol('-')) {
      position++
      return { kind: 'unary', operator: '-', operand: unary() }
    }
    return primary()
  }
  const primary = (): Expression => {
    const token = peek()
    if (!token) throw new ComparisonError(`comparison \`${source}\` ends too early`)
    position++
    if (token.kind === 'number') return { kind: 'literal', value: numberOf(token.text) as number }
    if (token.kind === 'string') return { kind: 'literal', value: unquote(token.text) }
    if (token.kind === 'metavariable') return { kind: 'metavariable', name: token.text }
    if (token.kind === 'name') {
      if (token.text === 'True' || token.text === 'true') return { kind: 'literal', value: true }
      if (token.text === 'False' || token.text === 'false') return { kind: 'literal', value: false }
      if (!FUNCTIONS.has(token.text)) throw new ComparisonError(`unknown name \`${token.text}\` in comparison \`${source}\``)
      expect('(')
      const args: Expression[] = []
      while (!isSymbol(')')) {
        args.push(orExpression())
        if (!isSymbol(')')) expect(',')
      }
      expect(')')
      return { kind: 'call', name: token.text, args }
    }
    if (token.text === '(') {
      const inner = orExpression()
      expect(')')
      return inner
    }
    if (token.text === '[') {
      const items: Expression[] = []
      while (!isSymbol(']')) {
        items.push(orExpression())
        if (!isSymbol(']')) expect(',')
      }
      expect(']')
      return { kind: 'list', items }
    }
    throw new ComparisonError(`unexpected \`${token.text}\` in comparison \`${source}\``)
  }

  const expression = orExpression()
  if (position < tokens.length) throw new ComparisonError(`unexpected \`${(tokens[position] as Token).text}\` in comparison \`${source}\``)
  return expression
}

/**
 * Whether the comparison holds with these metavariable texts. An unbound metavariable, or a
 * type error (comparing a string with a number, int() of a name), makes it false, as Semgrep
 * drops such matches.
 */
export function evaluateComparison(source: string | Expression, bindings: Readonly<Record<string, { readonly text: string }>>): boolean {
  const expression = typeof source === 'string' ? parseComparison(source) : source
  try {
    return truthy(evaluate(expression, bindings))
  } catch (error) {
    if (error instanceof ComparisonError) return false
    throw error
  }
}

function evaluate(expression: Expression, bindings: Readonly<Record<string, { readonly text: string }>>): Value {
  switch (expression.kind) {
    case 'literal':
      return expression.value
    case 'metavariable': {
      const bound = bindings[expression.name]
      if (!bound) throw new ComparisonError(`${expression.name} is not bound`)
      return valueOfCode(bound.text)
    }
    case 'list':
      return expression.items.map((item) => evaluate(item, bindings))
    case 'unary': {
      const operand = evaluate(expression.operand, bindings)
      if (expression.operator === 'not') return !truthy(operand)
      if (typeof operand !== 'number') throw new ComparisonError('negating a non-number')
      return -operand
    }
    case 'call':
      return call(
        expression.name,
        expression.args.map((arg) => evaluate(arg, bindings)),
      )
    case 'binary': {
      if (expression.operator === 'and') return truthy(evaluate(expression.left, bindings)) && truthy(evaluate(expression.right, bindings))
      if (expression.operator === 'or') return truthy(evaluate(expression.left, bindings)) || truthy(evaluate(expression.right, bindings))
      return binary(expression.operator, evaluate(expression.left, bindings), evaluate(expression.right, bindings))
    }
  }
}

function binary(operator: string, left: Value, right: Value): Value {
  switch (operator) {
    case '==':
      return equal(left, right)
    case '!=':
      return !equal(left, right)
    case 'in':
    case 'not in': {
      let found: boolean
      if (Array.isArray(right)) found = right.some((item) => equal(item, left))
      else if (typeof right === 'string' && typeof left === 'string') found = right.includes(left)
      else throw new ComparisonError('`in` needs a list or a string')
      return operator === 'in' ? found : !found
    }
  }
  if (['<', '<=', '>', '>='].includes(operator)) {
    if (typeof left !== typeof right || (typeof left !== 'number' && typeof left !== 'string')) throw new ComparisonError('ordering values of different types')
    const l = left as number | string
    const r = right as number | string
    return operator === '<' ? l < r : operator === '<=' ? l <= r : operator === '>' ? l > r : l >= r
  }
  if (operator === '+' && typeof left === 'string' && typeof right === 'string') return left + right
  if (typeof left !== 'number' || typeof right !== 'number') throw new ComparisonError(`${operator} needs numbers`)
  switch (operator) {
    case '+':
      return left + right
    case '-':
      return left - right
    case '*':
      return left * right
    case '/':
      if (right === 0) throw new ComparisonError('division by zero')
      return left / right
    case '//':
      if (right === 0) throw new ComparisonError('division by zero')
      return Math.floor(left / right)
    case '%':
      if (right === 0) throw new ComparisonError('division by zero')
      return left % right
  }
  throw new ComparisonError(`unknown operator ${operator}`)
}

function call(name: string, args: Value[]): Value {
  const [first, second] = args
  switch (name) {
    case 'int': {
      const number = typeof first === 'number' ? first : typeof first === 'string' ? numberOf(first.trim()) : null
      if (number === null || !Number.isFinite(number)) throw new ComparisonError('int() of a non-number')
      return Math.trunc(number)
    }
    case 'float': {
      const number = typeof first === 'number' ? first : typeof first === 'string' ? numberOf(first.trim()) : null
      if (number === null) throw new ComparisonError('float() of a non-number')
      return number
    }
    case 'str':
      return typeof first === 'string' ? first : String(first)
    case 'len':
      if (typeof first === 'string' || Array.isArray(first)) return first.length
      throw new ComparisonError('len() of a number')
    case 're.match': {
      if (typeof first !== 'string' || typeof second !== 'string') throw new ComparisonError('re.match(pattern, string) needs strings')
      // Python's re.match anchors at the start only.
      const regex = toJsRegex(`(?:${first})`)
      return new RegExp(`^(?:${regex.source})`, regex.flags).test(second)
    }
  }
  throw new ComparisonError(`unknown function ${name}`)
}

function equal(left: Value, right: Value): boolean {
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && left.length === right.length && left.every((item, index) => equal(item, right[index] as Value))
  }
  return left === right
}

function truthy(value: Value): boolean {
  if (Array.isArray(value)) return value.length > 0
  return value !== 0 && value !== '' && value !== false
}

/** A number literal's value (`1_000`, `0x1F`, `1.5`, `10L`), or null. */
function numberOf(text: string): number | null {
  const clean = text.replace(/_/g, '').replace(/[lLuU]+$/, '')
  if (/^[-+]?\d+$/.test(clean)) return Number.parseInt(clean, 10)
  if (/^0[xX][0-9a-fA-F]+$/.test(clean)) return Number.parseInt(clean.slice(2), 16)
  if (/^0[oO][0-7]+$/.test(clean)) return Number.parseInt(clean.slice(2), 8)
  if (/^0[bB][01]+$/.test(clean)) return Number.parseInt(clean.slice(2), 2)
  if (/^[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?[fFdD]?$/.test(clean)) return Number.parseFloat(clean)
  return null
}

function unquote(literal: string): string {
  return literal.slice(1, -1).replace(/\\(.)/g, '$1')
}

/** A captured piece of code as a value: a number literal, a string literal's content, or the text. */
function valueOfCode(text: string): Value {
  const trimmed = text.trim()
  const number = numberOf(trimmed)
  if (number !== null) return number
  if (/^(["'`])[\s\S]*\1$/.test(trimmed) && trimmed.length >= 2) return unquote(trimmed)
  return trimmed
}
