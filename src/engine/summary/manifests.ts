/**
 * Dependency manifests: package.json, requirements*.txt, pyproject.toml, Pipfile, setup.py,
 * pom.xml, build.gradle(.kts), go.mod, Cargo.toml, Gemfile, composer.json and *.csproj. Each
 * is read into the project's name and description (for the digest), its declared
 * dependencies and its declared entry points (npm `bin`, Python console scripts).
 *
 * These are small configuration files with simple, well-known layouts, so line-oriented
 * reading is enough (no TOML or XML parser is installed, and none is needed for these keys).
 */
import type { Ecosystem } from './catalog.ts'
import type { TextFile } from './model.ts'
import { compareText } from './text.ts'

export interface Dependency {
  name: string
  version: string
  /** Declared for development or tests only. */
  dev: boolean
}

export interface Manifest {
  path: string
  ecosystem: Ecosystem
  name: string
  description: string
  dependencies: Dependency[]
  /** Declared executables: npm `bin`, Python `[project.scripts]`, `console_scripts`. */
  entryPoints: Array<{ name: string; target: string }>
  /** Go module path, PHP PSR-4 roots: used to resolve imports to files. */
  modulePath?: string
  psr4?: Record<string, string>
}

const MANIFEST_NAMES: Record<string, Ecosystem> = {
  'package.json': 'npm',
  'pyproject.toml': 'pypi',
  Pipfile: 'pypi',
  'setup.py': 'pypi',
  'pom.xml': 'maven',
  'build.gradle': 'maven',
  'build.gradle.kts': 'maven',
  'go.mod': 'go',
  'Cargo.toml': 'cargo',
  Gemfile: 'gem',
  'composer.json': 'composer',
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1)
}

export function manifestEcosystem(path: string): Ecosystem | null {
  const name = baseName(path)
  const known = MANIFEST_NAMES[name]
  if (known) return known
  if (/^requirements[\w.-]*\.txt$/i.test(name)) return 'pypi'
  if (name.endsWith('.csproj')) return 'nuget'
  return null
}

