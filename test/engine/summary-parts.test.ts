/**
 * Repository summary, piece by piece, on small in-memory repositories: the frameworks the
 * fixture applications do not cover (Koa, Fastify, NestJS, Next.js, Django), languages
 * without framework support, manifests, the analysis budget, file selection, cancellation,
 * and the source-slicing helpers the extractors rely on.
 */
import { describe, expect, it } from 'vitest'
import { summarizeRepository } from '../../src/engine/summary/index.ts'
import type { RepositorySummaryData } from '../../src/engine/summary/index.ts'
import { parseManifest } from '../../src/engine/summary/manifests.ts'
import { headerOnlyFiles } from '../../src/engine/summary/plan.ts'
import { analyzeFile } from '../../src/engine/summary/analyze.ts'
import { calleesFromSpans } from '../../src/engine/summary/syntax.ts'
import { joinPaths } from '../../src/engine/summary/routes.ts'
import { authByName, classifyJavaAnnotation, classifyJsGuard, classifyPythonGuard, drfPermissions } from '../../src/engine/summary/guards.ts'

function repo(files: Record<string, string>): Array<{ path: string; content: Buffer }> {
  return Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) }))
}

interface RouteJson {
  method: string
  path: string
  framework: string
  file: string
  line: number
  auth: boolean
  authBy: string[]
  public?: boolean
}

function routeTable(summary: RepositorySummaryData): string[] {
  const routes = (summary.trustBoundaries.httpRoutes as { items: RouteJson[] }).items
  return routes.map((route) => `${route.method} ${route.path} ${route.framework} ${route.file}:${route.line} ${route.auth ? 'auth' : 'open'}`)
}

function edges(summary: RepositorySummaryData): string[] {
  return (summary.crossFileDependencies.edges as { items: Array<{ from: string; to: string }> }).items.map((edge) => `${edge.from} -> ${edge.to}`)
}

