/**
 * Module wrappers: JavaScript written before modules keeps its code inside a function that runs
 * once when the file loads, a *wrapper*: an immediately invoked function (`;(function (isNode) {
 * ... module.exports = Public })(...)`) or the factory of a UMD header (`(function (root,
 * factory) { ... })(this, function () { ...; return api })`). The functions the wrapper declares
 * are the file's helpers; a function nested in it calls them by name, as it would call a
 * top-level function, though a summary of it has no enclosing run to find them in.
 */
import type { Expr, FunctionDef, Stmt } from './ir.ts'
import type { FileUnit } from './program.ts'

/** Top-level calls of a function expression written in place: `(function (...) { ... })(...)`. */
function* immediateCalls(top: readonly Stmt[]): Generator<Extract<Expr, { t: 'call' }> & { readonly callee: Extract<Expr, { t: 'function' }> }> {
  for (const stmt of top) {
    const call = stmt.t === 'expr' ? stmt.expr : null
    if (call?.t === 'call' && call.callee.t === 'function') yield call as Extract<Expr, { t: 'call' }> & { readonly callee: Extract<Expr, { t: 'function' }> }
  }
}

/**
 * The factory of a UMD wrapper, `(function (root, factory) { ... module.exports = factory() ...
 * })(this, function () { ...; return api })`: a top-level call of a function expression whose
 * last argument is a function. What it returns is what the file exports; the wrapper's own
 * assignment happens inside a call and does not reach the module's top level.
 */
export function umdFactory(top: readonly Stmt[]): FunctionDef | null {
  for (const call of immediateCalls(top)) {
    const last = call.args.at(-1)?.value
    if (last?.t === 'function') return last.fn
  }
  return null
}

/**
 * A top-level function expression called where it is written, `;(function (isNode) { ...
 * module.exports = Public })(typeof module === 'object')`: its assignments to `module.exports`
 * happen inside the call, so the module's top level never sees them.
 */
export function immediateWrapper(top: readonly Stmt[]): FunctionDef | null {
  for (const call of immediateCalls(top)) return call.callee.fn
  return null
}

interface WrapperScope {
  readonly wrapper: FunctionDef
  readonly declared: ReadonlyMap<string, FunctionDef>
}

const scopes = new WeakMap<FileUnit, WrapperScope | null>()

/**
 * The function named `name` that the file's wrapper declares at its top, when `fn` is nested in
 * that wrapper (and is not the wrapper itself), or null.
 */
export function wrapperDeclaration(unit: FileUnit, fn: FunctionDef, name: string): FunctionDef | null {
  let scope = scopes.get(unit)
  if (scope === undefined) {
    scope = wrapperScope(unit.top())
    scopes.set(unit, scope)
  }
  if (!scope || fn === scope.wrapper || fn.start < scope.wrapper.start || fn.end > scope.wrapper.end) return null
  return scope.declared.get(name) ?? null
}

function wrapperScope(top: readonly Stmt[]): WrapperScope | null {
  const wrapper = umdFactory(top) ?? immediateWrapper(top)
  if (!wrapper) return null
  const declared = new Map<string, FunctionDef>()
  for (const stmt of wrapper.body()) if (stmt.t === 'function' && stmt.fn.name) declared.set(stmt.fn.name, stmt.fn)
  return declared.size > 0 ? { wrapper, declared } : null
}
