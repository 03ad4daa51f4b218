/**
 * JavaScript and TypeScript facts from one syntax tree: ES and CommonJS imports and exports,
 * functions, classes and methods, calls (minus obvious noise such as array and string
 * methods), Express/Koa/Fastify routers, routes, `use` chains and plugins, NestJS controllers
 * and guards, message consumers and schedulers, environment and argv reads, ORM models.
 *
 * One `findAll` walks the tree in native code and returns only the node kinds that matter;
 * arguments and parents are read only for the few calls that turn out to be routes, mounts,
 * requires or entry points.
 */
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import { classifyJsGuard } from '../guards.ts'
import type { Binding, FileFacts } from '../model.ts'
import { callArguments, calleesFromSpans, fastRule, flatText, literalString, namedChildren, startLine, unquote } from '../syntax.ts'
import { addDefinition, assignAuthHints, assignCallOwners, assignMethodOwners } from './common.ts'
import { addEntryFromArgs, readCall } from './javascript-routes.ts'
import { FUNCTION_KINDS, JsFile, firstLiteral, queueName } from './js-file.ts'
import type { PendingCall } from './js-file.ts'
import { applyNestDecorators, collectDecorator } from './nest.ts'


/** Callees whose calls never matter to the summary: builtins, collections, strings, responses. */
const NOISE_CALLEE = new RegExp(
  '^(?:console|JSON|Object|Math|Array|Number|String|Boolean|Date|Promise|Reflect|Symbol|BigInt|parseInt|parseFloat|isNaN|setTimeout|setInterval|setImmediate|clearTimeout|clearInterval|expect|describe|it|test|beforeEach|afterEach|super)\\b' +
  '|\\.(?:map|filter|forEach|reduce|some|every|push|pop|shift|unshift|slice|splice|concat|join|split|trim|trimStart|trimEnd|toLowerCase|toUpperCase|includes|indexOf|lastIndexOf|startsWith|endsWith|replace|replaceAll|padStart|padEnd|toString|toFixed|toISOString|getTime|localeCompare|match|matchAll|then|catch|finally|json|status|send|end|sendStatus|setHeader|type|sort|reverse|keys|values|entries|has|bind|call|apply|emit|log|info|warn|error|debug|trace|flat|flatMap|fill|charAt|charCodeAt|substring|substr|hasOwnProperty|isArray|getElementById|querySelector|addEventListener|preventDefault|useState|useEffect|useMemo|useCallback|useRef|setState)$',
)

function ruleFor(typescript: boolean): NapiConfig {
  const functionValue = { any: [{ kind: 'arrow_function' }, { kind: 'function_expression' }] }
  const kinds = [
    'import_statement',
    'function_declaration',
    'generator_function_declaration',
    'class_declaration',
    'method_definition',
    'new_expression',
    'decorator',
    ...(typescript ? ['abstract_class_declaration'] : []),
  ]
  return {
    rule: {
      any: [
        ...kinds.map((kind) => ({ kind })),
        // `export function f` and `export const f` are read from the text before the definition;
        // only clauses, re-exports and default exports need the statement.
        { kind: 'export_statement', regex: '^export\\s*(?:\\{|\\*|default\\b|type\\s*\\{)' },
        { kind: 'variable_declarator', has: { field: 'value', ...functionValue } },
        { kind: 'variable_declarator', has: { field: 'value', kind: 'call_expression', has: { kind: 'arguments', has: functionValue } } },
        { kind: 'pair', has: { field: 'value', ...functionValue } },
        // Noise is dropped on the JavaScript side: a large alternation costs more to compile per file than it saves.
        { kind: 'call_expression' },
        { kind: 'member_expression', regex: '^process\\.(?:env\\.[A-Za-z_][A-Za-z0-9_]*$|argv\\b|stdin\\b)' },
        { kind: 'subscript_expression', regex: '^process\\.env\\[' },
        { kind: 'assignment_expression', has: { field: 'left', regex: '^(?:module\\.)?exports\\b' } },
      ],
    },
  }
}

