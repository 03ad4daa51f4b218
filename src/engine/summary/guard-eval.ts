/**
 * Whether a guard, as placed in a file, authenticates: a verdict known at extraction
 * (library APIs), else the body of the function it refers to (token verification, session
 * checks, 401/403 refusals), else its name. Verdicts are cached per file and name.
 */
import { guardMechanismFromHints } from './extract/common.ts'
import { authByName } from './guards.ts'
import type { GuardRef } from './model.ts'
import type { Program } from './program.ts'
import { at } from './text.ts'

export interface PlacedGuard {
  guard: GuardRef
  file: string
}

export interface GuardVerdict {
  auth: boolean
  public: boolean
  /** `requireAuth (JWT; src/middleware/auth.js:4)` */
  label: string
  mechanism: string
}

export class GuardEvaluator {
  private readonly cache = new Map<string, GuardVerdict>()

  constructor(private readonly program: Program) {}

  evaluate(placed: PlacedGuard): GuardVerdict {
    const key = `${placed.file}\u0000${placed.guard.name}\u0000${placed.guard.definition ?? ''}\u0000${placed.guard.line}`
    let verdict = this.cache.get(key)
    if (!verdict) {
      verdict = this.decide(placed)
      this.cache.set(key, verdict)
    }
    return verdict
  }

  private decide({ guard, file }: PlacedGuard): GuardVerdict {
    const name = guard.name
    if (guard.public) return { auth: false, public: true, label: name, mechanism: 'public' }
    if (guard.auth !== undefined) {
      const mechanism = guard.mechanism ?? ''
      return { auth: guard.auth, public: false, label: mechanism ? `${name} (${mechanism})` : name, mechanism }
    }
    if (guard.definition !== undefined) {
      const definition = this.program.definition(file, guard.definition)
      const mechanism = guardMechanismFromHints(definition?.authHints)
      const where = definition ? at(file, definition.line) : at(file, guard.line)
      return mechanism ? { auth: true, public: false, label: `${name} (${mechanism}; ${where})`, mechanism } : { auth: false, public: false, label: name, mechanism: '' }
    }
    const reference = name.replace(/^@/, '').replace(/\(.*$/s, '')
    const target = /^[\w$.]+$/.test(reference) ? this.program.resolveReference(file, reference) : undefined
    if (target?.kind === 'definition') {
      const definition = this.program.definition(target.file, target.index)
      const where = definition ? at(target.file, definition.line) : target.file
      const mechanism = definition?.kind === 'class' ? this.classMechanism(target.file, target.index) : guardMechanismFromHints(definition?.authHints)
      if (mechanism) return { auth: true, public: false, label: `${name} (${mechanism}; ${where})`, mechanism }
      if (authByName(reference)) return { auth: true, public: false, label: `${name} (${where})`, mechanism: 'custom guard' }
      return { auth: false, public: false, label: name, mechanism: '' }
    }
    if (authByName(reference)) return { auth: true, public: false, label: name, mechanism: 'custom guard' }
    return { auth: false, public: false, label: name, mechanism: '' }
  }

  /** Guard classes (NestJS `JwtAuthGuard extends AuthGuard('jwt')`, a `canActivate` that verifies). */
  private classMechanism(file: string, index: number): string | null {
    const facts = this.program.files.get(file)
    const definition = facts?.definitions[index]
    if (!facts || !definition) return null
    if ((definition.bases ?? []).some((base) => /AuthGuard/.test(base))) return 'Passport strategy (NestJS AuthGuard)'
    const canActivate = facts.definitions.find((candidate) => candidate.owner === definition.simple && candidate.simple === 'canActivate')
    return guardMechanismFromHints(canActivate?.authHints)
  }
}
