/**
 * Repository summary on the fixture applications (test/engine/fixtures/apps/): every field is
 * checked against what the fixtures are known to contain: routes with their exact location
 * and auth, the routes without auth, call chains, the import graph and its cycle, the
 * controls present and missing, data-flow grouping, determinism and size bounds.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { summarizeRepository } from '../../src/engine/summary/index.ts'
import type { RepositorySummaryData } from '../../src/engine/summary/index.ts'
import type { DataFlowTrace } from '../../src/engine/core/types.ts'

const APPS = fileURLToPath(new URL('./fixtures/apps/', import.meta.url))

interface Source {
  path: string
  content: Buffer
}

function loadApp(name: string): Source[] {
  const root = join(APPS, name)
  const files: Source[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir).sort()) {
      const absolute = join(dir, entry)
      if (statSync(absolute).isDirectory()) walk(absolute)
      else files.push({ path: relative(root, absolute).split('\\').join('/'), content: readFileSync(absolute) })
    }
  }
  walk(root)
  return files
}

interface RouteJson {
  method: string
  path: string
  framework: string
  file: string
  line: number
  handler: { name: string; file: string; line: number } | null
  auth: boolean
  authBy: string[]
  public?: boolean
}

interface FlowJson {
  entry: string
  kind: string
  handler: string | null
  calls: Array<{ function: string; at: string; depth: number; calledFrom: string }>
  reaches: Array<{ kind: string; api: string; at: string; chain: string }>
}

interface ItemsJson<T> {
  items: T[]
  omitted: number
}

function routes(summary: RepositorySummaryData): RouteJson[] {
  return (summary.trustBoundaries.httpRoutes as ItemsJson<RouteJson>).items
}

function routeTable(summary: RepositorySummaryData): string[] {
  return routes(summary).map((route) => `${route.method} ${route.path} ${route.file}:${route.line} ${route.auth ? 'auth' : 'open'}`)
}

function flow(summary: RepositorySummaryData, entry: string): FlowJson {
  const found = (summary.businessLogicFlows.flows as FlowJson[]).find((candidate) => candidate.entry === entry)
  if (!found) throw new Error(`no flow for ${entry}`)
  return found
}

function exits(summary: RepositorySummaryData, kind: string): string[] {
  const list = (summary.trustBoundaries.exits as Record<string, ItemsJson<{ api: string; file: string; line: number }>>)[kind]
  return (list?.items ?? []).map((item) => `${item.api} ${item.file}:${item.line}`)
}

function dependencies(summary: RepositorySummaryData): { edges: string[]; cycles: Array<{ files: string[]; path: string[] }>; mostDependedOn: Array<{ file: string; dependents: number }> } {
  const deps = summary.crossFileDependencies as {
    edges: ItemsJson<{ from: string; to: string }>
    cycles: ItemsJson<{ files: string[]; path: string[] }>
    mostDependedOn: ItemsJson<{ file: string; dependents: number }>
  }
  return { edges: deps.edges.items.map((edge) => `${edge.from} -> ${edge.to}`), cycles: deps.cycles.items, mostDependedOn: deps.mostDependedOn.items }
}

describe('summary of an Express application', () => {
  let summary: RepositorySummaryData
  beforeAll(async () => {
    summary = await summarizeRepository(loadApp('express-shop'))
  })

  it('finds every route with its full path, location and auth, through mounted routers', () => {
    expect(routeTable(summary)).toEqual([
      'GET /admin/reports/:name src/routes/admin.js:12 auth',
      'GET /admin/status src/routes/admin.js:8 open',
      'GET /health src/app.js:15 open',
      'POST /login src/app.js:16 open',
      'GET /orders src/routes/orders.js:6 auth',
      'POST /orders src/routes/orders.js:7 auth',
      'POST /orders/:id/receipt src/routes/orders.js:8 auth',
      'GET /products src/routes/products.js:7 open',
      'POST /products src/routes/products.js:15 auth',
      'GET /products/:id src/routes/products.js:11 open',
    ])
    const byKey = new Map(routes(summary).map((route) => [`${route.method} ${route.path}`, route]))
    expect(byKey.get('POST /login')?.handler).toEqual({ name: 'login', file: 'src/controllers/auth-controller.js', line: 6 })
    expect(byKey.get('POST /orders')?.handler).toEqual({ name: 'createOrder', file: 'src/controllers/order-controller.js', line: 7 })
    // Mount-level guard (app.use('/orders', requireAuth, orderRoutes)), recognized by its body.
    expect(byKey.get('GET /orders')?.authBy).toEqual(['requireAuth (JWT; src/middleware/auth.js:4)'])
    // router.use(requireAuth, requireAdmin) guards only routes registered after it.
    expect(byKey.get('GET /admin/reports/:name')?.authBy).toEqual(['requireAdmin (src/middleware/auth.js:15)', 'requireAuth (JWT; src/middleware/auth.js:4)'])
    expect(byKey.get('GET /admin/status')?.authBy).toEqual([])
    expect(routes(summary).every((route) => route.framework === 'express')).toBe(true)
  })

  it('summarizes authentication and names the routes without it', () => {
    const auth = summary.authLogicSummary
    expect(auth).toContain('JWT via jsonwebtoken (imported at src/controllers/auth-controller.js:2, src/middleware/auth.js:1)')
    expect(auth).toContain('Enforcement: 5 of 10 HTTP routes require authentication.')
    expect(auth).toContain('- requireAuth (JWT; src/middleware/auth.js:4): 5 routes')
    expect(auth).toContain('Authorization checks: requireAdmin (src/middleware/auth.js:15) on 1 route.')
    expect(auth).toContain('Routes without authentication (5):')
    for (const open of ['GET /admin/status (src/routes/admin.js:8)', 'GET /health (src/app.js:15)', 'POST /login (src/app.js:16)', 'GET /products (src/routes/products.js:7)', 'GET /products/:id (src/routes/products.js:11)']) {
      expect(auth).toContain(`- ${open}`)
    }
    expect(auth).not.toContain('- POST /products')
  })

  it('lists entry points, inputs and exits with their locations', () => {
    const boundaries = summary.trustBoundaries
    expect(boundaries.summary).toMatchObject({ httpRoutes: 10, unauthenticatedRoutes: 5, commandLine: 1, exits: { database: 6, http: 1, shell: 1, filesystem: 2 } })
    expect((boundaries.commandLine as ItemsJson<{ name: string; file: string }>).items).toEqual([{ kind: 'cli', name: 'bin shop-admin; command-line parser', file: 'bin/admin.js', line: 1, handler: null }])
    expect(exits(summary, 'database')).toEqual([
      'User.findOne src/db/user-repository.js:4',
      'db.query src/services/order-service.js:7',
      'db.query src/services/order-service.js:13',
      'Product.findAll src/services/product-service.js:7',
      'Product.findByPk src/services/product-service.js:11',
      'Product.create src/services/product-service.js:16',
    ])
    expect(exits(summary, 'http')).toEqual(['axios.post src/services/order-service.js:12'])
    expect(exits(summary, 'shell')).toEqual(['execFile src/services/order-service.js:20'])
    expect(exits(summary, 'filesystem')).toEqual(['res.download src/controllers/order-controller.js:12', 'fs.readFile src/services/report-service.js:5'])
    const inputs = boundaries.inputs as Record<string, ItemsJson<{ name: string; locations: string[] }>>
    expect(inputs.environment?.items.map((item) => item.name)).toEqual(['DATABASE_URL', 'JWT_SECRET', 'PAYMENT_URL', 'PORT', 'RECEIPT_URL'])
    expect(inputs.argv?.items).toEqual([{ name: 'process.argv', count: 1, locations: ['bin/admin.js:11'] }])
    expect(inputs.file?.items.map((item) => item.locations)).toEqual([['src/services/report-service.js:5']])
  })

  it('follows each route through controllers and services to data stores and external calls', () => {
    const placeOrder = flow(summary, 'POST /orders')
    expect(placeOrder.handler).toBe('createOrder (src/controllers/order-controller.js:7)')
    expect(placeOrder.calls).toEqual([{ function: 'order-service.placeOrder', at: 'src/services/order-service.js:11', depth: 1, calledFrom: 'src/controllers/order-controller.js:8' }])
    expect(placeOrder.reaches.map((exit) => exit.chain)).toEqual(['order-controller.createOrder → order-service.placeOrder → database: db.query', 'order-controller.createOrder → order-service.placeOrder → http: axios.post'])
    const receipt = flow(summary, 'POST /orders/:id/receipt')
    expect(receipt.reaches.map((exit) => `${exit.kind} ${exit.at}`)).toEqual(['filesystem src/controllers/order-controller.js:12', 'shell src/services/order-service.js:20'])
    const report = flow(summary, 'GET /admin/reports/:name')
    expect(report.calls.map((call) => `${call.depth} ${call.function}`)).toEqual(['1 report-service.buildReport', '2 report-format.toHtml', '3 report-service.reportTitle'])
    expect(report.reaches.map((exit) => exit.chain)).toEqual(['GET /admin/reports/:name handler → report-service.buildReport → filesystem: fs.readFile'])
    expect(flow(summary, 'POST /login').reaches.map((exit) => exit.chain)).toEqual(['auth-controller.login → user-repository.findByEmail → database: User.findOne'])
    expect(flow(summary, 'GET /health').reaches).toEqual([])
  })

  it('builds the import graph with its cycle and the most depended-on modules first', () => {
    const graph = dependencies(summary)
    expect(graph.edges).toEqual(
      expect.arrayContaining([
        'src/app.js -> src/routes/orders.js',
        'src/routes/orders.js -> src/controllers/order-controller.js',
        'src/controllers/order-controller.js -> src/services/order-service.js',
        'src/services/order-service.js -> src/db/pool.js',
        'src/services/report-service.js -> src/services/report-format.js',
        'src/services/report-format.js -> src/services/report-service.js',
        'bin/admin.js -> src/services/report-service.js',
      ]),
    )
    expect(graph.edges).toHaveLength(24)
    expect(graph.cycles).toEqual([{ files: ['src/services/report-format.js', 'src/services/report-service.js'], size: 2, path: ['src/services/report-format.js', 'src/services/report-service.js', 'src/services/report-format.js'] }])
    expect(graph.mostDependedOn[0]).toEqual({ file: 'src/config.js', dependents: 5, dependencies: 0 })
    const npm = (summary.crossFileDependencies.externalPackages as Record<string, ItemsJson<{ name: string; importedBy: number; declaredIn: string[]; dev: boolean }>>).npm?.items ?? []
    expect(npm.find((item) => item.name === 'express')).toEqual({ name: 'express', importedBy: 4, declaredIn: ['package.json'], dev: false })
    // Test code is left out: supertest is declared but imported only by a test.
    expect(npm.find((item) => item.name === 'supertest')).toEqual({ name: 'supertest', importedBy: 0, declaredIn: ['package.json'], dev: true })
    expect(npm.find((item) => item.name === 'child_process')).toBeUndefined()
  })

  it('describes the architecture from the code', () => {
    expect(summary.architecturePattern).toBe(
      'Express HTTP API (JavaScript) with routes/controllers/middleware/services/repositories/models layers over PostgreSQL (Sequelize, pg); outbound HTTP (axios); shell commands (1 call site); 1 command-line entry point. 10 HTTP routes (5 authenticated), 2 data models.',
    )
  })

  it('reports security controls present and missing, risky settings and manifests', () => {
    const security = summary.securityContext
    expect(security).toContain('- Security headers: helmet (used at src/app.js:11)')
    expect(security).toContain('- CORS policy: cors (used at src/app.js:12)')
    expect(security).toContain('- Input validation: joi (used at src/services/product-service.js:4)')
    expect(security).toContain('- Password hashing: bcrypt (used at src/controllers/auth-controller.js:8)')
    expect(security).toContain('- Rate limiting: no rate limiter found for 10 HTTP routes (including POST /login)')
    expect(security).toContain('- CSRF protection: no CSRF protection found')
    expect(security).toContain('- CORS allows any origin: cors() with no options allows every origin (src/app.js:12)')
    expect(security).toContain('hard-coded credentials (names only): adminApiKey (src/config.js:8)')
    expect(security).not.toContain('adm-7f3k9q2w8e4r6t1y')
    expect(security).toContain('Dependency manifests: package.json (npm, 11 dependencies, 2 dev)')
  })

  it('writes a bounded digest for retrieval', () => {
    const rag = summary.ragContext
    expect(rag).toContain('Project: express-shop: Online shop API: products, orders and receipts')
    expect(rag).toContain('Purpose: A small online shop API that lets customers browse products, place orders and download PDF receipts, with an admin area for reports.')
    expect(rag).toContain('  POST /orders -> createOrder src/controllers/order-controller.js:7 [auth]')
    expect(rag).toContain('  GET /products -> GET /products handler src/routes/products.js:7 [no auth]')
    expect(rag).toContain('Languages: JavaScript 222 lines/17 files')
    expect(rag).toContain('Not summarized: 1 test file')
    expect(rag).toContain('Models: Product (Sequelize, src/db/models.js:6), User (Sequelize, src/db/models.js:7)')
    expect(rag).toContain('  src/middleware/auth.js (auth guard)')
    expect(Buffer.byteLength(rag)).toBeLessThanOrEqual(8192)
  })

  it('groups data-flow traces by entry point with sanitized and unsanitized counts', async () => {
    const step = (filePath: string, lineNumber: number, note: string) => ({ filePath, lineNumber, code: 'x', note })
    const traces: DataFlowTrace[] = [
      { source: { ...step('src/routes/products.js', 8, 'req.query.category'), kind: 'http-query' }, sink: { ...step('src/services/product-service.js', 7, 'findAll'), kind: 'sql', cwe: 'CWE-89' }, steps: [], sanitized: false },
      { source: { ...step('src/routes/products.js', 8, 'req.query.category'), kind: 'http-query' }, sink: { ...step('src/services/product-service.js', 7, 'findAll'), kind: 'sql', cwe: 'CWE-89' }, steps: [], sanitized: true, sanitizer: step('src/services/product-service.js', 15, 'joi') },
      { source: { ...step('src/controllers/order-controller.js', 12, 'req.params.id'), kind: 'http-path' }, sink: { ...step('src/services/order-service.js', 20, 'execFile'), kind: 'command', cwe: 'CWE-78' }, steps: [step('src/services/order-service.js', 18, 'assigned to output')], sanitized: false },
      { source: { ...step('bin/admin.js', 7, 'argv'), kind: 'argv' }, sink: { ...step('src/services/report-service.js', 5, 'readFile'), kind: 'path', cwe: 'CWE-22' }, steps: [], sanitized: true },
    ]
    const withFlows = await summarizeRepository(loadApp('express-shop'), { dataFlows: traces })
    const analysis = withFlows.dataFlowAnalysis as {
      summary: Record<string, number>
      bySink: unknown[]
      byEntryPoint: Array<{ entry: string; route?: { auth: boolean }; sanitized: number; unsanitized: number; bySink: unknown[]; flows: unknown[] }>
    }
    expect(analysis.summary).toEqual({ flows: 4, sanitized: 2, unsanitized: 2, entryPoints: 3 })
    expect(analysis.bySink).toEqual([
      { sinkKind: 'command', cwe: 'CWE-78', sanitized: 0, unsanitized: 1 },
      { sinkKind: 'path', cwe: 'CWE-22', sanitized: 1, unsanitized: 0 },
      { sinkKind: 'sql', cwe: 'CWE-89', sanitized: 1, unsanitized: 1 },
    ])
    expect(analysis.byEntryPoint.map((group) => [group.entry, group.route?.auth ?? null, group.sanitized, group.unsanitized])).toEqual([
      ['GET /products', false, 1, 1],
      ['POST /orders/:id/receipt', true, 0, 1],
      ['bin/admin.js:7 (argv)', null, 1, 0],
    ])
    expect(analysis.byEntryPoint[0]?.flows[1]).toMatchObject({ sanitized: true, sanitizer: { at: 'src/services/product-service.js:15', note: 'joi' } })
    expect(summary.dataFlowAnalysis).toEqual({ summary: { flows: 0, sanitized: 0, unsanitized: 0, entryPoints: 0 }, bySink: [], byEntryPoint: [], omitted: 0 })
  })

  it('is deterministic: same files in any order, sync or async, give byte-identical output', async () => {
    const files = loadApp('express-shop')
    const shuffled = [...files].reverse()
    async function* stream() {
      for (const file of shuffled) yield file
    }
    const again = await summarizeRepository(stream())
    expect(JSON.stringify(again)).toBe(JSON.stringify(summary))
  })
})

describe('summary of a Flask application', () => {
  let summary: RepositorySummaryData
  beforeAll(async () => {
    summary = await summarizeRepository(loadApp('flask-notes'))
  })

  it('finds blueprint routes with their registered prefixes, decorators and before_request guards', () => {
    expect(routeTable(summary)).toEqual([
      'POST /admin/backup app/views/admin.py:15 auth',
      'POST /auth/login app/views/auth.py:10 open',
      'POST /auth/logout app/views/auth.py:19 auth',
      'GET /health app/__init__.py:32 open',
      'GET /notes app/views/notes.py:10 auth',
      'POST /notes app/views/notes.py:17 auth',
      'POST /notes/<int:note_id>/share app/views/notes.py:32 auth',
      'GET /notes/public/<int:note_id> app/views/notes.py:26 open',
    ])
    const byKey = new Map(routes(summary).map((route) => [`${route.method} ${route.path}`, route]))
    expect(byKey.get('GET /notes')?.authBy).toEqual(['login_required (session login (Flask-Login))'])
    expect(byKey.get('POST /admin/backup')?.authBy).toEqual(['require_admin (session; app/views/admin.py:10)'])
    expect(byKey.get('POST /notes/<int:note_id>/share')?.handler).toEqual({ name: 'share', file: 'app/views/notes.py', line: 34 })
  })

  it('names the open routes and the session mechanism', () => {
    expect(summary.authLogicSummary).toContain('session login (Flask-Login) via Flask-Login')
    expect(summary.authLogicSummary).toContain('Routes without authentication (3):\n- POST /auth/login (app/views/auth.py:10)\n- GET /health (app/__init__.py:32)\n- GET /notes/public/<int:note_id> (app/views/notes.py:26)')
  })

  it('follows views into services, SQLAlchemy models and requests', () => {
    expect(flow(summary, 'POST /notes/<int:note_id>/share').reaches.map((exit) => exit.chain)).toEqual(['notes.share → sharing.share_note → database: Note.query.get', 'notes.share → sharing.share_note → http: requests.post'])
    expect(flow(summary, 'POST /admin/backup').reaches.map((exit) => `${exit.kind} ${exit.api} ${exit.at}`)).toEqual(['shell subprocess.run app/views/admin.py:17'])
    // The chained `.all()` on a query is the same query, reported once.
    expect(flow(summary, 'GET /notes').reaches.map((exit) => exit.api)).toEqual(['Note.query.filter_by'])
    const main = (summary.businessLogicFlows.flows as FlowJson[]).find((candidate) => candidate.kind === 'main')
    expect(main).toMatchObject({ entry: "argparse command line; if __name__ == '__main__'", handler: 'main (manage.py:6)' })
    expect(main?.calls[0]).toMatchObject({ function: 'app.create_app', at: 'app/__init__.py:20' })
  })

  it('resolves relative imports into edges and maps imports to declared distributions', () => {
    const graph = dependencies(summary)
    expect(graph.edges).toEqual([
      'app/__init__.py -> app/models.py',
      'app/__init__.py -> app/views/admin.py',
      'app/__init__.py -> app/views/auth.py',
      'app/__init__.py -> app/views/notes.py',
      'app/services/sharing.py -> app/models.py',
      'app/views/auth.py -> app/models.py',
      'app/views/notes.py -> app/models.py',
      'app/views/notes.py -> app/services/sharing.py',
      'manage.py -> app/__init__.py',
    ])
    expect(graph.cycles).toEqual([])
    const pypi = (summary.crossFileDependencies.externalPackages as Record<string, ItemsJson<{ name: string; importedBy: number; declaredIn: string[] }>>).pypi?.items ?? []
    expect(pypi.find((item) => item.name === 'Flask-Login')).toMatchObject({ importedBy: 5, declaredIn: ['requirements.txt'] })
    expect(pypi.find((item) => item.name === 'pytest')).toMatchObject({ importedBy: 0, declaredIn: ['requirements-dev.txt'], dev: true })
  })

  it('reports Talisman, the missing CSRF protection for session logins, debug mode and the hard-coded key', () => {
    const security = summary.securityContext
    expect(security).toContain('- Security headers: Flask-Talisman (used at app/__init__.py:26)')
    expect(security).toContain('- Password hashing: Werkzeug password hashing (used at app/views/auth.py:13)')
    expect(security).toContain('- CSRF protection: cookie/session authentication is used but no CSRF protection was found')
    expect(security).toContain('- Input validation: no validation library')
    expect(security).toContain('- debug mode enabled: app.run(debug=True) (manage.py:11)')
    expect(security).toContain('hard-coded credentials (names only): secret_key (app/__init__.py:22)')
    expect(security).not.toContain('notes-signing-key-2024')
  })

  it('describes the architecture', () => {
    expect(summary.architecturePattern).toBe(
      'Flask HTTP API (Python) with views/services/models layers over SQL database (SQLAlchemy); outbound HTTP (requests); shell commands (1 call site). 8 HTTP routes (5 authenticated), 2 data models.',
    )
    expect(summary.ragContext).toContain('Purpose: A note-taking service where signed-in users keep private notes')
  })
})

describe('summary of a Spring application', () => {
  let summary: RepositorySummaryData
  beforeAll(async () => {
    summary = await summarizeRepository(loadApp('spring-bank'))
  })

  it('finds controller, mapping and servlet routes and applies Spring Security path rules', () => {
    const base = 'src/main/java/com/example/bank/web'
    expect(routeTable(summary)).toEqual([
      `POST /api/accounts ${base}/AccountController.java:29 auth`,
      `DELETE /api/accounts/{id} ${base}/AccountController.java:34 auth`,
      `GET /api/accounts/{id} ${base}/AccountController.java:24 auth`,
      `GET /export ${base}/ExportServlet.java:11 auth`,
      `GET /public/rates ${base}/RatesController.java:9 open`,
    ])
    const byKey = new Map(routes(summary).map((route) => [`${route.method} ${route.path}`, route]))
    expect(byKey.get('GET /public/rates')?.public).toBe(true)
    expect(byKey.get('DELETE /api/accounts/{id}')?.authBy).toEqual([`@PreAuthorize("hasRole('ADMIN')") (method security)`])
    expect(byKey.get('GET /api/accounts/{id}')?.authBy).toEqual(['Spring Security authenticated (src/main/java/com/example/bank/config/SecurityConfig.java:15)'])
    expect(byKey.get('GET /export')?.framework).toBe('servlet')
  })

  it('follows injected services into the repository and the REST client', () => {
    expect(flow(summary, 'POST /api/accounts').reaches.map((exit) => exit.chain)).toEqual(['AccountController.create → AccountService.open → database: repository.save', 'AccountController.create → AccountService.open → http: restTemplate.postForObject'])
    expect(flow(summary, 'GET /export').reaches.map((exit) => exit.chain)).toEqual(['ExportServlet.doGet → shell: Runtime.getRuntime().exec'])
  })

  it('reports disabled CSRF protection, exposed actuator endpoints and the Maven manifest', () => {
    expect(summary.authLogicSummary).toContain('Spring Security httpBasic() configured at src/main/java/com/example/bank/config/SecurityConfig.java:13')
    expect(summary.securityContext).toContain('- CSRF protection disabled or bypassed: Spring Security CSRF protection disabled (src/main/java/com/example/bank/config/SecurityConfig.java:13)')
    expect(summary.securityContext).toContain('- all actuator endpoints exposed: all Spring Boot actuator endpoints exposed (src/main/resources/application.properties:2)')
    expect(summary.securityContext).toContain('- Input validation: @Valid/@Validated on 1 parameter')
    expect(summary.securityContext).toContain('Dependency manifests: pom.xml (maven, 5 dependencies, 1 dev)')
    expect(summary.architecturePattern).toMatch(/^Java Servlets and Spring MVC HTTP API \(Java\) with controllers\/services\/repositories\/models layers over PostgreSQL \(JPA\/Hibernate, PostgreSQL JDBC driver\)/)
    expect(dependencies(summary).edges).toContain('src/main/java/com/example/bank/web/AccountController.java -> src/main/java/com/example/bank/service/AccountService.java')
  })
})

describe('summary of a FastAPI application', () => {
  let summary: RepositorySummaryData
  beforeAll(async () => {
    summary = await summarizeRepository(loadApp('fastapi-inventory'))
  })

  it('finds routes with router prefixes and auth from router, decorator and parameter dependencies', () => {
    expect(routeTable(summary)).toEqual([
      'POST /api/admin/sync app/routers/admin.py:9 auth',
      'GET /api/items app/routers/items.py:14 open',
      'POST /api/items app/routers/items.py:19 auth',
      'DELETE /api/items/{item_id} app/routers/items.py:25 auth',
      'GET /health app/main.py:12 open',
    ])
    expect(routes(summary).find((route) => route.method === 'DELETE')?.authBy).toEqual(['get_current_user (JWT; app/deps.py:11)'])
  })

  it('finds the declared console script, its outbound call and the open CORS policy', () => {
    const cli = (summary.businessLogicFlows.flows as FlowJson[]).find((candidate) => candidate.kind === 'cli')
    expect(cli).toMatchObject({ entry: 'console script inventory-sync', handler: 'sync (app/cli.py:4)' })
    expect(cli?.reaches.map((exit) => exit.chain)).toEqual(['cli.sync → http: httpx.get'])
    expect(flow(summary, 'GET /api/items').reaches.map((exit) => exit.chain)).toEqual(['items.list_items → db.fetch_items → database: connection.execute'])
    expect(summary.securityContext).toContain('- CORS allows any origin: allow_origins=["*"] (app/main.py:7)')
    expect(summary.authLogicSummary).toContain('JWT via python-jose')
  })
})

describe('summary bounds', () => {
  it('keeps every part within its size limits', async () => {
    for (const app of ['express-shop', 'flask-notes', 'spring-bank', 'fastapi-inventory']) {
      const summary = await summarizeRepository(loadApp(app))
      expect(Buffer.byteLength(summary.ragContext)).toBeLessThanOrEqual(8192)
      expect(summary.architecturePattern.length).toBeLessThanOrEqual(1200)
      expect(summary.authLogicSummary.length).toBeLessThanOrEqual(6000)
      expect(summary.securityContext.length).toBeLessThanOrEqual(8000)
      expect(JSON.stringify(summary).length).toBeLessThan(200_000)
    }
  })
})
