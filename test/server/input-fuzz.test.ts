/**
 * Property-based fuzzing of the edges: every row of the REST route table (the table is data:
 * the test iterates it) and POST /graphql with arbitrary variables. Whatever the path values,
 * query strings, headers, bodies and credentials, the service answers below 500, and no error
 * body shows a stack trace, SQL or an internal path.
 *
 * Seeded and bounded so it runs in `npm test`: FUZZ_RUNS cases per route and per GraphQL
 * operation (default 12), FUZZ_SEED (default fixed). A longer run:
 * `FUZZ_RUNS=500 npx vitest run --project server test/server/input-fuzz.test.ts`.
 */
import http from 'node:http'
import fc from 'fast-check'
import { getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, Kind, parse, typeFromAST, type GraphQLInputType, type OperationDefinitionNode } from 'graphql'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { forkForOrg } from '../../src/db/org-scope.ts'
import { buildSchema } from '../../src/graphql/schema.ts'
import type { RestRoute } from '../../src/http/rest/route-table.ts'
import { REST_ROUTES } from '../../src/http/rest/routes.ts'
import { Repository } from '../../src/modules/repositories/repository.entity.ts'
import { useTestApp, type TestResponse } from '../support/app.ts'
import { makeApiKeyPrincipal, makeIssue, makeScan, type Principal } from '../support/factories.ts'
import { EVAL_RULES } from '../support/rules.ts'
import { uploadProject } from '../support/scans.ts'
import { makeZip, sampleProject } from '../support/zips.ts'

const RUNS = Number(process.env['FUZZ_RUNS'] ?? 12)
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_261_125)

const app = useTestApp({ limits: { uploadMaxBytes: 256 * 1024, zipMaxEntries: 50, zipMaxUncompressedBytes: 1024 * 1024, zipMaxCompressionRatio: 100 } })

/** Ids of records that exist, so some cases get past "not found" into the operations. */
const known = { repoId: '', scanId: '', issueId: '', rulesetId: '' }
let admin: Principal
let reader: Principal
let zip: Buffer
let cases = 0
const statuses = new Map<number, number>()

beforeAll(async () => {
  admin = await makeApiKeyPrincipal(app.db.orm)
  reader = await makeApiKeyPrincipal(app.db.orm, { orgId: admin.orgId, scopes: ['read:repo'] })
  zip = await makeZip(sampleProject())
})

// fresh records for each route and operation: a delete or a scan in one does not starve the next
beforeEach(async () => {
  // uploaded through the API, so it has content to scan (no worker runs: scans stay queued)
  const uploaded = await uploadProject(app, admin, sampleProject())
  const repository = await forkForOrg(app.db.orm.em, admin.orgId).findOneOrFail(Repository, { id: uploaded.id })
  const scan = await makeScan(app.db.orm, repository)
  const issue = await makeIssue(app.db.orm, scan)
  const ruleset = await app.request('/api/rulesets', { method: 'POST', headers: admin.headers, json: { name: `fuzz-${scan.id}`, rules_text: EVAL_RULES } })
  expect(ruleset.status).toBe(201)
  Object.assign(known, { repoId: repository.id, scanId: scan.id, issueId: issue.id, rulesetId: ruleset.body.id })
})

afterAll(() => {
  // the number of cases this run tried, for whoever reads the log of a long run
  const byStatus = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ')
  console.info(`input fuzz: ${cases} requests (seed ${SEED}, ${RUNS} per route and operation); statuses ${byStatus}`)
})


// ---- values ----------------------------------------------------------------------------------


const TRICKY_TEXT = [
  '', ' ', '\u0000', 'a\u0000b', '%00', '%', '%ZZ', '%E0%A4%A', '%u0000', '\\u0000', '..', '../../etc/passwd', '/', '//', '?', '#', '&', '=',
  '2147483647', '2147483648', '-2147483649', '9999999999999', '99999999999999999999', '1e309', '-0', '0x10', '1.5', 'NaN', 'Infinity', '-1', '0',
  '0000-01-01', '0001-01-01', '9999-12-31T23:59:59Z', '-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00Z', '2024-02-30', '2024-13-45T99:99:99Z',
  'true', 'false', 'null', 'undefined', '[]', '{}', '{"a":', 'critical', 'HIGH', 'full', 'quick', 'secrets', 'sast', 'queued', 'completed',
  "' or 1=1 --", '"; drop table issues; --', '$1', '\\', '\r\n', '\t', '\u202e', '\ufeff', '\ud800', '\udfff', '🙂', 'é', 'ＡＢＣ', 'x'.repeat(2000),
  '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-4FFF-8FFF-FFFFFFFFFFFF', EVAL_RULES, 'main', 'fuzzed',
]

