/**
 * `authLogicSummary`: how callers are authenticated and authorized: the mechanisms and
 * libraries in use (with where they are imported), which guards protect which routes, the
 * authorization checks, and every route that has no authentication.
 */
import type { SummaryContext } from '../context.ts'
import { clip, LIMITS } from '../limits.ts'
import { compareText, plural } from '../text.ts'
import { librariesInUse } from './architecture.ts'

const AUTHORIZATION = /role|admin|permission|authori[sz]|PreAuthorize|Secured|RolesAllowed|hasRole|hasAuthority|IsAdmin|staff|superuser|owner|acl|rbac|scope/i

function mechanisms(context: SummaryContext): string[] {
  const lines: string[] = []
  for (const library of librariesInUse(context).filter((candidate) => candidate.kind === 'auth')) {
    const imports = context.libraries.get(library.id)?.imports ?? []
    const where = imports.length > 0 ? ` (imported at ${imports.slice(0, 3).join(', ')}${imports.length > 3 ? ', …' : ''})` : ' (declared in a manifest)'
    const mechanism = library.mechanism ?? library.label
    lines.push(`${mechanism === library.label ? mechanism : `${mechanism} via ${library.label}`}${where}`)
  }
  for (const facts of context.program.files.values()) {
    for (const signal of facts.signals) if (signal.signal === 'spring-auth-mechanism') lines.push(`Spring Security ${signal.detail}() configured at ${facts.path}:${signal.line}`)
  }
  return [...new Set(lines)].sort(compareText)
}

/** Each authenticating guard with the number of routes it protects. */
function guardUse(context: SummaryContext): Array<{ label: string; routes: number }> {
  const counts = new Map<string, number>()
  for (const route of context.routes) for (const label of route.authBy) counts.set(label, (counts.get(label) ?? 0) + 1)
  return [...counts].map(([label, routes]) => ({ label, routes })).sort((a, b) => b.routes - a.routes || compareText(a.label, b.label))
}

function weaknesses(context: SummaryContext): string[] {
  const lines: string[] = []
  for (const facts of context.program.files.values()) {
    for (const signal of facts.signals) {
      if (signal.signal === 'jwt-unverified') lines.push(`JWT checks weakened: ${signal.detail} (${facts.path}:${signal.line})`)
      if (signal.signal === 'insecure-cookie') lines.push(`cookie flag ${signal.detail} (${facts.path}:${signal.line})`)
      if (signal.signal === 'csrf-disabled') lines.push(`${signal.detail} (${facts.path}:${signal.line})`)
    }
  }
  return [...new Set(lines)].sort(compareText)
}

export function authLogicSummary(context: SummaryContext): string {
  const out: string[] = []
  const found = mechanisms(context)
  out.push(found.length > 0 ? `Mechanisms: ${found.join('; ')}.` : 'Mechanisms: no authentication library or mechanism found in the code.')
  const routes = context.routes
  if (routes.length === 0) out.push('No HTTP routes were found.')
  else {
    const authenticated = routes.filter((route) => route.auth)
    out.push(`Enforcement: ${authenticated.length} of ${plural(routes.length, 'HTTP route')} require authentication.`)
    const guards = guardUse(context)
    for (const guard of guards.slice(0, LIMITS.listInProse)) out.push(`- ${guard.label}: ${plural(guard.routes, 'route')}`)
    const authorization = guards.filter((guard) => AUTHORIZATION.test(guard.label))
    out.push(authorization.length > 0 ? `Authorization checks: ${authorization.map((guard) => `${guard.label} on ${plural(guard.routes, 'route')}`).join('; ')}.` : 'Authorization checks: none found beyond authentication (no role or permission guards on routes).')
    const open = routes.filter((route) => !route.auth)
    if (open.length > 0) {
      out.push(`Routes without authentication (${open.length}):`)
      for (const route of open.slice(0, LIMITS.listInProse * 2)) out.push(`- ${route.method} ${route.path} (${route.file}:${route.line})${route.public ? ' [explicitly public]' : ''}`)
      if (open.length > LIMITS.listInProse * 2) out.push(`- … and ${open.length - LIMITS.listInProse * 2} more`)
    } else out.push('Routes without authentication: none.')
  }
  const others = context.entries.filter((entry) => entry.kind !== 'http')
  if (others.length > 0) {
    const byKind = new Map<string, number>()
    for (const entry of others) byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + 1)
    out.push(`Other entry points (trusted by deployment, no caller authentication in code): ${[...byKind].sort((a, b) => compareText(a[0], b[0])).map(([kind, count]) => `${count} ${kind}`).join(', ')}.`)
  }
  const weak = weaknesses(context)
  if (weak.length > 0) out.push(`Weaknesses: ${weak.slice(0, LIMITS.listInProse).join('; ')}.`)
  return clip(out.join('\n'), LIMITS.authChars)
}
