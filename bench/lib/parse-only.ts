/**
 * The benchmark's baseline: the same file selection as a scan, each selected file read and
 * parsed once by ast-grep, and nothing else. A full scan is compared against this.
 */
import { readFile } from 'node:fs/promises'
import { parse, parseAsync } from '@ast-grep/napi'
import { classifyContent, classifyPath, DEFAULT_IGNORED_DIRS } from '../../src/engine/scan/file-selection.ts'
import { isCodeLanguage, napiLanguage } from '../../src/engine/core/languages.ts'
import { walkDirectory } from '../../src/engine/scan/walk.ts'

export interface ParseOnlyResult {
  files: number
  lines: number
  durationMs: number
}

export async function parseOnly(dir: string, options: { ignoredDirs?: readonly string[]; concurrency?: number } = {}): Promise<ParseOnlyResult> {
  const started = performance.now()
  const files = await walkDirectory(dir, { ignoredDirs: new Set(options.ignoredDirs ?? DEFAULT_IGNORED_DIRS), onSkip: () => undefined })
  const result: ParseOnlyResult = { files: 0, lines: 0, durationMs: 0 }
  const concurrency = options.concurrency ?? 1
  let next = 0
  const work = async () => {
    while (next < files.length) {
      const file = files[next++]
      if (!file) break
      const decision = classifyPath(file.path)
      if ('skip' in decision) continue
      const content = await readFile(file.absolutePath)
      if (content.length > 1024 * 1024) continue
      const classified = classifyContent(content, decision)
      if ('skip' in classified || !isCodeLanguage(classified.language)) continue
      const language = napiLanguage(classified.language)
      if (concurrency > 1) await parseAsync(language, classified.text)
      else parse(language, classified.text)
      result.files++
      result.lines += classified.text.split('\n').length
    }
  }
  await Promise.all(Array.from({ length: concurrency }, work))
  result.durationMs = performance.now() - started
  return result
}
