/**
 * Directory walk for scans: regular files only, symlinks never followed, ignored folders
 * (node_modules, .git...) not entered. Every skipped folder or symlink is reported so the
 * scan can count and log it. On request, ignored folders of compiled output (dist/, build/) are
 * entered and what is found there tagged with the folder: whether the scan reads them is decided
 * once every path is known (compiled-output.ts).
 */
import { opendir } from 'node:fs/promises'
import { join } from 'node:path'
import type { SkipReason } from './file-selection.ts'
import { isCompiledOutputDir } from './compiled-output.ts'

export interface WalkedFile {
  /** relative to the walk root, forward slashes */
  path: string
  absolutePath: string
  /** the compiled folder (dist/, build/) holding the file, when in one */
  compiledFolder?: string
}

export interface WalkOptions {
  ignoredDirs: ReadonlySet<string>
  /** Called for each ignored folder of compiled output, which is then entered and what is found there tagged; without it, skipped like the others. */
  onCompiledFolder?(path: string): void
  signal?: AbortSignal
  /** `compiledFolder`: the skip happened inside that compiled folder, and counts only if the folder is read */
  onSkip(path: string, reason: SkipReason, detail?: string, compiledFolder?: string): void
}

/** Files under `root` in a stable (sorted) order. */
export async function walkDirectory(root: string, options: WalkOptions): Promise<WalkedFile[]> {
  const files: WalkedFile[] = []
  await walkInto(root, '', files, options, undefined)
  return files
}

async function walkInto(absoluteDir: string, relativeDir: string, files: WalkedFile[], options: WalkOptions, compiledFolder: string | undefined): Promise<void> {
  options.signal?.throwIfAborted()
  let entries
  try {
    const dir = await opendir(absoluteDir)
    entries = []
    for await (const entry of dir) entries.push(entry)
  } catch (error) {
    if (relativeDir === '') throw error
    options.onSkip(relativeDir, 'unreadable', error instanceof Error ? error.message : String(error), compiledFolder)
    return
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  for (const entry of entries) {
    const relativePath = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`
    const absolutePath = join(absoluteDir, entry.name)
    if (entry.isSymbolicLink()) {
      options.onSkip(relativePath, 'symlink', undefined, compiledFolder)
    } else if (entry.isDirectory()) {
      if (options.onCompiledFolder && isCompiledOutputDir(entry.name, options.ignoredDirs)) {
        if (compiledFolder === undefined) options.onCompiledFolder(relativePath)
        await walkInto(absolutePath, relativePath, files, options, compiledFolder ?? relativePath)
      }
      else if (options.ignoredDirs.has(entry.name)) options.onSkip(relativePath, 'vendored', undefined, compiledFolder)
      else await walkInto(absolutePath, relativePath, files, options, compiledFolder)
    } else if (entry.isFile()) {
      files.push(compiledFolder === undefined ? { path: relativePath, absolutePath } : { path: relativePath, absolutePath, compiledFolder })
    }
  }
}
