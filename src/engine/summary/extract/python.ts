/**
 * Python facts from one syntax tree: imports (absolute and relative), functions, classes and
 * methods, calls, Flask apps/blueprints and their decorated routes, FastAPI apps/routers with
 * their dependencies, Django `path()`/`include()` URL configurations, DRF routers and
 * permission classes, auth decorators, Celery tasks, CLI parsers, `__main__` blocks,
 * environment reads and ORM models.
 */
import type { NapiConfig, SgNode } from '@ast-grep/napi'
import { libraryForPython } from '../catalog.ts'
import { classifyPythonGuard, drfPermissions } from '../guards.ts'
import type { Binding, FileFacts, GuardRef, HandlerRef } from '../model.ts'
import { callArguments, calleeMethod, calleeRoot, calleesFromSpans, fastRule, flatText, literalString, namedChildren, startLine } from '../syntax.ts'
import { addDefinition, assignAuthHints, assignCallOwners, ExtractedFile, innermostDefinitions } from './common.ts'

const NOISE_CALLEE = new RegExp(
  '^(?:print|len|str|int|float|bool|list|dict|set|tuple|isinstance|issubclass|range|enumerate|zip|sorted|reversed|min|max|sum|any|all|abs|round|repr|type|super|getattr|setattr|hasattr|iter|next|map|filter|id|hash|vars|callable|format|logging\\.\\w+|logger\\.\\w+|log\\.\\w+|self\\.assert\\w*)$' +
  '|\\.(?:append|extend|pop|items|keys|values|copy|strip|lstrip|rstrip|split|rsplit|splitlines|join|replace|lower|upper|title|startswith|endswith|format|encode|decode|debug|info|warning|warn|error|exception|critical|setdefault|sort|discard|isoformat|strftime|strptime|group|groups|search|sub|fullmatch|findall|isdigit|isalpha|hexdigest)$',
)

const SETTINGS = '^(?:MIDDLEWARE|REST_FRAMEWORK|permission_classes|authentication_classes|AUTHENTICATION_BACKENDS|INSTALLED_APPS|ROOT_URLCONF)$'

export const RULE: NapiConfig = fastRule({
  rule: {
    any: [
      { kind: 'import_statement' },
      { kind: 'import_from_statement' },
      { kind: 'function_definition' },
      { kind: 'class_definition' },
      { kind: 'decorator' },
      { kind: 'call' },
      { kind: 'assignment', has: { field: 'left', regex: SETTINGS } },
      { kind: 'subscript', regex: '^os\\.environ\\[' },
      { kind: 'attribute', regex: '^sys\\.(?:argv|stdin)$' },
      { kind: 'if_statement', has: { field: 'condition', regex: '__name__' } },
    ],
  },
})

const ROUTE_DECORATOR = /^([\w.]+)\.(route|get|post|put|patch|delete|head|options|api_route|websocket)$/
const HTTP_DEFAULT: Record<string, string> = { route: 'GET', api_route: 'ANY', websocket: 'WEBSOCKET' }

interface DecoratorInfo {
  callee: string
  text: string
  args: SgNode[]
  line: number
  /** Start offset of the decorated function or class. */
  target: number
  targetNode: SgNode | null
}

class PyFile extends ExtractedFile {
  readonly origins = new Map<string, string>()
  readonly scopeNames = new Set<string>()
  readonly calls: Array<{ node: SgNode; callee: string }> = []
  readonly decorators: DecoratorInfo[] = []
  readonly classAttributes: Array<{ name: string; node: SgNode }> = []

  originOf(name: string): string | undefined {
    return this.origins.get(calleeRoot(name))
  }

  guard(text: string, line: number): GuardRef {
    return { name: text, line, ...classifyPythonGuard(text, this.originOf(text)) }
  }
}

const IMPORT_RULE: NapiConfig = { rule: { any: [{ kind: 'import_statement' }, { kind: 'import_from_statement' }] } }

