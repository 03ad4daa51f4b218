/**
 * Faults, really done to real processes: the database killed under a running service and
 * started again, a worker killed with SIGKILL mid-scan, a worker frozen (SIGSTOP) past the
 * heartbeat timeout and resumed, `npm start` killed with SIGKILL and started again over its
 * orphaned embedded PostgreSQL, and that PostgreSQL killed under it.
 * Waits are bounded and generous; nothing asserts how fast. The times the service took are
 * printed (`[faults]` lines) for the record.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { findFreePort, runningEmbeddedDatabaseUrl } from '../../src/db/embedded.ts'
import { connectDatabase } from '../../src/db/orm.ts'
import { expectNoInternals, TEST_JWT_SECRET, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'
import { clientOf, startOwnDatabaseServer, waitUntil } from '../support/faults.ts'
import { startServiceProcess } from '../support/processes.ts'
import { isTerminal, largeProject, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

// the worker-kill test's database and stale-scan check (the database-kill tests bring their own server)
const app = useTestApp({ heartbeatTimeoutSeconds: 10 })

function record(what: string, ms: number): void {
  process.stdout.write(`[faults] ${what}: ${(ms / 1000).toFixed(1)} s\n`)
}

// each test takes 10-30 s on a busy 2-core machine; the bound is generous, not a target
const FAULT_TEST_TIMEOUT_MS = 300_000

const messagesOf = (logs: { message: string }[]) => logs.map((entry) => entry.message)
const started = (entry: { message: string }) => entry.message === 'Scan started'

describe('the database killed under a running service', () => {
  it('answers 503 with Retry-After while it is down, recovers when it returns, and retries the interrupted scan to completion', async () => {
    const database = await startOwnDatabaseServer()
    const orm = await connectDatabase({ url: database.url, poolSize: 2 })
    const caller = await makeApiKeyPrincipal(orm)
    await orm.close()
    const service = await startServiceProcess('all', database.url, { WORKER_CONCURRENCY: '1', SCAN_HEARTBEAT_TIMEOUT: '30' })
    const api = clientOf(service.url)
    const repository = await uploadProject(api, caller, { ...vulnerableProject(), ...largeProject(1500) })
    const created = await api.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    expect(created.status).toBe(201)
    const scanId = created.body.id as string
    await waitUntil(async () => ((await api.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body ?? []).some(started), 120_000, 'the scan to start')

    await database.kill()

    const rest = await api.request(`/api/scans/${scanId}/status`, { headers: caller.headers })
    expect(rest.status).toBe(503)
    expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(rest.body).toEqual({ detail: expect.stringMatching(/unavailable/) })
    expectNoInternals(rest)
    const graphql = await api.request('/graphql', { method: 'POST', headers: caller.headers, json: { query: 'query($id: ID!) { scan(id: $id) { status } }', variables: { id: scanId } } })
    expect(graphql.status).toBe(503)
    expect(graphql.headers.get('retry-after')).not.toBeNull()
    expect(graphql.body.errors[0]).toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE', status: 503 } })
    expectNoInternals(graphql)
    expect((await api.request('/readyz')).status).toBe(503)
    expect((await api.request('/healthz')).status).toBe(200)
    // a WebSocket client is told to try again later (1013), as graphql-ws clients then do
    const socket = new WebSocket(service.url.replace('http', 'ws') + '/graphql', 'graphql-transport-ws')
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { apiKey: caller.headers['X-API-Key'] } })))
    expect(await new Promise((resolve) => socket.on('close', (code) => resolve(code)))).toBe(1013)

    // the scan meets the outage at its next read or write (its content, its results)
    await waitUntil(() => service.output().includes('scan interrupted: the database is unreachable'), 180_000, 'the scan to meet the outage')
    expect(service.child.exitCode).toBeNull()

    const restartedAt = Date.now()
    await database.start()
    record('database restart (PostgreSQL start-up)', Date.now() - restartedAt)
    await waitUntil(async () => (await api.request('/api/repositories', { headers: caller.headers })).status === 200, 60_000, 'a 2xx after the database returned')
    record('database restart -> first 2xx', Date.now() - restartedAt)
    expect((await api.request('/readyz')).status).toBe(200)

    const done = await waitForScan(api, caller, scanId, isTerminal, 180_000)
    record('database restart -> interrupted scan completed', Date.now() - restartedAt)
    expect(done).toMatchObject({ status: 'completed', error: null })
    const messages = messagesOf((await api.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body)
    expect(messages).toContain('The database became unreachable during the scan: the scan goes back to the queue (attempt 1 of 3)')
    expect(messages.filter((message) => message === 'Scan started')).toHaveLength(2)
    expect(messages.at(-1)).toMatch(/^Scan completed/)

    expect(service.child.exitCode).toBeNull()
    expect(service.output()).not.toContain('unhandled promise rejection')
    service.child.kill('SIGTERM')
    expect(await service.exited).toBe(0)
  }, FAULT_TEST_TIMEOUT_MS)
})

describe('a worker killed with SIGKILL mid-scan', () => {
  it('has its scan retried by another worker once the heartbeat timeout passes, and completed', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, largeProject(1500))
    const doomed = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    const scanId = created.body.id as string
    await waitUntil(async () => (await app.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body.some(started), 120_000, 'the first attempt to start')
    doomed.child.kill('SIGKILL')
    const killedAt = Date.now()
    const next = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })

    const retried = (entry: { message: string }) => /^Retrying: the worker running the scan stopped responding/.test(entry.message)
    await waitUntil(async () => (await app.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body.some(retried), 120_000, 'the scan to be retried')
    record('worker SIGKILL -> scan retried (heartbeat timeout 10 s)', Date.now() - killedAt)
    const done = await waitForScan(app, caller, scanId, isTerminal, 180_000)
    record('worker SIGKILL -> retried scan completed', Date.now() - killedAt)

    expect(done).toMatchObject({ status: 'completed', error: null })
    const messages = messagesOf((await app.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body)
    expect(messages).toContain('Retrying: the worker running the scan stopped responding (no heartbeat for 10 s); the scan goes back to the queue (attempt 1 of 3 interrupted)')
    expect(messages.filter((message) => message === 'Scan started')).toHaveLength(2)
    const task = await app.request(`/api/scans/${scanId}/task-status`, { headers: caller.headers })
    expect(task.body).toMatchObject({ status: 'completed' })
    next.child.kill('SIGTERM')
    expect(await next.exited).toBe(0)
  }, FAULT_TEST_TIMEOUT_MS)
})

describe('a worker frozen longer than the heartbeat timeout', () => {
  it('loses its scan to a retry, and once resumed leaves it alone: the scan completes once, its issues stored once', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, { ...vulnerableProject(), ...largeProject(1500) })
    const frozen = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    const scanId = created.body.id as string
    await waitUntil(async () => (await app.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body.some(started), 120_000, 'the first attempt to start')
    frozen.child.kill('SIGSTOP')
    const next = await startServiceProcess('worker', app.db.url, { WORKER_CONCURRENCY: '1' })

    const done = await waitForScan(app, caller, scanId, isTerminal, 180_000)
    expect(done).toMatchObject({ status: 'completed' })
    frozen.child.kill('SIGCONT')
    await waitUntil(() => frozen.output().includes('the scan was retried by another attempt'), 120_000, 'the resumed worker to give the scan up')

    const messages = messagesOf((await app.request(`/api/scans/${scanId}/logs`, { headers: caller.headers })).body)
    expect(messages.filter((message) => message === 'Scan started')).toHaveLength(2)
    expect(messages).not.toContain('Scan stopped')
    expect(messages.at(-1)).toMatch(/^Scan completed/)
    const results = await app.request(`/api/scans/${scanId}/results`, { headers: caller.headers })
    const fingerprints = results.body.issues.map((issue: { fingerprint: string }) => issue.fingerprint)
    expect(fingerprints.length).toBeGreaterThan(0)
    expect(new Set(fingerprints).size).toBe(fingerprints.length)
    expect(results.body.summary.total_issues).toBe(fingerprints.length)
    expect((await app.request(`/api/scans/${scanId}/status`, { headers: caller.headers })).body).toMatchObject({ status: 'completed', issues_found: fingerprints.length })
    for (const worker of [frozen, next]) worker.child.kill('SIGTERM')
    expect(await Promise.all([frozen.exited, next.exited])).toEqual([0, 0])
  }, FAULT_TEST_TIMEOUT_MS)
})

describe('npm start with its embedded PostgreSQL', () => {
  const children: ReturnType<typeof spawn>[] = []
  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })

  function start(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...process.env, DATABASE_URL: '', HOST: '127.0.0.1', ...env } })
    children.push(child)
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    return { child, output: () => output, exited }
  }

  it('after a SIGKILL, starts again over the orphaned server; and brings that server back when it is killed', async () => {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'parapet-orphan-'))
    await fs.chmod(folder, 0o755)
    const dataDir = path.join(folder, 'pg')
    const env = { PARAPET_DATA_DIR: folder, PORT: String(await findFreePort()), EMBEDDED_PG_PORT: String(await findFreePort()), AUTH_JWT_SECRET: TEST_JWT_SECRET }
    const api = clientOf(`http://127.0.0.1:${env.PORT}`)
    try {
      const first = start(env)
      await waitUntil(() => first.output().includes('Parapet listening'), 60_000, 'the first start')
      first.child.kill('SIGKILL')
      await first.exited
      // what the next start finds: PostgreSQL still running on the folder, its owner gone
      expect(await runningEmbeddedDatabaseUrl(dataDir)).toBeDefined()

      const second = start(env)
      await waitUntil(() => second.output().includes('Parapet listening') || second.child.exitCode !== null, 90_000, 'the second start')
      expect(second.output()).toContain('stopping the embedded PostgreSQL left running by a Parapet process that is gone')
      expect((await api.request('/readyz')).status).toBe(200)

      const postmaster = Number((await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0])
      process.kill(postmaster, 'SIGKILL')
      const killedAt = Date.now()
      await waitUntil(() => second.output().includes('embedded PostgreSQL started again'), 60_000, 'the embedded server to be started again')
      await waitUntil(async () => (await api.request('/readyz')).status === 200, 60_000, 'ready again')
      record('embedded PostgreSQL SIGKILL -> ready again', Date.now() - killedAt)
      expect(second.child.exitCode).toBeNull()

      second.child.kill('SIGTERM')
      expect(await second.exited).toBe(0)
      expect(await runningEmbeddedDatabaseUrl(dataDir)).toBeUndefined()
    } finally {
      // a failed run must not leave a server behind on the folder
      const left = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => undefined)
      try {
        if (left) process.kill(Number(left.split('\n')[0]), 'SIGQUIT')
      } catch {
        // already gone
      }
      await fs.rm(folder, { recursive: true, force: true })
    }
  }, FAULT_TEST_TIMEOUT_MS)
})
