/**
 * Directory walk for scans: regular files only, symlinks never followed, ignored folders
 * (node_modules, .git...) not entered. Every skipped folder or symlink is reported so the
 * scan can count and log it.
 */
import { opendir } from 'node:fs/promises'
import { join } from 'node:path'
import type { SkipReason } from './file-selection.ts'

export interface WalkedFile {
  /** relative to the walk root, forward slashes */
  path: string
  absolutePath: string
}

export interface WalkOptions {
  ignoredDirs: ReadonlySet<string>
  signal?: AbortSignal
  onSkip(path: string, reason: SkipReason, detail?: string): void
}

/** Files under `root` in a stable (sorted) order. */
export async function walkDirectory(root: string, options: WalkOptions): Promise<WalkedFile[]> {
  const files: WalkedFile[] = []
  await walkInto(root, '', files, options)
  return files
}

async function walkInto(absoluteDir: string, relativeDir: string, files: WalkedFile[], options: WalkOptions): Promise<void> {
  options.signal?.throwIfAborted()
  let entries
  try {
    const dir = await opendir(absoluteDir)
    entries = []
    for await (const entry of dir) entries.push(entry)
  } catch (error) {
    if (relativeDir === '') throw error
    options.onSkip(relativeDir, 'unreadable', error instanceof Error ? error.message : String(error))
    return
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    const relativePath = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`
    const absolutePath = join(absoluteDir, entry.name)
    if (entry.isSymbolicLink()) {
      options.onSkip(relativePath, 'symlink')
    } else if (entry.isDirectory()) {
      if (options.ignoredDirs.has(entry.name)) options.onSkip(relativePath, 'vendored')
      else await walkInto(absolutePath, relativePath, files, options)
    } else if (entry.isFile()) {
      files.push({ path: relativePath, absolutePath })
    }
  }
}