export function parseManifest(file: TextFile): Manifest | null {
  const ecosystem = manifestEcosystem(file.path)
  if (!ecosystem) return null
  const manifest: Manifest = { path: file.path, ecosystem, name: '', description: '', dependencies: [], entryPoints: [] }
  const name = baseName(file.path)
  try {
    if (name === 'package.json') readPackageJson(file.text, manifest)
    else if (name === 'composer.json') readComposerJson(file.text, manifest)
    else if (name === 'pyproject.toml') readPyproject(file.text, manifest)
    else if (name === 'Pipfile') readPipfile(file.text, manifest)
    else if (name === 'setup.py') readSetupPy(file.text, manifest)
    else if (name === 'pom.xml') readPom(file.text, manifest)
    else if (name.startsWith('build.gradle')) readGradle(file.text, manifest)
    else if (name === 'go.mod') readGoMod(file.text, manifest)
    else if (name === 'Cargo.toml') readCargo(file.text, manifest)
    else if (name === 'Gemfile') readGemfile(file.text, manifest)
    else if (name.endsWith('.csproj')) readCsproj(file.text, manifest)
    else readRequirements(file.text, manifest)
  } catch {
    // A malformed manifest still counts as found; it just declares nothing we can read.
  }
  manifest.dependencies.sort((a, b) => compareText(a.name, b.name) || Number(a.dev) - Number(b.dev))
  manifest.entryPoints.sort((a, b) => compareText(a.name, b.name))
  return manifest
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

function addDependencies(manifest: Manifest, table: unknown, dev: boolean, skip?: (name: string) => boolean): void {
  if (!isRecord(table)) return
  for (const [name, version] of Object.entries(table)) {
    if (skip?.(name)) continue
    manifest.dependencies.push({ name, version: typeof version === 'string' ? version : '', dev })
  }
}

function readPackageJson(text: string, manifest: Manifest): void {
  const json: unknown = JSON.parse(text)
  if (!isRecord(json)) return
  manifest.name = stringOf(json.name)
  manifest.description = stringOf(json.description)
  addDependencies(manifest, json.dependencies, false)
  addDependencies(manifest, json.peerDependencies, false)
  addDependencies(manifest, json.optionalDependencies, false)
  addDependencies(manifest, json.devDependencies, true)
  const bin = json.bin
  if (typeof bin === 'string') manifest.entryPoints.push({ name: manifest.name || 'bin', target: bin })
  else if (isRecord(bin)) for (const [command, target] of Object.entries(bin)) manifest.entryPoints.push({ name: command, target: stringOf(target) })
}

function readComposerJson(text: string, manifest: Manifest): void {
  const json: unknown = JSON.parse(text)
  if (!isRecord(json)) return
  manifest.name = stringOf(json.name)
  manifest.description = stringOf(json.description)
  const platform = (name: string) => name === 'php' || name.startsWith('ext-')
  addDependencies(manifest, json.require, false, platform)
  addDependencies(manifest, json['require-dev'], true, platform)
  const autoload = isRecord(json.autoload) ? json.autoload['psr-4'] : undefined
  if (isRecord(autoload)) {
    manifest.psr4 = {}
    for (const [prefix, dir] of Object.entries(autoload)) if (typeof dir === 'string') manifest.psr4[prefix] = dir
  }
}

/** A requirement line (`Flask[async]>=2.0 ; python_version > "3.8"`) -> name and version. */
function requirement(line: string): Dependency | null {
  const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*([^;#]*)/.exec(line)
  if (!match?.[1]) return null
  return { name: match[1], version: (match[2] ?? '').trim(), dev: false }
}

function readRequirements(text: string, manifest: Manifest): void {
  const dev = /(?:^|[-_.])(?:dev|test|tests|lint|docs)(?:[-_.]|\.txt$)/i.test(baseName(manifest.path))
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith('-') || line.includes('://')) continue
    const dependency = requirement(line)
    if (dependency) manifest.dependencies.push({ ...dependency, dev })
  }
}

type TomlTables = Map<string, Map<string, string>>

/** The subset of TOML manifests use: `[table]` headers and `key = value`, arrays over several lines. */
function readToml(text: string): TomlTables {
  const tables: TomlTables = new Map([['', new Map()]])
  let current = tables.get('') as Map<string, string>
  let pendingKey: string | null = null
  let pendingValue = ''
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim()
    if (pendingKey !== null) {
      pendingValue += ` ${line}`
      if (bracketsBalanced(pendingValue)) {
        current.set(pendingKey, pendingValue.trim())
        pendingKey = null
      }
      continue
    }
    if (!line || line.startsWith('#')) continue
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(line)
    if (header?.[1]) {
      current = tables.get(header[1]) ?? new Map()
      tables.set(header[1], current)
      continue
    }
    const pair = /^("?[\w.@/-]+"?)\s*=\s*(.*)$/.exec(line)
    if (!pair?.[1]) continue
    const key = pair[1].replace(/"/g, '')
    const value = pair[2] ?? ''
    if (bracketsBalanced(value)) current.set(key, value)
    else {
      pendingKey = key
      pendingValue = value
    }
  }
  return tables
}

function bracketsBalanced(value: string): boolean {
  let depth = 0
  for (const char of value.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '')) {
    if (char === '[' || char === '{') depth++
    else if (char === ']' || char === '}') depth--
  }
  return depth <= 0
}

