/**
 * Turns code files into FileFacts: one parse per file (the whole file for languages with
 * framework support within the analysis budget, only the import section otherwise; see
 * plan.ts), on ast-grep's thread pool so that parsing overlaps with extraction on the calling
 * thread. Each tree is dropped once read.
 */
import { parseAsync } from '@ast-grep/napi'
import type { SgNode } from '@ast-grep/napi'
import { isLanguageAvailable, napiLanguage } from '../core/languages.ts'
import type { CodeFile } from './collect.ts'
import { extractGeneric, headerCut, importSection } from './extract/generic.ts'
import type { ParsePlan } from './extract/generic.ts'
import { extractJava, extractJavaImports } from './extract/java.ts'
import { extractJavaScript, extractJavaScriptImports } from './extract/javascript.ts'
import { extractPython, extractPythonImports } from './extract/python.ts'
import { emptyFacts } from './model.ts'
import type { FileFacts } from './model.ts'
import { FRAMEWORK_LANGUAGES } from './plan.ts'
import { scanSignals } from './signals.ts'

/** Parses in flight at once: enough to keep the thread pool busy while the main thread extracts. */
const PARALLEL_PARSES = 4

/** Lines that belong to the import section of framework-language files read for imports only. */
const IMPORT_LINES: Record<string, { header: RegExp; balance: '(' | '{' }> = {
  // Top-level requires only: a require inside a function is a lazy load, rare enough to leave out here.
  javascript: { header: /^\s*import\b|^\s*export\s+(?:\*|\{[^}]*\})\s+from\b|^(?:const|let|var)\s[^=]*=\s*require\s*\(|^require\s*\(/, balance: '{' },
  python: { header: /^\s*(?:import|from)\s/, balance: '(' },
  java: { header: /^\s*(?:package|import)\s/, balance: '{' },
}

function planFor(file: CodeFile): ParsePlan {
  if (!isLanguageAvailable(file.language)) return { depth: 'none' }
  if (!FRAMEWORK_LANGUAGES.has(file.language)) return headerCut(file.language, file.text)
  if (!file.importsOnly) return { depth: 'full', text: file.text }
  const spec = IMPORT_LINES[file.language === 'python' || file.language === 'java' ? file.language : 'javascript'] as { header: RegExp; balance: '(' | '{' }
  return importSection(file.text, spec.header, spec.balance)
}

function extract(facts: FileFacts, root: SgNode, file: CodeFile, importsOnly: boolean): void {
  switch (file.language) {
    case 'javascript':
    case 'typescript':
    case 'tsx':
      return (importsOnly ? extractJavaScriptImports : extractJavaScript)(facts, root, file.text)
    case 'python':
      return (importsOnly ? extractPythonImports : extractPython)(facts, root, file.text)
    case 'java':
      return (importsOnly ? extractJavaImports : extractJava)(facts, root, file.text)
    default:
      return extractGeneric(facts, root)
  }
}

export async function analyzeFile(file: CodeFile, onProgress?: (label: string) => void): Promise<FileFacts> {
  const facts = emptyFacts(file.path, file.language, file.lines)
  const plan = planFor(file)
  if (plan.depth === 'none') return facts
  try {
    const root = (await parseAsync(napiLanguage(file.language), plan.text)).root()
    // what follows is synchronous: a time limit counting from here names the right file
    onProgress?.(file.path)
    facts.depth = plan.depth
    extract(facts, root, { ...file, text: plan.text }, plan.depth === 'header')
  } catch {
    // A grammar that rejects a file leaves it without facts; the rest of the summary stands.
    return emptyFacts(file.path, file.language, file.lines)
  }
  if (!FRAMEWORK_LANGUAGES.has(file.language) || plan.depth === 'header') return facts
  facts.signals.push(...scanSignals(file.text))
  return facts
}

/** Facts for every file, in the order given, in this thread with at most PARALLEL_PARSES parses pending. */
export async function analyzeFiles(files: readonly CodeFile[], signal?: AbortSignal, onProgress?: (label: string) => void): Promise<FileFacts[]> {
  const results = new Array<FileFacts>(files.length)
  let next = 0
  const work = async () => {
    while (next < files.length) {
      signal?.throwIfAborted()
      const index = next++
      results[index] = await analyzeFile(files[index] as CodeFile, onProgress)
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_PARSES, files.length) }, work))
  return results
}
