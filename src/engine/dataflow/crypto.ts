/**
 * Weak cryptography chosen by name where the name is not written at the call: the algorithm
 * argument of a hash or cipher factory (`MessageDigest.getInstance(ALG)`, `hashlib.new(name)`,
 * `crypto.createHash(algo)`) folded to the strings it may be: a constant, a static field of
 * another class, an imported module constant, a concatenation of those, or a value read from
 * the repository's own configuration files (`.properties`, `application.yml`, `.env`) through
 * `getProperty(key[, default])`, Spring `@Value("${key:default}")` or `os.environ.get(key,
 * default)`. A literal argument is left to the pattern rules (rules/<language>/weak-*.yml).
 *
 * The interpreter calls `checkAlgorithm` on every library call and `configRead` for the value a
 * library call returns; the hits are kept per engine and turned into findings by
 * `algorithmFindings`. Configuration texts are attached to the program by `attachConfig`.
 */
import type { Category, Finding } from '../core/types.ts'
import { buildFinding, fingerprintOf, normalizeMatchedText, occurrenceIndexes } from '../core/findings.ts'
import { argFor } from './call-context.ts'
import type { CallContext } from './call-context.ts'
import type { Engine } from './engine.ts'
import { indexByLanguage, lastSegment } from './glob.ts'
import type { Expr, Site } from './ir.ts'
import type { Program } from './program.ts'
import type { FileTexts } from './report.ts'
import { DATAFLOW_MODEL, dataFlowRuleId } from './report.ts'
import { choicesOf } from './values.ts'
import type { Choice, Val } from './values.ts'

// --- the repository's configuration ---------------------------------------------------------

/** Configuration files read, and how much of each: they are data, not code. */
const CONFIG_LIMITS = { files: 200, bytesPerFile: 256 * 1024, valuesPerKey: 8 }

const CONFIG_FILE = /(^|\/)([^/]+\.properties|[^/]+\.ya?ml|\.env(\.[\w-]+)?)$/i
/** Folders whose configuration is not the application's (dependencies, build output, CI). */
const FOREIGN_DIR = /(^|\/)(node_modules|vendor|target|build|dist|\.github|\.gitlab|\.circleci)\//

/** Whether a repository file is configuration the analysis reads (`.properties`, YAML, `.env`). */
export function isRepositoryConfig(path: string): boolean {
  return CONFIG_FILE.test(path) && !FOREIGN_DIR.test(path)
}

interface ConfigValue {
  readonly value: string
  readonly file: string
}

/** Keys of the repository's configuration files, each with every value some file gives it. */
export class RepositoryConfig {
  private readonly keys = new Map<string, ConfigValue[]>()

  constructor(files: ReadonlyArray<{ path: string; text: string }>) {
    let read = 0
    for (const file of files) {
      if (!isRepositoryConfig(file.path) || file.text.length > CONFIG_LIMITS.bytesPerFile) continue
      if (++read > CONFIG_LIMITS.files) break
      const entries = /\.ya?ml$/i.test(file.path) ? yamlEntries(file.text) : propertiesEntries(file.text)
      for (const [key, value] of entries) this.add(key, { value, file: file.path })
    }
  }

  private add(key: string, entry: ConfigValue): void {
    const list = this.keys.get(key) ?? []
    if (list.length < CONFIG_LIMITS.valuesPerKey && !list.some((known) => known.value === entry.value && known.file === entry.file)) list.push(entry)
    this.keys.set(key, list)
  }

  /** What a key may be: its configured values, or the default when no file sets it. */
  lookup(key: string, fallback: readonly Choice[]): readonly Choice[] {
    const found = this.keys.get(key) ?? (/^[A-Z0-9_]+$/.test(key) ? undefined : this.keys.get(relaxedKey(key)))
    if (!found || found.length === 0) return fallback
    return found.map((entry) => ({ value: entry.value, from: `${entry.file} (${key})` }))
  }
}