/** Imports only, for files read beyond the analysis budget. */
export function extractPythonImports(facts: FileFacts, root: SgNode, text: string): void {
  const file = new PyFile(facts, text)
  for (const node of root.findAll(IMPORT_RULE)) readNode(file, node)
}

export function extractPython(facts: FileFacts, root: SgNode, text: string): void {
  const file = new PyFile(facts, text)
  for (const node of root.findAll(RULE)) readNode(file, node)
  resolveCallees(file)
  classifyMethods(facts)
  for (const call of file.calls) readScopeFactory(file, call.node, call.callee)
  for (const call of file.calls) readCall(file, call.node, call.callee)
  for (const decorator of file.decorators) readDecorator(file, decorator)
  for (const attribute of file.classAttributes) readClassAttribute(file, attribute.name, attribute.node)
  readModels(file)
  assignCallOwners(facts)
  assignAuthHints(facts, text)
}

function readNode(file: PyFile, node: SgNode): void {
  switch (node.kind()) {
    case 'import_statement':
      return readImport(file, node)
    case 'import_from_statement':
      return readFromImport(file, node)
    case 'function_definition':
      return readFunction(file, node)
    case 'class_definition':
      return readClass(file, node)
    case 'decorator':
      return readDecoratorNode(file, node)
    case 'call':
      return readCallNode(file, node)
    case 'assignment':
      return readSetting(file, node)
    case 'subscript':
      return readEnvironSubscript(file, node)
    case 'attribute':
      return void file.facts.inputs.push({ kind: node.text() === 'sys.argv' ? 'argv' : 'stdin', name: node.text(), line: startLine(node) })
    case 'if_statement':
      if (/__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__/.test(flatText(node.field('condition') ?? node, 80))) {
        file.facts.entries.push({ kind: 'main', name: "if __name__ == '__main__'", line: startLine(node), handler: -1 })
      }
  }
}

function addImport(file: PyFile, specifier: string, line: number, bindings: Binding[], level: number): void {
  file.facts.imports.push(level > 0 ? { specifier, line, bindings, level } : { specifier, line, bindings })
  for (const binding of bindings) file.origins.set(binding.local, level > 0 ? `${'.'.repeat(level)}${specifier}` : specifier)
  const library = level === 0 ? libraryForPython(specifier) : undefined
  const found = library ? [library] : []
  // `from flask_wtf import csrf` names a submodule the catalog may know on its own.
  for (const binding of bindings) {
    const sub = level === 0 && binding.imported !== '*' ? libraryForPython(`${specifier}.${binding.imported}`) : undefined
    if (sub) found.push(sub)
  }
  for (const item of found) {
    file.libraries.add(item.id)
    file.kinds.add(item.kind)
  }
}

/** `import a.b as c, d` */
function readImport(file: PyFile, node: SgNode): void {
  const body = node.text().replace(/^import\s+/, '')
  for (const part of body.split(',')) {
    const match = /^\s*([\w.]+)(?:\s+as\s+(\w+))?\s*$/.exec(part)
    if (!match?.[1]) continue
    const local = match[2] ?? match[1].split('.')[0] ?? match[1]
    addImport(file, match[1], startLine(node), [{ local, imported: '*' }], 0)
  }
}

