/**
 * `crossFileDependencies`: the internal import graph (edges, most depended-on modules,
 * cycles with a concrete path each), external packages per ecosystem joined with the
 * manifests that declare them, and relative imports that point nowhere.
 */
import type { SummaryContext } from '../context.ts'
import { cyclePath, externalPackages } from '../graph.ts'
import { capped, LIMITS } from '../limits.ts'
import { sortByKeys } from '../text.ts'

export function crossFileDependencies(context: SummaryContext): Record<string, unknown> {
  const graph = context.graph
  const files = [...context.program.files.keys()]
  const nodes = new Set<string>([...files, ...graph.dependents.keys()])
  const ranked = sortByKeys(
    [...nodes].map((file) => ({ file, dependents: graph.dependents.get(file)?.size ?? 0, dependencies: graph.dependencies.get(file)?.size ?? 0 })).filter((item) => item.dependents > 0),
    (item) => [-item.dependents, item.file],
  )
  const modules = capped(ranked, LIMITS.mostDependedOn)
  const edges = capped(graph.edges, LIMITS.edges)
  const cycles = capped(graph.cycles, LIMITS.cycles)
  const packages = externalPackages(graph, context.manifests)
  const externals: Record<string, unknown> = {}
  for (const [ecosystem, list] of Object.entries(packages)) {
    const cut = capped(list, LIMITS.packagesPerEcosystem)
    externals[ecosystem] = { items: cut.items, omitted: cut.omitted }
  }
  const unresolved = capped(graph.unresolved, LIMITS.unresolved)
  return {
    summary: {
      files: files.length,
      internalEdges: graph.edges.length,
      cycles: graph.cycles.length,
      externalPackages: Object.values(packages).reduce((sum, list) => sum + list.length, 0),
      filesReadForImportsOnly: context.importsOnly,
      testFiles: context.collected.testFiles,
      skipped: Object.fromEntries(Object.entries(context.collected.skipped).sort((a, b) => (a[0] < b[0] ? -1 : 1))),
    },
    mostDependedOn: { items: modules.items, omitted: modules.omitted },
    edges: { items: edges.items, omitted: edges.omitted },
    cycles: {
      items: cycles.items.map((component) => ({ files: component.slice(0, LIMITS.cycleMembers), size: component.length, path: cyclePath(component, graph.dependencies) })),
      omitted: cycles.omitted,
    },
    externalPackages: externals,
    manifests: context.manifests.map((manifest) => ({
      path: manifest.path,
      ecosystem: manifest.ecosystem,
      ...(manifest.name ? { name: manifest.name } : {}),
      dependencies: manifest.dependencies.filter((dependency) => !dependency.dev).length,
      devDependencies: manifest.dependencies.filter((dependency) => dependency.dev).length,
    })),
    unresolvedImports: { items: unresolved.items, omitted: unresolved.omitted },
  }
}
