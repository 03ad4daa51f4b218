/**
 * Call chains from entry points: a call graph over definitions (calls resolved through
 * imports, exports, class members and declared field types, with a unique-method fallback
 * among imported files), walked breadth-first from each entry's handler to a bounded depth
 * and size, collecting the data stores, HTTP calls, shell commands and file access reached.
 */
import type { ExitFact } from './model.ts'
import type { Program } from './program.ts'
import { calleeMethod, calleeRoot } from './syntax.ts'
import { at, compareText } from './text.ts'

export const FLOW_LIMITS = { depth: 5, nodesPerFlow: 40, exitsPerFlow: 25 }

export interface FlowStep {
  function: string
  at: string
  depth: number
  calledFrom: string
}

export interface FlowExit {
  kind: string
  api: string
  at: string
  chain: string
}

export interface Flow {
  steps: FlowStep[]
  reaches: FlowExit[]
  truncated: boolean
}

type NodeKey = string

function key(file: string, index: number): NodeKey {
  return `${file}#${index}`
}

function split(node: NodeKey): { file: string; index: number } {
  const hash = node.lastIndexOf('#')
  return { file: node.slice(0, hash), index: Number(node.slice(hash + 1)) }
}

/** `order-service` for `src/services/order-service.js`; a package's `__init__.py`/`index.ts` goes by its folder. */
function moduleName(file: string): string {
  const parts = file.split('/')
  const stem = (parts[parts.length - 1] ?? file).replace(/\.[^.]+$/, '')
  return (stem === '__init__' || stem === 'index') && parts.length > 1 ? (parts[parts.length - 2] ?? stem) : stem
}

export class CallGraph {
  private readonly edges = new Map<NodeKey, Array<{ to: NodeKey; line: number }>>()
  private readonly exits = new Map<NodeKey, ExitFact[]>()
  private readonly methodsByName = new Map<string, Map<string, number[]>>()

  constructor(private readonly program: Program) {
    for (const facts of program.files.values()) {
      facts.definitions.forEach((definition, index) => {
        if (definition.kind !== 'method') return
        const byName = this.methodsByName.get(facts.path) ?? new Map<string, number[]>()
        byName.set(definition.simple, [...(byName.get(definition.simple) ?? []), index])
        this.methodsByName.set(facts.path, byName)
      })
    }
    for (const facts of program.files.values()) this.addFile(facts.path)
  }

  private addEdge(from: NodeKey, to: NodeKey, line: number): void {
    if (from === to) return
    const list = this.edges.get(from) ?? []
    if (!list.some((edge) => edge.to === to)) list.push({ to, line })
    this.edges.set(from, list)
  }

  private addFile(file: string): void {
    const facts = this.program.files.get(file)
    if (!facts || facts.depth !== 'full') return
    const parents = this.program.parentsOf(file)
    // A nested function is reachable from the function around it.
    facts.definitions.forEach((definition, index) => {
      const parent = parents[index] ?? -1
      if (parent !== -1 && definition.kind !== 'method' && facts.definitions[parent]?.kind !== 'class') this.addEdge(key(file, parent), key(file, index), definition.line)
    })
    const cache = new Map<string, NodeKey | null>()
    for (const call of facts.calls) {
      if (call.owner === -1) continue
      const ownerClass = facts.definitions[call.owner]?.owner ?? ''
      const cacheKey = `${call.callee}\u0000${ownerClass}`
      let target = cache.get(cacheKey)
      if (target === undefined) {
        target = this.resolveCall(file, call.callee, call.owner)
        cache.set(cacheKey, target)
      }
      if (target) this.addEdge(key(file, call.owner), target, call.line)
    }
    for (const exit of facts.exits) {
      if (exit.owner === -1) continue
      const node = key(file, exit.owner)
      this.exits.set(node, [...(this.exits.get(node) ?? []), exit])
    }
  }

