/**
 * The language-neutral program form the analysis runs on. lower.ts builds it from a syntax
 * tree following a language spec; interpreter.ts evaluates it. Positions stay as syntax nodes
 * and are resolved only when a trace or finding needs them (a range lookup costs more than
 * building the whole node).
 */
import type { Range } from '@ast-grep/napi'

export type Const = string | number | boolean | null

/**
 * A location in a file, resolved when the node is lowered: the IR keeps no syntax nodes, so a
 * file's tree can be dropped (and parsed again if needed) while its IR lives on.
 */
export class Site {
  /** UTF-16 offsets into the file's text */
  readonly start: number
  readonly end: number
  /** 0-based */
  readonly line: number
  readonly column: number
  readonly endLine: number
  readonly endColumn: number

  constructor(
    readonly path: string,
    private readonly source: string,
    range: Range,
  ) {
    this.start = range.start.index
    this.end = range.end.index
    this.line = range.start.line
    this.column = range.start.column
    this.endLine = range.end.line
    this.endColumn = range.end.column
  }

  get key(): string {
    return `${this.path}:${this.start}`
  }

  /** The node's source text. */
  get text(): string {
    return this.source.slice(this.start, this.end)
  }
}

export interface Arg {
  readonly value: Expr
  readonly keyword: string | null
  readonly spread: boolean
}

export interface DictEntry {
  /** constant key, or null for a computed key or a spread (`value` is then the spread object) */
  readonly key: string | null
  readonly computedKey: Expr | null
  readonly value: Expr
  readonly spread: boolean
}

export type Expr =
  | { readonly t: 'name'; readonly name: string; readonly site: Site }
  | { readonly t: 'literal'; readonly value: Const; readonly site: Site }
  | { readonly t: 'template'; readonly parts: readonly Expr[]; readonly site: Site }
  | { readonly t: 'member'; readonly object: Expr; readonly property: string; readonly site: Site }
  | { readonly t: 'index'; readonly object: Expr; readonly index: Expr; readonly site: Site }
  | { readonly t: 'call'; readonly callee: Expr; readonly args: readonly Arg[]; readonly isNew: boolean; readonly site: Site }
  | { readonly t: 'binary'; readonly op: string; readonly left: Expr; readonly right: Expr; readonly site: Site }
  | { readonly t: 'unary'; readonly op: string; readonly operand: Expr; readonly site: Site }
  | { readonly t: 'conditional'; readonly test: Expr; readonly then: Expr; readonly else: Expr; readonly site: Site }
  | { readonly t: 'list'; readonly elements: readonly Expr[]; readonly site: Site }
  | { readonly t: 'dict'; readonly entries: readonly DictEntry[]; readonly site: Site }
  | { readonly t: 'function'; readonly fn: FunctionDef; readonly site: Site }
  | { readonly t: 'assign'; readonly target: Target; readonly value: Expr; readonly op: string | null; readonly site: Site }
  | { readonly t: 'other'; readonly parts: readonly Expr[]; readonly site: Site }

export type Target =
  | { readonly t: 'name'; readonly name: string; readonly site: Site }
  | { readonly t: 'member'; readonly object: Expr; readonly property: string; readonly site: Site }
  | { readonly t: 'index'; readonly object: Expr; readonly index: Expr; readonly site: Site }
  | { readonly t: 'pattern'; readonly items: readonly PatternItem[]; readonly site: Site }
  | { readonly t: 'none' }

export interface PatternItem {
  /** constant key (object pattern), position (tuple pattern), or null for a rest element */
  readonly key: string | number | null
  readonly target: Target
  readonly fallback: Expr | null
}

export interface CatchClause {
  readonly binding: Target
  readonly body: readonly Stmt[]
}

export interface SwitchCase {
  /** null: the default case */
  readonly test: Expr | null
  readonly body: readonly Stmt[]
  /** the body continues into the next case when it ends without a break (C-style switch) */
  readonly fallsThrough?: boolean
}