describe('JavaScript frameworks', () => {
  it('reads Koa routers with prefixes and middleware order', async () => {
    const summary = await summarizeRepository(
      repo({
        'package.json': JSON.stringify({ name: 'k', dependencies: { koa: '2', '@koa/router': '12', 'koa-jwt': '4' } }),
        'src/server.js': [
          "const Koa = require('koa')",
          "const Router = require('@koa/router')",
          "const jwt = require('koa-jwt')",
          'const app = new Koa()',
          "const router = new Router({ prefix: '/k' })",
          "router.get('/open', (ctx) => { ctx.body = 'ok' })",
          'router.use(jwt({ secret: process.env.KOA_SECRET }))',
          "router.get('/closed', (ctx) => { ctx.body = 'secret' })",
          'app.use(router.routes()).use(router.allowedMethods())',
        ].join('\n'),
      }),
    )
    expect(routeTable(summary)).toEqual(['GET /k/closed koa src/server.js:8 auth', 'GET /k/open koa src/server.js:6 open'])
  })

  it('reads Fastify plugins registered with a prefix, route options and route objects', async () => {
    const summary = await summarizeRepository(
      repo({
        'src/app.js': ["const fastify = require('fastify')({ logger: true })", "fastify.register(require('./items'), { prefix: '/v1' })", "fastify.get('/ping', async () => 'pong')"].join('\n'),
        'src/items.js': [
          'module.exports = async function routes(app) {',
          "  app.get('/items', { preHandler: [app.authenticate] }, async () => [])",
          "  app.route({ method: 'POST', url: '/items', handler: async () => ({}) })",
          '}',
        ].join('\n'),
      }),
    )
    expect(routeTable(summary)).toEqual(['GET /ping fastify src/app.js:3 open', 'GET /v1/items fastify src/items.js:2 auth', 'POST /v1/items fastify src/items.js:3 open'])
  })

  it('reads NestJS controllers, guards, the global prefix and injected services', async () => {
    const summary = await summarizeRepository(
      repo({
        'src/main.ts': ["import { NestFactory } from '@nestjs/core'", 'async function bootstrap() {', '  const app = await NestFactory.create(AppModule)', "  app.setGlobalPrefix('api')", '}'].join('\n'),
        'src/jwt.guard.ts': ["import { AuthGuard } from '@nestjs/passport'", "export class JwtAuthGuard extends AuthGuard('jwt') {}"].join('\n'),
        'src/users.controller.ts': [
          "import { Controller, Get, Post, UseGuards } from '@nestjs/common'",
          "import { JwtAuthGuard } from './jwt.guard'",
          "import { UsersService } from './users.service'",
          "@Controller('users')",
          'export class UsersController {',
          '  constructor(private readonly usersService: UsersService) {}',
          "  @Get(':id')",
          '  @UseGuards(JwtAuthGuard)',
          '  findOne(id: string) {',
          '    return this.usersService.findOne(id)',
          '  }',
          "  @Post('signup')",
          '  create(body: unknown) {',
          '    return body',
          '  }',
          '}',
        ].join('\n'),
        'src/users.service.ts': [
          "import { Repository } from 'typeorm'",
          'export class UsersService {',
          '  constructor(private readonly repository: Repository<unknown>) {}',
          '  findOne(id: string) {',
          '    return this.repository.findOne({ where: { id } })',
          '  }',
          '}',
        ].join('\n'),
      }),
    )
    expect(routeTable(summary)).toEqual(['GET /api/users/:id nestjs src/users.controller.ts:7 auth', 'POST /api/users/signup nestjs src/users.controller.ts:12 open'])
    const routes = (summary.trustBoundaries.httpRoutes as { items: RouteJson[] }).items
    expect(routes[0]?.authBy).toEqual(['JwtAuthGuard (Passport strategy (NestJS AuthGuard); src/jwt.guard.ts:2)'])
    const flows = summary.businessLogicFlows.flows as Array<{ entry: string; reaches: Array<{ chain: string }> }>
    expect(flows.find((flow) => flow.entry === 'GET /api/users/:id')?.reaches.map((exit) => exit.chain)).toEqual(['UsersController.findOne → UsersService.findOne → database: this.repository.findOne'])
  })

  it('reads Next.js route handlers, with auth checked in the handler body', async () => {
    const summary = await summarizeRepository(
      repo({
        'package.json': JSON.stringify({ name: 'web', dependencies: { next: '14', 'next-auth': '4' } }),
        'app/api/orders/[id]/route.ts': [
          "import { getServerSession } from 'next-auth'",
          'export async function GET(request: Request) {',
          '  const session = await getServerSession()',
          "  if (!session) return new Response('no', { status: 401 })",
          "  return Response.json({ ok: true })",
          '}',
          'export async function DELETE() {',
          "  return Response.json({ deleted: true })",
          '}',
        ].join('\n'),
        'app/(shop)/cart/route.js': 'export function POST() { return new Response() }\n',
        'pages/api/health.ts': 'export default function handler(req, res) { res.json({ ok: true }) }\n',
        'prisma/schema.prisma': 'datasource db {\n  provider = "postgresql"\n}\n\nmodel Order {\n  id Int @id\n}\n',
      }),
    )
    expect(summary.ragContext).toContain('Models: Order (Prisma, prisma/schema.prisma:5)')
    expect(summary.architecturePattern).toBe('Next.js application (TypeScript) with routes layer. 4 HTTP routes (1 authenticated), 1 data model.')
    expect(routeTable(summary)).toEqual([
      'ANY /api/health nextjs pages/api/health.ts:1 open',
      'DELETE /api/orders/[id] nextjs app/api/orders/[id]/route.ts:7 open',
      'GET /api/orders/[id] nextjs app/api/orders/[id]/route.ts:2 auth',
      'POST /cart nextjs app/(shop)/cart/route.js:1 open',
    ])
  })

  it('mounts routes registered by a function that receives the app', async () => {
    const summary = await summarizeRepository(
      repo({
        'app.js': ["const express = require('express')", 'const app = express()', "require('./routes/users')(app)"].join('\n'),
        'routes/users.js': ['module.exports = function (app) {', "  app.get('/users', (req, res) => res.json([]))", '}'].join('\n'),
      }),
    )
    expect(routeTable(summary)).toEqual(['GET /users express routes/users.js:2 open'])
  })
})

