/**
 * `architecturePattern`: what kind of system this is and its shape, from what the code shows:
 * frameworks in use, entry points, layers (by folder and file naming conventions), data
 * stores and ORMs, queues, outbound calls, command lines.
 */
import { libraryForDependency } from '../catalog.ts'
import type { Library } from '../catalog.ts'
import type { SummaryContext } from '../context.ts'
import { clip, LIMITS } from '../limits.ts'
import { compareText, listProse, plural, uniqueSorted } from '../text.ts'

export const LANGUAGE_NAMES: Record<string, string> = {
  javascript: 'JavaScript', typescript: 'TypeScript', tsx: 'TypeScript', python: 'Python', java: 'Java', go: 'Go', kotlin: 'Kotlin', swift: 'Swift', c: 'C', cpp: 'C++',
  csharp: 'C#', rust: 'Rust', ruby: 'Ruby', php: 'PHP', scala: 'Scala', bash: 'shell',
}

/** Layers by folder (`services/`) or file naming (`user-service.js`, `UserService.java`, `views.py`). */
const LAYERS: Array<[name: string, pattern: RegExp]> = [
  ['routes', /(?:^|\/)(?:routes?|routers?)\/|(?:^|[-_./])(?:routes?|router|urls)\.\w+$/i],
  ['controllers', /(?:^|\/)controllers?\/|(?:^|[-_./])controller\.\w+$|Controller\.\w+$/i],
  ['handlers', /(?:^|\/)handlers?\/|(?:^|[-_./])handlers?\.\w+$/i],
  ['views', /(?:^|\/)views?\/|(?:^|\/)views\.py$/i],
  ['resolvers', /(?:^|\/)resolvers?\/|(?:^|[-_./])resolvers?\.\w+$/i],
  ['middleware', /(?:^|\/)middlewares?\/|(?:^|[-_./])middlewares?\.\w+$/i],
  ['services', /(?:^|\/)services?\/|(?:^|[-_./])service\.\w+$|Service\.\w+$|(?:^|\/)services\.py$/i],
  ['repositories', /(?:^|\/)(?:repositor(?:y|ies)|daos?)\/|(?:^|[-_./])(?:repository|dao)\.\w+$|(?:Repository|Dao)\.\w+$/i],
  ['models', /(?:^|\/)(?:models?|entities|entity|domain)\/|(?:^|[-_./])(?:models?|entity)\.\w+$/i],
  ['schemas', /(?:^|\/)(?:schemas?|serializers?|dtos?)\/|(?:^|[-_./])(?:schemas?|serializers?|dto)\.\w+$/i],
  ['jobs', /(?:^|\/)(?:jobs?|workers?|tasks|queues?|consumers?)\/|(?:^|[-_./])(?:tasks|jobs?|workers?)\.\w+$/i],
  ['migrations', /(?:^|\/)migrations?\//i],
]

/** Libraries in use: imported in code, or declared (not for development) in a manifest. */
export function librariesInUse(context: SummaryContext): Library[] {
  const found = new Map<string, Library>()
  for (const { library } of context.libraries.values()) found.set(library.id, library)
  for (const manifest of context.manifests) {
    for (const dependency of manifest.dependencies) {
      if (dependency.dev) continue
      const library = libraryForDependency(manifest.ecosystem, dependency.name)
      if (library) found.set(library.id, library)
    }
  }
  return [...found.values()].sort((a, b) => compareText(a.id, b.id))
}

function languages(context: SummaryContext): string[] {
  const lines = new Map<string, number>()
  for (const file of context.collected.code) {
    const name = LANGUAGE_NAMES[file.language] ?? file.language
    lines.set(name, (lines.get(name) ?? 0) + file.lines)
  }
  const total = [...lines.values()].reduce((sum, count) => sum + count, 0)
  return [...lines]
    .filter(([, count]) => count >= total * 0.1)
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .map(([name]) => name)
}

export function layersOf(context: SummaryContext): string[] {
  const paths = context.collected.code.map((file) => file.path)
  return LAYERS.filter(([, pattern]) => paths.some((path) => pattern.test(path))).map(([name]) => name)
}

/** `PostgreSQL (pg, Sequelize)`: stores with the libraries that reach them; generic ORMs join the specific store. */
export function dataStores(libraries: readonly Library[]): string[] {
  const byStore = new Map<string, string[]>()
  for (const library of libraries) {
    if (library.kind !== 'database' && library.kind !== 'orm') continue
    const store = library.store ?? 'database'
    byStore.set(store, [...(byStore.get(store) ?? []), library.label])
  }
  const generic = byStore.get('SQL database') ?? []
  const specific = [...byStore.keys()].filter((store) => store !== 'SQL database' && !['MongoDB', 'Redis', 'Elasticsearch', 'DynamoDB'].includes(store))
  if (generic.length > 0 && specific.length > 0) {
    byStore.delete('SQL database')
    const first = specific.sort(compareText)[0] as string
    byStore.set(first, [...generic, ...(byStore.get(first) ?? [])])
  }
  return [...byStore].sort((a, b) => compareText(a[0], b[0])).map(([store, labels]) => `${store} (${uniqueSorted(labels).join(', ')})`)
}

function labelsOf(libraries: readonly Library[], kind: string): string[] {
  return uniqueSorted(libraries.filter((library) => library.kind === kind).map((library) => library.label))
}

function systemKind(context: SummaryContext, libraries: readonly Library[]): string {
  const frameworks = labelsOf(libraries, 'web-framework')
  const graphql = labelsOf(libraries, 'graphql')
  const kinds = new Set(context.entries.map((entry) => entry.kind))
  const npmPackages = context.manifests.filter((manifest) => manifest.ecosystem === 'npm').length
  const prefix = npmPackages > 2 ? `monorepo (${npmPackages} npm packages): ` : ''
  if (context.routes.length > 0 || frameworks.length > 0) {
    const templates = libraries.some((library) => library.kind === 'template')
    const what = frameworks.includes('Next.js') ? 'application' : graphql.length > 0 && context.routes.every((route) => route.framework === 'graphql') ? 'GraphQL API' : templates ? 'web application (server-rendered pages)' : 'HTTP API'
    return `${prefix}${listProse(frameworks.length > 0 ? frameworks : ['custom'])} ${what}${graphql.length > 0 && what !== 'GraphQL API' ? ` with GraphQL (${graphql.join(', ')})` : ''}`
  }
  if (kinds.has('consumer')) return `${prefix}background worker`
  if (kinds.has('cli') || kinds.has('main')) return `${prefix}command-line program`
  if (kinds.has('script')) return `${prefix}shell scripts`
  return `${prefix}library (no entry points found)`
}

export function architecturePattern(context: SummaryContext): string {
  const libraries = librariesInUse(context)
  const parts: string[] = []
  const langs = languages(context)
  parts.push(`${systemKind(context, libraries)}${langs.length > 0 ? ` (${langs.join(', ')})` : ''}`)
  const layers = layersOf(context)
  if (layers.length > 0) parts.push(`with ${layers.join('/')} layer${layers.length > 1 ? 's' : ''}`)
  const stores = dataStores(libraries)
  if (stores.length > 0) parts.push(`over ${listProse(stores)}`)
  const details: string[] = []
  const queues = labelsOf(libraries, 'queue')
  const consumers = context.entries.filter((entry) => entry.kind === 'consumer').length
  if (queues.length > 0 || consumers > 0) details.push(`background jobs/messaging${queues.length > 0 ? ` with ${queues.join(', ')}` : ''}${consumers > 0 ? ` (${plural(consumers, 'consumer')})` : ''}`)
  const scheduled = context.entries.filter((entry) => entry.kind === 'scheduled').length
  if (scheduled > 0) details.push(plural(scheduled, 'scheduled job'))
  if (libraries.some((library) => library.kind === 'websocket')) details.push('WebSocket endpoints')
  const exitCounts = new Map<string, number>()
  for (const facts of context.program.files.values()) for (const exit of facts.exits) exitCounts.set(exit.kind, (exitCounts.get(exit.kind) ?? 0) + 1)
  const clients = labelsOf(libraries, 'http-client').filter((label) => label !== 'Node http/https')
  if (exitCounts.get('http')) details.push(`outbound HTTP${clients.length > 0 ? ` (${clients.join(', ')})` : ''}`)
  if (exitCounts.get('shell')) details.push(`shell commands (${plural(exitCounts.get('shell') ?? 0, 'call site')})`)
  // In a web application `main` boots the server; only real command lines count here.
  const cli = context.entries.filter((entry) => entry.kind === 'cli').length
  if (cli > 0 && context.routes.length > 0) details.push(plural(cli, 'command-line entry point'))
  let text = parts.join(' ')
  if (details.length > 0) text += `; ${details.join('; ')}`
  const authenticated = context.routes.filter((route) => route.auth).length
  if (context.routes.length > 0) text += `. ${plural(context.routes.length, 'HTTP route')} (${authenticated} authenticated)`
  if (context.models.length > 0) text += `, ${plural(context.models.length, 'data model')}`
  return clip(`${text}.`, LIMITS.architectureChars)
}
