/**
 * Lowers a syntax tree to the engine's language-neutral form (ir.ts), reading the language's
 * node table (spec.ts) and nothing else: no language is named here. Function and method bodies
 * are lowered only when the analysis first reaches them, and each definition is lowered once
 * (memoized by position), so a file costs in proportion to the code actually analyzed.
 */
import type { SgNode } from '@ast-grep/napi'
import { Site, pathOf } from './ir.ts'
import type { Arg, CatchClause, ClassDef, DictEntry, Expr, FieldDef, FunctionDef, ImportBinding, ImportDecl, Param, PatternItem, Stmt, SwitchCase, Target } from './ir.ts'
import type { Locator, NodeRule, SyntaxSpec } from './spec.ts'

type RuleOf<K extends NodeRule['as']> = Extract<NodeRule, { as: K }>

const EMPTY: readonly Stmt[] = []

/**
 * What the lowering asks of a node, remembered on the node object: a node is handed from one
 * step to the next (`named` filters children by kind, then `expr` or `stmt` looks its rule up;
 * a statement and its expression, a target and its expression share a node), and every kind()
 * and range() is a napi call making new objects. Properties on the object rather than WeakMaps:
 * a WeakMap holding every node lowered costs the garbage collector more than the calls it saves.
 */
const KIND = Symbol('kind')
const SITE = Symbol('site')

type NodeMemo = SgNode & { [KIND]?: string; [SITE]?: Site }

function kindOf(node: SgNode): string {
  return ((node as NodeMemo)[KIND] ??= node.kind() as string)
}