/** Spring's relaxed binding: `app.hash-alg`, `app.hashAlg` and `app.hash_alg` are one key. */
function relaxedKey(key: string): string {
  return key.replace(/[-_]/g, '').toLowerCase()
}

function unquote(text: string): string {
  const trimmed = text.trim()
  if (trimmed.length >= 2 && (trimmed[0] === '"' || trimmed[0] === "'") && trimmed.at(-1) === trimmed[0]) return trimmed.slice(1, -1)
  return trimmed
}

/** `key=value`, `key: value`, `export KEY="value"` lines (Java properties and dotenv files). */
function propertiesEntries(text: string): Array<[string, string]> {
  const result: Array<[string, string]> = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith('!')) continue
    const match = /^(?:export\s+)?([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(line)
    if (!match) continue
    const value = unquote((match[2] ?? '').replace(/\s+#.*$/, ''))
    result.push([match[1] ?? '', value])
    if (!/^[A-Z0-9_]+$/.test(match[1] ?? '')) result.push([relaxedKey(match[1] ?? ''), value])
  }
  return result
}

/** Scalar leaves of a YAML file's nested maps as dotted keys (`app.crypto.hash: MD5`). */
function yamlEntries(text: string): Array<[string, string]> {
  const result: Array<[string, string]> = []
  const stack: Array<{ indent: number; key: string }> = []
  for (const raw of text.split(/\r?\n/)) {
    if (/^(---|\.\.\.)\s*$/.test(raw)) {
      stack.length = 0
      continue
    }
    const match = /^(\s*)([^\s#\-][^:#]*?)\s*:(?:\s+(.*))?$/.exec(raw)
    if (!match) continue
    const indent = (match[1] ?? '').length
    while (stack.length > 0 && (stack.at(-1)?.indent ?? 0) >= indent) stack.pop()
    const key = unquote(match[2] ?? '')
    const rest = (match[3] ?? '').replace(/\s+#.*$/, '').trim()
    if (rest === '' || rest === '|' || rest === '>') {
      stack.push({ indent, key })
      continue
    }
    const dotted = [...stack.map((entry) => entry.key), key].join('.')
    result.push([dotted, unquote(rest)], [relaxedKey(dotted), unquote(rest)])
  }
  return result
}

const configs = new WeakMap<Program, RepositoryConfig>()

/** Gives the program the repository's configuration files (the others are ignored). */
export function attachConfig(program: Program, files: ReadonlyArray<{ path: string; text: string }>): void {
  configs.set(program, new RepositoryConfig(files))
}

function configOf(program: Program): RepositoryConfig | null {
  return configs.get(program) ?? null
}

/** Calls that read a configuration key: the key's argument and the default's. */
interface ConfigReader {
  readonly call: readonly string[]
  readonly key: number
  readonly fallback: number
  /** receivers that read something else (`System.getProperty` reads JVM properties) */
  readonly exceptReceivers?: RegExp
}

const CONFIG_READERS: Record<string, readonly ConfigReader[]> = {
  java: [{ call: ['**.getProperty', '**.getRequiredProperty'], key: 0, fallback: 1, exceptReceivers: /^(java\.lang\.)?System$/ }],
  python: [{ call: ['os.environ.get', 'os.getenv'], key: 0, fallback: 1 }],
  javascript: [],
}

const readerIndex = indexByLanguage(CONFIG_READERS, (reader) => reader.call)

/**
 * The value of a library call that reads a configuration key with a known name: what the
 * repository's configuration files set it to, else the call's default. Null for other calls.
 */
export function configRead(program: Program, context: CallContext, result: Val): Val | null {
  const config = configOf(program)
  const index = readerIndex(context.unit.spec.name)
  const last = lastSegment(context.names[1] ?? context.names[0] ?? '')
  if (!config || !index.mayMatch(last)) return null
  const reader = index.match(context.names)[0]
  if (!reader) return null
  const callee = context.expr.callee
  if (reader.exceptReceivers && callee.t === 'member' && reader.exceptReceivers.test(callee.object.site.text)) return null
  const key = context.args[reader.key]
  const keys = key ? choicesOf(key.value) : []
  if (keys.length === 0) return null
  const fallbackArg = context.args[reader.fallback]
  const fallback = fallbackArg ? choicesOf(fallbackArg.value) : []
  const choices = keys.flatMap((key) => config.lookup(key.value, fallback))
  return choices.length === 0 ? null : { ...result, choices: choices.slice(0, CONFIG_LIMITS.valuesPerKey) }
}

/** Spring `@Value("${key}")` / `@Value("${key:default}")` in a declaration's text: what it injects. */
export function springValue(program: Program, declaration: string): readonly Choice[] | null {
  const config = configOf(program)
  const match = /@Value\s*\(\s*"\$\{([^}:]+)(?::([^}]*))?\}"\s*\)/.exec(declaration)
  if (!config || !match) return null
  const fallback = match[2] === undefined ? [] : [{ value: match[2], from: null }]
  const choices = config.lookup((match[1] ?? '').trim(), fallback)
  return choices.length === 0 ? null : choices
}

/** Spring field injection: the `@Value` annotation on field `name` in a class's text. */
export function springFieldValue(program: Program, classText: string, name: string): readonly Choice[] | null {
  if (!classText.includes('@Value')) return null
  const field = new RegExp(`@Value\\s*\\(\\s*"\\$\\{[^}]*\\}"\\s*\\)[^;={}()]*\\b${name}\\s*[;=]`).exec(classText)
  return field ? springValue(program, field[0]) : null
}

// --- algorithm factories ----------------------------------------------------------------------

type AlgorithmKind = 'hash' | 'mac' | 'cipher' | 'block-cipher'

interface AlgorithmApi {
  readonly call: readonly string[]
  readonly arg: number
  readonly keyword?: string
  /** hash and mac: weak-hash; cipher: weak-cipher; block-cipher also flags a bare block cipher (Java's ECB default) */
  readonly kind: AlgorithmKind
  /** calls with this keyword set to False are not for security (`usedforsecurity=False`) */
  readonly unlessFalse?: string
}

const ALGORITHM_APIS: Record<string, readonly AlgorithmApi[]> = {
  java: [
    { call: ['**.MessageDigest.getInstance'], arg: 0, kind: 'hash' },
    { call: ['**.Mac.getInstance'], arg: 0, kind: 'mac' },
    { call: ['**.Cipher.getInstance'], arg: 0, kind: 'block-cipher' },
    { call: ['**.{KeyGenerator,SecretKeyFactory}.getInstance'], arg: 0, kind: 'cipher' },
    { call: ['**.SecretKeySpec'], arg: 1, kind: 'cipher' },
  ],
  python: [
    { call: ['hashlib.new'], arg: 0, keyword: 'name', kind: 'hash', unlessFalse: 'usedforsecurity' },
    { call: ['hmac.new'], arg: 2, keyword: 'digestmod', kind: 'mac' },
  ],
  javascript: [
    { call: ['crypto.createHash', 'node:crypto.createHash'], arg: 0, kind: 'hash' },
    { call: ['crypto.createHmac', 'node:crypto.createHmac'], arg: 0, kind: 'mac' },
    { call: ['crypto.{createCipheriv,createDecipheriv}', 'node:crypto.{createCipheriv,createDecipheriv}'], arg: 0, kind: 'cipher' },
  ],
}

const WEAK_HASH = /^(md2|md4|md5|sha-?1|sha|ripemd(-?160)?|rmd160|md5-sha1)$/i
const WEAK_MAC = /^(hmac-?)?(md2|md4|md5)$/i
const BROKEN_CIPHER = /^(des|desede|tripledes|3des|des3|des-ede3?|rc2|rc4|arcfour|blowfish|bf|rc5|idea|cast5?|seed)([-/_].*)?$/i
const ECB_MODE = /(\/ecb\/|-ecb$)/i
const BARE_BLOCK_CIPHER = /^(aes|aes_(128|192|256))$/i

/** Why a name is weak for this kind of API, or null when it is not. */
function weakness(kind: AlgorithmKind, name: string): string | null {
  const trimmed = name.trim()
  switch (kind) {
    case 'hash':
      return WEAK_HASH.test(trimmed) ? 'a broken hash function' : null
    case 'mac':
      return WEAK_MAC.test(trimmed) ? 'an HMAC over a broken hash function' : null
    case 'block-cipher':
    case 'cipher':
      if (kind === 'block-cipher' && BARE_BLOCK_CIPHER.test(trimmed)) return 'a block cipher without a mode, which defaults to ECB'
      if (BROKEN_CIPHER.test(trimmed)) return 'a broken or obsolete cipher'
      return ECB_MODE.test(trimmed) ? 'ECB mode' : null
  }
}

const apiIndex = indexByLanguage(ALGORITHM_APIS, (api) => api.call)

/** Words one of which a file must contain to call an algorithm factory. */
const ALGORITHM_WORDS: Record<string, readonly string[]> = {
  java: ['MessageDigest', 'Cipher', 'KeyGenerator', 'SecretKeyFactory', 'Mac.getInstance', 'SecretKeySpec'],
  python: ['hashlib', 'hmac'],
  javascript: ['createHash', 'createHmac', 'createCipheriv', 'createDecipheriv'],
}

/** Whether some text (a file, a function) may call an algorithm factory. */
export function mentionsAlgorithmApi(language: string, text: string): boolean {
  return (ALGORITHM_WORDS[language] ?? []).some((word) => text.includes(word))
}

export interface AlgorithmHit {
  readonly site: Site
  readonly kind: AlgorithmKind
  readonly callee: string
  readonly algorithm: string
  /** the config file and key it came from, when it did */
  readonly from: string | null
  readonly why: string
  /** the argument's text at the call */
  readonly written: string
}

const hits = new WeakMap<Engine, Map<string, AlgorithmHit>>()

/**
 * At a library call: when it is an algorithm factory whose algorithm argument is not written
 * as a literal but may be a weak name, records a hit. `fold` computes an argument's value again
 * through project calls with their actual arguments (`Config.get("hash", "SHA-256")`).
 */
export function checkAlgorithm(engine: Engine, context: CallContext, fold: (expr: Expr) => Val): void {
  const index = apiIndex(context.unit.spec.name)
  const last = lastSegment(context.names[1] ?? context.names[0] ?? '')
  if (!index.mayMatch(last)) return
  for (const api of index.match(context.names)) {
    const found = argFor({ index: api.arg, ...(api.keyword ? { keyword: api.keyword } : {}) }, context)
    if (!found || found.arg.value.t === 'literal') continue
    if (api.unlessFalse && context.args.some(({ arg, value }) => arg.keyword === api.unlessFalse && value.constant === false)) continue
    let choices = choicesOf(found.value)
    if (choices.length === 0 && found.arg.value.t === 'call') choices = choicesOf(fold(found.arg.value))
    // A value from the configuration explains itself; otherwise the first weak name.
    const weak = choices.map((choice) => ({ choice, why: weakness(api.kind, choice.value) })).filter((entry) => entry.why !== null)
    const chosen = weak.find((entry) => entry.choice.from !== null) ?? weak[0]
    if (!chosen || chosen.why === null) continue
    let recorded = hits.get(engine)
    if (!recorded) {
      recorded = new Map()
      hits.set(engine, recorded)
    }
    const site = context.expr.site
    if (!recorded.has(site.key)) {
      recorded.set(site.key, { site, kind: api.kind, callee: context.label, algorithm: chosen.choice.value, from: chosen.choice.from, why: chosen.why, written: found.arg.value.site.text })
    }
  }
}

/**
 * The broken hash a hash factory call creates (`createHash('md5')`, `MessageDigest.getInstance(ALG)`,
 * `hashlib.new(name)`), written as a literal or folded like `checkAlgorithm` does; null for other
 * calls. passwords.ts marks the hasher it returns, whose `update`/`digest` then take passwords.
 */
export function weakHashCreated(context: CallContext, fold: (expr: Expr) => Val): string | null {
  const index = apiIndex(context.unit.spec.name)
  const last = lastSegment(context.names[1] ?? context.names[0] ?? '')
  if (!index.mayMatch(last)) return null
  for (const api of index.match(context.names)) {
    if (api.kind !== 'hash') continue
    const found = argFor({ index: api.arg, ...(api.keyword ? { keyword: api.keyword } : {}) }, context)
    if (!found) continue
    if (api.unlessFalse && context.args.some(({ arg, value }) => arg.keyword === api.unlessFalse && value.constant === false)) continue
    let choices = choicesOf(found.value)
    if (choices.length === 0 && found.arg.value.t === 'call') choices = choicesOf(fold(found.arg.value))
    const weak = choices.find((choice) => weakness('hash', choice.value) !== null)
    if (weak) return weak.value
  }
  return null
}

const CRYPTO_OWASP = 'A02:2021 - Cryptographic Failures'

/** Findings for the algorithm hits of one analysis (one per call). */
export function algorithmFindings(engine: Engine, texts: FileTexts): Finding[] {
  const recorded = [...(hits.get(engine)?.values() ?? [])]
  const byFile = new Map<string, AlgorithmHit[]>()
  for (const hit of recorded) byFile.set(hit.site.path, [...(byFile.get(hit.site.path) ?? []), hit])
  const findings: Finding[] = []
  for (const [path, fileHits] of byFile) {
    const file = texts.file(path)
    const entries = fileHits.map((hit) => {
      const category: Category = hit.kind === 'hash' || hit.kind === 'mac' ? 'weak-hash' : 'weak-cipher'
      return { hit, category, ruleId: dataFlowRuleId(path, category), normalized: normalizeMatchedText(hit.site.text) }
    })
    const occurrences = occurrenceIndexes(entries.map((entry) => ({ ruleId: entry.ruleId, normalizedText: entry.normalized, offset: entry.hit.site.start })))
    entries.forEach((entry, position) => {
      const { hit, category, ruleId } = entry
      const origin = hit.from ? `the configuration value ${hit.from}` : `\`${hit.written}\``
      const hash = category === 'weak-hash'
      findings.push(
        buildFinding(
          file,
          { startLine: hit.site.line, startColumn: hit.site.column, endLine: hit.site.endLine, endColumn: hit.site.endColumn },
          {
            ruleId,
            analyzer: 'dataflow',
            modelUsed: DATAFLOW_MODEL,
            category,
            severity: hash ? 'medium' : 'high',
            confidence: hit.from ? 0.75 : 0.85,
            title: hash ? 'Weak hash algorithm chosen by a constant or configuration value' : 'Weak cipher chosen by a constant or configuration value',
            description: `${hit.callee}() at line ${hit.site.line + 1} selects "${hit.algorithm}" (${hit.why}), from ${origin}.`,
            explanation: `The algorithm name passed to ${hit.callee}() is not written at the call: \`${hit.written}\` evaluates to "${hit.algorithm}"${hit.from ? `, the value ${hit.from} sets` : ''}, which is ${hit.why}.`,
            remediation: hash
              ? 'Use SHA-256 or SHA-3 for integrity, and a slow salted password hash (bcrypt, scrypt, Argon2, PBKDF2) for passwords; change the constant or configuration value that selects the algorithm.'
              : 'Use AES in an authenticated mode (AES/GCM/NoPadding, aes-256-gcm) with a fresh random IV; change the constant or configuration value that selects the cipher.',
            remediationCode: null,
            cweIds: [hash ? 'CWE-328' : 'CWE-327'],
            owaspCategory: CRYPTO_OWASP,
            cvssScore: hash ? 5.9 : 7.4,
            tags: ['dataflow', 'crypto', 'folded-constant', ...(hit.from ? ['configuration'] : [])],
          },
          fingerprintOf(ruleId, path, entry.normalized, occurrences[position] ?? 0),
        ),
      )
    })
  }
  return findings
}
