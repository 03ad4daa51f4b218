/**
 * State shared by the JavaScript/TypeScript extractors while one file's tree is read: the
 * calls found, where each local name was imported from, the routers declared, and the
 * libraries the file imports.
 */
import type { SgNode } from '@ast-grep/napi'
import { libraryForNpm } from '../catalog.ts'
import { classifyJsGuard } from '../guards.ts'
import type { Binding, GuardRef } from '../model.ts'
import { callArguments, calleeRoot, flatText, literalString, startLine } from '../syntax.ts'
import { addDefinition, ExtractedFile } from './common.ts'
import type { DecoratorUse } from './nest.ts'

export const FUNCTION_KINDS = new Set(['arrow_function', 'function_expression', 'generator_function'])

/** A call kept after noise filtering, with its callee as written. */
export interface PendingCall {
  node: SgNode
  callee: string
  calleeKind: string
}

/** Per-file state while the nodes of one tree are read. */
export class JsFile extends ExtractedFile {
  readonly origins = new Map<string, Binding & { specifier: string }>()
  readonly scopeNames = new Set<string>()
  readonly calls: PendingCall[] = []
  readonly news: SgNode[] = []
  readonly decorators: DecoratorUse[] = []

  /** Import specifier of the module a local name came from. */
  originOf(name: string): string | undefined {
    return this.origins.get(calleeRoot(name))?.specifier
  }

  addImport(specifier: string, line: number, bindings: Binding[]): void {
    this.facts.imports.push({ specifier, line, bindings })
    for (const binding of bindings) this.origins.set(binding.local, { ...binding, specifier })
    const library = libraryForNpm(specifier)
    if (library) {
      this.libraries.add(library.id)
      this.kinds.add(library.kind)
    }
  }

  guard(node: SgNode): GuardRef {
    const name = flatText(node, 100)
    const guard: GuardRef = { name, line: startLine(node), ...classifyJsGuard(name, this.originOf(name)) }
    if (FUNCTION_KINDS.has(String(node.kind()))) guard.definition = addDefinition(this.facts, node, { name: `middleware@${guard.line}`, kind: 'handler' })
    return guard
  }
}

/** A queue's name: its first argument, literal or as written. */
export function queueName(node: SgNode): string {
  return firstLiteral(node) ?? flatText(callArguments(node)[0] ?? node, 40)
}

/** The first argument of a call when it is a string literal. */
export function firstLiteral(node: SgNode): string | null {
  return literalString(callArguments(node)[0])
}