function tomlString(value: string | undefined): string {
  const match = /^(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(value?.trim() ?? '')
  return match ? (match[1] ?? match[2] ?? '') : ''
}

function tomlStrings(value: string | undefined): string[] {
  return [...(value ?? '').matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map((match) => match[1] ?? match[2] ?? '')
}

function readPyproject(text: string, manifest: Manifest): void {
  const tables = readToml(text)
  const project = tables.get('project')
  const poetry = tables.get('tool.poetry')
  manifest.name = tomlString(project?.get('name')) || tomlString(poetry?.get('name'))
  manifest.description = tomlString(project?.get('description')) || tomlString(poetry?.get('description'))
  for (const spec of tomlStrings(project?.get('dependencies'))) {
    const dependency = requirement(spec)
    if (dependency) manifest.dependencies.push(dependency)
  }
  for (const [table, dev] of [
    ['tool.poetry.dependencies', false],
    ['tool.poetry.dev-dependencies', true],
    ['tool.poetry.group.dev.dependencies', true],
  ] as const) {
    for (const [name, version] of tables.get(table) ?? []) {
      if (name !== 'python') manifest.dependencies.push({ name, version: tomlString(version) || version, dev })
    }
  }
  for (const [, group] of tables.get('project.optional-dependencies') ?? []) {
    for (const spec of tomlStrings(group)) {
      const dependency = requirement(spec)
      if (dependency) manifest.dependencies.push({ ...dependency, dev: true })
    }
  }
  for (const table of ['project.scripts', 'tool.poetry.scripts']) {
    for (const [name, target] of tables.get(table) ?? []) manifest.entryPoints.push({ name, target: tomlString(target) })
  }
}

function readPipfile(text: string, manifest: Manifest): void {
  const tables = readToml(text)
  for (const [table, dev] of [
    ['packages', false],
    ['dev-packages', true],
  ] as const) {
    for (const [name, version] of tables.get(table) ?? []) manifest.dependencies.push({ name, version: tomlString(version) || version, dev })
  }
}

function readSetupPy(text: string, manifest: Manifest): void {
  manifest.name = /\bname\s*=\s*['"]([^'"]+)['"]/.exec(text)?.[1] ?? ''
  manifest.description = /\bdescription\s*=\s*['"]([^'"]+)['"]/.exec(text)?.[1] ?? ''
  const requires = /install_requires\s*=\s*\[([^\]]*)\]/.exec(text)?.[1] ?? ''
  for (const spec of tomlStrings(requires)) {
    const dependency = requirement(spec)
    if (dependency) manifest.dependencies.push(dependency)
  }
  const scripts = /console_scripts['"]?\s*:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? ''
  for (const spec of tomlStrings(scripts)) {
    const [name, target] = spec.split('=').map((part) => part.trim())
    if (name && target) manifest.entryPoints.push({ name, target })
  }
}

function xmlValue(block: string, tag: string): string {
  return new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`).exec(block)?.[1] ?? ''
}

function readPom(text: string, manifest: Manifest): void {
  const withoutParent = text.replace(/<parent>[\s\S]*?<\/parent>/, '').replace(/<!--[\s\S]*?-->/g, '')
  const head = withoutParent.split(/<dependencies>|<build>|<dependencyManagement>/)[0] ?? ''
  manifest.name = xmlValue(head, 'artifactId')
  manifest.description = xmlValue(head, 'description')
  for (const match of withoutParent.matchAll(/<dependency>([\s\S]*?)<\/dependency>/g)) {
    const block = match[1] ?? ''
    const artifact = xmlValue(block, 'artifactId')
    if (!artifact) continue
    manifest.dependencies.push({ name: artifact, version: xmlValue(block, 'version'), dev: xmlValue(block, 'scope') === 'test' })
  }
}

function readGradle(text: string, manifest: Manifest): void {
  const pattern = /\b(implementation|api|compileOnly|runtimeOnly|testImplementation|testRuntimeOnly|annotationProcessor|kapt)\s*\(?\s*['"]([\w.-]+):([\w.-]+)(?::([^'"]+))?['"]/g
  for (const match of text.matchAll(pattern)) {
    if (!match[3]) continue
    manifest.dependencies.push({ name: match[3], version: match[4] ?? '', dev: (match[1] ?? '').startsWith('test') })
  }
}

function readGoMod(text: string, manifest: Manifest): void {
  manifest.modulePath = /^module\s+(\S+)/m.exec(text)?.[1] ?? ''
  manifest.name = manifest.modulePath
  const requireBlock = /^require\s*\(([\s\S]*?)^\)/gm
  const lines: string[] = []
  for (const match of text.matchAll(requireBlock)) lines.push(...(match[1] ?? '').split('\n'))
  for (const match of text.matchAll(/^require\s+([^\s(]+)\s+(\S+)/gm)) lines.push(`${match[1]} ${match[2]}`)
  for (const line of lines) {
    const parts = line.trim().split(/\s+/)
    if (parts[0] && parts[1] && !parts[0].startsWith('//')) manifest.dependencies.push({ name: parts[0], version: parts[1], dev: false })
  }
}

function readCargo(text: string, manifest: Manifest): void {
  const tables = readToml(text)
  const pkg = tables.get('package')
  manifest.name = tomlString(pkg?.get('name'))
  manifest.description = tomlString(pkg?.get('description'))
  for (const [table, dev] of [
    ['dependencies', false],
    ['dev-dependencies', true],
  ] as const) {
    for (const [name, version] of tables.get(table) ?? []) manifest.dependencies.push({ name, version: tomlString(version) || version, dev })
  }
}

function readGemfile(text: string, manifest: Manifest): void {
  for (const match of text.matchAll(/^\s*gem\s+['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?/gm)) {
    if (match[1]) manifest.dependencies.push({ name: match[1], version: match[2] ?? '', dev: false })
  }
}

function readCsproj(text: string, manifest: Manifest): void {
  for (const match of text.matchAll(/<PackageReference\s+Include="([^"]+)"(?:\s+Version="([^"]*)")?/g)) {
    if (match[1]) manifest.dependencies.push({ name: match[1], version: match[2] ?? '', dev: false })
  }
}
