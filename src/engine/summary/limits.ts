/**
 * Size bounds of every part of the summary, so a repository of any size gives a summary of
 * bounded size. Lists beyond a bound are cut (sorted first, so the cut is deterministic) and
 * the number left out is reported next to them.
 */
export const LIMITS = {
  routes: 300,
  entries: 100,
  exitsPerKind: 100,
  inputsPerKind: 60,
  locationsPerInput: 5,
  flows: 150,
  edges: 800,
  mostDependedOn: 30,
  cycles: 20,
  cycleMembers: 30,
  packagesPerEcosystem: 200,
  unresolved: 50,
  dataFlowEntries: 200,
  dataFlowsPerEntry: 20,
  listInProse: 25,
  architectureChars: 1200,
  authChars: 6000,
  securityChars: 8000,
  ragBytes: 8192,
} as const

/** The first `max` items and how many were left out. */
export function capped<T>(items: readonly T[], max: number): { items: T[]; omitted: number } {
  return { items: items.slice(0, max), omitted: Math.max(0, items.length - max) }
}

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}
