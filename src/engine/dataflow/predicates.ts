/**
 * Project predicates as guards: `if (!isValidKey(key)) return`, `keys.filter(isValidKey)` and
 * `parts.some(p => BLOCKED.includes(p))` guard as the predicate's body does. A *predicate* here is
 * a function whose body is one returned expression over its parameters (`return key !==
 * '__proto__' && key !== 'constructor'`); the interpreter refines the caller's state with that
 * expression, the parameters replaced by the call's arguments. A *validator* is a function whose
 * body is only `if (<test>) throw ...` checks (`validateKey(key)`): once a call to it returns, each
 * of its tests was false.
 */
import type { Expr, FunctionDef, Stmt } from './ir.ts'

/** How deep predicates calling predicates are followed. */
export const MAX_PREDICATE_DEPTH = 3

/** The expression a predicate returns, or null when its body is anything else. */
export function predicateBody(fn: FunctionDef): Expr | null {
  const body = fn.body()
  const only = body.length === 1 ? body[0] : undefined
  if (only?.t !== 'return' || !only.value) return null
  if (fn.params.some((param) => param.name === null || param.rest !== null)) return null
  return only.value
}

/** How many checks a validator's body may hold. */
const MAX_VALIDATOR_CHECKS = 8

/** The tests a validator throws on, or null when its body is anything else. */
export function validatorTests(fn: FunctionDef): Expr[] | null {
  const body = fn.body()
  if (body.length === 0 || body.length > MAX_VALIDATOR_CHECKS) return null
  if (fn.params.some((param) => param.name === null || param.rest !== null)) return null
  const tests = body.map((stmt) => (stmt.t === 'if' && stmt.else.length === 0 && onlyThrows(stmt.then) ? stmt.test : null))
  return tests.every((test) => test !== null) ? tests : null
}

function onlyThrows(block: readonly Stmt[]): boolean {
  const only = block.length === 1 ? block[0] : undefined
  return only?.t === 'throw' || (only?.t === 'block' && onlyThrows(only.body))
}

/**
 * The predicate's expression with its parameters replaced by the given expressions, or null when
 * it holds something this cannot rewrite (a nested function, an assignment) or names other than
 * the parameters that `isBound` says the caller binds itself (they would be read in the wrong scope).
 */
export function instantiate(fn: FunctionDef, body: Expr, args: readonly Expr[], isBound: (name: string) => boolean): Expr | null {
  const bindings = new Map<string, Expr>()
  fn.params.forEach((param, index) => {
    const arg = args[index]
    if (param.name !== null && arg) bindings.set(param.name, arg)
  })
  const params = new Set(fn.params.map((param) => param.name))
  let ok = true
  const map = (expr: Expr, depth: number): Expr => {
    if (!ok || depth > 30) {
      ok = false
      return expr
    }
    switch (expr.t) {
      case 'name': {
        const bound = bindings.get(expr.name)
        if (bound) return bound
        if (params.has(expr.name) || isBound(expr.name)) ok = false
        return expr
      }
      case 'literal':
        return expr
      case 'member':
        return { ...expr, object: map(expr.object, depth + 1) }
      case 'index':
        return { ...expr, object: map(expr.object, depth + 1), index: map(expr.index, depth + 1) }
      case 'call':
        return { ...expr, callee: map(expr.callee, depth + 1), args: expr.args.map((arg) => ({ ...arg, value: map(arg.value, depth + 1) })) }
      case 'binary':
        return { ...expr, left: map(expr.left, depth + 1), right: map(expr.right, depth + 1) }
      case 'unary':
        return { ...expr, operand: map(expr.operand, depth + 1) }
      case 'conditional':
        return { ...expr, test: map(expr.test, depth + 1), then: map(expr.then, depth + 1), else: map(expr.else, depth + 1) }
      case 'list':
        return { ...expr, elements: expr.elements.map((element) => map(element, depth + 1)) }
      case 'template':
        return { ...expr, parts: expr.parts.map((part) => map(part, depth + 1)) }
      case 'function':
        // A callback (`parts.some(p => ...)`) keeps its own parameters; it sees the caller's names.
        return expr
      default:
        ok = false
        return expr
    }
  }
  const result = map(body, 0)
  return ok ? result : null
}
