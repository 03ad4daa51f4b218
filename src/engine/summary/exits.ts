/**
 * Where data leaves the process: database queries, outbound HTTP, shell commands and file
 * system access, recognized from each call's callee and where its receiver comes from (the
 * library it was imported from, a model class, a module that wraps a database client, a
 * declared Java type), plus file reads as inputs.
 */
import type { Library } from './catalog.ts'
import type { CallFact, ExitFact, ExitKind, FileFacts, InputFact } from './model.ts'
import type { Program } from './program.ts'
import { calleeMethod, calleeRoot } from './syntax.ts'
import { oneLine } from './text.ts'

const JS_SHELL = new Set(['exec', 'execSync', 'spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork'])
const JS_FS = new Set(['readFile', 'readFileSync', 'writeFile', 'writeFileSync', 'appendFile', 'appendFileSync', 'createReadStream', 'createWriteStream', 'unlink', 'unlinkSync', 'rm', 'rmSync', 'rmdir', 'mkdir', 'mkdirSync', 'readdir', 'readdirSync', 'rename', 'renameSync', 'copyFile', 'copyFileSync', 'open', 'openSync', 'outputFile', 'readJson', 'writeJson', 'remove', 'copy', 'move', 'symlink', 'chmod'])
const READS = /^(?:readFile|readFileSync|createReadStream|readdir|readdirSync|readJson|open|openSync|read_text|read_bytes|readAllBytes|readString|readAllLines|lines|newInputStream|FileInputStream|FileReader)$/
const DB_METHODS = new Set([
  'query', 'execute', 'executemany', 'raw', 'findAll', 'findOne', 'findByPk', 'findById', 'findOneAndUpdate', 'findByIdAndUpdate', 'findByIdAndDelete', 'find', 'create', 'bulkCreate',
  'update', 'updateOne', 'updateMany', 'destroy', 'delete', 'deleteOne', 'deleteMany', 'save', 'insert', 'insertOne', 'insertMany', 'select', 'aggregate', 'count', 'countDocuments',
  'upsert', 'findMany', 'findUnique', 'findFirst', 'createMany', '$queryRaw', '$executeRaw', '$queryRawUnsafe', '$executeRawUnsafe', 'many', 'one', 'oneOrNone', 'manyOrNone', 'any',
  'none', 'prepare', 'run', 'all', 'get', 'each', 'where', 'filter', 'filter_by', 'first', 'add', 'commit', 'merge', 'scalars', 'scalar', 'getRepository', 'createQueryBuilder',
  'exists', 'increment', 'decrement', 'truncate', 'set', 'hget', 'hset', 'del', 'lpush', 'rpush', 'sadd', 'zadd', 'incr', 'expire', 'publish', 'fetchone', 'fetchall',
])
const SQL_METHODS = new Set(['query', 'execute', 'executemany', 'raw', 'many', 'one', 'oneOrNone', 'manyOrNone', 'none', 'any', 'prepare', 'run', 'all', 'get', 'each', 'select', 'insert', 'update', 'delete', 'transaction'])
const DB_RECEIVER = /^(?:db|database|pool|knex|sequelize|prisma|sql|pg|mysql|mongo|mongodb|conn|connection|cursor|cur|redis|client|dbClient|repo|repository|\w+Repository|\w+Repo|\w+Dao|\w+Model|collection|engine)$/
const HTTP_ORIGINS = /^(?:axios|got|request|request-promise|superagent|needle|ky|undici|node-fetch|cross-fetch|isomorphic-fetch|phin)$/
const FS_ORIGINS = /^(?:node:)?(?:fs|fs\/promises)$|^fs-extra$/
const SHELL_ORIGINS = /^(?:execa|shelljs|zx|cross-spawn)$/

function exit(kind: ExitKind, call: CallFact): ExitFact {
  return { kind, api: oneLine(call.callee, 80), line: call.line, owner: call.owner }
}

/** `User.query.filter_by(...).first()` is one query: drop calls chained on an exit of the same line. */
function withoutChains(exits: readonly ExitFact[]): ExitFact[] {
  return exits.filter((item) => !exits.some((other) => other !== item && other.line === item.line && other.kind === item.kind && item.api.startsWith(`${other.api}(`)))
}

function hasKind(libraries: ReadonlySet<Library>, ...kinds: string[]): boolean {
  for (const library of libraries) if (kinds.includes(library.kind)) return true
  return false
}

function originLibraryKind(origin: string | undefined, libraries: ReadonlySet<Library>, match: (library: Library) => boolean): boolean {
  if (!origin) return false
  for (const library of libraries) if (match(library) && (library.npm?.includes(origin) || library.python?.some((name) => origin === name || origin.startsWith(`${name}.`)))) return true
  return false
}

