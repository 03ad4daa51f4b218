/**
 * Facts the summary extracts from each file's syntax tree (one parse per file), before any
 * cross-file resolution. Every later stage (import graph, routes, call chains, sections)
 * works on these plain objects only, so syntax trees can be dropped as soon as a file is done.
 */
import type { CodeLanguage } from '../core/languages.ts'

export type ExitKind = 'database' | 'http' | 'shell' | 'filesystem'
export const EXIT_KINDS: readonly ExitKind[] = ['database', 'http', 'shell', 'filesystem']

export type InputKind = 'environment' | 'argv' | 'stdin' | 'file'

/** One local name an import introduces. `imported` is `default`, `*` (whole module) or a name. */
export interface Binding {
  local: string
  imported: string
}

export interface ImportFact {
  /** As written: `./services/user`, `express`, `app.models.user`, `com.acme.UserService`. */
  specifier: string
  line: number
  bindings: Binding[]
  /** Python relative imports: number of leading dots. */
  level?: number
}

export type DefinitionKind = 'function' | 'method' | 'class' | 'handler'

export interface DefinitionFact {
  /** `getUser`, `UserService.find`; inline route handlers get a descriptive name. */
  name: string
  simple: string
  /** Enclosing class, for methods. */
  owner?: string
  kind: DefinitionKind
  line: number
  endLine: number
  /** Byte offsets, to find the innermost definition around a call. */
  start: number
  end: number
  exported: boolean
  /** Base classes, for classes (Django mixins, servlets, ORM models). */
  bases?: string[]
  /** Textual hints seen in the body (`jwt-verify`, `session-check`, ...), for auth guards. */
  authHints?: string[]
}

export interface CallFact {
  /** The callee as written, flattened to one line: `svc.getUser`, `this.repo.save`. */
  callee: string
  line: number
  start: number
  /** Index into FileFacts.definitions of the innermost enclosing definition, or -1. */
  owner: number
}

/** Something applied to a route or a scope that may authenticate or authorize callers. */
export interface GuardRef {
  /** As written: `requireAuth`, `passport.authenticate('jwt')`, `login_required`. */
  name: string
  line: number
  /** Known mechanism when the guard is a recognized library API. */
  mechanism?: string
  /** true: known to authenticate; false: known not to (cors, helmet...); undefined: decide by resolution. */
  auth?: boolean
  /** An explicit opt-out (`@Public()`, `AllowAny`, `permitAll`). */
  public?: boolean
  /** An inline function used as middleware: its definition, for body hints. */
  definition?: number
}

export type HandlerRef = { kind: 'definition'; index: number } | { kind: 'reference'; name: string } | { kind: 'none' }

export interface RouteDecl {
  framework: string
  method: string
  /** Path relative to the scope it is declared on. */
  path: string
  line: number
  /** Variable (router, app, bp), class (controller) or `<file>` the route is declared on. */
  scope: string
  /** Source order, for middleware registered before the route. */
  order: number
  handler: HandlerRef
  guards: GuardRef[]
}

/** A router, app, blueprint or controller: something routes hang off. */
export interface ScopeDecl {
  name: string
  framework: string
  kind: 'app' | 'router'
  prefix: string
  line: number
  guards: GuardRef[]
}

/**
 * `app.use('/api', auth, usersRouter)`, `app.register_blueprint(bp, url_prefix=...)`,
 * `path('api/', include('api.urls'))`: a scope, module or router attached under a prefix. The
 * targets are references resolved later: each may turn out to be a router (mounted) or a
 * middleware (a guard for what follows on the same scope).
 */
export interface MountDecl {
  scope: string
  prefix: string
  /** References as written, in argument order. */
  targets: string[]
  /** Dotted module name (Django `include('x.urls')`) instead of a reference. */
  module?: string
  guards: GuardRef[]
  line: number
  order: number
}

export interface ExportFact {
  /** Exported name, `default` for default exports. */
  name: string
  /** The local name it refers to (`router` in `module.exports = router`), or the `new Class` type. */
  local: string
  /** `new X()` exports: the class of the exported instance. */
  instanceOf?: string
  /** Re-exports (`export { x } from './y'`, `export * from './y'`): the module specifier. */
  from?: string
}

