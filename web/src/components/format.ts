/** How numbers, sizes and times read in the dashboard (one place, so every view says them alike). */

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KiB', 'MiB', 'GiB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—'
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour12: false })
}

/** `languages` is language -> lines of code: the languages by lines, largest first. */
export function formatLanguages(languages: unknown): string {
  if (!languages || typeof languages !== 'object') return '—'
  const entries = Object.entries(languages as Record<string, number>).sort((a, b) => b[1] - a[1])
  return entries.length === 0 ? '—' : entries.map(([language]) => language).join(', ')
}