  private resolveCall(file: string, callee: string, owner: number): NodeKey | null {
    const root = calleeRoot(callee)
    if (!root || this.program.externalOrigin(file, root) !== undefined) return null
    const target = /^[\w$.]+$/.test(callee) ? this.program.resolveReference(file, callee, owner) : undefined
    if (target?.kind === 'definition') {
      const definition = this.program.definition(target.file, target.index)
      return definition && definition.kind !== 'class' ? key(target.file, target.index) : null
    }
    return callee.includes('.') ? this.uniqueMethod(file, calleeMethod(callee)) : null
  }

  /** `something.save()` with an unknown receiver: the one method of that name in this file or the files it imports. */
  private uniqueMethod(file: string, name: string): NodeKey | null {
    if (!name) return null
    const files = [file, ...(this.program.resolutions.get(file) ?? []).flatMap((resolution) => resolution.internal)]
    const found: NodeKey[] = []
    for (const candidate of new Set(files)) for (const index of this.methodsByName.get(candidate)?.get(name) ?? []) found.push(key(candidate, index))
    return found.length === 1 ? (found[0] ?? null) : null
  }

  /** `order-service.placeOrder`, `UserService.find`, `GET /x handler`: names that stay clear across files. */
  label(node: NodeKey): string {
    const { file, index } = split(node)
    const definition = this.program.definition(file, index)
    if (!definition) return node
    if (definition.owner || definition.kind === 'handler' || definition.kind === 'class') return definition.name
    return `${moduleName(file)}.${definition.name}`
  }

  location(node: NodeKey): string {
    const { file, index } = split(node)
    return at(file, this.program.definition(file, index)?.line ?? 0)
  }

  /** Breadth-first from a handler: the functions reached and the exits they contain. `name` labels the handler itself. */
  walk(file: string, index: number, name?: string): Flow {
    const start = key(file, index)
    const seen = new Map<NodeKey, { depth: number; via: NodeKey | null; line: number }>([[start, { depth: 0, via: null, line: 0 }]])
    const queue: NodeKey[] = [start]
    let truncated = false
    while (queue.length > 0) {
      const node = queue.shift() as NodeKey
      const depth = seen.get(node)?.depth ?? 0
      const next = [...(this.edges.get(node) ?? [])].sort((a, b) => a.line - b.line || compareText(a.to, b.to))
      for (const edge of next) {
        if (seen.has(edge.to)) continue
        if (depth + 1 > FLOW_LIMITS.depth || seen.size >= FLOW_LIMITS.nodesPerFlow) {
          truncated = true
          continue
        }
        seen.set(edge.to, { depth: depth + 1, via: node, line: edge.line })
        queue.push(edge.to)
      }
    }
    const chainTo = (node: NodeKey): string[] => {
      const names: string[] = []
      for (let at: NodeKey | null = node; at; at = seen.get(at)?.via ?? null) names.push(at === start && name ? name : this.label(at))
      return names.reverse()
    }
    const steps: FlowStep[] = []
    const reaches: FlowExit[] = []
    for (const [node, info] of seen) {
      if (info.via) steps.push({ function: this.label(node), at: this.location(node), depth: info.depth, calledFrom: at(split(info.via).file, info.line) })
      for (const exit of this.exits.get(node) ?? []) {
        reaches.push({ kind: exit.kind, api: exit.api, at: at(split(node).file, exit.line), chain: [...chainTo(node), `${exit.kind}: ${exit.api}`].join(' → ') })
      }
    }
    steps.sort((a, b) => a.depth - b.depth || compareText(a.at, b.at))
    reaches.sort((a, b) => compareText(a.kind, b.kind) || compareText(a.at, b.at) || compareText(a.api, b.api))
    if (reaches.length > FLOW_LIMITS.exitsPerFlow) truncated = true
    return { steps, reaches: reaches.slice(0, FLOW_LIMITS.exitsPerFlow), truncated }
  }
}
