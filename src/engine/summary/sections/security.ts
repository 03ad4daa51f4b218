/**
 * `securityContext`: which security controls the code has and which are missing (security
 * headers, CSRF protection, rate limiting, CORS policy, input validation, password hashing,
 * secrets handling, cryptography), risky configuration, and the dependency manifests found.
 */
import type { Library, LibraryKind } from '../catalog.ts'
import type { SummaryContext } from '../context.ts'
import { clip, LIMITS } from '../limits.ts'
import { compareText, plural, uniqueSorted } from '../text.ts'
import { librariesInUse } from './architecture.ts'

interface Finding {
  at: string
  detail: string
}

function signals(context: SummaryContext, ...names: string[]): Finding[] {
  const found: Finding[] = []
  for (const facts of context.program.files.values()) {
    for (const signal of facts.signals) if (names.includes(signal.signal)) found.push({ at: `${facts.path}:${signal.line}`, detail: signal.detail })
  }
  for (const signal of context.configSignals) if (names.includes(signal.signal)) found.push({ at: `${signal.file}:${signal.line}`, detail: signal.detail })
  return found.sort((a, b) => compareText(a.at, b.at) || compareText(a.detail, b.detail))
}

function where(items: readonly Finding[], max = 4): string {
  const shown = items.slice(0, max).map((item) => `${item.detail} (${item.at})`)
  return `${shown.join(', ')}${items.length > max ? `, and ${items.length - max} more` : ''}`
}

/** `helmet (applied at src/app.js:14)`: a library with its first call sites, or its imports. */
function applied(context: SummaryContext, library: Library): string {
  const use = context.libraries.get(library.id)
  const calls = uniqueSorted((use?.calls ?? []).map((call) => call.at))
  const imports = use?.imports ?? []
  if (calls.length > 0) return `${library.label} (used at ${calls.slice(0, 3).join(', ')}${calls.length > 3 ? ', …' : ''})`
  if (imports.length > 0) return `${library.label} (imported at ${imports.slice(0, 2).join(', ')})`
  return `${library.label} (declared in a manifest)`
}

function ofKind(context: SummaryContext, libraries: readonly Library[], kind: LibraryKind): string[] {
  return libraries.filter((library) => library.kind === kind).map((library) => applied(context, library))
}

function djangoMiddleware(context: SummaryContext): string[] {
  return signals(context, 'django-setting:MIDDLEWARE').flatMap((item) => item.detail.split(',').map((name) => `${name} (${item.at})`))
}

interface Control {
  name: string
  present: string[]
  missing: string | null
}

function controls(context: SummaryContext, libraries: readonly Library[]): Control[] {
  const web = context.routes.length > 0
  const django = djangoMiddleware(context)
  const springSecurity = libraries.some((library) => library.id === 'spring-security')
  const sessions = libraries.some((library) => library.kind === 'auth' && /session|login/i.test(library.mechanism ?? ''))
  const list: Control[] = []
  const manualHeaders = signals(context, 'security-headers-manual').slice(0, 3).map((item) => `${item.detail} set manually (${item.at})`)
  const headers = [...ofKind(context, libraries, 'security-headers'), ...django.filter((item) => item.includes('SecurityMiddleware')), ...manualHeaders]
  if (springSecurity) headers.push('Spring Security default headers')
  list.push({ name: 'Security headers', present: headers, missing: web ? 'no security-header middleware (helmet, Talisman, SecurityMiddleware) found' : null })
  const csrf = [...ofKind(context, libraries, 'csrf'), ...django.filter((item) => item.includes('CsrfViewMiddleware'))]
  if (springSecurity && signals(context, 'csrf-disabled').length === 0) csrf.push('Spring Security CSRF protection (on by default)')
  list.push({ name: 'CSRF protection', present: csrf, missing: web ? (sessions ? 'cookie/session authentication is used but no CSRF protection was found' : 'no CSRF protection found (needed only for cookie-authenticated browser requests)') : null })
  const rate = ofKind(context, libraries, 'rate-limit')
  list.push({ name: 'Rate limiting', present: rate, missing: web ? `no rate limiter found for ${plural(context.routes.length, 'HTTP route')}${loginRoutes(context)}` : null })
  const cors = [...ofKind(context, libraries, 'cors'), ...signals(context, 'cors-configured').map((item) => `${item.detail} (${item.at})`)]
  list.push({ name: 'CORS policy', present: cors, missing: web ? 'no CORS configuration (browsers allow same-origin requests only)' : null })
  const validation = [...ofKind(context, libraries, 'validation'), ...(signals(context, 'java-validation').length > 0 ? [`@Valid/@Validated on ${plural(signals(context, 'java-validation').length, 'parameter')}`] : [])]
  if (libraries.some((library) => library.id === 'fastapi')) validation.push('FastAPI request models (pydantic)')
  list.push({ name: 'Input validation', present: validation, missing: web ? 'no validation library (zod, joi, pydantic, marshmallow, Bean Validation...) found' : null })
  // Call sites stand in for a library only when no known library was found (`crypto.scrypt`, `hashlib.scrypt`).
  const hashingLibraries = ofKind(context, libraries, 'password-hashing')
  const hashing = hashingLibraries.length > 0 ? hashingLibraries : uniqueSorted(signals(context, 'password-hashing').map((item) => `${item.detail} (${item.at})`))
  const handlesPasswords = context.routes.some((route) => /login|signin|sign-in|register|signup|password/i.test(route.path))
  list.push({ name: 'Password hashing', present: hashing.slice(0, 6), missing: handlesPasswords ? 'login/registration routes exist but no password hashing (bcrypt, argon2, scrypt, PBKDF2) was found' : null })
  return list
}