function text(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...TRICKY_TEXT) },
    { weight: 2, arbitrary: fc.constantFrom('repo', 'scan', 'issue', 'ruleset').map((kind) => knownId(kind)) },
    { weight: 1, arbitrary: fc.tuple(fc.uuid(), fc.boolean()).map(([id, upper]) => (upper ? id.toUpperCase() : id)) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  )
}

function knownId(kind: string): string {
  return { repo: known.repoId, scan: known.scanId, issue: known.issueId, ruleset: known.rulesetId }[kind] ?? ''
}

const number = fc.oneof(
  fc.integer(),
  fc.constantFrom(0, -1, 1, 100, 101, 500, 501, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e300, -1e300, 0.5, -0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
)

/** Any JSON value, built from the tricky texts and numbers, nested a few levels. */
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text(),
    number,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text(), tie('value'), { maxKeys: 4 }),
  ),
})).value

/** The input fields a zod schema names (for bodies and query strings), from its JSON Schema. */
function fieldsOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return []
  const described = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, unknown> }
  return Object.keys(described.properties ?? {})
}

function paramsOf(route: RestRoute): string[] {
  return route.path.split('/').filter((part) => part.startsWith(':')).map((part) => part.slice(1))
}

/** A path segment: percent-encoded as a client would, or raw (malformed encodings included). */
function segment(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom('repo', 'scan', 'issue', 'ruleset').map((kind) => knownId(kind)) },
    { weight: 2, arbitrary: text().map((value) => encodeLeniently(value)) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%ZZ', '%00', '%E0%A4%A', '%C0%AF', '%2e%2e', '..', '%2F', 'a%20b', '%25') },
  )
}

function encodeLeniently(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return '%ED%A0%80' // a lone surrogate, which encodeURIComponent refuses, as its UTF-8 bytes
  }
}

function queryString(names: string[]): fc.Arbitrary<string> {
  const name = fc.oneof({ weight: 4, arbitrary: names.length > 0 ? fc.constantFrom(...names) : text() }, { weight: 1, arbitrary: text() })
  const pair = fc.tuple(name, text(), fc.boolean()).map(([key, value, raw]) => `${encodeLeniently(key)}=${raw ? value.replace(/[#\s]/g, '') : encodeLeniently(value)}`)
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length > 0 ? `?${pairs.join('&')}` : ''))
}

type Credentials = 'admin' | 'reader' | 'none' | 'garbage key' | 'garbage bearer'

const credentials = fc.oneof(
  { weight: 8, arbitrary: fc.constant<Credentials>('admin') },
  { weight: 1, arbitrary: fc.constantFrom<Credentials>('reader', 'none', 'garbage key', 'garbage bearer') },
)

function headersFor(who: Credentials, garbage: string): Record<string, string> {
  switch (who) {
    case 'admin':
      return { ...admin.headers }
    case 'reader':
      return { ...reader.headers }
    case 'none':
      return {}
    case 'garbage key':
      return { 'X-API-Key': garbage }
    case 'garbage bearer':
      return { Authorization: `Bearer ${garbage}` }
  }
}

/** Header values fetch can send (visible ASCII). */
const headerValue = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'abcXYZ019 -_.:;=/,"\'%{}[]'.split('')), maxLength: 30 }),
  fc.constantFrom('pk_short', 'pk_aaaaaaaaaaaa_' + 'b'.repeat(43), 'eyJhbGciOiJub25lIn0.e30.', 'Bearer', ''),
)

const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'application/json; charset=latin1', 'application/json; charset=utf-16', 'text/plain',
  'application/x-www-form-urlencoded', 'multipart/form-data', 'multipart/form-data; boundary=x', 'application/graphql', 'application/octet-stream', '*/*', 'garbage',
]

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string }
  | { kind: 'form'; fields: [string, string][]; file?: 'zip' | 'bytes' | 'none' }

function bodyFor(fields: string[]): fc.Arbitrary<Body> {
  const known = fields.length > 0 ? fields : ['name']
  const shaped = fc.dictionary(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...known) }, { weight: 1, arbitrary: text() }), json, { maxKeys: 5 })
  return fc.oneof(
    fc.constant<Body>({ kind: 'none' }),
    shaped.map((value): Body => ({ kind: 'json', value })),
    json.map((value): Body => ({ kind: 'json', value })),
    fc.oneof(text(), fc.constantFrom('[' .repeat(20_000) + ']'.repeat(20_000), `{"${known[0]}":${'['.repeat(5000)}${']'.repeat(5000)}}`, '{"a":1}{"b":2}', '\ufeff{}', '{"__proto__":{"x":1}}'))
      .map((raw): Body => ({ kind: 'raw', text: raw })),
    fc.record({ fields: fc.array(fc.tuple(fc.oneof(fc.constantFrom(...known), text()), text()), { maxLength: 4 }), file: fc.constantFrom<'zip' | 'bytes' | 'none'>('zip', 'bytes', 'none') })
      .map((form): Body => ({ kind: 'form', ...form })),
  )
}