/** `'abc'`, `f"x"`, `"""doc"""`, `` `t` `` -> the text between the quotes (escapes kept). */
export function unquote(text: string): string {
  const match = /^[A-Za-z]*("""|'''|"|'|`)([\s\S]*)\1$/.exec(text)
  return match ? (match[2] ?? '') : text
}

/** Decorator / annotation text -> its name: `@app.route("/x")` -> `app.route`. */
export function decoratorName(text: string): string {
  const body = text.replace(/^@\s*/, '')
  const paren = body.indexOf('(')
  return (paren === -1 ? body : body.slice(0, paren)).replace(/\s+/g, '')
}

/** Declared type text -> a simple name: `: List<String>` -> `List`, `String[]` kept. */
export function typeName(text: string): string {
  return text
    .replace(/^:\s*/, '')
    .replace(/<[\s\S]*>/, '')
    .replace(/\s+/g, '')
}

/**
 * Function nodes of one tree and kind, by range: those lowered from this tree so far, or all of
 * them once a lookup missed (`complete`).
 */
interface KindIndex {
  readonly byRange: Map<string, SgNode>
  complete: boolean
}

/** tree -> node kind -> its index; a released tree takes its index with it */
const nodesOfTree = new WeakMap<SgNode, Map<string, KindIndex>>()

function kindIndex(root: SgNode, kind: string): KindIndex {
  let byKind = nodesOfTree.get(root)
  if (!byKind) nodesOfTree.set(root, (byKind = new Map()))
  let index = byKind.get(kind)
  if (!index) byKind.set(kind, (index = { byRange: new Map(), complete: false }))
  return index
}

function rangeKey(start: number, end: number): string {
  return `${start}:${end}`
}

export class Lowerer {
  private readonly functions = new Map<number, FunctionDef>()
  private readonly classes = new Map<number, ClassDef>()
  private readonly ignored: ReadonlySet<string>

  constructor(
    readonly path: string,
    private readonly text: string,
    readonly syntax: SyntaxSpec,
    /** the file's tree, parsed again if it was released */
    private readonly root: () => SgNode,
  ) {
    this.ignored = new Set(Object.entries(syntax.nodes).filter(([, rule]) => rule.as === 'ignore').map(([kind]) => kind))
  }

  private site(node: SgNode): Site {
    return ((node as NodeMemo)[SITE] ??= new Site(this.path, this.text, node.range()))
  }

  private rule(node: SgNode): NodeRule | undefined {
    return this.syntax.nodes[kindOf(node)]
  }

  // --- locators ---------------------------------------------------------------------------

  private named(node: SgNode, except?: readonly string[]): SgNode[] {
    return node.namedChildren().filter((child) => this.kept(child, except))
  }

  private kept(child: SgNode, except: readonly string[] | undefined): boolean {
    const kind = kindOf(child)
    return !this.ignored.has(kind) && !(except?.includes(kind) ?? false)
  }

  locate(node: SgNode, locator: Locator | undefined): SgNode | null {
    if (locator === undefined) return null
    if (typeof locator === 'string') return node.field(locator as never) as SgNode | null
    // The first match ends the search: the kinds of the children after it are not asked for.
    if ('kinds' in locator) {
      const base = locator.in === undefined ? node : this.locate(node, locator.in)
      return base?.namedChildren().find((child) => locator.kinds.includes(kindOf(child))) ?? null
    }
    const nth = 'nth' in locator ? locator.nth : 0
    let index = 0
    for (const child of node.namedChildren()) {
      if (!this.kept(child, locator.except)) continue
      if (index === nth) return child
      index++
    }
    return null
  }

  locateAll(node: SgNode, locator: Locator | undefined): SgNode[] {
    if (locator === undefined) return []
    if (typeof locator === 'string') return node.fieldChildren(locator as never) as SgNode[]
    if ('kinds' in locator) {
      const base = locator.in === undefined ? node : this.locate(node, locator.in)
      if (!base) return []
      return base.namedChildren().filter((child) => locator.kinds.includes(kindOf(child)))
    }
    if ('nth' in locator) {
      const child = this.named(node, locator.except)[locator.nth]
      return child ? [child] : []
    }
    return this.named(node, locator.except)
  }

  // --- statements -------------------------------------------------------------------------

  /** A block (or a single statement) as a list of statements. */
  statements(node: SgNode | null): readonly Stmt[] {
    if (!node) return EMPTY
    const rule = this.rule(node)
    if (rule?.as === 'block') return this.locateAll(node, rule.body ?? { all: true }).flatMap((child) => this.stmt(child))
    return this.stmt(node)
  }

  stmt(node: SgNode): Stmt[] {
    const rule = this.rule(node)
    if (!rule) return this.named(node).flatMap((child) => this.stmt(child))
    switch (rule.as) {
      case 'block':
        return [...this.statements(node)]
      case 'else':
      case 'case':
        return this.locateAll(node, rule.body ?? { all: true }).flatMap((child) => this.stmt(child))
      case 'transparent': {
        const inner = this.locate(node, rule.inner ?? { nth: 0 })
        return inner ? this.stmt(inner) : []
      }
      case 'ignore':
        return []
      case 'assign':
        return [this.assignStmt(node, rule)]
      case 'declaration':
        return this.declaration(node, rule)
      case 'declarator':
        return [this.declarator(node, rule, null)]
      case 'if': {
        const init = this.locate(node, rule.init)
        return init ? [...this.stmt(init), this.ifStmt(node, rule)] : [this.ifStmt(node, rule)]
      }
      case 'while':
      case 'do':
        return [this.whileStmt(node, rule)]
      case 'for':
        return [this.forStmt(node, rule)]
      case 'foreach':
        return [this.foreachStmt(node, rule)]
      case 'return': {
        const value = this.locate(node, rule.value ?? { nth: 0 })
        return [{ t: 'return', value: value ? this.expr(value) : null, site: this.site(node) }]
      }
      case 'throw':
        return [{ t: 'throw', site: this.site(node) }]
      case 'break':
        return [{ t: 'break' }]
      case 'continue':
        return [{ t: 'continue' }]
      case 'try':
        return this.tryStmt(node, rule)
      case 'switch':
        return [this.switchStmt(node, rule)]
      case 'function':
        return [{ t: 'function', fn: this.functionAt(node) }]
      case 'class':
        return [{ t: 'class', cls: this.classAt(node) }]
      case 'decorated': {
        const definition = this.locate(node, rule.definition)
        return definition ? this.stmt(definition) : []
      }
      case 'export':
        return this.exportStmt(node, rule)
      case 'import-from':
      case 'import-module':
      case 'import-es':
      case 'import-path':
      case 'import-package':
        return this.importDecls(node, rule).map((decl) => ({ t: 'import', decl }))
      default:
        return [{ t: 'expr', expr: this.expr(node), site: this.site(node) }]
    }
  }

  private assignStmt(node: SgNode, rule: RuleOf<'assign'>): Stmt {
    const target = this.locate(node, rule.target)
    const value = this.locate(node, rule.value)
    const operator = rule.operator === undefined ? null : (this.locate(node, rule.operator)?.text() ?? null)
    const type = this.locate(node, rule.type)
    return {
      t: 'assign',
      target: target ? this.target(target) : { t: 'none' },
      value: value ? this.expr(value) : null,
      op: operator === '=' ? null : operator,
      type: type ? typeName(type.text()) : null,
      site: this.site(node),
    }
  }

  private declaration(node: SgNode, rule: RuleOf<'declaration'>): Stmt[] {
    const typeNode = this.locate(node, rule.type)
    const type = typeNode ? typeName(typeNode.text()) : null
    return this.locateAll(node, rule.declarators).map((declarator) => {
      const inner = this.rule(declarator)
      if (inner?.as === 'declarator') return this.declarator(declarator, inner, type)
      if (inner?.as === 'assign') return this.assignStmt(declarator, inner)
      return { t: 'assign', target: this.target(declarator), value: null, op: null, type, site: this.site(declarator) }
    })
  }

  private declarator(node: SgNode, rule: RuleOf<'declarator'>, type: string | null): Stmt {
    const target = this.locate(node, rule.target)
    const value = this.locate(node, rule.value)
    return { t: 'assign', target: target ? this.target(target) : { t: 'none' }, value: value ? this.expr(value) : null, op: null, type, site: this.site(node) }
  }

  private ifStmt(node: SgNode, rule: RuleOf<'if'>): Stmt {
    const test = this.locate(node, rule.test)
    return {
      t: 'if',
      test: test ? this.expr(test) : this.other(node, []),
      then: this.statements(this.locate(node, rule.then)),
      else: this.elseChain(this.locateAll(node, rule.else)),
      site: this.site(node),
    }
  }

  /** `elif` / `else` clauses in order: each `elif` is an `if` whose else is the rest. */
  private elseChain(nodes: SgNode[]): readonly Stmt[] {
    const [first, ...rest] = nodes
    if (!first) return EMPTY
    const rule = this.rule(first)
    if (rule?.as === 'if') {
      const test = this.locate(first, rule.test)
      const then = this.statements(this.locate(first, rule.then))
      const nested = rule.else === undefined ? rest : [...this.locateAll(first, rule.else), ...rest]
      const init = this.locate(first, rule.init)
      return [...(init ? this.stmt(init) : EMPTY), { t: 'if', test: test ? this.expr(test) : this.other(first, []), then, else: this.elseChain(nested), site: this.site(first) }]
    }
    return [...this.statements(first), ...this.elseChain(rest)]
  }

  private whileStmt(node: SgNode, rule: RuleOf<'while'> | RuleOf<'do'>): Stmt {
    const test = this.locate(node, rule.test)
    return {
      t: 'loop',
      test: test ? this.expr(test) : null,
      each: null,
      init: EMPTY,
      update: EMPTY,
      body: this.statements(this.locate(node, rule.body)),
      runsOnce: rule.as === 'do',
      site: this.site(node),
    }
  }

  private forStmt(node: SgNode, rule: RuleOf<'for'>): Stmt {
    const clause = rule.each ? this.locate(node, rule.each.clause) : null
    if (clause && rule.each) return this.foreachStmt(node, { as: 'foreach', target: rule.each.target, iterable: rule.each.iterable, body: rule.body }, clause)
    const test = this.locate(node, rule.test) ?? this.locate(node, rule.testOr)
    const init = this.locate(node, rule.init)
    const update = this.locate(node, rule.update)
    return {
      t: 'loop',
      test: test ? this.expr(test) : null,
      each: null,
      init: init ? this.stmt(init) : EMPTY,
      update: update ? this.stmt(update) : EMPTY,
      body: this.statements(this.locate(node, rule.body)),
      runsOnce: false,
      site: this.site(node),
    }
  }

  /** `clause`: the node holding the target and the iterable, when it is not the loop itself (Go's range clause) */
  private foreachStmt(node: SgNode, rule: RuleOf<'foreach'>, clause: SgNode = node): Stmt {
    const target = this.locate(clause, rule.target)
    const iterable = this.locate(clause, rule.iterable)
    const type = this.locate(clause, rule.type)
    return {
      t: 'loop',
      test: null,
      each: {
        target: target ? this.target(target) : { t: 'none' },
        iterable: iterable ? this.expr(iterable) : this.other(node, []),
        type: type ? typeName(type.text()) : null,
      },
      init: EMPTY,
      update: EMPTY,
      body: this.statements(this.locate(node, rule.body)),
      runsOnce: false,
      site: this.site(node),
    }
  }

  private tryStmt(node: SgNode, rule: RuleOf<'try'>): Stmt[] {
    const resources = this.locate(node, rule.resources)
    const handlers: CatchClause[] = this.locateAll(node, rule.handlers).map((handler) => {
      const catchRule = this.rule(handler)
      if (catchRule?.as !== 'catch') return { binding: { t: 'none' }, body: this.statements(handler) }
      const binding = this.locate(handler, catchRule.binding)
      return { binding: binding ? this.target(binding) : { t: 'none' }, body: this.statements(this.locate(handler, catchRule.body)) }
    })
    const finalizer = this.locate(node, rule.finally)
    const body = this.statements(this.locate(node, rule.body))
    return [
      ...(resources ? this.statements(resources) : EMPTY),
      { t: 'try', body, handlers, finally: finalizer ? this.statements(finalizer) : EMPTY },
    ]
  }

  private switchStmt(node: SgNode, rule: RuleOf<'switch'>): Stmt {
    const value = this.locate(node, rule.value)
    const cases: SwitchCase[] = this.locateAll(node, rule.cases).flatMap((branch): SwitchCase[] => {
      const caseRule = this.rule(branch)
      if (caseRule?.as !== 'case') return [{ test: null, body: this.statements(branch) }]
      const body = this.locateAll(branch, caseRule.body ?? { all: true }).flatMap((child) => this.stmt(child))
      return this.caseLabels(branch, caseRule).map((test, index, labels) => {
        // `case A, B: body` is `case A:` falling through to `case B: body`
        if (index < labels.length - 1) return { test, body: EMPTY, fallsThrough: true }
        return { test, body, fallsThrough: caseRule.fallsThrough ?? false }
      })
    })
    return { t: 'switch', value: value ? this.expr(value) : this.other(node, []), cases, site: this.site(node) }
  }

  /** The values a case matches, in order; a single null for the default (or a wildcard pattern). */
  private caseLabels(branch: SgNode, rule: RuleOf<'case'>): Array<Expr | null> {
    const test = this.locate(branch, rule.test)
    if (!test) return [null]
    if (this.rule(test) !== undefined && this.rule(test)?.as !== 'sequence') return [this.expr(test)]
    const values = this.named(test).flatMap((child) => (rule.alternatives?.includes(kindOf(child)) ? this.named(child) : [child]))
    return values.length === 0 ? [null] : values.map((child) => this.expr(child))
  }

  /**
   * A switch used as a value (`String s = switch (k) { case "a" -> x; default -> y; }`): a chain
   * of conditionals on the subject, so a constant subject selects its case's value.
   */
  private switchExpr(node: SgNode, rule: RuleOf<'switch'>): Expr {
    const switched = this.switchStmt(node, rule)
    if (switched.t !== 'switch') return this.other(node, [])
    const subject = switched.value
    const equal = this.syntax.operators.equal[0] ?? '=='
    let result: Expr = this.other(node, [])
    let pendingLabels: Expr[] = []
    const arms: Array<{ labels: Expr[]; value: Expr; isDefault: boolean }> = []
    for (const branch of switched.cases) {
      if (branch.body.length === 0 && branch.fallsThrough && branch.test) {
        pendingLabels.push(branch.test)
        continue
      }
      const labels = branch.test ? [...pendingLabels, branch.test] : []
      pendingLabels = []
      arms.push({ labels, value: caseValue(branch.body, switched.site), isDefault: branch.test === null })
    }
    const fallback = arms.find((arm) => arm.isDefault)
    if (fallback) result = fallback.value
    for (const arm of [...arms].reverse()) {
      if (arm.isDefault) continue
      const site = switched.site
      const tests = arm.labels.map((label): Expr => ({ t: 'binary', op: equal, left: subject, right: label, site }))
      const test = tests.reduce((left, right): Expr => ({ t: 'binary', op: this.syntax.operators.or[0] ?? '||', left, right, site }))
      result = { t: 'conditional', test, then: arm.value, else: result, site }
    }
    return result
  }

  private exportStmt(node: SgNode, rule: RuleOf<'export'>): Stmt[] {
    const declaration = this.locate(node, rule.declaration)
    if (declaration) {
      const lowered = this.stmt(declaration)
      const names = lowered.flatMap(boundNames)
      return [...lowered, ...names.map((name): Stmt => ({ t: 'export', local: name, exported: name }))]
    }
    const value = this.locate(node, rule.value)
    if (value) {
      const expr = this.expr(value)
      if (expr.t === 'name') return [{ t: 'export', local: expr.name, exported: 'default' }]
      return [
        { t: 'assign', target: { t: 'name', name: '%default', site: this.site(value) }, value: expr, op: null, type: null, site: this.site(node) },
        { t: 'export', local: '%default', exported: 'default' },
      ]
    }
    const source = this.locate(node, rule.source)
    if (source) return this.reexports(node, rule, unquote(source.text()))
    return this.locateAll(node, rule.specifiers).flatMap((specifier): Stmt[] => {
      const specifierRule = this.rule(specifier)
      if (specifierRule?.as !== 'export-specifier') return []
      const name = this.locate(specifier, specifierRule.name)?.text()
      const alias = this.locate(specifier, specifierRule.alias)?.text()
      return name ? [{ t: 'export', local: name, exported: alias ?? name }] : []
    })
  }

  /**
   * `export { a as b } from 'm'` and `export * as ns from 'm'`: an import under a name the code
   * cannot write, a top-level variable holding it (exports are read from the module's
   * variables), and the export of that variable. `export * from 'm'` binds no name and is left out.
   */
  private reexports(node: SgNode, rule: RuleOf<'export'>, module: string): Stmt[] {
    const named = this.locateAll(node, rule.specifiers).flatMap((specifier) => {
      const specifierRule = this.rule(specifier)
      if (specifierRule?.as !== 'export-specifier') return []
      const name = this.locate(specifier, specifierRule.name)?.text()
      return name ? [{ imported: name, exported: this.locate(specifier, specifierRule.alias)?.text() ?? name }] : []
    })
    const namespace = /^export\s+\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(node.text())?.[1]
    const bindings = namespace ? [{ imported: null, exported: namespace }] : named
    return bindings.flatMap(({ imported, exported }): Stmt[] => {
      const site = this.site(node)
      const local = `%import:${exported}`
      const variable = `%export:${exported}`
      return [
        { t: 'import', decl: { module, bindings: [{ local, imported }] } },
        { t: 'assign', target: { t: 'name', name: variable, site }, value: { t: 'name', name: local, site }, op: null, type: null, site },
        { t: 'export', local: variable, exported },
      ]
    })
  }

  // --- imports ----------------------------------------------------------------------------

  private importDecls(node: SgNode, rule: NodeRule): ImportDecl[] {
    switch (rule.as) {
      case 'import-from': {
        const module = this.locate(node, rule.module)?.text().replace(/\s+/g, '') ?? ''
        const bindings = this.locateAll(node, rule.names).flatMap((name) => this.importName(name, true))
        if (bindings.length === 0 && /\bimport\s*\*/.test(node.text())) bindings.push({ local: '*', imported: '*' })
        return [{ module, bindings }]
      }
      case 'import-module':
        return this.locateAll(node, rule.names).map((name) => {
          const nameRule = this.rule(name)
          if (nameRule?.as === 'import-alias') {
            const module = this.locate(name, nameRule.name)?.text() ?? ''
            return { module, bindings: [{ local: this.locate(name, nameRule.alias)?.text() ?? module, imported: null }] }
          }
          const module = name.text()
          // `import a.b` binds `a`; the engine reaches `a.b` as a member of it.
          return { module, bindings: [{ local: module.split('.')[0] ?? module, imported: null }] }
        })
      case 'import-es': {
        const source = this.locate(node, rule.source)
        if (!source) return []
        const clause = this.locate(node, rule.clause)
        return [{ module: unquote(source.text()), bindings: clause ? this.esClause(clause) : [] }]
      }
      case 'import-path': {
        const path = this.locate(node, rule.path)?.text().replace(/\s+/g, '') ?? ''
        if (/\.\*\s*;?\s*$/.test(node.text())) return [{ module: path, bindings: [{ local: '*', imported: '*' }] }]
        const dot = path.lastIndexOf('.')
        const last = path.slice(dot + 1)
        return [{ module: path.slice(0, Math.max(dot, 0)), bindings: [{ local: last, imported: last }] }]
      }
      case 'import-package': {
        const module = unquote(this.locate(node, rule.path)?.text() ?? '')
        const local = this.locate(node, rule.alias)?.text() ?? module.slice(module.lastIndexOf('/') + 1)
        return module === '' ? [] : [{ module, bindings: [{ local, imported: null }] }]
      }
      default:
        return []
    }
  }

  private importName(node: SgNode, fromModule: boolean): ImportBinding[] {
    const rule = this.rule(node)
    if (rule?.as === 'import-alias') {
      const name = this.locate(node, rule.name)?.text() ?? ''
      const alias = this.locate(node, rule.alias)?.text() ?? name
      return [{ local: alias, imported: fromModule ? name : null }]
    }
    const text = node.text()
    return [{ local: text, imported: fromModule ? text : null }]
  }

  private esClause(clause: SgNode): ImportBinding[] {
    return this.named(clause).flatMap((child): ImportBinding[] => {
      const rule = this.rule(child)
      if (rule?.as === 'import-namespace') {
        const name = this.locate(child, rule.name)?.text()
        return name ? [{ local: name, imported: null }] : []
      }
      if (rule?.as === 'import-named') return this.locateAll(child, rule.specifiers).flatMap((specifier) => this.importName(specifier, true))
      if (rule?.as === 'name') return [{ local: child.text(), imported: 'default' }]
      return []
    })
  }

  // --- expressions ------------------------------------------------------------------------

  private other(node: SgNode, parts: Expr[]): Expr {
    return { t: 'other', parts, site: this.site(node) }
  }

  /**
   * `(0, obj.method)`: compiled code calls an imported function this way so that it gets no
   * `this`; the value is the last operand, the same function. Operands with effects before it
   * keep the expression opaque, as before.
   */
  private comma(node: SgNode): Expr {
    const operands = this.named(node).map((child) => this.expr(child))
    const last = operands.at(-1)
    if (last && operands.slice(0, -1).every((operand) => operand.t === 'literal')) return last
    return this.other(node, operands)
  }

  /**
   * `__importStar(require('x'))` is the module `x`, and `__importDefault(require('x'))` an object
   * whose `default` is it: compiled imports then name the module as the source did.
   */
  private withoutModuleInterop(call: Extract<Expr, { t: 'call' }>): Expr {
    const interop = this.syntax.moduleInterop
    const helper = interop ? pathOf(call.callee) : null
    const [only] = call.args
    if (!interop || !helper || call.args.length !== 1 || !only || only.spread || !this.isModuleLoad(only.value)) return call
    if (interop.namespace.includes(helper)) return only.value
    if (!interop.default.includes(helper)) return call
    return { t: 'dict', entries: [{ key: 'default', computedKey: null, value: only.value, spread: false }], site: call.site }
  }

  private isModuleLoad(expr: Expr): boolean {
    return expr.t === 'call' && expr.callee.t === 'name' && (this.syntax.requireFunctions ?? []).includes(expr.callee.name)
  }

  expr(node: SgNode): Expr {
    const rule = this.rule(node)
    if (!rule) return this.other(node, this.named(node).map((child) => this.expr(child)))
    switch (rule.as) {
      case 'name': {
        // The name is the text the site already spans: cut from the file, not asked of the node again.
        const site = this.site(node)
        return { t: 'name', name: site.text, site }
      }
      case 'this':
        return { t: 'name', name: 'this', site: this.site(node) }
      case 'literal':
        return this.literal(node, rule.value)
      case 'string':
        return this.stringExpr(node, rule)
      case 'concat':
        return this.concat(node)
      case 'member': {
        const object = this.locate(node, rule.object)
        const property = this.locate(node, rule.property)
        if (!object || !property) return this.other(node, object ? [this.expr(object)] : [])
        return { t: 'member', object: this.expr(object), property: property.text(), site: this.site(node) }
      }
      case 'index': {
        const object = this.locate(node, rule.object)
        const index = this.locate(node, rule.index)
        if (!object) return this.other(node, [])
        return { t: 'index', object: this.expr(object), index: index ? this.expr(index) : this.other(node, []), site: this.site(node) }
      }
      case 'call': {
        const callee = this.locate(node, rule.callee)
        const call: Expr = { t: 'call', callee: callee ? this.expr(callee) : this.other(node, []), args: this.args(this.locate(node, rule.args)), isNew: false, site: this.site(node) }
        return this.withoutModuleInterop(call)
      }
      case 'method-call':
        return this.methodCall(node, rule)
      case 'new': {
        const callee = this.locate(node, rule.callee)
        return { t: 'call', callee: callee ? this.expr(callee) : this.other(node, []), args: this.args(this.locate(node, rule.args)), isNew: true, site: this.site(node) }
      }
      case 'binary':
        return this.binary(node, rule)
      case 'unary': {
        const operand = this.locate(node, rule.operand)
        const op = rule.operator === undefined ? this.tokens(node) : (this.locate(node, rule.operator)?.text() ?? '')
        return { t: 'unary', op, operand: operand ? this.expr(operand) : this.other(node, []), site: this.site(node) }
      }
      case 'conditional': {
        const [test, then, otherwise] = [this.locate(node, rule.test), this.locate(node, rule.then), this.locate(node, rule.else)]
        if (!test || !then || !otherwise) return this.other(node, this.named(node).map((child) => this.expr(child)))
        return { t: 'conditional', test: this.expr(test), then: this.expr(then), else: this.expr(otherwise), site: this.site(node) }
      }
      case 'sequence': {
        const elements = this.named(node)
        if (elements.length === 1 && elements[0]) return this.expr(elements[0])
        return { t: 'list', elements: elements.map((child) => this.expr(child)), site: this.site(node) }
      }
      case 'comma':
        return this.comma(node)
      case 'list':
      case 'tuple-pattern':
        return { t: 'list', elements: this.named(node).map((child) => this.expr(child)), site: this.site(node) }
      case 'dict':
        return { t: 'dict', entries: this.named(node).map((child) => this.dictEntry(child)), site: this.site(node) }
      case 'function':
        return { t: 'function', fn: this.functionAt(node), site: this.site(node) }
      case 'transparent': {
        const inner = this.locate(node, rule.inner ?? { nth: 0 })
        return inner ? this.expr(inner) : this.other(node, [])
      }
      case 'assign': {
        const target = this.locate(node, rule.target)
        const value = this.locate(node, rule.value)
        const operator = rule.operator === undefined ? null : (this.locate(node, rule.operator)?.text() ?? null)
        if (!value) return this.other(node, [])
        return { t: 'assign', target: target ? this.target(target) : { t: 'none' }, value: this.expr(value), op: operator === '=' ? null : operator, site: this.site(node) }
      }
      case 'keyword-arg':
      case 'spread':
      case 'pair': {
        const value = this.locate(node, rule.value)
        return value ? this.expr(value) : this.other(node, [])
      }
      case 'ignore':
        return this.other(node, [])
      case 'switch':
        return this.switchExpr(node, rule)
      default:
        return this.other(node, this.named(node).map((child) => this.expr(child)))
    }
  }

  private literal(node: SgNode, kind: RuleOf<'literal'>['value']): Expr {
    const site = this.site(node)
    if (kind === 'true' || kind === 'false' || kind === 'null') return { t: 'literal', value: kind === 'null' ? null : kind === 'true', site }
    const text = site.text
    if (kind === 'string') return { t: 'literal', value: unquote(text), site }
    const number = Number(text.replace(/_/g, '').replace(/[lLfFdD]$/, ''))
    return Number.isFinite(number) ? { t: 'literal', value: number, site } : this.other(node, [])
  }

  private stringExpr(node: SgNode, rule: RuleOf<'string'>): Expr {
    // Every string gets a site: its text is cut from the file rather than asked of the node.
    const site = this.site(node)
    const text = site.text
    // Interpolations need braces; looking for them first spares a walk over plain strings.
    if (rule.interpolation && text.includes('{')) {
      const children = node.namedChildren()
      if (children.some((child) => rule.interpolation?.includes(kindOf(child)))) {
        // Constant pieces are kept: a fixed prefix (`https://host/${x}`) matters to some sinks.
        const parts = children.flatMap((child): Expr[] => {
          const kind = kindOf(child)
          if (rule.interpolation?.includes(kind)) {
            const inner = this.named(child)[0]
            return [inner ? this.expr(inner) : this.other(child, [])]
          }
          if (kind.endsWith('_start') || kind.endsWith('_end') || this.ignored.has(kind)) return []
          return [{ t: 'literal', value: child.text(), site: this.site(child) }]
        })
        return { t: 'template', parts, site }
      }
    }
    return { t: 'literal', value: unquote(text), site }
  }

  private concat(node: SgNode): Expr {
    const parts = this.named(node).map((child) => this.expr(child))
    if (parts.every((part) => part.t === 'literal')) {
      return { t: 'literal', value: parts.map((part) => (part.t === 'literal' ? String(part.value) : '')).join(''), site: this.site(node) }
    }
    return { t: 'template', parts, site: this.site(node) }
  }

  private methodCall(node: SgNode, rule: RuleOf<'method-call'>): Expr {
    const object = this.locate(node, rule.object)
    const name = this.locate(node, rule.name)?.text() ?? ''
    const site = this.site(node)
    const callee: Expr = object ? { t: 'member', object: this.expr(object), property: name, site } : { t: 'name', name, site }
    return { t: 'call', callee, args: this.args(this.locate(node, rule.args)), isNew: false, site }
  }

  /** Operator text from anonymous tokens between operands (`not in`, `is not`). */
  private tokens(node: SgNode): string {
    return node
      .children()
      .filter((child) => !child.isNamed())
      .map((child) => child.text())
      .filter((token) => token !== '(' && token !== ')')
      .join(' ')
  }

  private binary(node: SgNode, rule: RuleOf<'binary'>): Expr {
    let left = this.locate(node, rule.left)
    let right = this.locate(node, rule.right)
    if (!left || !right) {
      const operands = this.named(node)
      left = operands[0] ?? null
      right = operands[1] ?? null
    }
    const op = rule.operator === undefined ? this.tokens(node) : (this.locate(node, rule.operator)?.text() ?? '')
    if (!left || !right) return this.other(node, this.named(node).map((child) => this.expr(child)))
    return { t: 'binary', op, left: this.expr(left), right: this.expr(right), site: this.site(node) }
  }

  private args(node: SgNode | null): Arg[] {
    if (!node) return []
    return this.named(node).map((child): Arg => {
      const rule = this.rule(child)
      if (rule?.as === 'keyword-arg') {
        const value = this.locate(child, rule.value)
        return { value: value ? this.expr(value) : this.other(child, []), keyword: this.locate(child, rule.name)?.text() ?? null, spread: false }
      }
      if (rule?.as === 'spread') {
        const value = this.locate(child, rule.value)
        return { value: value ? this.expr(value) : this.other(child, []), keyword: null, spread: true }
      }
      return { value: this.expr(child), keyword: null, spread: false }
    })
  }

  private dictEntry(node: SgNode): DictEntry {
    const rule = this.rule(node)
    if (rule?.as === 'pair') {
      const keyNode = this.locate(node, rule.key)
      const valueNode = this.locate(node, rule.value)
      const value = valueNode ? this.expr(valueNode) : this.other(node, [])
      const key = keyNode ? (rule.nameKeys?.includes(kindOf(keyNode)) ? keyNode.text() : this.constantKey(keyNode)) : null
      return { key, computedKey: key === null && keyNode ? this.expr(keyNode) : null, value, spread: false }
    }
    if (rule?.as === 'shorthand') {
      const site = this.site(node)
      return { key: site.text, computedKey: null, value: { t: 'name', name: site.text, site }, spread: false }
    }
    if (rule?.as === 'spread') {
      const value = this.locate(node, rule.value)
      return { key: null, computedKey: null, value: value ? this.expr(value) : this.other(node, []), spread: true }
    }
    if (rule?.as === 'function') {
      // object methods: `{ handler(req) { ... } }`
      const fn = this.functionAt(node)
      return { key: fn.name, computedKey: null, value: { t: 'function', fn, site: this.site(node) }, spread: false }
    }
    return { key: null, computedKey: null, value: this.expr(node), spread: true }
  }

  /** A key written as a name or a literal (`a`, `"a"`, `1`), or null when computed. */
  private constantKey(node: SgNode): string | null {
    const rule = this.rule(node)
    if (rule?.as === 'literal' || rule?.as === 'string') {
      const expr = this.expr(node)
      return expr.t === 'literal' ? String(expr.value) : null
    }
    // Keys without a rule are property names (`a` in `{ a: 1 }`); a rule-less kind never
    // names a variable, unlike Python's `{a: 1}` whose key is the variable `a`.
    return rule === undefined ? node.text() : null
  }

  // --- assignment targets -----------------------------------------------------------------

  target(node: SgNode): Target {
    const rule = this.rule(node)
    const site = this.site(node)
    switch (rule?.as) {
      case 'name':
        return { t: 'name', name: site.text, site }
      case 'this':
        return { t: 'name', name: 'this', site }
      case 'member':
      case 'index':
      case 'method-call': {
        const expr = this.expr(node)
        if (expr.t === 'member') return { t: 'member', object: expr.object, property: expr.property, site }
        if (expr.t === 'index') return { t: 'index', object: expr.object, index: expr.index, site }
        return { t: 'none' }
      }
      case 'sequence': {
        const elements = this.named(node)
        if (elements.length === 1 && elements[0]) return this.target(elements[0])
        return { t: 'pattern', items: elements.map((child, index) => this.patternItem(child, index)), site }
      }
      case 'list':
      case 'tuple-pattern':
        return { t: 'pattern', items: this.named(node).map((child, index) => this.patternItem(child, index)), site }
      case 'object-pattern':
        return { t: 'pattern', items: this.named(node).map((child) => this.patternItem(child, null)), site }
      case 'transparent': {
        const inner = this.locate(node, rule.inner ?? { nth: 0 })
        return inner ? this.target(inner) : { t: 'none' }
      }
      case 'default-pattern':
      case 'rest-pattern':
      case 'param': {
        const inner = this.locate(node, rule.target ?? { nth: 0 })
        return inner ? this.target(inner) : { t: 'none' }
      }
      default:
        return { t: 'none' }
    }
  }

  private patternItem(node: SgNode, position: number | null): PatternItem {
    const rule = this.rule(node)
    if (rule?.as === 'rest-pattern' || (rule?.as === 'param' && rule.rest)) return { key: null, target: this.target(node), fallback: null }
    if (rule?.as === 'pair-pattern') {
      const key = this.locate(node, rule.key)
      const value = this.locate(node, rule.value)
      return { key: key ? (this.constantKey(key) ?? position) : position, target: value ? this.target(value) : { t: 'none' }, fallback: null }
    }
    if (rule?.as === 'default-pattern') {
      const inner = this.locate(node, rule.target)
      const fallback = this.locate(node, rule.value)
      const target = inner ? this.target(inner) : { t: 'none' as const }
      return { key: position ?? (target.t === 'name' ? target.name : null), target, fallback: fallback ? this.expr(fallback) : null }
    }
    if (rule?.as === 'shorthand' || (position === null && rule?.as === 'name')) {
      const site = this.site(node)
      return { key: site.text, target: { t: 'name', name: site.text, site }, fallback: null }
    }
    return { key: position, target: this.target(node), fallback: null }
  }

  // --- functions and classes --------------------------------------------------------------

  /** The definition at a function node, lowered once; methods get their class. */
  functionAt(node: SgNode): FunctionDef {
    const start = this.site(node).start
    const known = this.functions.get(start)
    if (known) return known
    const parent = node.parent()
    const owner = this.enclosingClass(parent)
    if (owner) {
      const method = this.functions.get(start)
      if (method) return method
    }
    return this.lowerFunction(node, null, [], parent)
  }

  /** Lowers the class around a method node (registering its methods), if there is one; `parent`: the method node's. */
  private enclosingClass(parent: SgNode | null): ClassDef | null {
    let current = parent
    for (let depth = 0; current && depth < 4; depth++) {
      const rule = this.rule(current)
      if (rule?.as === 'class') return this.classAt(current)
      if (rule?.as === 'function') return null
      current = current.parent()
    }
    return null
  }

  /** `parent`: the node's parent when the caller has it already (a napi call less) */
  private lowerFunction(node: SgNode, owner: ClassDef | null, outerDecorators: readonly string[], parent?: SgNode | null): FunctionDef {
    const site = this.site(node)
    const rule = this.rule(node)
    if (rule?.as !== 'function') throw new Error(`not a function node: ${kindOf(node)}`)
    const name = this.locate(node, rule.name)?.text() ?? null
    const parentDecorators = outerDecorators.length > 0 ? outerDecorators : this.decoratorsAround(parent === undefined ? node.parent() : parent)
    const decorators = [...parentDecorators, ...this.locateAll(node, rule.decorators).map((decorator) => decoratorName(decorator.text()))]
    const modifiers = this.locate(node, rule.modifiers)?.text() ?? ''
    const paramsNode = this.locate(node, rule.params)
    const single = paramsNode ? null : this.locate(node, rule.singleParam)
    const kind = kindOf(node)
    let body: readonly Stmt[] | undefined
    const fn: FunctionDef = {
      id: `${this.path}#${site.start}`,
      path: this.path,
      site,
      name,
      params: paramsNode ? (this.rule(paramsNode)?.as === 'name' ? this.singleParam(paramsNode) : this.params(paramsNode)) : single ? this.singleParam(single) : [],
      decorators,
      owner,
      receiver: rule.receiver === undefined ? null : (this.paramsAt(this.locate(node, rule.receiver))[0] ?? null),
      isStatic: /\bstatic\b/.test(modifiers) || decorators.includes('staticmethod'),
      start: site.start,
      end: site.end,
      body: () => {
        body ??= this.functionBody(this.locate(this.nodeAt(kind, site), rule.body), site)
        return body
      },
    }
    this.functions.set(site.start, fn)
    // The body is lowered later, often while this tree still lives: nodeAt finds the node here.
    kindIndex(this.root(), kind).byRange.set(rangeKey(site.start, site.end), node)
    return fn
  }

  /**
   * The node of this kind at this range, found again in the (possibly re-parsed) tree: the node
   * it was lowered from while that tree lives, else from an index of all nodes of the kind, made
   * in one pass per tree (searching the tree once per function made lowering quadratic in the
   * number of functions of a file).
   */
  private nodeAt(kind: string, site: Site): SgNode {
    const root = this.root()
    const index = kindIndex(root, kind)
    const key = rangeKey(site.start, site.end)
    if (!index.byRange.has(key) && !index.complete) {
      for (const node of root.findAll({ rule: { kind } })) {
        const found = this.site(node)
        index.byRange.set(rangeKey(found.start, found.end), node)
      }
      index.complete = true
    }
    const found = index.byRange.get(key)
    if (!found) throw new Error(`${this.path}: no ${kind} at ${site.line + 1}:${site.column + 1}`)
    return found
  }

  /** Decorators held by a wrapping node (Python `decorated_definition`), given the definition's parent. */
  private decoratorsAround(parent: SgNode | null): string[] {
    const rule = parent ? this.rule(parent) : undefined
    if (!parent || rule?.as !== 'decorated') return []
    return this.locateAll(parent, rule.decorators).map((decorator) => decoratorName(decorator.text()))
  }

  private functionBody(node: SgNode | null, site: Site): readonly Stmt[] {
    if (!node) return EMPTY
    if (this.rule(node)?.as === 'block') return this.statements(node)
    return [{ t: 'return', value: this.expr(node), site }]
  }

  private singleParam(node: SgNode): Param[] {
    const target = this.target(node)
    const name = target.t === 'name' ? target.name : null
    return [{ target, name, type: null, fallback: null, fallbackText: null, decorators: [], rest: null, isProperty: false, site: this.site(node) }]
  }

  private paramsAt(node: SgNode | null): Param[] {
    return node ? this.params(node) : []
  }

  params(node: SgNode): Param[] {
    return this.named(node).flatMap((child): Param[] => {
      const rule = this.rule(child)
      const site = this.site(child)
      if (rule?.as === 'param') {
        const targetNodes = rule.several ? this.locateAll(child, rule.target) : [this.locate(child, rule.target)]
        const type = this.locate(child, rule.type)
        const fallback = this.locate(child, rule.default)
        return targetNodes.map((targetNode): Param => {
          const target = targetNode ? this.target(targetNode) : { t: 'none' as const }
          return {
            target,
            name: target.t === 'name' ? target.name : null,
            type: type ? typeName(type.text()) : null,
            fallback: fallback ? this.expr(fallback) : null,
            fallbackText: fallback ? fallback.text() : null,
            decorators: this.locateAll(child, rule.decorators).map((decorator) => decoratorName(decorator.text())),
            rest: rule.rest ?? null,
            isProperty: rule.property !== undefined && this.locate(child, rule.property) !== null,
            site: rule.several && targetNode ? this.site(targetNode) : site,
          }
        })
      }
      if (rule?.as === 'default-pattern') {
        const targetNode = this.locate(child, rule.target)
        const target = targetNode ? this.target(targetNode) : { t: 'none' as const }
        const fallback = this.locate(child, rule.value)
        return [{ target, name: target.t === 'name' ? target.name : null, type: null, fallback: fallback ? this.expr(fallback) : null, fallbackText: fallback?.text() ?? null, decorators: [], rest: null, isProperty: false, site }]
      }
      const target = this.target(child)
      if (target.t === 'none') return []
      const rest = rule?.as === 'rest-pattern' ? 'list' : null
      return [{ target, name: target.t === 'name' ? target.name : null, type: null, fallback: null, fallbackText: null, decorators: [], rest, isProperty: false, site }]
    })
  }

  classAt(node: SgNode): ClassDef {
    const start = this.site(node).start
    const known = this.classes.get(start)
    if (known) return known
    const rule = this.rule(node)
    if (rule?.as !== 'class') throw new Error(`not a class node: ${kindOf(node)}`)
    const parent = node.parent()
    const methods = new Map<string, FunctionDef>()
    const fields = new Map<string, FieldDef>()
    const cls: ClassDef = {
      id: `${this.path}#${start}`,
      path: this.path,
      site: this.site(node),
      name: this.locate(node, rule.name)?.text() ?? '',
      superclasses: this.locateAll(node, rule.superclasses).flatMap((superclass) => superclassNames(superclass.text())),
      methods,
      fields,
      decorators: [...this.decoratorsAround(parent), ...this.locateAll(node, rule.decorators).map((decorator) => decoratorName(decorator.text()))],
      isInterface: rule.interface ?? false,
      classes: new Map(),
      outer: null,
    }
    this.classes.set(start, cls)
    const body = this.locate(node, rule.body)
    if (body) this.classMembers(body, cls, methods, fields)
    // Lowering the enclosing class registers this one as its member (and sets `outer`).
    const enclosing = this.enclosingClassNode(parent)
    if (enclosing) this.classAt(enclosing)
    return cls
  }

  /** The class node whose body holds a class declaration directly (not through a function), given the declaration's parent. */
  private enclosingClassNode(parent: SgNode | null): SgNode | null {
    let current = parent
    for (let depth = 0; current && depth < 3; depth++) {
      const rule = this.rule(current)
      if (rule?.as === 'class') return current
      if (rule?.as === 'function') return null
      current = current.parent()
    }
    return null
  }

  private classMembers(body: SgNode, cls: ClassDef, methods: Map<string, FunctionDef>, fields: Map<string, FieldDef>): void {
    let pending: string[] = []
    for (const member of this.named(body)) {
      const kind = kindOf(member)
      if (this.syntax.decoratorKinds.includes(kind)) {
        pending.push(decoratorName(member.text()))
        continue
      }
      this.classMember(member, cls, methods, fields, pending, body)
      pending = []
    }
    const constructor = [...methods.values()].find((method) => this.isConstructor(method, cls))
    for (const param of constructor?.params ?? []) {
      if (param.isProperty && param.name) fields.set(param.name, { name: param.name, type: param.type, init: null, isStatic: false })
    }
  }

  isConstructor(fn: FunctionDef, cls: ClassDef): boolean {
    return fn.name !== null && ((this.syntax.constructorNames ?? []).includes(fn.name) || (this.syntax.constructorNames === undefined && fn.name === cls.name))
  }

  /** `body`: the class body holding `member` as a child, when it does */
  private classMember(member: SgNode, cls: ClassDef, methods: Map<string, FunctionDef>, fields: Map<string, FieldDef>, decorators: string[], body?: SgNode): void {
    const rule = this.rule(member)
    switch (rule?.as) {
      case 'function': {
        const fn = this.lowerFunction(member, cls, decorators, body)
        if (fn.name) methods.set(fn.name, fn)
        // Overloads by arity too (`get/1`, `get/2`): a name alone keeps the last one declared.
        if (fn.name) methods.set(`${fn.name}/${fn.params.length}`, fn)
        return
      }
      case 'decorated': {
        const definition = this.locate(member, rule.definition)
        const outer = this.locateAll(member, rule.decorators).map((decorator) => decoratorName(decorator.text()))
        if (definition && this.rule(definition)?.as === 'function') {
          const fn = this.lowerFunction(definition, cls, outer)
          if (fn.name) methods.set(fn.name, fn)
        }
        if (definition && this.rule(definition)?.as === 'class') this.classMember(definition, cls, methods, fields, [])
        return
      }
      case 'class': {
        const nested = this.classAt(member)
        if (nested.name) (cls.classes as Map<string, ClassDef>).set(nested.name, nested)
        nested.outer = cls
        return
      }
      case 'field': {
        for (const field of this.fieldDefs(member, rule)) fields.set(field.name, field)
        // `static Inner = class { ... }` (JavaScript): a nested class under the field's name
        const value = rule.declarators === undefined ? this.locate(member, rule.value) : null
        const name = value && this.rule(value)?.as === 'class' ? this.locate(member, rule.name)?.text() : undefined
        if (value && name) {
          const nested = this.classAt(value)
          ;(cls.classes as Map<string, ClassDef>).set(name, nested)
          nested.outer = cls
        }
        return
      }
      case 'transparent':
      case 'assign':
        for (const stmt of this.stmt(member)) {
          if (stmt.t === 'assign' && stmt.target.t === 'name') fields.set(stmt.target.name, { name: stmt.target.name, type: stmt.type, init: stmt.value, isStatic: true })
        }
        return
      default:
        return
    }
  }

  private fieldDefs(member: SgNode, rule: RuleOf<'field'>): FieldDef[] {
    const type = this.locate(member, rule.type)
    const typeText = type ? typeName(type.text()) : null
    const isStatic = /\bstatic\b/.test(this.locate(member, rule.modifiers)?.text() ?? '')
    if (rule.declarators !== undefined) {
      return this.locateAll(member, rule.declarators).flatMap((declarator) =>
        this.stmt(declarator).flatMap((stmt) => (stmt.t === 'assign' && stmt.target.t === 'name' ? [{ name: stmt.target.name, type: typeText, init: stmt.value, isStatic }] : [])),
      )
    }
    const name = this.locate(member, rule.name)?.text()
    const value = this.locate(member, rule.value)
    return name ? [{ name, type: typeText, init: value ? this.expr(value) : null, isStatic }] : []
  }
}

/** `extends Base implements A, B` / `(Base, metaclass=M)` -> the class names. */
function superclassNames(text: string): string[] {
  return text
    .replace(/<[^>]*>/g, '')
    .split(/[\s,()]+/)
    .filter((word) => /^[A-Za-z_$][\w$.]*$/.test(word) && word !== 'extends' && word !== 'implements')
}

/** The value of a switch expression's case: its expression, or what it yields. */
function caseValue(body: readonly Stmt[], site: Site): Expr {
  const values = body.flatMap((stmt) => caseValues(stmt))
  if (values.length === 1 && values[0]) return values[0]
  return { t: 'other', parts: values, site }
}

function caseValues(stmt: Stmt): Expr[] {
  switch (stmt.t) {
    case 'expr':
      return [stmt.expr]
    case 'return':
      return stmt.value ? [stmt.value] : []
    case 'block':
      return stmt.body.flatMap(caseValues)
    case 'if':
      return [...stmt.then.flatMap(caseValues), ...stmt.else.flatMap(caseValues)]
    default:
      return []
  }
}

/** Names a lowered declaration binds (for `export const a = ...`). */
function boundNames(stmt: Stmt): string[] {
  if (stmt.t === 'assign' && stmt.target.t === 'name') return [stmt.target.name]
  if (stmt.t === 'function' && stmt.fn.name) return [stmt.fn.name]
  if (stmt.t === 'class') return [stmt.cls.name]
  return []
}

