/**
 * The module import graph: internal edges (file to file, or file to package folder for Go and
 * Swift), the most depended-on modules, import cycles (strongly connected components, each
 * with one concrete cycle path), and external packages by ecosystem, joined with what the
 * manifests declare.
 */
import { libraryForPython, normalizePypi } from './catalog.ts'
import type { Manifest } from './manifests.ts'
import type { FileFacts } from './model.ts'
import type { ImportResolution } from './resolve.ts'
import { compareText, sortByKeys } from './text.ts'

export interface Edge {
  from: string
  to: string
  line: number
}

export interface ImportGraph {
  edges: Edge[]
  dependents: Map<string, Set<string>>
  dependencies: Map<string, Set<string>>
  cycles: string[][]
  /** ecosystem -> package -> importing files */
  externals: Map<string, Map<string, Set<string>>>
  unresolved: Array<{ file: string; line: number; specifier: string }>
}

export function buildGraph(files: readonly FileFacts[], resolutions: ReadonlyMap<string, ImportResolution[]>): ImportGraph {
  const graph: ImportGraph = { edges: [], dependents: new Map(), dependencies: new Map(), cycles: [], externals: new Map(), unresolved: [] }
  const seen = new Set<string>()
  for (const facts of files) {
    for (const resolution of resolutions.get(facts.path) ?? []) {
      for (const target of resolution.internal) {
        const key = `${facts.path}\u0000${target}`
        if (seen.has(key)) continue
        seen.add(key)
        graph.edges.push({ from: facts.path, to: target, line: resolution.line })
        addTo(graph.dependents, target, facts.path)
        addTo(graph.dependencies, facts.path, target)
      }
      if (resolution.external) {
        const byName = graph.externals.get(resolution.external.ecosystem) ?? new Map<string, Set<string>>()
        addTo(byName, resolution.external.name, facts.path)
        graph.externals.set(resolution.external.ecosystem, byName)
      } else if (resolution.internal.length === 0 && !resolution.builtin && isLocalSpecifier(resolution.specifier)) {
        graph.unresolved.push({ file: facts.path, line: resolution.line, specifier: resolution.specifier })
      }
    }
  }
  sortByKeys(graph.edges, (edge) => [edge.from, edge.to])
  graph.cycles = findCycles(graph.dependencies)
  return graph
}

function isLocalSpecifier(specifier: string): boolean {
  return specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('mod ') || /^(?:crate|self|super)::/.test(specifier)
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key) ?? new Set<string>()
  set.add(value)
  map.set(key, set)
}

/** Tarjan's strongly connected components (iterative), each with more than one file or a self-loop. */
function findCycles(dependencies: ReadonlyMap<string, Set<string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const components: string[][] = []
  let counter = 0
  const nodes = [...dependencies.keys()].sort(compareText)
  const successors = (node: string) => [...(dependencies.get(node) ?? [])].sort(compareText)
  for (const start of nodes) {
    if (index.has(start)) continue
    const work: Array<{ node: string; next: number; children: string[] }> = [{ node: start, next: 0, children: successors(start) }]
    index.set(start, counter)
    low.set(start, counter++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number; children: string[] }
      const child = frame.children[frame.next++]
      if (child !== undefined) {
        if (!index.has(child)) {
          index.set(child, counter)
          low.set(child, counter++)
          stack.push(child)
          onStack.add(child)
          work.push({ node: child, next: 0, children: successors(child) })
        } else if (onStack.has(child)) low.set(frame.node, Math.min(low.get(frame.node) ?? 0, index.get(child) ?? 0))
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) ?? 0, low.get(frame.node) ?? 0))
      if (low.get(frame.node) !== index.get(frame.node)) continue
      const component: string[] = []
      for (;;) {
        const member = stack.pop() as string
        onStack.delete(member)
        component.push(member)
        if (member === frame.node) break
      }
      if (component.length > 1 || dependencies.get(frame.node)?.has(frame.node)) components.push(component.sort(compareText))
    }
  }
  return sortByKeys(components, (component) => [-component.length, component[0] ?? ''])
}

/** A shortest cycle through the first member of a component (breadth-first inside it). */
export function cyclePath(component: readonly string[], dependencies: ReadonlyMap<string, Set<string>>): string[] {
  const members = new Set(component)
  const start = component[0]
  if (start === undefined) return []
  const previous = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const node = queue.shift() as string
    for (const next of [...(dependencies.get(node) ?? [])].sort(compareText)) {
      if (!members.has(next)) continue
      if (next === start) {
        const path = [node]
        for (let at = node; at !== start; ) {
          at = previous.get(at) as string
          path.push(at)
        }
        return [...path.reverse(), start]
      }
      if (!previous.has(next)) {
        previous.set(next, node)
        queue.push(next)
      }
    }
  }
  return [start, start]
}

export interface ExternalPackage {
  name: string
  importedBy: number
  declaredIn: string[]
  dev: boolean
}

/** Import names whose distribution is named differently on PyPI. */
const PYPI_ALIASES: Record<string, string> = {
  yaml: 'pyyaml',
  jwt: 'pyjwt',
  bs4: 'beautifulsoup4',
  PIL: 'pillow',
  sklearn: 'scikit-learn',
  cv2: 'opencv-python',
  dateutil: 'python-dateutil',
  dotenv: 'python-dotenv',
  jose: 'python-jose',
  MySQLdb: 'mysqlclient',
  Crypto: 'pycryptodome',
  google: 'google-api-core',
  magic: 'python-magic',
}

/** The declared distribution an import name belongs to (`flask_login` -> `Flask-Login`), or the import name. */
function pypiDistribution(name: string, declared: ReadonlyMap<string, ExternalPackage> | undefined): string {
  const byKey = new Map([...(declared?.keys() ?? [])].map((key) => [normalizePypi(key), key]))
  const candidates = [name, PYPI_ALIASES[name] ?? '', ...(libraryForPython(name)?.pypi ?? [])].filter(Boolean)
  for (const candidate of candidates) {
    const found = byKey.get(normalizePypi(candidate))
    if (found) return found
  }
  return name
}

/** External packages per ecosystem: what is imported, joined with what manifests declare. */
export function externalPackages(graph: ImportGraph, manifests: readonly Manifest[]): Record<string, ExternalPackage[]> {
  const result: Record<string, Map<string, ExternalPackage>> = {}
  const entry = (ecosystem: string, name: string) => {
    const byName = (result[ecosystem] ??= new Map())
    let found = byName.get(name)
    if (!found) {
      found = { name, importedBy: 0, declaredIn: [], dev: false }
      byName.set(name, found)
    }
    return found
  }
  for (const manifest of manifests) {
    for (const dependency of manifest.dependencies) {
      const found = entry(manifest.ecosystem, dependency.name)
      if (!found.declaredIn.includes(manifest.path)) found.declaredIn.push(manifest.path)
      found.dev = found.dev || dependency.dev
    }
  }
  for (const [ecosystem, packages] of graph.externals) {
    for (const [name, importers] of packages) {
      const key = ecosystem === 'pypi' ? pypiDistribution(name, result.pypi) : name
      const found = entry(ecosystem, key)
      found.importedBy += importers.size
    }
  }
  const output: Record<string, ExternalPackage[]> = {}
  for (const ecosystem of Object.keys(result).sort(compareText)) {
    const list = [...(result[ecosystem]?.values() ?? [])]
    for (const item of list) item.declaredIn.sort(compareText)
    output[ecosystem] = sortByKeys(list, (item) => [-item.importedBy, item.name])
  }
  return output
}