describe('Django', () => {
  it('follows include() chains and applies decorators, mixins, DRF permissions and settings', async () => {
    const summary = await summarizeRepository(
      repo({
        'project/settings.py': [
          'DEBUG = False',
          'MIDDLEWARE = [',
          '    "django.middleware.security.SecurityMiddleware",',
          '    "django.middleware.csrf.CsrfViewMiddleware",',
          ']',
          'REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"]}',
        ].join('\n'),
        'project/urls.py': ['from django.contrib import admin', 'from django.urls import include, path', 'urlpatterns = [', '    path("admin/", admin.site.urls),', '    path("api/", include("api.urls")),', ']'].join('\n'),
        'api/urls.py': [
          'from django.urls import include, path',
          'from rest_framework.routers import DefaultRouter',
          'from . import views',
          'router = DefaultRouter()',
          'router.register(r"orders", views.OrderViewSet)',
          'urlpatterns = [',
          '    path("profile/", views.profile),',
          '    path("status/", views.status),',
          '    path("reports/", views.ReportView.as_view()),',
          '    path("public/", views.PublicApi.as_view()),',
          '    path("", include(router.urls)),',
          ']',
        ].join('\n'),
        'api/views.py': [
          'from django.contrib.auth.decorators import login_required',
          'from django.contrib.auth.mixins import LoginRequiredMixin',
          'from django.views import View',
          'from django.views.decorators.http import require_http_methods',
          'from rest_framework import permissions, viewsets',
          'from rest_framework.views import APIView',
          '',
          '@login_required',
          'def profile(request):',
          '    return None',
          '',
          '@require_http_methods(["GET", "POST"])',
          'def status(request):',
          '    return None',
          '',
          'class ReportView(LoginRequiredMixin, View):',
          '    def get(self, request):',
          '        return None',
          '',
          'class PublicApi(APIView):',
          '    permission_classes = [permissions.AllowAny]',
          '    def get(self, request):',
          '        return None',
          '',
          'class OrderViewSet(viewsets.ModelViewSet):',
          '    queryset = None',
        ].join('\n'),
      }),
    )
    expect(routeTable(summary)).toEqual([
      'ANY /admin/ django project/urls.py:4 auth',
      'ANY /api/orders/ django api/urls.py:5 auth',
      'ANY /api/orders/<pk>/ django api/urls.py:5 auth',
      'ANY /api/profile/ django api/urls.py:7 auth',
      'GET /api/public/ django api/urls.py:10 open',
      'GET /api/reports/ django api/urls.py:9 auth',
      'GET /api/status/ django api/urls.py:8 open',
      'POST /api/status/ django api/urls.py:8 open',
    ])
    expect(summary.securityContext).toContain('- CSRF protection: django.middleware.csrf.CsrfViewMiddleware (project/settings.py:2)')
    expect(summary.authLogicSummary).toContain('- GET /api/public/ (api/urls.py:10) [explicitly public]')
  })
})

