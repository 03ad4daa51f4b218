/**
 * `ragContext`: a compact plain-text digest for retrieval: what the project is (README and
 * manifests), its architecture, languages, main libraries, entry points and routes, models,
 * most imported modules and the files a security reviewer should read first. Deterministic
 * and cut at a line boundary to LIMITS.ragBytes.
 */
import type { SummaryContext } from '../context.ts'
import { LIMITS } from '../limits.ts'
import { compareText, fitBytes, oneLine, plural, uniqueSorted } from '../text.ts'
import { LANGUAGE_NAMES, dataStores, librariesInUse } from './architecture.ts'

/** First prose paragraph of the shortest-path README: no headings, badges, HTML or code. */
export function readmePurpose(context: SummaryContext): string {
  const readme = context.collected.texts.filter((file) => /(?:^|\/)readme(?:\.\w+)?$/i.test(file.path)).sort((a, b) => a.path.split('/').length - b.path.split('/').length || compareText(a.path, b.path))[0]
  if (!readme) return ''
  const paragraphs = readme.text.replace(/```[\s\S]*?```/g, '').split(/\n\s*\n/)
  for (const paragraph of paragraphs) {
    const text = paragraph
      .split('\n')
      .filter((line) => !/^\s*(?:#|=|-{3,}|\[!\[|!\[|<|\||>)/.test(line))
      .join(' ')
      .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
      .trim()
    if (text.length >= 20) return oneLine(text, 400)
  }
  return ''
}

function projectLine(context: SummaryContext): string {
  const named = context.manifests.find((manifest) => manifest.name) ?? null
  const description = context.manifests.find((manifest) => manifest.description)?.description ?? ''
  const name = named?.name ?? ''
  return [name, description].filter(Boolean).join(': ')
}

function languageLine(context: SummaryContext): string {
  const byLanguage = new Map<string, { files: number; lines: number }>()
  for (const file of context.collected.code) {
    const name = LANGUAGE_NAMES[file.language] ?? file.language
    const entry = byLanguage.get(name) ?? { files: 0, lines: 0 }
    entry.files++
    entry.lines += file.lines
    byLanguage.set(name, entry)
  }
  return [...byLanguage]
    .sort((a, b) => b[1].lines - a[1].lines || compareText(a[0], b[0]))
    .map(([language, count]) => `${language} ${count.lines} lines/${count.files} files`)
    .join(', ')
}

/** Files worth reading first, with why. */
function securityFiles(context: SummaryContext): string[] {
  const reasons = new Map<string, Set<string>>()
  const add = (file: string, reason: string) => reasons.set(file, (reasons.get(file) ?? new Set()).add(reason))
  for (const route of context.routes) {
    for (const label of route.authBy) {
      const location = /;\s*([^;()]+):\d+\)$|\(([^;()]+):\d+\)$/.exec(label)
      const file = location?.[1] ?? location?.[2]
      if (file && context.program.files.has(file.trim())) add(file.trim(), 'auth guard')
    }
  }
  for (const facts of context.program.files.values()) {
    for (const exit of facts.exits) if (exit.kind === 'shell' || exit.kind === 'http') add(facts.path, exit.kind === 'shell' ? 'runs shell commands' : 'outbound HTTP')
    for (const signal of facts.signals) {
      if (signal.signal === 'hardcoded-secret') add(facts.path, 'hard-coded credential')
      else if (/^(?:cors-any-origin|csrf-disabled|debug-enabled|tls-verification-disabled|jwt-unverified|weak-hash)$/.test(signal.signal)) add(facts.path, signal.signal)
      else if (signal.signal.startsWith('django-setting:')) add(facts.path, 'framework security settings')
    }
    if (facts.accessRules.length > 0) add(facts.path, 'access rules')
    if (facts.inputs.some((input) => input.kind === 'environment')) add(facts.path, 'reads environment')
  }
  for (const file of context.collected.texts) if (/(?:^|\/)(?:\.env[\w.-]*|application[\w-]*\.(?:properties|ya?ml))$/.test(file.path)) add(file.path, 'configuration')
  for (const signal of context.configSignals) add(signal.file, signal.signal === 'hardcoded-secret' ? 'hard-coded credential' : signal.signal)
  return [...reasons]
    .sort((a, b) => b[1].size - a[1].size || compareText(a[0], b[0]))
    .map(([file, why]) => `${file} (${[...why].sort(compareText).join(', ')})`)
}

export function ragContext(context: SummaryContext, architecture: string): string {
  const out: string[] = []
  const project = projectLine(context)
  if (project) out.push(`Project: ${oneLine(project, 300)}`)
  const purpose = readmePurpose(context)
  if (purpose) out.push(`Purpose: ${purpose}`)
  out.push(`Architecture: ${architecture}`)
  const languages = languageLine(context)
  if (languages) out.push(`Languages: ${languages}`)
  const left = Object.entries(context.collected.skipped).sort((a, b) => compareText(a[0], b[0]))
  if (context.collected.testFiles > 0 || left.length > 0) {
    out.push(`Not summarized: ${[context.collected.testFiles > 0 ? plural(context.collected.testFiles, 'test file') : '', ...left.map(([reason, count]) => `${count} ${reason}`)].filter(Boolean).join(', ')}`)
  }
  if (context.importsOnly > 0) out.push(`Coverage: ${context.importsOnly} of ${context.collected.code.length} code files were beyond the analysis budget and read for imports only`)
  const libraries = librariesInUse(context)
  const notable = uniqueSorted(libraries.filter((library) => library.kind !== 'crypto' && library.kind !== 'filesystem' && library.kind !== 'shell').map((library) => library.label))
  if (notable.length > 0) out.push(`Libraries: ${notable.join(', ')}`)
  const stores = dataStores(libraries)
  if (stores.length > 0) out.push(`Data stores: ${stores.join(', ')}`)
  const byKind = new Map<string, number>()
  for (const entry of context.entries) byKind.set(entry.kind, (byKind.get(entry.kind) ?? 0) + 1)
  if (byKind.size > 0) out.push(`Entry points: ${[...byKind].sort((a, b) => compareText(a[0], b[0])).map(([kind, count]) => `${count} ${kind}`).join(', ')}; ${context.routes.filter((route) => !route.auth).length} routes without authentication`)
  if (context.routes.length > 0) {
    out.push('Routes:')
    for (const route of context.routes.slice(0, 60)) {
      const handler = route.handler ? ` -> ${route.handler.name} ${route.handler.file}:${route.handler.line}` : ''
      out.push(`  ${route.method} ${route.path}${handler} [${route.auth ? 'auth' : 'no auth'}]`)
    }
    if (context.routes.length > 60) out.push(`  … ${plural(context.routes.length - 60, 'more route')}`)
  }
  const others = context.entries.filter((entry) => entry.kind !== 'http')
  if (others.length > 0) {
    out.push('Other entry points:')
    for (const entry of others.slice(0, 20)) out.push(`  ${entry.kind}: ${entry.name} ${entry.file}:${entry.line}`)
  }
  const models = context.models.map((model) => `${model.name} (${model.orm}, ${model.file}:${model.line})`)
  if (models.length > 0) out.push(`Models: ${models.slice(0, 40).join(', ')}`)
  const ranked = [...context.graph.dependents].map(([file, dependents]) => [file, dependents.size] as const).sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
  const main = ranked.filter(([, count]) => count > 1).slice(0, 12)
  if (main.length > 0) out.push(`Most imported modules: ${main.map(([file, count]) => `${file} (${count})`).join(', ')}`)
  const files = securityFiles(context)
  if (files.length > 0) {
    out.push('Security-relevant files:')
    for (const line of files.slice(0, 40)) out.push(`  ${line}`)
  }
  if (context.manifests.length > 0) out.push(`Manifests: ${context.manifests.map((manifest) => `${manifest.path} (${manifest.ecosystem})`).join(', ')}`)
  return fitBytes(out.join('\n'), LIMITS.ragBytes)
}