export type Stmt =
  | { readonly t: 'expr'; readonly expr: Expr; readonly site: Site }
  | { readonly t: 'assign'; readonly target: Target; readonly value: Expr | null; readonly op: string | null; readonly type: string | null; readonly site: Site }
  | { readonly t: 'if'; readonly test: Expr; readonly then: readonly Stmt[]; readonly else: readonly Stmt[]; readonly site: Site }
  | {
      readonly t: 'loop'
      readonly test: Expr | null
      readonly each: { readonly target: Target; readonly iterable: Expr; readonly type: string | null } | null
      readonly init: readonly Stmt[]
      readonly update: readonly Stmt[]
      readonly body: readonly Stmt[]
      /** the body runs at least once (do-while) */
      readonly runsOnce: boolean
      readonly site: Site
    }
  | { readonly t: 'switch'; readonly value: Expr; readonly cases: readonly SwitchCase[]; readonly site: Site }
  | { readonly t: 'return'; readonly value: Expr | null; readonly site: Site }
  | { readonly t: 'throw'; readonly site: Site }
  | { readonly t: 'break' }
  | { readonly t: 'continue' }
  | { readonly t: 'try'; readonly body: readonly Stmt[]; readonly handlers: readonly CatchClause[]; readonly finally: readonly Stmt[] }
  | { readonly t: 'block'; readonly body: readonly Stmt[] }
  | { readonly t: 'function'; readonly fn: FunctionDef }
  | { readonly t: 'class'; readonly cls: ClassDef }
  | { readonly t: 'export'; readonly local: string; readonly exported: string }
  | { readonly t: 'import'; readonly decl: ImportDecl }

export interface Param {
  readonly target: Target
  /** the bound name, when the parameter is a plain name */
  readonly name: string | null
  readonly type: string | null
  readonly fallback: Expr | null
  /** the default value's text, for exceptions such as FastAPI's `Depends(...)` */
  readonly fallbackText: string | null
  readonly decorators: readonly string[]
  readonly rest: 'list' | 'dict' | null
  /** TypeScript parameter properties also declare a field of the class */
  readonly isProperty: boolean
  readonly site: Site
}

export interface FunctionDef {
  /** unique in the program: path and start offset */
  readonly id: string
  readonly path: string
  readonly site: Site
  readonly name: string | null
  readonly params: readonly Param[]
  readonly decorators: readonly string[]
  readonly owner: ClassDef | null
  /** a receiver declared apart from the parameters (Go methods): its name and type */
  readonly receiver?: Param | null
  readonly isStatic: boolean
  /** text offsets of the whole definition, for cheap textual checks */
  readonly start: number
  readonly end: number
  /** lowered on first use */
  body(): readonly Stmt[]
}

export interface FieldDef {
  readonly name: string
  readonly type: string | null
  readonly init: Expr | null
  readonly isStatic: boolean
}

export interface ClassDef {
  readonly id: string
  readonly path: string
  readonly site: Site
  readonly name: string
  readonly superclasses: readonly string[]
  readonly methods: ReadonlyMap<string, FunctionDef>
  readonly fields: ReadonlyMap<string, FieldDef>
  readonly decorators: readonly string[]
  readonly isInterface: boolean
  /** classes declared in the body (Java static nested and inner classes, Python nested classes), by name */
  readonly classes: ReadonlyMap<string, ClassDef>
  /** the class whose body declares this one, once that class is lowered */
  outer: ClassDef | null
}

export interface ImportBinding {
  /** the local name */
  readonly local: string
  /** the imported name; null binds the module itself; '*' every name (Java packages, Python `*`) */
  readonly imported: string | null
}

export interface ImportDecl {
  /** module specifier as written: `./util`, `.models`, `com.acme.db.Repo` */
  readonly module: string
  readonly bindings: readonly ImportBinding[]
}

/** Loose dotted path of an expression as written (`request.args.get`, `db[].find`), or null. */
export function pathOf(expr: Expr, depth = 0): string | null {
  if (depth > 8) return null
  switch (expr.t) {
    case 'name':
      return expr.name
    case 'member': {
      const object = pathOf(expr.object, depth + 1)
      return object === null ? null : `${object}.${expr.property}`
    }
    case 'index': {
      const object = pathOf(expr.object, depth + 1)
      return object === null ? null : `${object}[]`
    }
    case 'call': {
      const callee = pathOf(expr.callee, depth + 1)
      return callee === null ? null : `${callee}()`
    }
    default:
      return null
  }
}