describe('languages without framework support', () => {
  it('reads imports into the graph and finds conventional entry points', async () => {
    const summary = await summarizeRepository(
      repo({
        'go.mod': 'module example.com/shop\n\ngo 1.22\n\nrequire github.com/gin-gonic/gin v1.9.1\n',
        'cmd/server/main.go': 'package main\n\nimport (\n\t"fmt"\n\t"example.com/shop/internal/store"\n\t"github.com/gin-gonic/gin"\n)\n\nfunc main() {\n\tfmt.Println(store.Name, gin.Version)\n}\n',
        'internal/store/store.go': 'package store\n\nconst Name = "store"\n',
        'src/main.rs': 'mod util;\nuse crate::util::helper;\nfn main() { helper(); }\n',
        'src/util.rs': 'pub fn helper() {}\n',
        'native/app.c': '#include <stdio.h>\n#include "util.h"\nint main(void) { return 0; }\n',
        'native/util.h': 'int util(void);\n',
        'composer.json': JSON.stringify({ name: 'acme/shop', require: { php: '>=8.1', 'laravel/framework': '^10' }, autoload: { 'psr-4': { 'App\\': 'app/' } } }),
        'app/Http/Controller.php': '<?php\nnamespace App\\Http;\nuse App\\Models\\User;\n',
        'app/Models/User.php': '<?php\nnamespace App\\Models;\nclass User {}\n',
        'scripts/deploy.sh': '#!/bin/bash\nsource ./scripts/common.sh\n',
        'scripts/common.sh': 'set -e\n',
      }),
    )
    expect(edges(summary)).toEqual([
      'app/Http/Controller.php -> app/Models/User.php',
      'cmd/server/main.go -> internal/store/',
      'native/app.c -> native/util.h',
      'scripts/deploy.sh -> scripts/common.sh',
      'src/main.rs -> src/util.rs',
    ])
    const commandLine = (summary.trustBoundaries.commandLine as { items: Array<{ kind: string; name: string; file: string }> }).items
    expect(commandLine.map((entry) => `${entry.kind} ${entry.file} ${entry.name}`)).toEqual([
      'main cmd/server/main.go func main()',
      'main native/app.c main()',
      'main src/main.rs fn main()',
      'script scripts/common.sh shell script',
      'script scripts/deploy.sh shell script',
    ])
    const externals = summary.crossFileDependencies.externalPackages as Record<string, { items: Array<{ name: string; importedBy: number }> }>
    expect(externals.go?.items).toEqual([expect.objectContaining({ name: 'github.com/gin-gonic/gin', importedBy: 1 })])
    expect(summary.architecturePattern).toContain('Gin')
  })
})

describe('manifests', () => {
  it('reads names, dependencies and declared executables of each ecosystem', () => {
    const npm = parseManifest({ path: 'package.json', text: JSON.stringify({ name: 'a', description: 'd', dependencies: { x: '1' }, devDependencies: { y: '2' }, bin: { tool: './bin/tool.js' } }) })
    expect(npm).toMatchObject({ ecosystem: 'npm', name: 'a', description: 'd', dependencies: [{ name: 'x', version: '1', dev: false }, { name: 'y', version: '2', dev: true }], entryPoints: [{ name: 'tool', target: './bin/tool.js' }] })
    const requirements = parseManifest({ path: 'requirements.txt', text: '# c\nFlask[async]>=2.0 ; python_version > "3.8"\n-r other.txt\nrequests==2.31\n' })
    expect(requirements?.dependencies.map((dependency) => `${dependency.name} ${dependency.version}`)).toEqual(['Flask >=2.0', 'requests ==2.31'])
    const pyproject = parseManifest({ path: 'pyproject.toml', text: '[tool.poetry]\nname = "svc"\n\n[tool.poetry.dependencies]\npython = "^3.11"\nfastapi = "^0.110"\n\n[tool.poetry.scripts]\nsvc = "svc.cli:main"\n' })
    expect(pyproject).toMatchObject({ name: 'svc', dependencies: [{ name: 'fastapi', version: '^0.110', dev: false }], entryPoints: [{ name: 'svc', target: 'svc.cli:main' }] })
    const gradle = parseManifest({ path: 'build.gradle.kts', text: 'dependencies {\n  implementation("org.springframework.boot:spring-boot-starter-web:3.2.0")\n  testImplementation("junit:junit:4.13")\n}\n' })
    expect(gradle?.dependencies).toEqual([{ name: 'junit', version: '4.13', dev: true }, { name: 'spring-boot-starter-web', version: '3.2.0', dev: false }])
    const cargo = parseManifest({ path: 'Cargo.toml', text: '[package]\nname = "tool"\n\n[dependencies]\nserde = { version = "1" }\ntokio = "1"\n' })
    expect(cargo?.dependencies.map((dependency) => dependency.name)).toEqual(['serde', 'tokio'])
    expect(parseManifest({ path: 'Gemfile', text: "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\n" })?.dependencies).toEqual([{ name: 'rails', version: '~> 7.1', dev: false }])
    expect(parseManifest({ path: 'App.csproj', text: '<Project><ItemGroup><PackageReference Include="Newtonsoft.Json" Version="13.0.1" /></ItemGroup></Project>' })?.dependencies).toEqual([{ name: 'Newtonsoft.Json', version: '13.0.1', dev: false }])
    expect(parseManifest({ path: 'package.json', text: '{ not json' })).toMatchObject({ ecosystem: 'npm', dependencies: [] })
    expect(parseManifest({ path: 'notes.txt', text: '' })).toBeNull()
  })
})