export const RULES = { javascript: fastRule(ruleFor(false)), typescript: fastRule(ruleFor(true)) }

// Kinds only: import sections are short, and a regex here would be compiled again for every file.
const IMPORT_RULE: NapiConfig = { rule: { any: [{ kind: 'import_statement' }, { kind: 'export_statement' }, { kind: 'call_expression' }] } }

/** Imports only (ES imports, re-exports, requires), for files read beyond the analysis budget. */
export function extractJavaScriptImports(facts: FileFacts, root: SgNode, text: string): void {
  const file = new JsFile(facts, text)
  for (const node of root.findAll(IMPORT_RULE)) {
    const kind = String(node.kind())
    if (kind === 'import_statement') readImport(file, node)
    else if (kind === 'call_expression') readCallNode(file, node)
    else if (/^export\s*(?:\{|\*)[^;]*\bfrom\b/.test(node.text())) readExport(file, node)
  }
  resolveCallees(file)
  for (const call of file.calls) if (call.callee === 'require' || call.calleeKind === 'import') readRequire(file, call)
  // The requires were read for their imports; as calls they belong to no analyzed body.
  facts.calls.length = 0
}

export function extractJavaScript(facts: FileFacts, root: SgNode, text: string): void {
  const file = new JsFile(facts, text)
  const rule = facts.language === 'javascript' ? RULES.javascript : RULES.typescript
  for (const node of root.findAll(rule)) readNode(file, node)
  resolveCallees(file)
  // Requires first: what a name was imported from decides what the rest means.
  for (const call of file.calls) if (call.callee === 'require' || call.calleeKind === 'import') readRequire(file, call)
  for (const node of file.news) readNew(file, node)
  readClassModels(file)
  for (const call of file.calls) readScopeFactory(file, call)
  for (const call of file.calls) readCall(file, call)
  markExported(file)
  assignMethodOwners(facts)
  applyNestDecorators(facts, file.decorators, (name) => file.originOf(name))
  readAppGuards(file)
  readNextMatcher(file)
  assignCallOwners(facts)
  assignAuthHints(facts, text)
}

/** Next.js `middleware.ts`: `export const config = { matcher: [...] }` says which paths it runs on. */
function readNextMatcher(file: JsFile): void {
  if (!/^(?:src\/)?middleware\.[jt]s$/.test(file.facts.path)) return
  const match = /matcher\s*:\s*(\[[^\]]*\]|['"`][^'"`]*['"`])/.exec(file.text)
  if (!match?.[1]) return
  const line = file.text.slice(0, match.index).split('\n').length
  for (const item of match[1].matchAll(/['"`]([^'"`]+)['"`]/g)) file.facts.signals.push({ signal: 'next-matcher', line, detail: item[1] ?? '' })
}

/** NestJS `{ provide: APP_GUARD, useClass: JwtAuthGuard }`: a guard on every route of the app. */
function readAppGuards(file: JsFile): void {
  if (!file.text.includes('APP_GUARD')) return
  for (const match of file.text.matchAll(/provide\s*:\s*APP_GUARD\s*,\s*use(?:Class|Existing)\s*:\s*([\w$]+)/g)) {
    const name = match[1] ?? ''
    const line = file.text.slice(0, match.index).split('\n').length
    file.facts.globalGuards.push({ name, line, ...classifyJsGuard(name, file.originOf(name)) })
  }
}

function readNode(file: JsFile, node: SgNode): void {
  const kind = String(node.kind())
  switch (kind) {
    case 'import_statement':
      return readImport(file, node)
    case 'export_statement':
      return readExport(file, node)
    case 'function_declaration':
    case 'generator_function_declaration':
      return void addNamed(file, node, 'function')
    case 'class_declaration':
    case 'abstract_class_declaration':
      return readClass(file, node)
    case 'method_definition':
      return readMethod(file, node)
    case 'variable_declarator':
    case 'pair':
      return readFunctionBinding(file, node, kind)
    case 'call_expression':
      return readCallNode(file, node)
    case 'new_expression':
      return void file.news.push(node)
    case 'decorator':
      return collectDecorator(file.decorators, node)
    case 'member_expression':
    case 'subscript_expression':
      return readProcessAccess(file, node)
    case 'assignment_expression':
      return readCommonJsExport(file, node)
  }
}

/** `function name(`, `async function* name(` */
function addNamed(file: JsFile, node: SgNode, kind: 'function' | 'class' | 'method'): number {
  const range = node.range()
  const name = /^(?:async\s+)?function\s*\*?\s*([\w$]+)/.exec(file.head(range, 200))?.[1] ?? node.field('name')?.text() ?? 'anonymous'
  return addDefinition(file.facts, node, { name, kind }, range)
}

function readClass(file: JsFile, node: SgNode): void {
  const range = node.range()
  // Decorators come first in the node's text; the header ends at the body's brace.
  const header = file.head(range, 2000).split('{')[0] ?? ''
  const name = /\bclass\s+([\w$]+)/.exec(header)?.[1] ?? 'anonymous'
  const bases = [...header.matchAll(/\bextends\s+([\w$.]+)/g)].map((match) => match[1] ?? '')
  addDefinition(file.facts, node, { name, kind: 'class', bases }, range)
  file.facts.typeNames.push(name)
}

/** `class User extends Model` in a file that imports Sequelize. */
function readClassModels(file: JsFile): void {
  if (!file.libraries.has('sequelize')) return
  for (const definition of file.facts.definitions) {
    if (definition.kind === 'class' && definition.bases?.some((base) => /^(?:Model|Sequelize\.Model)$/.test(base))) {
      file.facts.models.push({ name: definition.simple, orm: 'Sequelize', line: definition.line })
    }
  }
}

const METHOD_NAME = /^(?:(?:static|async|get|set|public|private|protected|readonly|override|abstract|declare)\s+)*\*?\s*(?:(['"])(.+?)\1|([\w$#]+))\s*[(<]/

function readMethod(file: JsFile, node: SgNode): void {
  const range = node.range()
  const match = METHOD_NAME.exec(file.head(range, 300))
  const name = match?.[2] ?? match?.[3] ?? node.field('name')?.text() ?? 'anonymous'
  addDefinition(file.facts, node, { name, kind: 'method' }, range)
  if (name === 'constructor') readConstructorFields(file, node)
}

/** TypeScript parameter properties (`private readonly users: UsersService`) are fields with a type. */
function readConstructorFields(file: JsFile, node: SgNode): void {
  const parameters = node.field('parameters')?.text() ?? ''
  for (const match of parameters.matchAll(/(?:private|public|protected|readonly)\s+(?:readonly\s+)?([\w$]+)\s*:\s*([A-Z][\w$]*)/g)) {
    if (match[1] && match[2]) file.facts.fieldTypes[match[1]] = match[2]
  }
}

/** `const name = (...) => ...`, `name: async (...) => ...`, `'name': function () {}` */
function readFunctionBinding(file: JsFile, node: SgNode, kind: string): void {
  const range = node.range()
  const head = file.head(range, 200)
  const match = kind === 'pair' ? /^(?:(['"])(.+?)\1|([\w$]+))\s*:/.exec(head) : /^()()([\w$]+)\s*(?::[^=]*)?=/.exec(head)
  const name = match?.[2] ?? match?.[3]
  if (!name) return
  addDefinition(file.facts, node, { name, kind: kind === 'pair' ? 'method' : 'function' }, range)
}

function readCallNode(file: JsFile, node: SgNode): void {
  const range = node.range()
  file.rawCalls.push({ node, start: range.start.index, end: range.end.index, line: range.start.line + 1 })
}

/** Callee texts sliced from the source, asking the tree only for unusual callees. */
function resolveCallees(file: JsFile): void {
  const callees = calleesFromSpans(file.text, file.rawCalls)
  file.rawCalls.forEach((call, index) => {
    let callee = callees[index] ?? null
    let calleeKind = callee === null ? '' : callee === 'import' ? 'import' : callee.includes('.') ? 'member_expression' : 'identifier'
    if (callee === null) {
      const calleeNode = call.node.field('function')
      if (!calleeNode) return
      callee = flatText(calleeNode, 200)
      calleeKind = String(calleeNode.kind())
    }
    if (NOISE_CALLEE.test(callee)) return
    file.calls.push({ node: call.node, callee, calleeKind })
    file.facts.calls.push({ callee, line: call.line, start: call.start, owner: -1 })
  })
}

function readImport(file: JsFile, node: SgNode): void {
  const text = node.text()
  const source = literalString(node.field('source'))
  if (source === null) return
  const clause = /^import\s+(?:type\s+)?([\s\S]*?)\s+from\s+['"]/.exec(text)?.[1] ?? ''
  file.addImport(source, startLine(node), esBindings(clause))
}

/** Bindings of an import clause: `X`, `* as ns`, `{ a, b as c }`, `X, { a }`. */
function esBindings(clause: string): Binding[] {
  const bindings: Binding[] = []
  const namespace = /\*\s+as\s+([\w$]+)/.exec(clause)
  if (namespace?.[1]) bindings.push({ local: namespace[1], imported: '*' })
  const named = /\{([^}]*)\}/.exec(clause)
  for (const part of named?.[1]?.split(',') ?? []) {
    const match = /^\s*(?:type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(part)
    if (match?.[1]) bindings.push({ local: match[2] ?? match[1], imported: match[1] })
  }
  const defaultName = /^\s*([\w$]+)\s*(?:,|$)/.exec(clause)
  if (defaultName?.[1] && defaultName[1] !== 'type') bindings.push({ local: defaultName[1], imported: 'default' })
  return bindings
}

/** `const x = require('y')`, `const { a, b: c } = require('y')`, `await import('y')`. */
function readRequire(file: JsFile, call: PendingCall): void {
  const specifier = literalString(callArguments(call.node)[0])
  if (specifier === null) return
  let parent = call.node.parent()
  let member: string | null = null
  if (parent?.kind() === 'await_expression') parent = parent.parent()
  if (parent?.kind() === 'member_expression') {
    member = parent.field('property')?.text() ?? null
    parent = parent.parent()
  }
  const bindings: Binding[] = []
  const target = parent?.kind() === 'variable_declarator' ? parent.field('name') : null
  if (target?.kind() === 'identifier') bindings.push({ local: target.text(), imported: member ?? (call.calleeKind === 'import' ? '*' : 'default') })
  else if (target?.kind() === 'object_pattern') bindings.push(...patternBindings(target.text()))
  file.addImport(specifier, startLine(call.node), bindings)
}

function patternBindings(pattern: string): Binding[] {
  const bindings: Binding[] = []
  for (const part of pattern.replace(/^\{|\}$/g, '').split(',')) {
    const match = /^\s*([\w$]+)\s*(?::\s*([\w$]+))?/.exec(part)
    if (match?.[1] && !part.trim().startsWith('...')) bindings.push({ local: match[2] ?? match[1], imported: match[1] })
  }
  return bindings
}

function readExport(file: JsFile, node: SgNode): void {
  const facts = file.facts
  const source = literalString(node.field('source'))
  const text = node.text()
  const isDefault = /^export\s+default\b/.test(text)
  if (source !== null) {
    file.addImport(source, startLine(node), [])
    const clause = node.children().find((child) => child.kind() === 'export_clause')
    if (!clause) facts.exports.push({ name: '*', local: '*', from: source })
    for (const [local, name] of exportSpecifiers(clause)) facts.exports.push({ name, local, from: source })
    return
  }
  const declaration = node.field('declaration')
  if (declaration) {
    for (const name of declaredNames(declaration)) facts.exports.push({ name: isDefault ? 'default' : name, local: name })
    if (isDefault && declaredNames(declaration).length === 0) {
      addDefinition(facts, declaration, { name: 'default', kind: 'function', exported: true })
      facts.exports.push({ name: 'default', local: 'default' })
    }
    return
  }
  const value = node.field('value')
  if (isDefault && value) return exportValue(file, value, 'default')
  const clause = node.children().find((child) => child.kind() === 'export_clause')
  for (const [local, name] of exportSpecifiers(clause)) facts.exports.push({ name, local })
}

function exportSpecifiers(clause: SgNode | undefined): Array<[string, string]> {
  if (!clause) return []
  const pairs: Array<[string, string]> = []
  for (const part of clause.text().replace(/^\{|\}$/g, '').split(',')) {
    const match = /^\s*(?:type\s+)?([\w$]+)(?:\s+as\s+([\w$]+))?\s*$/.exec(part)
    if (match?.[1]) pairs.push([match[1], match[2] ?? match[1]])
  }
  return pairs
}

function declaredNames(declaration: SgNode): string[] {
  const kind = declaration.kind()
  if (kind === 'lexical_declaration' || kind === 'variable_declaration') {
    return declaration
      .children()
      .filter((child) => child.kind() === 'variable_declarator')
      .map((child) => child.field('name')?.text() ?? '')
      .filter((name) => /^[\w$]+$/.test(name))
  }
  const name = declaration.field('name')?.text()
  return name ? [name] : []
}

/** `export default X`, `module.exports = X`: a name, a `new Class()`, an object of members or a function. */
function exportValue(file: JsFile, value: SgNode, name: string): void {
  const facts = file.facts
  const kind = String(value.kind())
  if (kind === 'identifier') facts.exports.push({ name, local: value.text() })
  else if (kind === 'new_expression') facts.exports.push({ name, local: '', instanceOf: value.field('constructor')?.text() ?? '' })
  else if (FUNCTION_KINDS.has(kind) || kind === 'class') {
    addDefinition(facts, value, { name, kind: 'function', exported: true })
    facts.exports.push({ name, local: name })
  } else if (kind === 'object' && name === 'default') {
    for (const member of namedChildren(value)) {
      const memberKind = member.kind()
      if (memberKind === 'shorthand_property_identifier') facts.exports.push({ name: member.text(), local: member.text() })
      else if (memberKind === 'pair' || memberKind === 'method_definition') {
        const key = (member.field('key') ?? member.field('name'))?.text() ?? ''
        const memberValue = member.field('value')
        const local = memberValue?.kind() === 'identifier' || memberValue?.kind() === 'member_expression' ? memberValue.text() : key
        if (key) facts.exports.push({ name: unquote(key) ?? key, local })
      }
    }
  } else if (kind === 'call_expression') {
    // `module.exports = router(...)`/`express.Router()`: the module's value is what the call returns.
    facts.exports.push({ name, local: flatText(value, 80) })
  }
}

function readCommonJsExport(file: JsFile, node: SgNode): void {
  const left = node.field('left')?.text() ?? ''
  const value = node.field('right')
  if (!value) return
  if (left === 'module.exports' || left === 'exports') return exportValue(file, value, 'default')
  const member = /^(?:module\.)?exports\.([\w$]+)$/.exec(left)?.[1]
  if (!member) return
  if (FUNCTION_KINDS.has(String(value.kind()))) {
    addDefinition(file.facts, value, { name: member, kind: 'function', exported: true })
    file.facts.exports.push({ name: member, local: member })
  } else exportValue(file, value, member)
}

function readNew(file: JsFile, node: SgNode): void {
  const type = node.field('constructor')?.text() ?? ''
  if (!type) return
  const parent = node.parent()
  const local = parent?.kind() === 'variable_declarator' ? parent.field('name')?.text() : undefined
  if (local && /^[\w$]+$/.test(local)) file.facts.instances.push({ local, type })
  const origin = file.originOf(type)
  if ((type === 'Koa' || type === 'Router') && origin && /^(?:koa|@koa\/router|koa-router)$/.test(origin) && local) {
    const prefix = type === 'Router' ? (/prefix\s*:\s*['"`]([^'"`]*)/.exec(flatText(node, 300))?.[1] ?? '') : ''
    addScope(file, local, 'koa', type === 'Koa' ? 'app' : 'router', prefix, startLine(node))
  }
  if (type === 'Worker' && file.libraries.has('bull')) addEntryFromArgs(file, node, 'consumer', `queue ${queueName(node)} (BullMQ worker)`)
  if (type === 'CronJob' && file.libraries.has('cron')) addEntryFromArgs(file, node, 'scheduled', `cron ${firstLiteral(node) ?? 'job'}`)
}

function readProcessAccess(file: JsFile, node: SgNode): void {
  const text = node.text()
  const line = startLine(node)
  if (text.startsWith('process.env')) {
    const name = /^process\.env(?:\.([\w$]+)|\[\s*['"`]([^'"`]+)['"`]\s*\])/.exec(text)
    if (name) file.facts.inputs.push({ kind: 'environment', name: name[1] ?? name[2] ?? '', line })
  } else if (/^process\.argv\b/.test(text)) file.facts.inputs.push({ kind: 'argv', name: 'process.argv', line })
  else if (/^process\.stdin\b/.test(text)) file.facts.inputs.push({ kind: 'stdin', name: 'process.stdin', line })
}

function addScope(file: JsFile, name: string, framework: string, kind: 'app' | 'router', prefix: string, line: number): void {
  file.scopeNames.add(name)
  file.facts.scopes.push({ name, framework, kind, prefix, line, guards: [] })
}

/** `const app = express()`, `const router = express.Router()`, `const server = Fastify()`. */
function readScopeFactory(file: JsFile, call: PendingCall): void {
  // `require('fastify')({ logger: true })` creates the app in one expression.
  const origin = /^require\(['"`]([\w@/.-]+)['"`]\)$/.exec(call.callee)?.[1] ?? file.originOf(call.callee)
  if (!origin) return
  const framework = origin === 'express' ? 'express' : origin === 'fastify' ? 'fastify' : /^(?:@koa\/router|koa-router)$/.test(origin) ? 'koa' : null
  if (!framework) return
  const parent = call.node.parent()
  const local = parent?.kind() === 'variable_declarator' ? parent.field('name')?.text() : undefined
  if (!local || !/^[\w$]+$/.test(local)) return
  const isRouter = /Router$/.test(call.callee) || framework === 'koa'
  const prefix = /prefix\s*:\s*['"`]([^'"`]*)/.exec(flatText(call.node, 300))?.[1] ?? ''
  addScope(file, local, framework, isRouter ? 'router' : 'app', prefix, startLine(call.node))
}

/** Text right before a definition that exports it: `export `, `export const `, `export default `. */
const EXPORT_KEYWORD = /\bexport\s+(?:declare\s+)?(?:abstract\s+)?(?:(?:const|let|var)\s+)?$/

/** Definitions exported by name or by an `export` keyword in front of them. */
function markExported(file: JsFile): void {
  const facts = file.facts
  const exported = new Set(facts.exports.filter((entry) => !entry.from).map((entry) => entry.local))
  for (const definition of facts.definitions) {
    if (definition.kind === 'method' || definition.kind === 'handler') continue
    const at = definition.start
    if (!exported.has(definition.simple) && EXPORT_KEYWORD.test(file.text.slice(Math.max(0, at - 40), at))) {
      facts.exports.push({ name: definition.simple, local: definition.simple })
      exported.add(definition.simple)
    }
    if (exported.has(definition.simple)) definition.exported = true
  }
}