/** The bytes and headers of a body (a form is encoded as fetch would, boundary and all). */
async function encodeBody(body: Body, contentType: string | undefined): Promise<{ bytes?: Buffer; headers: Record<string, string> }> {
  switch (body.kind) {
    case 'none':
      return { headers: contentType ? { 'content-type': contentType } : {} }
    case 'json':
      return { bytes: Buffer.from(JSON.stringify(body.value) ?? 'null'), headers: { 'content-type': contentType ?? 'application/json' } }
    case 'raw':
      return { bytes: Buffer.from(body.text), headers: { 'content-type': contentType ?? 'application/json' } }
    case 'form': {
      const form = new FormData()
      for (const [name, value] of body.fields) form.append(name, value)
      if (body.file === 'zip') form.set('file', new Blob([zip]), 'repo.zip')
      if (body.file === 'bytes') form.set('file', new Blob([Buffer.from('PK\u0003\u0004 not really a zip')]), 'repo.zip')
      const encoded = new Request('http://localhost/', { method: 'POST', body: form })
      return { bytes: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': contentType ?? encoded.headers.get('content-type') ?? '' } }
    }
  }
}

/** A request as any HTTP client may send it (fetch refuses a GET with a body; servers get them). */
function send(method: string, path: string, headers: Record<string, string>, bytes: Buffer | undefined): Promise<TestResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(app.url + path, { method, headers: { ...headers, ...(bytes && { 'content-length': String(bytes.length) }) } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let body: unknown = text
        try {
          body = text ? JSON.parse(text) : undefined
        } catch {
          body = text
        }
        resolve({ status: response.statusCode ?? 0, headers: new Headers(), body, text })
      })
      response.on('error', reject)
    })
    request.on('error', reject)
    request.end(bytes)
  })
}

// ---- what every answer must be ----------------------------------------------------------------

const INTERNALS = [
  /\bat .+\(.+:\d+:\d+\)/, // a stack frame
  /stacktrace/i,
  /node_modules|\/src\/|\/work\/|\.ts:\d+/, // where the code lives
  /invalid input syntax|violates .*constraint|duplicate key value|syntax error at or near|unsupported Unicode escape|relation "\w+"|column "\w+"/i, // PostgreSQL speaking
  /\b(insert into|delete from)\b|\bselect\b.*\bfrom\b\s+"?\w+"?\s+(as\s+)?\w*\s*(where|join)/i, // a statement
]

function expectSafe(response: TestResponse, what: string): void {
  cases += 1
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
  expect(response.status, `${what} -> ${response.status} ${response.text.slice(0, 300)}`).toBeLessThan(500)
  if (response.status >= 200 && response.status < 300) return // data the caller stored, echoed as stored
  for (const pattern of INTERNALS) expect(response.text, `${what} -> ${response.text.slice(0, 300)}`).not.toMatch(pattern)
}

function describeCase(method: string, url: string, headers: Record<string, string>, bytes: Buffer | undefined): string {
  return `${method} ${url} ${JSON.stringify(headers)} ${bytes ? JSON.stringify(bytes.subarray(0, 200).toString('latin1')) : ''}`
}

// ---- REST ---------------------------------------------------------------------------------------

describe('every REST route, fuzzed', () => {
  it.each(REST_ROUTES.map((route) => [`${route.method.toUpperCase()} ${route.path}`, route] as const))('%s answers below 500, without internals', async (_name, route) => {
    const params = paramsOf(route)
    const property = fc.asyncProperty(
      fc.array(segment(), { minLength: params.length, maxLength: params.length }),
      queryString(fieldsOf(route.query)),
      credentials,
      headerValue,
      fc.option(fc.constantFrom(...CONTENT_TYPES), { freq: 3 }),
      fc.dictionary(fc.constantFrom('accept', 'accept-encoding', 'content-encoding', 'apollo-require-preflight', 'x-forwarded-for', 'origin'), headerValue, { maxKeys: 2 }),
      bodyFor(fieldsOf(route.body)),
      async (segments, query, who, garbage, contentType, extraHeaders, body) => {
        let index = 0
        const path = route.path.replace(/:\w+/g, () => segments[index++] ?? '')
        const encoded = await encodeBody(body, contentType ?? undefined)
        const headers = { ...extraHeaders, ...encoded.headers, ...headersFor(who, garbage) }
        // a wrong content-encoding is part of a case only with a body to decode
        if (!encoded.bytes) delete headers['content-encoding']
        const method = route.method.toUpperCase()
        const response = await send(method, path + query, headers, encoded.bytes)
        expectSafe(response, describeCase(method, path + query, headers, encoded.bytes))
      },
    )
    await fc.assert(property, { numRuns: RUNS, seed: SEED })
  })
})

