/**
 * `npm run bench:api`: the issue list under load. One organization with 100,000 issues over 20
 * repositories; autocannon (50 connections) against GET /api/issues?per_page=100 with a
 * severity filter, the equivalent GraphQL query, and a baseline measured in the same run (a
 * minimal Express + pg handler with the same SQL and JSON). Targets: at least 0.6 of the
 * baseline's throughput, p99 under 50 ms. Results go to docs/benchmarks.md (## API).
 */
import { fork, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import { createMigratedDatabase, startScratchServer } from '../src/db/admin.ts'
import { findFreePort } from '../src/db/embedded.ts'
import { connectDatabase } from '../src/db/orm.ts'
import { createApiKey } from '../src/modules/api-keys/api-key.service.ts'
import { BENCH_ORG, seedIssues } from './api/seed.ts'
import { writeMarkdownSection } from './lib/markdown-section.ts'

const DURATION_SECONDS = Number(process.env['BENCH_DURATION'] ?? 10)
const CONNECTIONS = 50
const QUERY = 'per_page=100&severity=high,critical'
const GRAPHQL = `query($filter: IssueFilter, $perPage: Int!) { issues(filter: $filter, perPage: $perPage) {
  issues { id scanId repoId ruleId fingerprint filePath lineNumber category severity confidence title description columnStart columnEnd
    explanation codeSnippet contextBefore contextAfter remediation remediationCode cweIds owaspCategory cvssScore tags modelUsed dataFlow
    falsePositive exploitable notes { text author createdAt } createdAt updatedAt repoName scanStatus scanCreatedAt }
  total page perPage totalPages hasNext hasPrev } }`

interface Measurement {
  name: string
  requestsPerSecond: number
  p99: number
  p50: number
  errors: number
}

async function main(): Promise<void> {
  const server = await startScratchServer()
  const database = await createMigratedDatabase(server.url, `parapet_bench_${Date.now().toString(36)}`)
  const databaseUrl = database.url
  const children: ChildProcess[] = []
  try {
    const orm = await connectDatabase({ url: databaseUrl, poolSize: 2 })
    const { key } = await createApiKey(orm.em.fork(), { orgId: BENCH_ORG, userId: 'bench', scopes: ['read:repo'] })
    await orm.close()
    console.log('seeding 100,000 issues...')
    await seedIssues(databaseUrl)

    const baselinePort = await findFreePort()
    const servicePort = await findFreePort()
    children.push(await startChild('api/baseline-server.ts', { DATABASE_URL: databaseUrl, PORT: String(baselinePort), BENCH_ORG }))
    children.push(await startChild('api/service-server.ts', { DATABASE_URL: databaseUrl, PORT: String(servicePort) }))

    const results: Measurement[] = []
    results.push(await measure('baseline (Express + pg)', { url: `http://127.0.0.1:${baselinePort}/api/issues?${QUERY}` }))
    results.push(await measure('REST GET /api/issues', { url: `http://127.0.0.1:${servicePort}/api/issues?${QUERY}`, headers: { 'x-api-key': key } }))
    results.push(
      await measure('GraphQL issues query', {
        url: `http://127.0.0.1:${servicePort}/graphql`,
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ query: GRAPHQL, variables: { filter: { severity: ['HIGH', 'CRITICAL'] }, perPage: 100 } }),
      }),
    )
    report(results)
  } finally {
    for (const child of children) child.kill('SIGTERM')
    await database.drop()
    await server.stop()
  }
}


function startChild(script: string, env: Record<string, string>): Promise<ChildProcess> {
  // both servers run as in production (graphql skips its development-mode checks)
  const child = fork(path.join(import.meta.dirname, script), { env: { ...process.env, NODE_ENV: 'production', ...env }, execArgv: ['--max-semi-space-size=2', '--max-old-space-size=1024', '--import', 'tsx'] })
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child))
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)))
  })
}

async function measure(name: string, options: { url: string; method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }): Promise<Measurement> {
  // warm-up: connection pools, JIT, PostgreSQL caches
  await autocannon({ ...options, connections: 10, duration: 2 })
  const result = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION_SECONDS })
  const measurement = { name, requestsPerSecond: result.requests.average, p99: result.latency.p99, p50: result.latency.p50, errors: result.errors + result.non2xx }
  console.log(`${name}: ${measurement.requestsPerSecond.toFixed(1)} req/s, p50 ${measurement.p50} ms, p99 ${measurement.p99} ms, errors ${measurement.errors}`)
  return measurement
}

function report(results: Measurement[]): void {
  const baseline = results[0] as Measurement
  const rows = results.map((result) => {
    const ratio = result.requestsPerSecond / baseline.requestsPerSecond
    return `| ${result.name} | ${result.requestsPerSecond.toFixed(1)} | ${result.p50} | ${result.p99} | ${ratio.toFixed(2)} | ${result.errors} |`
  })
  const body = [
    `Measured ${new Date().toISOString().slice(0, 10)} by \`npm run bench:api\` on ${os.cpus().length} cores: one organization, 100,000 issues over 20 repositories,`,
    `autocannon with ${CONNECTIONS} connections for ${DURATION_SECONDS} s per target after a 2 s warm-up, \`GET /api/issues?${QUERY}\` (page of 100 with`,
    'notes, repository name and scan status), the same page through GraphQL, and a baseline in the same run: a minimal Express handler',
    'running the same SQL with `pg` (no ORM, no GraphQL, no authentication). Targets: throughput at least 0.6 of the baseline, p99 under 50 ms.',
    '',
    '| target | req/s | p50 ms | p99 ms | ratio to baseline | errors |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    'Where the time goes (CPU profile of the service on the same page): the SQL is the same and takes the same time; the',
    'difference is Node CPU per request, spent hydrating 100 issue entities plus their repositories and scans in MikroORM,',
    'executing about 4,000 GraphQL fields (one operation for REST and GraphQL alike), and the garbage those create. The page costs',
    'six statements (API key, page, count, notes, scans, repositories) against the baseline\'s three. The count uses the',
    '(org_id, severity, repo_id) index alone. Both servers run with NODE_ENV=production.',
  ].join('\n')
  writeMarkdownSection(path.join(import.meta.dirname, '..', 'docs', 'benchmarks.md'), 'API', body)
  console.log('\n' + body)
}


await main()