export class ExitClassifier {
  /** Internal modules that import a database client (a `db.js` exporting a pool). */
  private readonly gateways = new Set<string>()

  constructor(private readonly program: Program) {
    for (const [path] of program.files) if (hasKind(program.librariesOf(path), 'database', 'orm')) this.gateways.add(path)
  }

  classify(facts: FileFacts): { exits: ExitFact[]; inputs: InputFact[] } {
    const found: ExitFact[] = []
    const bindings = new Map<string, { imported: string; specifier: string }>()
    for (const fact of facts.imports) for (const binding of fact.bindings) bindings.set(binding.local, { imported: binding.imported, specifier: fact.specifier })
    for (const call of facts.calls) {
      // `SQLAlchemy()`, `MongoClient()`: constructing a client is not yet a query.
      if (facts.language === 'python' && /^[A-Z]\w*$/.test(call.callee)) continue
      const kind = this.kindOf(facts, call, bindings)
      if (kind) found.push(exit(kind, call))
    }
    const exits = withoutChains(found)
    const inputs: InputFact[] = exits
      .filter((item) => item.kind === 'filesystem' && READS.test(calleeMethod(item.api).replace(/^new /, '')))
      .map((item) => ({ kind: 'file', name: item.api, line: item.line }))
    return { exits, inputs }
  }

  private kindOf(facts: FileFacts, call: CallFact, bindings: ReadonlyMap<string, { imported: string; specifier: string }>): ExitKind | null {
    switch (facts.language) {
      case 'javascript':
      case 'typescript':
      case 'tsx':
        return this.javascript(facts, call, bindings)
      case 'python':
        return this.python(facts, call)
      case 'java':
        return this.java(facts, call)
      default:
        return null
    }
  }

  /** Receiver is a model class, or a module wrapping a database client. */
  private internalData(facts: FileFacts, root: string, method: string): boolean {
    const binding = this.program.binding(facts.path, root)
    if (binding) {
      if (this.program.isModel(binding.file, binding.name === 'default' || binding.name === '*' ? root : binding.name)) return DB_METHODS.has(method)
      if (this.program.files.get(binding.file)?.models.some((model) => model.name === root)) return DB_METHODS.has(method)
      return this.gateways.has(binding.file) && SQL_METHODS.has(method)
    }
    if (this.program.isModel(facts.path, root)) return DB_METHODS.has(method)
    return false
  }

  private javascript(facts: FileFacts, call: CallFact, bindings: ReadonlyMap<string, { imported: string; specifier: string }>): ExitKind | null {
    const { callee } = call
    const root = calleeRoot(callee)
    const method = calleeMethod(callee)
    const binding = bindings.get(root)
    const instance = facts.instances.find((item) => item.local === root)
    const origin = binding?.specifier ?? (instance ? this.program.externalOrigin(facts.path, calleeRoot(instance.type)) : undefined)
    const single = root === callee
    if (origin && /^(?:node:)?child_process$/.test(origin)) return JS_SHELL.has(single ? (binding?.imported ?? root) : method) ? 'shell' : null
    if (origin && SHELL_ORIGINS.test(origin)) return 'shell'
    if (callee === 'fetch' && (!origin || HTTP_ORIGINS.test(origin))) return 'http'
    if (origin && HTTP_ORIGINS.test(origin)) return /^(?:create|defaults|interceptors|extend)$/.test(method) ? null : 'http'
    if (origin && /^(?:node:)?https?$/.test(origin)) return method === 'request' || method === 'get' ? 'http' : null
    if (origin && FS_ORIGINS.test(origin)) return JS_FS.has(single ? (binding?.imported ?? root) : method) ? 'filesystem' : null
    if (/^(?:res|reply|ctx|response)\.(?:sendFile|download|attachment)$/.test(callee)) return 'filesystem'
    const libraries = this.program.librariesOf(facts.path)
    if (origin && originLibraryKind(origin, libraries, (library) => library.kind === 'database' || library.kind === 'orm')) return single || DB_METHODS.has(method) || /^\$/.test(method) ? 'database' : null
    if (single || root === 'this') return this.thisData(facts, callee, method)
    if (this.internalData(facts, root, method)) return 'database'
    return DB_RECEIVER.test(root) && SQL_METHODS.has(method) && !binding ? 'database' : null
  }

  /** `this.usersRepository.find()`, `this.db.query()`: by declared field type or receiver name. */
  private thisData(facts: FileFacts, callee: string, method: string): ExitKind | null {
    const field = /^(?:this|self)\.(\w+)\.\w+$/.exec(callee)?.[1]
    if (!field) return null
    const type = facts.fieldTypes[field] ?? ''
    if (/Repository$|^Repository$|^Model$|^EntityManager$|^DataSource$|^PrismaService$|^PrismaClient$/.test(type) || DB_RECEIVER.test(field)) return DB_METHODS.has(method) ? 'database' : null
    if (/^(?:HttpService|HttpClient)$/.test(type) || /^(?:http|httpService|httpClient)$/.test(field)) return 'http'
    return null
  }

