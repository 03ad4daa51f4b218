/**
 * Batch reads answer a list of keys with one statement: this puts the rows back in the keys'
 * order, one group per key (empty when no row has it), as DataLoader expects.
 */
export function groupRowsByKey<T>(keys: readonly string[], rows: readonly T[], keyOf: (row: T) => string): T[][] {
  const groups = new Map<string, T[]>(keys.map((key) => [key, []]))
  for (const row of rows) groups.get(keyOf(row))?.push(row)
  return keys.map((key) => groups.get(key) ?? [])
}
