/**
 * JavaScript/TypeScript calls that declare the application's surface: Express/Koa/Fastify
 * routes (`router.get`, `app.route().post`, Fastify route objects and options), `use` chains
 * and plugins (mounts and scope-wide middleware), modules handed a router, GraphQL middleware,
 * message consumers, schedulers, WebSocket servers, command-line parsers and ORM models.
 */
import type { SgNode } from '@ast-grep/napi'
import type { GuardRef, HandlerRef } from '../model.ts'
import { callArguments, calleeMethod, calleeRoot, flatText, literalString, namedChildren, startLine } from '../syntax.ts'
import { addDefinition } from './common.ts'
import { FUNCTION_KINDS, firstLiteral, queueName } from './js-file.ts'
import type { JsFile, PendingCall } from './js-file.ts'

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'head', 'options', 'all'])

/** `axios.get('/x', ...)` is a request, not a route: receivers imported from HTTP clients. */
const HTTP_CLIENT_ORIGINS = /^(?:axios|got|superagent|supertest|request|needle|node-fetch|ky|undici|node:https?|https?)$/

/** Routes, mounts, hooks and entry points declared by one call. */
export function readCall(file: JsFile, call: PendingCall): void {
  const { callee } = call
  const method = calleeMethod(callee)
  if (call.calleeKind === 'member_expression') {
    const receiver = callee.slice(0, callee.length - method.length - 1)
    if (HTTP_METHODS.has(method)) return readRoute(file, call, receiver, method)
    if (method === 'use') return readUse(file, call, receiver)
    if (method === 'route') return readFastifyRoute(file, call, receiver)
    if (method === 'register') return readRegister(file, call, receiver)
    if (method === 'addHook') return readHook(file, call, receiver)
    if (method === 'useGlobalGuards') return void file.facts.globalGuards.push(...callArguments(call.node).map((arg) => file.guard(arg)))
    if (method === 'setGlobalPrefix') file.facts.globalPrefix = normalizePrefix(firstLiteral(call.node) ?? '')
  }
  readEntryCall(file, call, method)
  readScopePass(file, call)
  readModelCall(file, call, method)
}

function normalizePrefix(prefix: string): string {
  if (prefix === '' || prefix === '/') return ''
  return `/${prefix.replace(/^\/+|\/+$/g, '')}`
}

function isReceiverAScope(file: JsFile, receiver: string): boolean {
  if (file.scopeNames.has(receiver)) return true
  const origin = file.originOf(receiver)
  // Undeclared receivers are routers handed in as parameters (`module.exports = (app) => ...`).
  return origin === undefined && /^(?:this\.)?[\w$]+$/.test(receiver)
}