  private python(facts: FileFacts, call: CallFact): ExitKind | null {
    const { callee } = call
    const root = calleeRoot(callee)
    const method = calleeMethod(callee)
    const origin = this.program.externalOrigin(facts.path, root) ?? (['os', 'subprocess', 'shutil', 'requests', 'httpx', 'urllib', 'sqlite3'].includes(root) ? root : undefined)
    const module = origin ?? ''
    if (module === 'subprocess' || /^subprocess\./.test(callee)) return 'shell'
    if (/^os\.(?:system|popen|exec\w*|spawn\w*)$/.test(callee)) return 'shell'
    if (/^(?:requests|httpx|urllib3|aiohttp|urllib\.request|urllib)$/.test(module)) return /^[A-Z]/.test(method) ? null : 'http'
    if (/^(?:urlopen|urllib\.request\.urlopen)$/.test(callee)) return 'http'
    if (/^os\.(?:remove|unlink|rename|makedirs|mkdir|listdir|rmdir|walk|chmod)$/.test(callee) || module === 'shutil' || callee === 'open' || /^(?:send_file|send_from_directory|FileResponse)$/.test(callee)) return 'filesystem'
    if (/\.(?:read_text|write_text|read_bytes|write_bytes)$/.test(callee)) return 'filesystem'
    const libraries = this.program.librariesOf(facts.path)
    // `async with httpx.AsyncClient() as client: client.get(...)`
    if (/^(?:client|session|http|http_client|async_client)\.(?:get|post|put|patch|delete|head|request|stream|send)$/.test(callee) && hasKind(libraries, 'http-client')) return 'http'
    // `text(...)`, `create_engine(...)` build queries and clients; calls on them run queries.
    if (origin && originLibraryKind(origin, libraries, (library) => library.kind === 'database' || library.kind === 'orm')) return callee.includes('.') && DB_METHODS.has(method) ? 'database' : null
    if (/\.objects\.\w+$|\.objects\.\w+\(.*\)\.\w+$/.test(callee)) return 'database'
    if (/^(?:db\.)?session\.\w+$/.test(callee) && /^(?:query|add|add_all|commit|execute|delete|merge|get|scalars|scalar|flush)$/.test(method)) return 'database'
    if (/^(?:cursor|cur|conn|connection|db|engine)\.\w+$/.test(callee) && /^(?:execute|executemany|executescript|cursor|fetchone|fetchall|commit)$/.test(method)) return 'database'
    if (/\.query\.\w+/.test(callee) && this.internalData(facts, root, 'query')) return 'database'
    if (this.internalData(facts, root, method)) return 'database'
    return null
  }

  private java(facts: FileFacts, call: CallFact): ExitKind | null {
    const { callee } = call
    if (/^new (?:ProcessBuilder)$/.test(callee) || /Runtime\.getRuntime\(\)\.exec$/.test(callee)) return 'shell'
    if (/^new (?:FileInputStream|FileOutputStream|FileReader|FileWriter|RandomAccessFile)$/.test(callee)) return 'filesystem'
    if (/^Files\.(?:readAllBytes|readString|readAllLines|lines|write|writeString|newInputStream|newOutputStream|newBufferedReader|newBufferedWriter|delete|deleteIfExists|copy|move|createFile|createDirectories)$/.test(callee)) return 'filesystem'
    if (/^DriverManager\.getConnection$/.test(callee)) return 'database'
    const method = calleeMethod(callee)
    if (/\.(?:openConnection|getForObject|getForEntity|postForObject|postForEntity|exchange|retrieve|newCall)$/.test(callee)) return 'http'
    const receiver = /^(?:this\.)?(\w+)\.\w+$/.exec(callee)?.[1]
    const type = receiver ? (facts.fieldTypes[receiver] ?? '') : ''
    if (/^(?:RestTemplate|WebClient|HttpClient|OkHttpClient|CloseableHttpClient)$/.test(type)) return /^(?:send|sendAsync|execute|newCall|get|post|put|delete|patch|method)$/.test(method) ? 'http' : null
    if (/^(?:JdbcTemplate|NamedParameterJdbcTemplate|EntityManager|Connection|Statement|PreparedStatement|DataSource|MongoTemplate|RedisTemplate|StringRedisTemplate|Session|SqlSession)$/.test(type)) return 'database'
    if (/(?:Repository|Dao|Mapper)$/.test(type)) return /^(?:find|save|delete|exists|count|get|update|insert|select|query)/.test(method) ? 'database' : null
    return null
  }
}