function loginRoutes(context: SummaryContext): string {
  const login = context.routes.filter((route) => /login|signin|sign-in|token|auth/i.test(route.path))
  return login.length > 0 ? ` (including ${login.slice(0, 3).map((route) => `${route.method} ${route.path}`).join(', ')})` : ''
}

function secretsHandling(context: SummaryContext, libraries: readonly Library[]): string[] {
  const lines: string[] = []
  const names = new Set<string>()
  for (const facts of context.program.files.values()) for (const input of facts.inputs) if (input.kind === 'environment') names.add(input.name)
  const sorted = [...names].sort(compareText)
  if (sorted.length > 0) lines.push(`configuration from ${plural(sorted.length, 'environment variable')}: ${sorted.slice(0, 15).join(', ')}${sorted.length > 15 ? ', …' : ''}`)
  const config = libraries.filter((library) => library.kind === 'secrets-config').map((library) => applied(context, library))
  if (config.length > 0) lines.push(`configuration/secret libraries: ${config.join(', ')}`)
  const hardcoded = signals(context, 'hardcoded-secret')
  lines.push(hardcoded.length > 0 ? `hard-coded credentials (names only): ${where(hardcoded, 8)}` : 'no hard-coded credentials found in assignments')
  const dotenv = context.collected.texts.filter((file) => /(?:^|\/)\.env(?:\.[\w-]+)?$/.test(file.path)).map((file) => file.path)
  if (dotenv.length > 0) lines.push(`committed dotenv files: ${dotenv.join(', ')}`)
  return lines
}

function risky(context: SummaryContext): string[] {
  const groups: Array<[string, string[]]> = [
    ['CORS allows any origin', ['cors-any-origin']],
    ['CSRF protection disabled or bypassed', ['csrf-disabled']],
    ['debug mode enabled', ['debug-enabled']],
    ['TLS certificate verification disabled', ['tls-verification-disabled']],
    ['insecure cookie flags', ['insecure-cookie']],
    ['weak hashes (MD5/SHA-1)', ['weak-hash']],
    ['JWT verification weakened', ['jwt-unverified']],
    ['all actuator endpoints exposed', ['actuator-exposed']],
  ]
  const lines: string[] = []
  for (const [label, names] of groups) {
    const found = signals(context, ...names)
    if (found.length > 0) lines.push(`${label}: ${where(found)}`)
  }
  return lines
}

export function securityContext(context: SummaryContext): string {
  const libraries = librariesInUse(context)
  const list = controls(context, libraries)
  const out: string[] = ['Controls present:']
  for (const control of list) if (control.present.length > 0) out.push(`- ${control.name}: ${uniqueSorted(control.present).slice(0, 6).join('; ')}`)
  if (out.length === 1) out.push('- none found')
  const missing = list.filter((control) => control.present.length === 0 && control.missing)
  out.push('Missing or not found:')
  for (const control of missing) out.push(`- ${control.name}: ${control.missing}`)
  if (missing.length === 0) out.push('- nothing from the checked list')
  out.push('Secrets handling:')
  for (const line of secretsHandling(context, libraries)) out.push(`- ${line}`)
  const crypto = uniqueSorted(signals(context, 'crypto').map((item) => item.detail))
  const cryptoLibraries = libraries.filter((library) => library.kind === 'crypto').map((library) => library.label)
  if (crypto.length > 0 || cryptoLibraries.length > 0) out.push(`Cryptography: ${[...crypto.slice(0, 10), ...cryptoLibraries.map((label) => `${label} library`)].join(', ')}`)
  const risks = risky(context)
  out.push('Risky configuration:')
  for (const line of risks) out.push(`- ${line}`)
  if (risks.length === 0) out.push('- none found')
  const manifests = context.manifests.map((manifest) => `${manifest.path} (${manifest.ecosystem}, ${plural(manifest.dependencies.filter((dependency) => !dependency.dev).length, 'dependency', 'dependencies')}, ${manifest.dependencies.filter((dependency) => dependency.dev).length} dev)`)
  out.push(`Dependency manifests: ${manifests.length > 0 ? manifests.join('; ') : 'none found'}`)
  return clip(out.join('\n'), LIMITS.securityChars)
}
