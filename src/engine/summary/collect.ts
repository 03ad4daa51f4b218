/**
 * Reads the repository's files once: which are code (and in which language), which are
 * manifests, READMEs and configuration the summary reads as text, and which it leaves out
 * (vendored folders, tests, binary, minified and generated files, files over the size limit),
 * using the scan's own file selection so the summary sees what the scan sees.
 */
import { DEFAULT_IGNORED_DIRS, DEFAULT_MAX_FILE_BYTES, classifyContent, classifyPath, isInIgnoredDir, looksBinary } from '../scan/file-selection.ts'
import { isCodeLanguage } from '../core/languages.ts'
import type { CodeLanguage } from '../core/languages.ts'
import { manifestEcosystem } from './manifests.ts'
import type { TextFile } from './model.ts'
import { countLines } from './text.ts'

export interface SourceLike {
  path: string
  content: Buffer
}

export interface CodeFile {
  path: string
  language: CodeLanguage
  text: string
  lines: number
  /** Beyond the analysis budget: parse the import section only (see plan.ts). */
  importsOnly?: boolean
}

export interface CollectedRepository {
  code: CodeFile[]
  /** Manifests, READMEs, framework configuration, dotenv files, Prisma schemas. */
  texts: TextFile[]
  /** Test files: counted, not summarized. */
  testFiles: number
  /** Files left out, by reason (vendored, too-large, binary, minified, generated). */
  skipped: Record<string, number>
}

const IGNORED = new Set(DEFAULT_IGNORED_DIRS)
const TEST_DIR = /(?:^|\/)(?:tests?|__tests__|__mocks__|spec|specs|e2e|fixtures|testdata|test-data|testing)\//
const TEST_FILE = /(?:\.(?:test|spec)\.[cm]?[jt]sx?$|(?:^|\/)test_[^/]+\.py$|_test\.(?:py|go|rb|exs?)$|(?:^|\/)conftest\.py$|Tests?\.(?:java|kt|cs|scala|swift)$|_spec\.rb$|Test\.php$)/

/** Test code is not attack surface: it is counted, not summarized. */
export function isTestPath(path: string): boolean {
  return TEST_DIR.test(path) || TEST_FILE.test(path)
}

/** Files read as text for what they declare rather than parsed as code. */
function isTextOfInterest(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1)
  if (manifestEcosystem(path)) return true
  if (/^readme(?:\.(?:md|markdown|rst|txt))?$/i.test(name)) return true
  if (/^application(?:-[\w-]+)?\.(?:properties|ya?ml)$/.test(name) || name === 'web.xml') return true
  if (/^\.env(?:\.[\w-]+)?$/.test(name) && !/\.(?:example|sample|template|dist)$/.test(name)) return true
  return name.endsWith('.prisma') || /^(?:Dockerfile|docker-compose\.ya?ml|compose\.ya?ml|Procfile|serverless\.ya?ml)$/.test(name)
}

function normalizePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '')
}

/** Sources read between two progress reports (reading is linear: no file can stall it). */
const PROGRESS_EVERY = 1000

export async function collectSources(
  sources: AsyncIterable<SourceLike> | Iterable<SourceLike>,
  options: { signal?: AbortSignal; maxFileBytes?: number; onProgress?(label: string): void },
): Promise<CollectedRepository> {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES
  const collected: CollectedRepository = { code: [], texts: [], testFiles: 0, skipped: {} }
  const skip = (reason: string) => {
    collected.skipped[reason] = (collected.skipped[reason] ?? 0) + 1
  }
  const seen = new Set<string>()
  for await (const source of sources) {
    options.signal?.throwIfAborted()
    if (seen.size % PROGRESS_EVERY === 0) options.onProgress?.(`reading files (${seen.size} read)`)
    const path = normalizePath(source.path)
    if (seen.has(path)) continue
    seen.add(path)
    if (isInIgnoredDir(path, IGNORED)) {
      skip('vendored')
      continue
    }
    if (source.content.length > maxBytes) {
      skip('too-large')
      continue
    }
    if (isTextOfInterest(path)) {
      if (looksBinary(source.content)) skip('binary')
      else collected.texts.push({ path, text: source.content.toString('utf8') })
      continue
    }
    const decision = classifyContent(source.content, classifyPath(path))
    if ('skip' in decision) {
      skip(decision.skip)
      continue
    }
    if (!isCodeLanguage(decision.language)) continue
    if (isTestPath(path)) {
      collected.testFiles++
      continue
    }
    collected.code.push({ path, language: decision.language, text: decision.text, lines: countLines(decision.text) })
  }
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  collected.code.sort(byPath)
  collected.texts.sort(byPath)
  return collected
}