describe('analysis budget and file selection', () => {
  it('analyzes the most relevant files whole and the rest for imports only', () => {
    const file = (path: string, text: string, lines: number) => ({ path, language: 'javascript' as const, text, lines })
    const files = [file('a/util.js', 'const x = 1', 60), file('b/routes/users.js', "router.get('/users', h)", 60), file('c/other.js', 'module.exports = {}', 60)]
    expect(headerOnlyFiles(files, 1000)).toEqual(new Set())
    expect(headerOnlyFiles(files, 100)).toEqual(new Set(['a/util.js', 'c/other.js']))
  })

  it('keeps only the imports of a file read for imports only', async () => {
    const text = "import { db } from './db.js'\nconst x = require('./y')\n\nexport function handler(req, res) {\n  return db.query('select 1')\n}\n"
    const facts = await analyzeFile({ path: 'h.js', language: 'javascript', text, lines: 6, importsOnly: true })
    expect(facts.depth).toBe('header')
    expect(facts.imports.map((fact) => fact.specifier)).toEqual(['./db.js', './y'])
    expect(facts.definitions).toEqual([])
    expect(facts.calls).toEqual([])
  })

  it('leaves out vendored folders, tests and files over the size limit', async () => {
    const summary = await summarizeRepository(
      repo({
        'src/index.js': "const lib = require('./lib')\n",
        'src/lib.js': 'module.exports = 1\n',
        'src/big.js': `${'// padding\n'.repeat(200)}require('./lib')\n`,
        'node_modules/pkg/index.js': "require('../../src/lib')\n",
        'test/index.test.js': "require('../src/lib')\n",
      }),
      { maxFileBytes: 1000 },
    )
    expect(edges(summary)).toEqual(['src/index.js -> src/lib.js'])
    expect((summary.crossFileDependencies.summary as { files: number }).files).toBe(2)
  })

  it('stops when the signal is aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    await expect(summarizeRepository(repo({ 'a.js': 'x()' }), { signal: controller.signal })).rejects.toThrow()
  })
})

describe('guards', () => {
  it('tells authentication from other middleware', () => {
    expect(classifyJsGuard("passport.authenticate('jwt', { session: false })", 'passport')).toEqual({ auth: true, mechanism: 'Passport (jwt strategy)' })
    expect(classifyJsGuard('expressjwt({ secret })', 'express-jwt')).toEqual({ auth: true, mechanism: 'JWT' })
    // A project function named like a library API is judged later, by its body.
    expect(classifyJsGuard('auth()', './middleware/auth')).toEqual({})
    expect(classifyJsGuard('cors()', 'cors')).toEqual({ auth: false })
    expect(classifyJsGuard('session({ secret })', 'express-session')).toEqual({ auth: false })
    expect(classifyJsGuard('express.json()', 'express')).toEqual({ auth: false })
    expect(classifyJsGuard('Public()', undefined)).toEqual({ public: true })
    expect(classifyPythonGuard('login_required', 'flask_login')).toEqual({ auth: true, mechanism: 'session login (Flask-Login)' })
    expect(classifyPythonGuard('jwt_required()', 'flask_jwt_extended')).toEqual({ auth: true, mechanism: 'JWT' })
    expect(classifyPythonGuard('csrf_exempt', 'django.views.decorators.csrf')).toEqual({ auth: false })
    expect(drfPermissions('permissions.AllowAny')).toEqual({ auth: false, public: true })
    expect(drfPermissions('IsAuthenticated, IsAdminUser')).toEqual({ auth: true, mechanism: 'DRF IsAuthenticated, IsAdminUser' })
    expect(classifyJavaAnnotation('PreAuthorize', '"permitAll()"')).toEqual({ auth: false, public: true })
    expect(classifyJavaAnnotation('RolesAllowed', '"ADMIN"')).toEqual({ auth: true, mechanism: 'method security' })
    expect(classifyJavaAnnotation('GetMapping', '"/x"')).toBeNull()
    expect(['requireAuth', 'isAdmin', 'verifyToken', 'JwtAuthGuard', 'ensureLoggedIn', 'checkApiKey'].map(authByName)).toEqual([true, true, true, true, true, true])
    expect(['validateBody', 'csrfToken', 'authRouter', 'AuthController', 'rateLimit', 'logout', 'session'].map(authByName)).toEqual([false, false, false, false, false, false, false])
  })
})