/** `from .models import User, Role as R`, `from . import views`, `from x import (a, b)`. */
function readFromImport(file: PyFile, node: SgNode): void {
  const match = /^from\s+(\.*)\s*([\w.]*)\s+import\s+([\s\S]*)$/.exec(node.text())
  if (!match) return
  const level = match[1]?.length ?? 0
  const bindings: Binding[] = []
  for (const part of (match[3] ?? '').replace(/[()\\]/g, ' ').split(',')) {
    const name = /^\s*([\w*]+)(?:\s+as\s+(\w+))?\s*$/.exec(part.replace(/#.*$/, ''))
    if (name?.[1] && name[1] !== '*') bindings.push({ local: name[2] ?? name[1], imported: name[1] })
  }
  addImport(file, match[2] ?? '', startLine(node), bindings, level)
}

function readFunction(file: PyFile, node: SgNode): void {
  const range = node.range()
  const name = /^(?:async\s+)?def\s+(\w+)/.exec(file.head(range, 200))?.[1] ?? node.field('name')?.text() ?? 'anonymous'
  addDefinition(file.facts, node, { name, kind: 'function' }, range)
}

/** `class Name(Base, Mixin):`, read from the header text. */
function readClass(file: PyFile, node: SgNode): void {
  const range = node.range()
  const header = /^class\s+(\w+)\s*(?:\(([^)]*)\))?/.exec(file.head(range, 1000))
  const name = header?.[1] ?? node.field('name')?.text() ?? 'anonymous'
  const bases = (header?.[2] ?? '')
    .split(',')
    .map((base) => base.trim())
    .filter((base) => base !== '' && !base.includes('='))
  addDefinition(file.facts, node, { name, kind: 'class', bases }, range)
  file.facts.typeNames.push(name)
}

/** Functions directly inside a class body are its methods. */
function classifyMethods(facts: FileFacts): void {
  const definitions = facts.definitions
  const parents = innermostDefinitions(
    definitions,
    definitions.map((definition) => definition.start - 1),
  )
  definitions.forEach((definition, index) => {
    const parent = definitions[parents[index] ?? -1]
    if (definition.kind !== 'function' || !parent || parent.kind !== 'class' || parent.end < definition.end) return
    definition.kind = 'method'
    definition.owner = parent.simple
    definition.name = `${parent.simple}.${definition.simple}`
  })
}

function readDecoratorNode(file: PyFile, node: SgNode): void {
  const expression = namedChildren(node)[0]
  const decorated = node.parent()
  const target = decorated?.kind() === 'decorated_definition' ? decorated.field('definition') : null
  if (!expression || !target) return
  const isCall = expression.kind() === 'call'
  file.decorators.push({
    callee: flatText(isCall ? (expression.field('function') ?? expression) : expression, 120),
    text: flatText(expression, 160),
    args: isCall ? callArguments(expression) : [],
    line: startLine(node),
    target: target.range().start.index,
    targetNode: target,
  })
}

function readCallNode(file: PyFile, node: SgNode): void {
  const range = node.range()
  file.rawCalls.push({ node, start: range.start.index, end: range.end.index, line: range.start.line + 1 })
}

/** Callee texts sliced from the source, asking the tree only for unusual callees. */
function resolveCallees(file: PyFile): void {
  const callees = calleesFromSpans(file.text, file.rawCalls)
  file.rawCalls.forEach((call, index) => {
    let callee = callees[index] ?? null
    if (callee === null) {
      const calleeNode = call.node.field('function')
      if (!calleeNode) return
      callee = flatText(calleeNode, 200)
    }
    if (NOISE_CALLEE.test(callee)) return
    file.calls.push({ node: call.node, callee })
    file.facts.calls.push({ callee, line: call.line, start: call.start, owner: -1 })
  })
}

function readSetting(file: PyFile, node: SgNode): void {
  const name = node.field('left')?.text() ?? ''
  const right = node.field('right')
  if (!right) return
  if (name === 'permission_classes' || name === 'authentication_classes') return void file.classAttributes.push({ name, node })
  const value = flatText(right, 2000)
  const strings = [...value.matchAll(/['"]([\w.]+)['"]/g)].map((match) => match[1] ?? '')
  file.facts.signals.push({ signal: `django-setting:${name}`, line: startLine(node), detail: name === 'REST_FRAMEWORK' ? value.slice(0, 600) : strings.join(',') })
}

function readEnvironSubscript(file: PyFile, node: SgNode): void {
  const name = /^os\.environ\[\s*['"]([^'"]+)['"]/.exec(node.text())?.[1]
  if (name) file.facts.inputs.push({ kind: 'environment', name, line: startLine(node) })
}

function keywordArguments(args: readonly SgNode[]): Map<string, SgNode> {
  const keywords = new Map<string, SgNode>()
  for (const arg of args) {
    if (arg.kind() !== 'keyword_argument') continue
    const name = arg.field('name')?.text()
    const value = arg.field('value')
    if (name && value) keywords.set(name, value)
  }
  return keywords
}

function positional(args: readonly SgNode[]): SgNode[] {
  return args.filter((arg) => arg.kind() !== 'keyword_argument')
}

/** `Depends(get_user)` items of a `dependencies=[...]` list, as guards. */
function dependencyGuards(file: PyFile, list: SgNode | undefined): GuardRef[] {
  if (!list) return []
  return namedChildren(list).map((item) => {
    const inner = /^(?:Depends|Security)\(\s*([\w.]+)/.exec(item.text())?.[1] ?? flatText(item, 80)
    return file.guard(inner, startLine(item))
  })
}

/** `app = Flask(__name__)`, `bp = Blueprint(...)`, `router = APIRouter(prefix=...)`, `app = FastAPI()`. */
function readScopeFactory(file: PyFile, node: SgNode, callee: string): void {
  const kind = /^(?:flask\.)?(Flask|Blueprint)$|^(?:fastapi\.)?(FastAPI|APIRouter)$|^(?:routers\.)?(DefaultRouter|SimpleRouter)$/.exec(callee)
  if (!kind) return
  const parent = node.parent()
  const local = parent?.kind() === 'assignment' ? parent.field('left')?.text() : undefined
  if (!local || !/^\w+$/.test(local)) return
  const args = callArguments(node)
  const keywords = keywordArguments(args)
  const framework = kind[1] ? 'flask' : kind[2] ? 'fastapi' : 'django'
  const prefix = literalString(keywords.get('url_prefix') ?? keywords.get('prefix')) ?? ''
  file.scopeNames.add(local)
  file.facts.scopes.push({
    name: local,
    framework,
    kind: kind[1] === 'Flask' || kind[2] === 'FastAPI' ? 'app' : 'router',
    prefix,
    line: startLine(node),
    guards: dependencyGuards(file, keywords.get('dependencies')),
  })
}

function readCall(file: PyFile, node: SgNode, callee: string): void {
  const method = calleeMethod(callee)
  const receiver = callee.includes('.') ? callee.slice(0, callee.length - method.length - 1) : ''
  if (method === 'register_blueprint' || method === 'include_router' || method === 'mount') return readMount(file, node, receiver, method)
  if (method === 'add_url_rule') return readUrlRule(file, node, receiver)
  if (/^(?:path|re_path|url)$/.test(callee) && file.libraries.has('django')) return readDjangoPath(file, node)
  if (method === 'register' && file.scopeNames.has(receiver)) return readDrfRegister(file, node, receiver)
  readEnvironmentCall(file, node, callee)
  readEntryCall(file, node, callee, method)
}

function readMount(file: PyFile, node: SgNode, receiver: string, method: string): void {
  const args = callArguments(node)
  const keywords = keywordArguments(args)
  const rest = positional(args)
  const target = method === 'mount' ? rest[1] : rest[0]
  if (!target) return
  const prefix = method === 'mount' ? (literalString(rest[0]) ?? '') : (literalString(keywords.get('url_prefix') ?? keywords.get('prefix')) ?? '')
  file.facts.mounts.push({
    scope: receiver,
    prefix,
    targets: [flatText(target, 120)],
    guards: dependencyGuards(file, keywords.get('dependencies')),
    line: startLine(node),
    order: node.range().start.index,
  })
}

/** Flask `app.add_url_rule('/x', view_func=show, methods=['POST'])`. */
function readUrlRule(file: PyFile, node: SgNode, receiver: string): void {
  const args = callArguments(node)
  const keywords = keywordArguments(args)
  const rest = positional(args)
  const path = literalString(rest[0])
  const view = keywords.get('view_func') ?? rest[2]
  if (path === null || !view) return
  for (const method of methodList(keywords.get('methods'), 'GET')) {
    file.facts.routes.push({ framework: 'flask', method, path, line: startLine(node), scope: receiver, order: node.range().start.index, handler: viewRef(view), guards: [] })
  }
}

function methodList(node: SgNode | undefined, fallback: string): string[] {
  if (!node) return [fallback]
  const methods = namedChildren(node)
    .map((item) => literalString(item)?.toUpperCase())
    .filter((method): method is string => Boolean(method))
  return methods.length > 0 ? methods : [fallback]
}

/** A view given by reference: `views.detail`, `UserView.as_view()`, `login_required(views.x)`. */
function viewRef(node: SgNode): HandlerRef {
  const text = flatText(node, 160)
  const asView = /^([\w.]+)\.as_view\(/.exec(text)
  if (asView?.[1]) return { kind: 'reference', name: asView[1] }
  const wrapped = /^[\w.]+\(\s*([\w.]+)\s*\)$/.exec(text)
  if (wrapped?.[1]) return { kind: 'reference', name: wrapped[1] }
  return /^[\w.]+$/.test(text) ? { kind: 'reference', name: text } : { kind: 'none' }
}

/** Django `path('users/<int:pk>/', views.detail)`, `path('api/', include('api.urls'))`. */
function readDjangoPath(file: PyFile, node: SgNode): void {
  const rest = positional(callArguments(node))
  const route = literalString(rest[0])
  const view = rest[1]
  if (route === null || !view) return
  const viewText = flatText(view, 200)
  const order = node.range().start.index
  const include = /^include\(\s*(?:\(\s*)?(?:['"]([\w.]+)['"]|([\w.]+)\.urls)/.exec(viewText)
  if (include) {
    const mount = { scope: '<urls>', prefix: route, targets: include[2] ? [include[2]] : [], guards: [], line: startLine(node), order }
    file.facts.mounts.push(include[1] ? { ...mount, module: include[1] } : mount)
    return
  }
  if (/^admin\.site\.urls$/.test(viewText)) {
    file.facts.routes.push({ framework: 'django', method: 'ANY', path: route, line: startLine(node), scope: '<urls>', order, handler: { kind: 'none' }, guards: [{ name: 'Django admin site', line: startLine(node), auth: true, mechanism: 'Django admin (staff login)' }] })
    return
  }
  const guards = /^login_required\(/.test(viewText) ? [file.guard('login_required', startLine(node))] : []
  file.facts.routes.push({ framework: 'django', method: 'ANY', path: route, line: startLine(node), scope: '<urls>', order, handler: viewRef(view), guards })
}

/** DRF `router.register(r'users', UserViewSet)`: list/detail routes of a viewset. */
function readDrfRegister(file: PyFile, node: SgNode, receiver: string): void {
  const rest = positional(callArguments(node))
  const prefix = literalString(rest[0])
  const viewset = rest[1]
  if (prefix === null || !viewset) return
  const base = prefix.replace(/^\^|\$$/g, '').replace(/\/+$/, '')
  for (const path of [`${base}/`, `${base}/<pk>/`]) {
    file.facts.routes.push({ framework: 'django', method: 'ANY', path, line: startLine(node), scope: receiver, order: node.range().start.index, handler: viewRef(viewset), guards: [] })
  }
}

function readEnvironmentCall(file: PyFile, node: SgNode, callee: string): void {
  const isEnvironment = /^(?:os\.getenv|os\.environ\.get|getenv|environ\.get|os\.environ\.setdefault)$/.test(callee) || (/^(?:config|env)$/.test(callee) && file.kinds.has('secrets-config'))
  if (!isEnvironment) return
  const name = literalString(callArguments(node)[0])
  if (name) file.facts.inputs.push({ kind: 'environment', name, line: startLine(node) })
}

function readEntryCall(file: PyFile, node: SgNode, callee: string, method: string): void {
  const line = startLine(node)
  if (/^(?:argparse\.)?ArgumentParser$/.test(callee) && (file.originOf(callee) ?? '').startsWith('argparse')) {
    file.facts.entries.push({ kind: 'cli', name: 'argparse command line', line, handler: -1 })
  } else if (callee === 'input') file.facts.inputs.push({ kind: 'stdin', name: 'input()', line })
  else if (/^(?:kafka\.)?KafkaConsumer$/.test(callee)) {
    file.facts.entries.push({ kind: 'consumer', name: `Kafka topic ${literalString(callArguments(node)[0]) ?? ''}`.trim(), line, handler: -1 })
  } else if (method === 'basic_consume' && file.libraries.has('amqp')) {
    const keywords = keywordArguments(callArguments(node))
    const queue = literalString(keywords.get('queue')) ?? ''
    const callback = keywords.get('on_message_callback')
    file.facts.entries.push({ kind: 'consumer', name: `queue ${queue} (AMQP)`.trim(), line, handler: -1, ...(callback ? { handlerRef: flatText(callback, 80) } : {}) })
  }
}

function definitionAt(facts: FileFacts, start: number): number {
  return facts.definitions.findIndex((definition) => definition.start === start)
}

/** Route, guard, task and CLI decorators on a function or class. */
function readDecorator(file: PyFile, decorator: DecoratorInfo): void {
  const facts = file.facts
  const index = definitionAt(facts, decorator.target)
  if (index === -1) return
  const definition = facts.definitions[index]
  const route = ROUTE_DECORATOR.exec(decorator.callee)
  if (route?.[1] && route[2] && decorator.args.length > 0) return readRouteDecorator(file, decorator, index, route[1], route[2])
  if (/^(?:[\w.]+\.)?(?:before_request|before_app_request)$/.test(decorator.callee)) {
    const scope = decorator.callee.replace(/\.before_(?:app_)?request$/, '')
    // Flask runs before_request hooks for every request of the scope, wherever they are declared.
    facts.mounts.push({ scope, prefix: '', targets: [], guards: [{ name: definition?.simple ?? 'before_request', line: decorator.line, definition: index }], line: decorator.line, order: -1 })
    return
  }
  if (/^(?:[\w.]+\.)?task$|^shared_task$/.test(decorator.callee) && (file.libraries.has('celery') || decorator.callee.includes('.'))) {
    facts.entries.push({ kind: 'consumer', name: `Celery task ${definition?.simple ?? ''}`.trim(), line: decorator.line, handler: index })
    return
  }
  if (/^(?:click|[\w]+)\.(?:command|group)$/.test(decorator.callee) && (file.kinds.has('cli') || decorator.callee.startsWith('click.'))) {
    facts.entries.push({ kind: 'cli', name: `command ${definition?.simple ?? ''}`.trim(), line: decorator.line, handler: index })
    return
  }
  if (/^(?:[\w.]+\.)?(?:scheduled_job|periodic_task)$/.test(decorator.callee)) {
    facts.entries.push({ kind: 'scheduled', name: `scheduled ${definition?.simple ?? ''}`.trim(), line: decorator.line, handler: index })
    return
  }
  // Any other decorator may guard the function wherever it ends up routed (Django views).
  const guards = (facts.definitionGuards[index] ??= [])
  guards.push(file.guard(decorator.text, decorator.line))
}

function readRouteDecorator(file: PyFile, decorator: DecoratorInfo, index: number, scope: string, verb: string): void {
  const keywords = keywordArguments(decorator.args)
  const path = literalString(positional(decorator.args)[0] ?? keywords.get('path') ?? keywords.get('rule'))
  if (path === null) return
  const framework = file.facts.scopes.find((candidate) => candidate.name === scope)?.framework ?? (file.libraries.has('fastapi') ? 'fastapi' : 'flask')
  const fallback = HTTP_DEFAULT[verb] ?? verb.toUpperCase()
  const methods = keywords.has('methods') ? methodList(keywords.get('methods'), fallback) : [fallback]
  const guards = [...dependencyGuards(file, keywords.get('dependencies')), ...decoratorGuards(file, decorator.target), ...parameterDependencies(file, decorator.targetNode)]
  for (const method of methods) {
    file.facts.routes.push({ framework, method, path, line: decorator.line, scope, order: decorator.target, handler: { kind: 'definition', index }, guards })
  }
}

/** The other decorators on the same function: `@login_required`, `@jwt_required()`, `@permission_classes(...)`. */
function decoratorGuards(file: PyFile, target: number): GuardRef[] {
  return file.decorators
    .filter((other) => other.target === target && !ROUTE_DECORATOR.test(other.callee))
    .map((other) => file.guard(other.text, other.line))
}

/** FastAPI parameters with `Depends(...)`/`Security(...)` defaults. */
function parameterDependencies(file: PyFile, definition: SgNode | null): GuardRef[] {
  const parameters = definition?.field('parameters')
  if (!parameters || !/\b(?:Depends|Security)\(/.test(parameters.text())) return []
  return parameters.findAll({ rule: { kind: 'call', regex: '^(?:Depends|Security)\\s*\\(' } }).map((call) => {
    const inner = /^(?:Depends|Security)\(\s*([\w.]+)/.exec(call.text())?.[1] ?? flatText(call, 80)
    return file.guard(inner, startLine(call))
  })
}

/** `permission_classes = [IsAuthenticated]` on a class-based view. */
function readClassAttribute(file: PyFile, name: string, node: SgNode): void {
  const start = node.range().start.index
  const owner = file.facts.definitions
    .filter((definition) => definition.kind === 'class' && definition.start < start && definition.end > start)
    .sort((a, b) => b.start - a.start)[0]
  if (!owner) return
  const list = flatText(node.field('right') ?? node, 300).replace(/^[[(]|[\])]$/g, '')
  const verdict = name === 'permission_classes' ? drfPermissions(list) : {}
  const guards = (file.facts.classGuards[owner.simple] ??= [])
  guards.push({ name: `${name} = [${list}]`, line: startLine(node), ...verdict })
}

const MODEL_BASES: Array<[RegExp, string]> = [
  [/^(?:db\.)?Model$/, 'SQLAlchemy'],
  [/^(?:models\.)?Model$/, 'Django ORM'],
  [/^(?:Base|DeclarativeBase)$/, 'SQLAlchemy'],
  [/^SQLModel$/, 'SQLModel'],
  [/^(?:Document|DynamicDocument)$/, 'MongoEngine'],
]

function readModels(file: PyFile): void {
  const hasOrm = file.libraries.has('sqlalchemy') || file.libraries.has('django-orm') || file.libraries.has('django') || file.libraries.has('peewee')
  for (const definition of file.facts.definitions) {
    if (definition.kind !== 'class' || !definition.bases) continue
    for (const base of definition.bases) {
      const orm = MODEL_BASES.find(([pattern]) => pattern.test(base))
      if (!orm || (!hasOrm && base !== 'db.Model' && base !== 'models.Model')) continue
      const label = base === 'models.Model' || (file.libraries.has('django-orm') && base === 'Model') ? 'Django ORM' : orm[1]
      file.facts.models.push({ name: definition.simple, orm: label, line: definition.line })
      break
    }
    const mixins = definition.bases.filter((base) => /(?:LoginRequired|PermissionRequired|UserPassesTest|StaffRequired)Mixin$/.test(base))
    if (mixins.length > 0) {
      const guards = (file.facts.classGuards[definition.simple] ??= [])
      guards.push({ name: mixins.join(', '), line: definition.line, auth: true, mechanism: 'Django auth mixin' })
    }
  }
}
