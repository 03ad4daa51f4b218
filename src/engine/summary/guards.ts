/**
 * Deciding whether a middleware, decorator, dependency or annotation authenticates callers.
 * Recognized library APIs are decided outright (passport.authenticate, login_required,
 * @PreAuthorize...), known non-auth middleware (cors, helmet, body parsers, rate limiters) is
 * ruled out, and project-defined guards are judged by name here and by body hints later.
 */
import { libraryForNpm, libraryForPython } from './catalog.ts'
import type { GuardRef } from './model.ts'

type GuardVerdict = Pick<GuardRef, 'auth' | 'mechanism' | 'public'>

const NON_AUTH_KINDS = new Set(['cors', 'security-headers', 'csrf', 'rate-limit', 'validation', 'template', 'filesystem', 'websocket'])

/** Middleware that only prepares sessions or parses credentials, and never refuses a request. */
const SESSION_SUPPORT = /^(?:session|cookieSession|expressSession|passport\.(?:initialize|session)|cookieParser|clerkMiddleware)\b/

const JS_AUTH_APIS: Array<[RegExp, string]> = [
  [/^passport\.authenticate\(\s*['"`]([\w-]+)/, 'Passport ($1 strategy)'],
  [/^passport\.authenticate\b/, 'Passport'],
  [/^(?:expressjwt|expressJwt|jwt|koaJwt)\s*\(/, 'JWT'],
  [/^basicAuth\s*\(/, 'HTTP basic auth'],
  [/^(?:requiresAuth|auth)\s*\(/, 'OpenID Connect'],
  [/^ensureLoggedIn\b|^ensureAuthenticated\b/, 'session login'],
  [/^(?:requireAuth|ClerkExpressRequireAuth|withAuth|getAuth)\b/, 'hosted auth middleware'],
  [/^AuthGuard\(\s*['"`]([\w-]+)/, 'Passport $1 strategy (NestJS AuthGuard)'],
  [/^AuthGuard\b/, 'NestJS AuthGuard'],
  [/^fastify\.(?:authenticate|auth)\b|^\w+\.jwtVerify\b/, 'Fastify auth hook'],
]

const AUTH_LIBRARY_KINDS = new Set(['auth'])

/** JavaScript middleware as written, with the import origin of its root identifier. */
export function classifyJsGuard(name: string, origin: string | undefined): GuardVerdict {
  const library = origin ? libraryForNpm(origin) : undefined
  if (SESSION_SUPPORT.test(name)) return { auth: false }
  if (library && NON_AUTH_KINDS.has(library.kind)) return { auth: false }
  if (/^express\.(?:json|urlencoded|static|raw|text)\b|^bodyParser\b|^(?:compression|morgan|cors|helmet)\s*\(/.test(name)) return { auth: false }
  // Generic names (`auth(...)`, `jwt(...)`) are library APIs only when imported from an auth library;
  // a project function of the same name is judged later, by its body.
  const generic = /^(?:requiresAuth|auth|jwt|requireAuth|withAuth|getAuth)\b/.test(name)
  if (!generic || (library && AUTH_LIBRARY_KINDS.has(library.kind))) {
    for (const [pattern, mechanism] of JS_AUTH_APIS) {
      const match = pattern.exec(name)
      if (match) return { auth: true, mechanism: mechanism.replace('$1', match[1] ?? '') }
    }
  }
  if (/^(?:Public|SkipAuth|AllowAnonymous|IsPublic|NoAuth)\b/.test(name)) return { public: true }
  return {}
}

const PY_AUTH_APIS: Array<[RegExp, string]> = [
  [/^(?:\w+\.)?login_required\b/, 'login required'],
  [/^(?:\w+\.)?(?:fresh_)?jwt_required\b|^jwt_required\b/, 'JWT'],
  [/^(?:\w+\.)?(?:permission_required|user_passes_test|staff_member_required|superuser_required|roles_required|roles_accepted|auth_required|token_required|admin_required)\b/, 'permission check'],
  [/^(?:\w+\.)?verify_jwt_in_request\b/, 'JWT'],
]

/** Python decorators (`@login_required`, `@auth.login_required`, `@permission_classes([...])`). */
export function classifyPythonGuard(name: string, origin: string | undefined): GuardVerdict {
  const library = origin ? libraryForPython(origin) : undefined
  if (library && NON_AUTH_KINDS.has(library.kind)) return { auth: false }
  if (/^(?:\w+\.)?(?:csrf_exempt|cache_page|require_(?:GET|POST|http_methods|safe)|limiter\.limit|limit)\b/.test(name)) return { auth: false }
  const permissionClasses = /^(?:permission_classes|authentication_classes)\(\s*\[([^\]]*)\]/.exec(name)
  if (permissionClasses) return drfPermissions(permissionClasses[1] ?? '')
  for (const [pattern, mechanism] of PY_AUTH_APIS) {
    if (!pattern.test(name)) continue
    const origin = library?.mechanism
    return { auth: true, mechanism: origin && mechanism === 'login required' ? origin : mechanism }
  }
  return {}
}

/** DRF permission classes: AllowAny opens a view, anything else requires some identity. */
export function drfPermissions(list: string): GuardVerdict {
  const names = list.split(',').map((item) => item.trim().replace(/^.*\./, '')).filter(Boolean)
  if (names.length === 0 || names.every((name) => name === 'AllowAny')) return { auth: false, public: true }
  if (names.every((name) => name === 'IsAuthenticatedOrReadOnly')) return { auth: true, mechanism: 'DRF IsAuthenticatedOrReadOnly (reads are public)' }
  return { auth: true, mechanism: `DRF ${names.join(', ')}` }
}

/** Java annotations on controllers and handler methods. */
export function classifyJavaAnnotation(name: string, args: string): GuardVerdict | null {
  if (name === 'PreAuthorize' || name === 'PostAuthorize') {
    if (/permitAll\(\)/.test(args)) return { auth: false, public: true }
    return { auth: true, mechanism: 'method security' }
  }
  if (name === 'Secured' || name === 'RolesAllowed') return { auth: true, mechanism: 'method security' }
  if (name === 'PermitAll') return { auth: false, public: true }
  if (name === 'DenyAll') return { auth: true, mechanism: 'method security (deny all)' }
  return null
}

const AUTH_WORDS = ['auth', 'login', 'loggedin', 'logged_in', 'signedin', 'jwt', 'token', 'bearer', 'apikey', 'api_key', 'permission', 'role', 'admin', 'acl', 'rbac', 'protect', 'currentuser', 'current_user', 'credential', 'session']
const NOT_AUTH_WORDS = ['csrf', 'xsrf', 'logout']

/** A project guard whose name says it authenticates (`requireAuth`, `isAdmin`, `JwtAuthGuard`). */
export function authByName(name: string): boolean {
  const lower = name.toLowerCase().replace(/\(.*$/s, '')
  if (NOT_AUTH_WORDS.some((word) => lower.includes(word))) return false
  // `authRouter`, `authRoutes`, `AuthController`: a module about auth that was not resolved, not a guard.
  if (/(?:router|routes|controller|controllers|module|views|api)$/.test(lower)) return false
  // `session(...)` prepares sessions; only names that check them count (requireSession...).
  if (/^(?:\w+\.)?session$/.test(lower)) return false
  return AUTH_WORDS.some((word) => lower.includes(word))
}