describe('edges of the input', () => {
  it('gives a well-formed summary of an empty repository', async () => {
    const summary = await summarizeRepository([])
    expect(summary.architecturePattern).toBe('library (no entry points found).')
    expect(summary.authLogicSummary).toContain('No HTTP routes were found.')
    expect(summary.trustBoundaries.summary).toMatchObject({ httpRoutes: 0, unauthenticatedRoutes: 0, exits: { database: 0, http: 0, shell: 0, filesystem: 0 } })
    expect(summary.businessLogicFlows.flows).toEqual([])
    expect(summary.crossFileDependencies.summary).toMatchObject({ files: 0, internalEdges: 0, cycles: 0 })
    expect(summary.dataFlowAnalysis).toEqual({ summary: { flows: 0, sanitized: 0, unsanitized: 0, entryPoints: 0 }, bySink: [], byEntryPoint: [], omitted: 0 })
    expect(summary.securityContext).toContain('Dependency manifests: none found')
  })

  it('cuts long lists and says how much it left out', async () => {
    const routes = Array.from({ length: 400 }, (_, index) => `app.get('/items/${String(index).padStart(3, '0')}', (req, res) => res.end())`)
    const summary = await summarizeRepository(repo({ 'app.js': ["const express = require('express')", 'const app = express()', ...routes].join('\n') }))
    const list = summary.trustBoundaries.httpRoutes as { items: unknown[]; omitted: number }
    expect(list.items).toHaveLength(300)
    expect(list.omitted).toBe(100)
    expect((summary.businessLogicFlows as { omitted: number }).omitted).toBe(250)
    expect(summary.authLogicSummary).toContain('- … and 350 more')
    expect(Buffer.byteLength(summary.ragContext)).toBeLessThanOrEqual(8192)
  })
})

describe('source slicing', () => {
  it('slices non-ASCII files at the right places', async () => {
    const summary = await summarizeRepository(
      repo({
        'app.js': ["// Ünïcödé comment — with a 🚀", "const express = require('express')", 'const app = express()', "app.get('/café', (req, res) => res.send('ok'))"].join('\n'),
      }),
    )
    expect(routeTable(summary)).toEqual(['GET /café express app.js:4 open'])
  })

  it('reads callees of plain and chained calls from their spans', () => {
    const text = "a.b(x).c(y); foo(1); obj\n  .then(z)"
    const spans = [
      { start: 0, end: 11 },
      { start: 0, end: 6 },
      { start: 13, end: 19 },
      { start: 21, end: 35 },
      { start: 21, end: 0 },
    ]
    expect(calleesFromSpans(text, spans)).toEqual(['a.b(x).c', 'a.b', 'foo', 'obj.then', null])
  })

  it('joins route paths', () => {
    expect(joinPaths('/api', '/users/', ':id')).toBe('/api/users/:id')
    expect(joinPaths('/notes', '/')).toBe('/notes')
    expect(joinPaths('', 'api/', 'users/')).toBe('/api/users/')
    expect(joinPaths('', '^api/$')).toBe('/api/')
    expect(joinPaths()).toBe('/')
  })
})