/** `router.get('/x', auth, handler)`, `app.route('/x').post(...)`, Fastify `app.get('/x', { preHandler }, h)`. */
function readRoute(file: JsFile, call: PendingCall, receiver: string, method: string): void {
  let scope = receiver
  let path: string | null = null
  const chained = /^([\w$.]+)\.route\(\s*['"`]([^'"`]*)['"`]\s*\)(?:\.\w+\([^()]*\))*$/.exec(receiver)
  if (chained?.[1]) {
    scope = chained[1]
    path = chained[2] ?? ''
  }
  if (HTTP_CLIENT_ORIGINS.test(file.originOf(scope) ?? '') || !isReceiverAScope(file, scope)) return
  let args = flattenArrays(callArguments(call.node))
  if (path === null) {
    path = literalString(args[0])
    // Koa routers accept a route name before the path.
    if (path !== null && !path.startsWith('/') && literalString(args[1])?.startsWith('/')) {
      path = literalString(args[1])
      args = args.slice(1)
    }
    if (path === null || !(path.startsWith('/') || path === '*' || path === '')) return
    args = args.slice(1)
  }
  const handlerNode = args[args.length - 1]
  if (!handlerNode || !isHandlerLike(handlerNode)) return
  const guards: GuardRef[] = []
  for (const arg of args.slice(0, -1)) {
    if (arg.kind() === 'object') guards.push(...fastifyOptionGuards(file, arg))
    else guards.push(file.guard(arg))
  }
  const upper = method === 'del' ? 'DELETE' : method.toUpperCase()
  const framework = frameworkOfScope(file, scope)
  file.facts.routes.push({
    framework,
    method: upper === 'ALL' ? 'ANY' : upper,
    path,
    line: startLine(call.node),
    scope,
    order: call.node.range().start.index,
    handler: handlerRef(file, handlerNode, `${upper} ${path}`),
    guards,
  })
}

function frameworkOfScope(file: JsFile, scope: string): string {
  const declared = file.facts.scopes.find((candidate) => candidate.name === scope)
  if (declared) return declared.framework
  for (const id of ['fastify', 'koa', 'express']) if (file.libraries.has(id)) return id
  // A router handed in as a parameter: the framework is the one of whoever mounts this module.
  return ''
}

function flattenArrays(args: SgNode[]): SgNode[] {
  return args.flatMap((arg) => (arg.kind() === 'array' ? namedChildren(arg) : [arg]))
}

function isHandlerLike(node: SgNode): boolean {
  const kind = String(node.kind())
  return FUNCTION_KINDS.has(kind) || kind === 'identifier' || kind === 'member_expression' || kind === 'call_expression'
}

/** The handler argument: an inline function (a new definition), a reference, or a wrapper around either. */
function handlerRef(file: JsFile, node: SgNode, label: string): HandlerRef {
  const kind = String(node.kind())
  if (FUNCTION_KINDS.has(kind)) return { kind: 'definition', index: addDefinition(file.facts, node, { name: `${label} handler`, simple: 'handler', kind: 'handler' }) }
  if (kind === 'identifier' || kind === 'member_expression') return { kind: 'reference', name: flatText(node, 120) }
  if (kind === 'call_expression') {
    // asyncHandler(fn), catchAsync(async (req, res) => ...), controller.bind(...)
    const inner = callArguments(node)
    const last = inner[inner.length - 1]
    if (last && (FUNCTION_KINDS.has(String(last.kind())) || String(last.kind()) === 'identifier' || String(last.kind()) === 'member_expression')) return handlerRef(file, last, label)
    const callee = node.field('function')
    return callee ? { kind: 'reference', name: flatText(callee, 120) } : { kind: 'none' }
  }
  return { kind: 'none' }
}

/** Fastify route options: `{ preHandler: [app.auth], onRequest: verify, schema }`. */
function fastifyOptionGuards(file: JsFile, options: SgNode): GuardRef[] {
  const guards: GuardRef[] = []
  for (const pair of namedChildren(options)) {
    if (pair.kind() !== 'pair') continue
    const key = pair.field('key')?.text() ?? ''
    if (!/^(?:preHandler|onRequest|preValidation|preParsing|beforeHandler)$/.test(key)) continue
    const value = pair.field('value')
    if (value) for (const item of flattenArrays([value])) guards.push(file.guard(item))
  }
  return guards
}

const GRAPHQL_MIDDLEWARE = /^(?:expressMiddleware|graphqlHTTP|createHandler|createYoga|graphqlExpress|koaMiddleware)\s*\(/

/** `app.use([path,] ...middlewareOrRouters)`: mounts and scope-wide middleware. */
function readUse(file: JsFile, call: PendingCall, receiver: string): void {
  if (!isReceiverAScope(file, receiver)) return
  let args = callArguments(call.node)
  let prefix = ''
  const first = args[0]
  const literal = first ? (literalString(first) ?? (first.kind() === 'array' ? literalString(namedChildren(first)[0]) : null)) : null
  if (literal !== null) {
    prefix = literal
    args = args.slice(1)
  }
  const items = flattenArrays(args)
  const targets: string[] = []
  const guards: GuardRef[] = []
  for (const item of items) {
    const text = flatText(item, 120)
    if (/\.allowedMethods\(\)$/.test(text)) continue
    if (GRAPHQL_MIDDLEWARE.test(text)) {
      // A GraphQL server mounted as middleware is an endpoint of its own.
      const path = prefix || '/graphql'
      file.facts.routes.push({ framework: 'graphql', method: 'ANY', path, line: startLine(item), scope: receiver, order: call.node.range().start.index, handler: { kind: 'none' }, guards: [...guards] })
      continue
    }
    targets.push(text.replace(/\.routes\(\)$/, '').replace(/\.middleware\(\)$/, ''))
    guards.push(file.guard(item))
  }
  file.facts.mounts.push({ scope: receiver, prefix, targets, guards, line: startLine(call.node), order: call.node.range().start.index })
}

/** Fastify `app.route({ method, url, preHandler, handler })`. */
function readFastifyRoute(file: JsFile, call: PendingCall, receiver: string): void {
  const options = callArguments(call.node)[0]
  if (!options || options.kind() !== 'object' || !isReceiverAScope(file, receiver)) return
  const values = new Map<string, SgNode>()
  for (const pair of namedChildren(options)) {
    const key = pair.kind() === 'pair' ? pair.field('key')?.text() : undefined
    const value = pair.field('value')
    if (key && value) values.set(key, value)
  }
  const url = literalString(values.get('url') ?? values.get('path'))
  const handler = values.get('handler')
  if (url === null || !handler) return
  const methodNode = values.get('method')
  const methods = methodNode ? (methodNode.kind() === 'array' ? namedChildren(methodNode) : [methodNode]).map((node) => literalString(node)?.toUpperCase() ?? 'ANY') : ['ANY']
  const guards = fastifyOptionGuards(file, options)
  const ref = handlerRef(file, handler, `${methods.join('|')} ${url}`)
  for (const method of methods) {
    file.facts.routes.push({ framework: 'fastify', method, path: url, line: startLine(call.node), scope: receiver, order: call.node.range().start.index, handler: ref, guards })
  }
}

/** Fastify `app.register(plugin, { prefix: '/x' })`. */
function readRegister(file: JsFile, call: PendingCall, receiver: string): void {
  const args = callArguments(call.node)
  const plugin = args[0]
  if (!plugin || !isReceiverAScope(file, receiver)) return
  const origin = file.originOf(flatText(plugin, 80))
  // Registering a library plugin (`@fastify/helmet`) applies a control, not routes.
  if (origin && !origin.startsWith('.')) {
    file.facts.mounts.push({ scope: receiver, prefix: '', targets: [], guards: [file.guard(plugin)], line: startLine(call.node), order: call.node.range().start.index })
    return
  }
  const prefix = /prefix\s*:\s*['"`]([^'"`]*)/.exec(args[1] ? flatText(args[1], 300) : '')?.[1] ?? ''
  file.facts.mounts.push({ scope: receiver, prefix, targets: [flatText(plugin, 120)], guards: [], line: startLine(call.node), order: call.node.range().start.index })
}

/** Fastify `app.addHook('onRequest', app.authenticate)`: a guard for every later route on the scope. */
function readHook(file: JsFile, call: PendingCall, receiver: string): void {
  const [hook, fn] = callArguments(call.node)
  const name = literalString(hook)
  if (!fn || !name || !/^(?:onRequest|preHandler|preValidation|preParsing)$/.test(name) || !isReceiverAScope(file, receiver)) return
  file.facts.mounts.push({ scope: receiver, prefix: '', targets: [], guards: [file.guard(fn)], line: startLine(call.node), order: call.node.range().start.index })
}

/** `require('./routes')(app)`, `registerRoutes(router)`: a module attaching routes to a scope it is given. */
function readScopePass(file: JsFile, call: PendingCall): void {
  if (file.scopeNames.size === 0) return
  const args = callArguments(call.node)
  const scopeArg = args.find((arg) => arg.kind() === 'identifier' && file.scopeNames.has(arg.text()))
  if (!scopeArg) return
  const target = call.callee
  if (/^(?:[\w$]+\.)?(?:use|listen|register|route|get|post|put|patch|delete)$/.test(target)) return
  file.facts.mounts.push({ scope: scopeArg.text(), prefix: '', targets: [target], guards: [], line: startLine(call.node), order: call.node.range().start.index })
}

export function addEntryFromArgs(file: JsFile, node: SgNode, kind: 'consumer' | 'scheduled' | 'websocket' | 'cli', name: string): void {
  const args = callArguments(node)
  const fn = [...args].reverse().find((arg) => FUNCTION_KINDS.has(String(arg.kind())) || String(arg.kind()) === 'identifier' || String(arg.kind()) === 'member_expression' || String(arg.kind()) === 'object')
  let handler = -1
  let handlerRefName: string | undefined
  if (fn && FUNCTION_KINDS.has(String(fn.kind()))) handler = addDefinition(file.facts, fn, { name: `${name} handler`, simple: 'handler', kind: 'handler' })
  else if (fn && fn.kind() === 'object') {
    const member = namedChildren(fn).find((pair) => String(pair.kind()) === 'pair' && FUNCTION_KINDS.has(String(pair.field('value')?.kind() ?? '')))
    const value = member?.field('value')
    if (value) handler = addDefinition(file.facts, value, { name: `${name} ${member?.field('key')?.text() ?? 'handler'}`, simple: 'handler', kind: 'handler' })
  } else if (fn) handlerRefName = flatText(fn, 100)
  file.facts.entries.push({ kind, name, line: startLine(node), handler, ...(handlerRefName ? { handlerRef: handlerRefName } : {}) })
}

/** Message consumers, schedulers, WebSocket servers and command-line parsers. */
function readEntryCall(file: JsFile, call: PendingCall, method: string): void {
  const libs = file.libraries
  const node = call.node
  if (method === 'process' && libs.has('bull')) return addEntryFromArgs(file, node, 'consumer', `queue ${calleeRoot(call.callee)} (Bull)`)
  if (method === 'consume' && libs.has('amqp')) return addEntryFromArgs(file, node, 'consumer', `queue ${queueName(node)} (AMQP)`)
  if (method === 'run' && libs.has('kafka')) return addEntryFromArgs(file, node, 'consumer', 'Kafka consumer')
  if (method === 'on') {
    const event = firstLiteral(node)
    if (event === 'connection' && libs.has('ws')) return addEntryFromArgs(file, node, 'websocket', 'WebSocket connections')
    if (event === 'message' && (libs.has('redis') || libs.has('nats') || libs.has('amqp') || libs.has('sqs'))) return addEntryFromArgs(file, node, 'consumer', 'message subscriber')
  }
  if ((method === 'schedule' || method === 'scheduleJob' || method === 'define') && libs.has('cron')) {
    return addEntryFromArgs(file, node, 'scheduled', `${method === 'define' ? 'job' : 'cron'} ${firstLiteral(node) ?? ''}`.trim())
  }
  if (file.kinds.has('cli') && (method === 'command' || method === 'parse' || method === 'parseAsync' || /^yargs\b|^minimist\b|^meow\b|^cac\b/.test(call.callee))) {
    if (!file.facts.entries.some((entry) => entry.kind === 'cli')) file.facts.entries.push({ kind: 'cli', name: 'command-line parser', line: startLine(node), handler: -1 })
  }
}

/** `sequelize.define('User', ...)`, `mongoose.model('User', schema)`. */
function readModelCall(file: JsFile, call: PendingCall, method: string): void {
  if (method === 'define' && file.libraries.has('sequelize')) {
    const name = firstLiteral(call.node)
    if (name) file.facts.models.push({ name, orm: 'Sequelize', line: startLine(call.node) })
  } else if (method === 'model' && file.libraries.has('mongoose')) {
    const name = firstLiteral(call.node)
    if (name) file.facts.models.push({ name, orm: 'Mongoose', line: startLine(call.node) })
  }
}