export interface ExitFact {
  kind: ExitKind
  api: string
  line: number
  owner: number
}

export interface InputFact {
  kind: InputKind
  /** Variable name for environment inputs, API otherwise. */
  name: string
  line: number
}

export type EntryKind = 'main' | 'cli' | 'consumer' | 'scheduled' | 'websocket' | 'script'

export interface EntryFact {
  kind: EntryKind
  /** What it is: `main()`, `argparse`, `queue emails (Bull)`, `@KafkaListener orders`. */
  name: string
  line: number
  /** Index of the definition that runs, when known. */
  handler: number
  /** A reference to the handler when it is declared elsewhere. */
  handlerRef?: string
}

/** A library (from the catalog) applied at a call site, e.g. `app.use(helmet())`. */
export interface UseSite {
  library: string
  line: number
  text: string
}

/** A configuration or code pattern the security context reports (`cors-any-origin`, ...). */
export interface SignalFact {
  signal: string
  line: number
  detail: string
}

/** Spring Security `requestMatchers("/admin/**").hasRole("ADMIN")`: access by path pattern, in order. */
export interface AccessRule {
  patterns: string[]
  /** `permitAll`, `authenticated`, `hasRole(ADMIN)`, `denyAll`... */
  access: string
  line: number
  /** End offset of the matcher call: rules apply first-match in declaration order, and calls of one chain share their start. */
  order: number
}

export interface ModelFact {
  name: string
  orm: string
  line: number
}

/** Local variables holding objects of known origin: `const pool = new Pool()`, `svc = UserService()`. */
export interface InstanceFact {
  local: string
  /** Class or factory as written: `Pool`, `UserService`, `express`. */
  type: string
}

export interface FileFacts {
  path: string
  language: CodeLanguage
  lines: number
  /** `full` parsed the whole file; `header` only its import section (languages without framework support). */
  depth: 'full' | 'header' | 'none'
  imports: ImportFact[]
  definitions: DefinitionFact[]
  calls: CallFact[]
  routes: RouteDecl[]
  scopes: ScopeDecl[]
  mounts: MountDecl[]
  exports: ExportFact[]
  exits: ExitFact[]
  inputs: InputFact[]
  entries: EntryFact[]
  useSites: UseSite[]
  signals: SignalFact[]
  models: ModelFact[]
  instances: InstanceFact[]
  /** Field or parameter name -> declared type (Java fields, TypeScript constructor parameters). */
  fieldTypes: Record<string, string>
  /** Java/Kotlin/C# package or namespace; Go package name. */
  packageName?: string
  /** Top-level type names declared (Java classes) for resolution by name. */
  typeNames: string[]
  /** A prefix every route of the application gets (NestJS `setGlobalPrefix`). */
  globalPrefix?: string
  /** Guards applied to every route of the application (NestJS global guards, APP_GUARD). */
  globalGuards: GuardRef[]
  /** Guards declared on classes (DRF `permission_classes`, Django mixins), by class name. */
  classGuards: Record<string, GuardRef[]>
  /** Guards declared on functions by decorator (`@login_required` on a Django view), by definition index. */
  definitionGuards: Record<number, GuardRef[]>
  /** Path-based access rules (Spring Security), in declaration order. */
  accessRules: AccessRule[]
}

export function emptyFacts(path: string, language: CodeLanguage, lines: number): FileFacts {
  return {
    path,
    language,
    lines,
    depth: 'none',
    imports: [],
    definitions: [],
    calls: [],
    routes: [],
    scopes: [],
    mounts: [],
    exports: [],
    exits: [],
    inputs: [],
    entries: [],
    useSites: [],
    signals: [],
    models: [],
    instances: [],
    fieldTypes: {},
    typeNames: [],
    globalGuards: [],
    classGuards: {},
    definitionGuards: {},
    accessRules: [],
  }
}

/** A repository file the summary read as text but does not parse (manifests, README, configs). */
export interface TextFile {
  path: string
  text: string
}
