/**
 * HTTP routes of the whole repository with their full paths and whether callers must
 * authenticate. Route declarations hang off scopes (apps, routers, blueprints, controllers,
 * URL configurations); mounts attach scopes under prefixes, possibly across files
 * (`app.use('/api', auth, usersRouter)`, `register_blueprint`, `include_router`,
 * `include('api.urls')`). Walking mounts from the root scopes gives each route its prefix
 * and the guards it inherits; framework-wide rules (NestJS global guards, Spring Security
 * path rules, DRF defaults, Next.js middleware) are applied last.
 */
import { GuardEvaluator } from './guard-eval.ts'
import type { PlacedGuard } from './guard-eval.ts'
import { drfPermissions } from './guards.ts'
import type { FileFacts, GuardRef, MountDecl, RouteDecl } from './model.ts'
import type { Program, Target } from './program.ts'
import { sortByKeys, uniqueSorted } from './text.ts'

export interface RouteInfo {
  method: string
  path: string
  framework: string
  file: string
  line: number
  handler: { name: string; file: string; line: number } | null
  /** Internal: where the handler's code is, for call chains. */
  target: { file: string; index: number } | null
  auth: boolean
  /** Guards that authenticate this route, with their mechanism and location. */
  authBy: string[]
  /** Explicitly opened (`@Public()`, `permitAll`, `AllowAny`). */
  public: boolean
}

interface Scope {
  id: string
  file: string
  name: string
  prefix: string
  framework: string
  guards: PlacedGuard[]
}

interface Edge {
  parent: string
  child: string
  prefix: string
  guards: PlacedGuard[]
  order: number
}

interface UseGuard {
  scope: string
  prefix: string
  guards: PlacedGuard[]
  order: number
}

interface Context {
  prefix: string
  guards: PlacedGuard[]
  /** Framework of the nearest scope that declares one. */
  framework: string
}

const MAX_DEPTH = 12
const MAX_CONTEXTS = 6
const ORDER_FREE = new Set(['flask', 'fastapi', 'django', 'nestjs', 'spring', 'jax-rs', 'servlet'])

export function joinPaths(...parts: string[]): string {
  const cleaned = parts.map((part) => part.replace(/^\^|\$$/g, '')).filter((part) => part !== '')
  const joined = `/${cleaned.join('/')}`.replace(/\/{2,}/g, '/')
  // A trailing slash is kept only where the last part asks for it (Django's `users/`), not for a bare `/`.
  const last = cleaned[cleaned.length - 1]
  const keepSlash = last !== undefined && last !== '/' && last.endsWith('/')
  return joined.length > 1 && !keepSlash ? joined.replace(/\/$/, '') : joined
}

export class RouteAssembler {
  private readonly scopes = new Map<string, Scope>()
  private readonly edges: Edge[] = []
  private readonly uses: UseGuard[] = []
  private readonly evaluator: GuardEvaluator

  constructor(private readonly program: Program) {
    this.evaluator = new GuardEvaluator(program)
  }

  private scopeId(file: string, name: string): string {
    const facts = this.program.files.get(file)
    if (facts?.scopes.some((scope) => scope.name === name)) return `${file}#${name}`
    const target = /^[\w$.]+$/.test(name) ? this.program.resolveReference(file, name) : undefined
    if (target?.kind === 'scope') return `${target.file}#${target.name}`
    return `${file}#${name}`
  }

  private ensureScope(id: string, file: string, name: string): Scope {
    let scope = this.scopes.get(id)
    if (!scope) {
      const declared = this.program.files.get(file)?.scopes.find((candidate) => candidate.name === name)
      scope = { id, file, name, prefix: declared?.prefix ?? '', framework: declared?.framework ?? '', guards: (declared?.guards ?? []).map((guard) => ({ guard, file })) }
      this.scopes.set(id, scope)
    }
    return scope
  }