// ---- GraphQL ------------------------------------------------------------------------------------

const OPERATIONS = [
  'query($filter: IssueFilter, $page: Int!, $perPage: Int!) { issues(filter: $filter, page: $page, perPage: $perPage) { total issues { id notes { text } } } }',
  'query($repoId: ID!, $filter: IssueFilter, $perPage: Int!) { repositoryIssues(repoId: $repoId, filter: $filter, perPage: $perPage) { total } }',
  'mutation($id: ID!, $input: UpdateIssueInput!) { updateIssue(id: $id, input: $input) { id notes { text } } }',
  'mutation($input: BulkUpdateIssuesInput!) { bulkUpdateIssues(input: $input) { updatedCount failedCount } }',
  'mutation($input: CreateRulesetInput!) { createRuleset(input: $input) { id } }',
  'mutation($id: ID!, $input: UpdateRulesetInput!) { updateRuleset(id: $id, input: $input) { id } }',
  'query($orgId: String, $status: ScanStatus, $limit: Int!, $offset: Int!) { scans(orgId: $orgId, status: $status, limit: $limit, offset: $offset) { id } }',
  'mutation($repoId: ID!, $input: CreateScanInput) { createScan(repoId: $repoId, input: $input) { id } }',
  'query($id: ID!) { scanStatus(id: $id) { status } scanLogs(id: $id) { message } }',
]

const schema = buildSchema()

/** Values of a GraphQL input type, mostly well-typed, sometimes anything at all. */
function valueOf(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  const wellTyped = (): fc.Arbitrary<unknown> => {
    if (isNonNullType(type)) return valueOf(type.ofType, depth)
    if (isListType(type)) return fc.array(valueOf(type.ofType, depth + 1), { maxLength: 3 })
    const named = getNamedType(type)
    if (isInputObjectType(named)) {
      if (depth > 3) return fc.constant({})
      const fields = Object.values(named.getFields())
      return fc.record(Object.fromEntries(fields.map((field) => [field.name, valueOf(field.type, depth + 1)])), { requiredKeys: [] })
    }
    if (isEnumType(named)) return fc.constantFrom(...named.getValues().map((value) => value.name), 'completed', 'NOPE')
    switch (named.name) {
      case 'Int':
      case 'Float':
        return number
      case 'Boolean':
        return fc.boolean()
      case 'DateTime':
        return fc.constantFrom('2024-01-01T00:00:00Z', '0000-01-01T00:00:00Z', '-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00Z', '2024-02-30', 'yesterday', '')
      default:
        return text()
    }
  }
  return fc.oneof({ weight: 6, arbitrary: wellTyped() }, { weight: 1, arbitrary: json })
}

describe('POST /graphql, fuzzed variables', () => {
  it.each(OPERATIONS.map((operation) => [operation.slice(0, 60), operation] as const))('%s… answers below 500, without internals', async (_name, operation) => {
    const definition = parse(operation).definitions[0] as OperationDefinitionNode
    const variables = fc.record(
      Object.fromEntries((definition.variableDefinitions ?? []).map((variable) => [variable.variable.name.value, valueOf(typeFromAST(schema, variable.type as never) as GraphQLInputType)])),
      { requiredKeys: [] },
    )
    expect(definition.kind).toBe(Kind.OPERATION_DEFINITION)
    const property = fc.asyncProperty(variables, credentials, headerValue, async (values, who, garbage) => {
      const response = await app.graphql(operation, values, headersFor(who, garbage))
      const what = `${operation.slice(0, 80)} ${JSON.stringify(values).slice(0, 300)}`
      expectSafe(response, what)
      for (const error of response.body?.errors ?? []) {
        expect(error.extensions?.code, `${what} -> ${JSON.stringify(error)}`).not.toBe('INTERNAL_SERVER_ERROR')
        for (const pattern of INTERNALS) expect(JSON.stringify(error), what).not.toMatch(pattern)
      }
    })
    await fc.assert(property, { numRuns: RUNS, seed: SEED })
  })
})