  /** Scopes of a module that nothing inside the module mounts: what mounting the module attaches. */
  private moduleRoots(file: string): string[] {
    const facts = this.program.files.get(file)
    if (!facts) return []
    const ids = new Set<string>()
    for (const scope of facts.scopes) ids.add(`${file}#${scope.name}`)
    for (const route of facts.routes) ids.add(this.scopeId(file, route.scope))
    for (const mount of facts.mounts) if (mount.targets.length > 0) ids.add(this.scopeId(file, mount.scope))
    const mountedInside = new Set<string>()
    for (const mount of facts.mounts) for (const target of mount.targets) for (const child of this.childIds(file, target, false)) mountedInside.add(child)
    return [...ids].filter((id) => !mountedInside.has(id) && id.startsWith(`${file}#`)).sort()
  }

  /** Scopes a mount target attaches; empty when the target is middleware. */
  private childIds(file: string, target: string, followModules = true): string[] {
    const required = /^(?:require|import)\(\s*['"`]([^'"`]+)['"`]\s*\)/.exec(target)
    if (required?.[1]) {
      const resolution = this.program.resolutions.get(file)?.find((candidate) => candidate.specifier === required[1])
      const module = resolution?.internal[0]
      return module && followModules ? this.moduleRoots(module) : []
    }
    const reference = target.replace(/\(.*$/s, '')
    if (!/^[\w$.]+$/.test(reference)) return []
    const resolved = this.program.resolveReference(file, reference)
    return resolved ? this.childrenOf(resolved, followModules) : []
  }

  private childrenOf(target: Target, followModules: boolean): string[] {
    if (target.kind === 'scope') return [`${target.file}#${target.name}`]
    if (!followModules) return []
    if (target.kind === 'module') return this.moduleRoots(target.file)
    // A function that registers routes on what it is given (`module.exports = (app) => {...}`).
    const definition = this.program.definition(target.file, target.index)
    const facts = this.program.files.get(target.file)
    const registers = facts?.routes.some((route) => definition && route.order >= definition.start && route.order < definition.end)
    return registers ? this.moduleRoots(target.file) : []
  }

  private addMount(file: string, mount: MountDecl): void {
    const parent = this.scopeId(file, mount.scope)
    this.ensureScope(parent, parent.slice(0, parent.indexOf('#')), parent.slice(parent.indexOf('#') + 1))
    const perItem = mount.guards.length === mount.targets.length
    const pending: PlacedGuard[] = perItem ? [] : mount.guards.map((guard) => ({ guard, file }))
    let attached = false
    const children: string[][] = mount.targets.map((target) => this.childIds(file, target))
    if (mount.module) {
      const module = this.program.pythonModule(mount.module, file)
      children.push(module ? this.moduleRoots(module) : [])
    }
    children.forEach((ids, index) => {
      if (ids.length === 0) {
        const guard = perItem ? mount.guards[index] : undefined
        if (guard) pending.push({ guard, file })
        return
      }
      attached = true
      for (const child of ids) {
        this.ensureScope(child, child.slice(0, child.indexOf('#')), child.slice(child.indexOf('#') + 1))
        if (child !== parent) this.edges.push({ parent, child, prefix: mount.prefix, guards: [...pending], order: mount.order })
      }
    })
    if (!attached && pending.length > 0) this.uses.push({ scope: parent, prefix: mount.prefix, guards: pending, order: mount.order })
  }

  private usesBefore(scope: Scope, order: number, localPath: string): PlacedGuard[] {
    const orderFree = ORDER_FREE.has(scope.framework)
    return this.uses
      .filter((use) => use.scope === scope.id && (orderFree || use.order < order) && (use.prefix === '' || localPath.startsWith(use.prefix.replace(/\/$/, ''))))
      .flatMap((use) => use.guards)
  }

  private contextsOf(): Map<string, Context[]> {
    const contexts = new Map<string, Context[]>()
    const children = new Set(this.edges.map((edge) => edge.child))
    const globals = this.globalGuards()
    const visit = (id: string, context: Context, depth: number, path: ReadonlySet<string>) => {
      const list = contexts.get(id) ?? []
      if (depth > MAX_DEPTH || list.length >= MAX_CONTEXTS || path.has(id)) return
      list.push(context)
      contexts.set(id, list)
      const scope = this.scopes.get(id)
      const next = new Set(path).add(id)
      for (const edge of sortByKeys(this.edges.filter((candidate) => candidate.parent === id), (candidate) => [candidate.order, candidate.child])) {
        const child = this.scopes.get(edge.child)
        if (!child || !scope) continue
        // Flask's register_blueprint(url_prefix=...) replaces the blueprint's own prefix.
        const own = child.framework === 'flask' && edge.prefix ? '' : child.prefix
        visit(
          edge.child,
          { prefix: joinPaths(context.prefix, edge.prefix, own), guards: [...context.guards, ...this.usesBefore(scope, edge.order, edge.prefix), ...edge.guards, ...child.guards], framework: child.framework || context.framework },
          depth + 1,
          next,
        )
      }
    }
    for (const id of [...this.scopes.keys()].sort()) {
      const scope = this.scopes.get(id) as Scope
      if (children.has(id)) continue
      const prefix = scope.framework === 'nestjs' ? joinPaths(this.nestPrefix(), scope.prefix) : joinPaths(scope.prefix)
      visit(id, { prefix, guards: [...(scope.framework === 'nestjs' ? globals : []), ...scope.guards], framework: scope.framework }, 0, new Set())
    }
    for (const [id, scope] of this.scopes) if (!contexts.has(id)) contexts.set(id, [{ prefix: joinPaths(scope.prefix), guards: scope.guards, framework: scope.framework }])
    return contexts
  }

  private nestPrefix(): string {
    const prefixes = uniqueSorted([...this.program.files.values()].map((facts) => facts.globalPrefix ?? '').filter(Boolean))
    return prefixes[0] ?? ''
  }

  private globalGuards(): PlacedGuard[] {
    return [...this.program.files.values()].flatMap((facts) => facts.globalGuards.map((guard) => ({ guard, file: facts.path })))
  }

  assemble(): RouteInfo[] {
    const files = [...this.program.files.values()]
    for (const facts of files) {
      for (const scope of facts.scopes) this.ensureScope(`${facts.path}#${scope.name}`, facts.path, scope.name)
      for (const route of facts.routes) {
        const id = this.scopeId(facts.path, route.scope)
        this.ensureScope(id, id.slice(0, id.indexOf('#')), id.slice(id.indexOf('#') + 1))
      }
    }
    for (const facts of files) for (const mount of facts.mounts) this.addMount(facts.path, mount)
    const contexts = this.contextsOf()
    const routes: RouteInfo[] = []
    const rules = new FrameworkRules(this.program)
    for (const facts of files) {
      for (const route of facts.routes) {
        const scope = this.scopes.get(this.scopeId(facts.path, route.scope))
        if (!scope) continue
        for (const context of contexts.get(scope.id) ?? []) routes.push(...this.routeInfos(facts, route, scope, context, rules))
      }
    }
    routes.push(...nextJsRoutes(this.program, this.evaluator))
    return dedupeRoutes(routes)
  }

  private routeInfos(facts: FileFacts, route: RouteDecl, scope: Scope, context: Context, rules: FrameworkRules): RouteInfo[] {
    const path = joinPaths(context.prefix, route.path)
    const target = handlerTarget(this.program, facts, route)
    const definition = target ? this.program.definition(target.file, target.index) : undefined
    const routeGuards: PlacedGuard[] = [...route.guards.map((guard) => ({ guard, file: facts.path })), ...handlerGuards(this.program, target)]
    const inherited: PlacedGuard[] = [...context.guards, ...this.usesBefore(scope, route.order, route.path)]
    const methods = route.method === 'ANY' && route.framework === 'django' ? djangoMethods(this.program, target) : [route.method]
    const decision = decide(this.evaluator, routeGuards, inherited, rules.defaults(route.framework, path, route.method, target))
    return methods.map((method) => ({
      method,
      path,
      framework: route.framework || context.framework || 'unknown',
      file: facts.path,
      line: route.line,
      // Inline handlers are named after the full route, not the path local to their router.
      handler: definition && target ? { name: definition.kind === 'handler' ? `${method} ${path} handler` : definition.name, file: target.file, line: definition.line } : route.handler.kind === 'reference' ? { name: route.handler.name, file: facts.path, line: route.line } : null,
      target,
      ...decision,
    }))
  }
}

function handlerTarget(program: Program, facts: FileFacts, route: RouteDecl): { file: string; index: number } | null {
  if (route.handler.kind === 'definition') return { file: facts.path, index: route.handler.index }
  if (route.handler.kind !== 'reference') return null
  const target = program.resolveReference(facts.path, route.handler.name)
  return target?.kind === 'definition' ? { file: target.file, index: target.index } : null
}

/** Decorators on the handler function, and guards of its class (DRF permission classes, mixins). */
function handlerGuards(program: Program, target: { file: string; index: number } | null): PlacedGuard[] {
  if (!target) return []
  const facts = program.files.get(target.file)
  const definition = facts?.definitions[target.index]
  if (!facts || !definition) return []
  const className = definition.kind === 'class' ? definition.simple : definition.owner
  const guards = [...(facts.definitionGuards[target.index] ?? []), ...(className ? (facts.classGuards[className] ?? []) : [])]
  return guards.map((guard) => ({ guard, file: target.file }))
}

function djangoMethods(program: Program, target: { file: string; index: number } | null): string[] {
  if (!target) return ['ANY']
  const facts = program.files.get(target.file)
  const definition = facts?.definitions[target.index]
  if (!facts || !definition) return ['ANY']
  if (definition.kind === 'class') {
    const methods = facts.definitions.filter((candidate) => candidate.owner === definition.simple && /^(?:get|post|put|patch|delete|head|options)$/.test(candidate.simple)).map((candidate) => candidate.simple.toUpperCase())
    return methods.length > 0 ? uniqueSorted(methods) : ['ANY']
  }
  for (const guard of facts.definitionGuards[target.index] ?? []) {
    const single = /^require_(GET|POST|safe)\b/.exec(guard.name)
    if (single?.[1]) return single[1] === 'safe' ? ['GET', 'HEAD'] : [single[1]]
    const list = /^(?:require_http_methods|api_view)\(\s*\[([^\]]*)\]/.exec(guard.name)
    if (list?.[1]) return uniqueSorted([...list[1].matchAll(/['"](\w+)['"]/g)].map((match) => (match[1] ?? '').toUpperCase()))
  }
  return ['ANY']
}

/**
 * Precedence: the route's own guards (an explicit auth guard, else an explicit public
 * marker) decide; then inherited guards; then framework defaults.
 */
function decide(evaluator: GuardEvaluator, own: PlacedGuard[], inherited: PlacedGuard[], defaults: PlacedGuard[]): Pick<RouteInfo, 'auth' | 'authBy' | 'public'> {
  const ownVerdicts = own.map((guard) => evaluator.evaluate(guard))
  const inheritedVerdicts = inherited.map((guard) => evaluator.evaluate(guard))
  const defaultVerdicts = defaults.map((guard) => evaluator.evaluate(guard))
  const authLabels = (verdicts: typeof ownVerdicts) => uniqueSorted(verdicts.filter((verdict) => verdict.auth).map((verdict) => verdict.label))
  const ownAuth = authLabels(ownVerdicts)
  if (ownAuth.length > 0) return { auth: true, authBy: uniqueSorted([...authLabels(inheritedVerdicts), ...ownAuth]), public: false }
  if (ownVerdicts.some((verdict) => verdict.public)) return { auth: false, authBy: [], public: true }
  const inheritedAuth = authLabels(inheritedVerdicts)
  if (inheritedAuth.length > 0) return { auth: true, authBy: inheritedAuth, public: false }
  if (inheritedVerdicts.some((verdict) => verdict.public)) return { auth: false, authBy: [], public: true }
  const defaultAuth = authLabels(defaultVerdicts)
  if (defaultAuth.length > 0) return { auth: true, authBy: defaultAuth, public: false }
  return { auth: false, authBy: [], public: defaultVerdicts.some((verdict) => verdict.public) }
}

/** Framework-wide rules: Spring Security path rules, DRF default permissions, Django's login middleware. */
class FrameworkRules {
  private readonly accessRules: Array<{ regex: RegExp; method: string | null; access: string; file: string; line: number }> = []
  private readonly springSecurity: boolean
  private readonly drfDefault: GuardRef | null = null
  private readonly djangoLoginMiddleware: { file: string; line: number } | null = null

  constructor(private readonly program: Program) {
    for (const facts of [...program.files.values()]) {
      for (const rule of facts.accessRules) {
        for (const pattern of rule.patterns) {
          const [method, path] = pattern.includes(' ') ? pattern.split(' ', 2) : [null, pattern]
          this.accessRules.push({ regex: antPattern(path ?? ''), method: method ?? null, access: rule.access, file: facts.path, line: rule.line })
        }
      }
      for (const signal of facts.signals) {
        if (signal.signal === 'django-setting:REST_FRAMEWORK') {
          const list = /DEFAULT_PERMISSION_CLASSES['"]\s*:\s*[[(]([^\])]*)/.exec(signal.detail)?.[1]
          if (list) this.drfDefault = { name: `REST_FRAMEWORK DEFAULT_PERMISSION_CLASSES (${facts.path}:${signal.line})`, line: signal.line, ...drfPermissions(list.replace(/['"]/g, '')) }
        }
        if (signal.signal === 'django-setting:MIDDLEWARE' && /LoginRequiredMiddleware/.test(signal.detail)) this.djangoLoginMiddleware = { file: facts.path, line: signal.line }
      }
    }
    this.springSecurity = [...program.files.keys()].some((file) => [...program.librariesOf(file)].some((library) => library.id === 'spring-security')) || program.manifests.some((manifest) => manifest.dependencies.some((dependency) => dependency.name === 'spring-boot-starter-security'))
  }

  defaults(framework: string, path: string, method: string, target: { file: string; index: number } | null): PlacedGuard[] {
    if (framework === 'spring' || framework === 'jax-rs' || framework === 'servlet') return this.spring(path, method)
    if (framework === 'django') return this.django(target)
    return []
  }

  private spring(path: string, method: string): PlacedGuard[] {
    if (!this.springSecurity) return []
    if (this.accessRules.length === 0) {
      return [{ guard: { name: 'Spring Security defaults', line: 0, auth: true, mechanism: 'every request authenticated' }, file: '' }]
    }
    const rule = this.accessRules.find((candidate) => candidate.regex.test(path) && (!candidate.method || candidate.method === method || method === 'ANY'))
    if (!rule) return []
    const open = /^(?:permitAll|anonymous)/.test(rule.access)
    return [{ guard: { name: `Spring Security ${rule.access} (${rule.file}:${rule.line})`, line: rule.line, ...(open ? { public: true } : { auth: true }) }, file: rule.file }]
  }

  private django(target: { file: string; index: number } | null): PlacedGuard[] {
    const guards: PlacedGuard[] = []
    if (this.djangoLoginMiddleware) {
      guards.push({ guard: { name: 'LoginRequiredMiddleware', line: this.djangoLoginMiddleware.line, auth: true, mechanism: 'Django login required for every view' }, file: this.djangoLoginMiddleware.file })
    }
    if (this.drfDefault && target && isDrfView(this.program, target)) guards.push({ guard: this.drfDefault, file: target.file })
    return guards
  }
}

function isDrfView(program: Program, target: { file: string; index: number }): boolean {
  const facts = program.files.get(target.file)
  const definition = facts?.definitions[target.index]
  if (!facts || !definition) return false
  if (definition.kind === 'class') return (definition.bases ?? []).some((base) => /APIView$|ViewSet$|GenericAPIView|ListAPIView|CreateAPIView|RetrieveAPIView|UpdateAPIView|DestroyAPIView/.test(base))
  return (facts.definitionGuards[target.index] ?? []).some((guard) => guard.name.startsWith('api_view'))
}

/** Ant-style path pattern (`/api/**`, `/users/*`) as a regular expression. */
function antPattern(pattern: string): RegExp {
  let source = ''
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] ?? ''
    if (char === '*' && pattern[index + 1] === '*') {
      source += '.*'
      index++
    } else if (char === '*') source += '[^/]*'
    else if (char === '?') source += '[^/]'
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&')
  }
  // `/api/**` also matches `/api` itself.
  return new RegExp(`^${source.replace(/\/\.\*$/, '(?:/.*)?')}/?$`)
}

const NEXT_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'])
const NEXT_APP_ROUTE = /^(?:(.*)\/)?app\/(?:(.*)\/)?route\.[cm]?[jt]sx?$/
const NEXT_PAGES_API = /^(?:(.*)\/)?pages\/api\/(.*)\.[cm]?[jt]sx?$/

/** Next.js route handlers: `app/**\/route.ts` exports and `pages/api/**` default exports. */
function nextJsRoutes(program: Program, evaluator: GuardEvaluator): RouteInfo[] {
  const usesNext = program.manifests.some((manifest) => manifest.dependencies.some((dependency) => dependency.name === 'next')) || [...program.files.keys()].some((file) => [...program.librariesOf(file)].some((library) => library.id === 'nextjs'))
  if (!usesNext) return []
  const middleware = nextMiddleware(program)
  const routes: RouteInfo[] = []
  for (const facts of program.files.values()) {
    const app = NEXT_APP_ROUTE.exec(facts.path)
    const pages = app ? null : NEXT_PAGES_API.exec(facts.path)
    if (!app && !pages) continue
    const segments = app ? (app[2] ?? '') : `api/${(pages?.[2] ?? '').replace(/(?:^|\/)index$/, '')}`
    const path = joinPaths(...segments.split('/').filter((segment) => !/^\(.*\)$/.test(segment) && !segment.startsWith('@')))
    facts.definitions.forEach((definition, index) => {
      if (!definition.exported) return
      const method = app ? (NEXT_METHODS.has(definition.simple) ? definition.simple : null) : definition.simple === 'default' || facts.exports.some((entry) => entry.name === 'default' && entry.local === definition.simple) ? 'ANY' : null
      if (!method) return
      const own: PlacedGuard[] = [{ guard: { name: `${definition.name} body`, line: definition.line, definition: index }, file: facts.path }]
      const inherited = middleware && middleware.matches(path) ? [middleware.guard] : []
      routes.push({ method, path, framework: 'nextjs', file: facts.path, line: definition.line, handler: { name: definition.name, file: facts.path, line: definition.line }, target: { file: facts.path, index }, ...decide(evaluator, own, inherited, []) })
    })
  }
  return routes
}

/** `middleware.ts` at the root or in `src/`, and the paths its `matcher` covers. */
function nextMiddleware(program: Program): { guard: PlacedGuard; matches(path: string): boolean } | null {
  const facts = [...program.files.values()].find((candidate) => /^(?:src\/)?middleware\.[jt]s$/.test(candidate.path))
  if (!facts) return null
  const definition = facts.definitions.findIndex((candidate) => candidate.exported && (candidate.simple === 'middleware' || candidate.simple === 'default'))
  const authHints = definition === -1 ? [] : (facts.definitions[definition]?.authHints ?? [])
  const library = [...program.librariesOf(facts.path)].find((candidate) => candidate.kind === 'auth')
  if (authHints.length === 0 && !library) return null
  const matchers = facts.signals.filter((signal) => signal.signal === 'next-matcher').map((signal) => signal.detail)
  const guard: PlacedGuard = { guard: library ? { name: `middleware (${facts.path})`, line: 1, auth: true, mechanism: library.mechanism ?? library.label } : { name: `middleware (${facts.path})`, line: 1, definition }, file: facts.path }
  return {
    guard,
    matches: (path) => matchers.length === 0 || matchers.some((matcher) => matcherCovers(matcher, path)),
  }
}

/** Next.js matchers: `/dashboard/:path*` covers `/dashboard...`; `/((?!api|_next).*)` covers all but api. */
function matcherCovers(matcher: string, path: string): boolean {
  const cut = matcher.search(/[:(]/)
  const base = (cut === -1 ? matcher : matcher.slice(0, cut)).replace(/\/$/, '')
  if (!path.startsWith(base)) return false
  const negative = /\(\?!([^)]*)\)/.exec(matcher)
  if (!negative?.[1]) return true
  const rest = path.slice(base.length).replace(/^\//, '')
  return !negative[1].split('|').some((excluded) => excluded && rest.startsWith(excluded))
}

function dedupeRoutes(routes: RouteInfo[]): RouteInfo[] {
  const seen = new Set<string>()
  const unique: RouteInfo[] = []
  for (const route of sortByKeys(routes, (item) => [item.path, item.method, item.file, item.line])) {
    const key = `${route.method} ${route.path} ${route.file}:${route.line}`
    if (seen.has(key)) continue
    seen.add(key)
    unique.push(route)
  }
  return unique
}
