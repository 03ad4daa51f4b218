/**
 * Boots the real HTTP server (Express, Apollo, graphql-ws) on an ephemeral port over this test
 * file's database, and offers small HTTP/GraphQL/WebSocket clients for the tests.
 */
import { afterAll, beforeAll, expect } from 'vitest'
import { createClient, type Client } from 'graphql-ws'
import WebSocket from 'ws'
import { createAuthenticator } from '../../src/auth/authenticate.ts'
import type { JwtSettings } from '../../src/auth/jwt.ts'
import type { QueryLimits } from '../../src/graphql/limits.ts'
import type { RuleLimits } from '../../src/engine/rules/limits.ts'
import { startApiServer, type ApiServer } from '../../src/http/app.ts'
import { DEFAULT_WEBSOCKET_SETTINGS, type WebSocketSettings } from '../../src/http/websocket.ts'
import { createLogger, type LogLevel } from '../../src/logger.ts'
import type { UploadLimits } from '../../src/modules/uploads/zip-archive.ts'
import { DEFAULT_UPLOAD_LIMITS } from '../../src/runtime.ts'
import { EVENTS_CHANNEL, EventListener } from '../../src/events/event-hub.ts'
import { startStaleScanReaper } from '../../src/modules/scans/stale-scans.ts'
import { startWorker, type Worker } from '../../worker/index.ts'
import type { ScanLimits } from '../../worker/run-scan.ts'
import { useTestDatabase, type TestDatabase } from './database.ts'

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long'

export interface TestApp {
  db: TestDatabase
  url: string
  request(path: string, init?: RequestInit & { json?: unknown }): Promise<TestResponse>
  graphql(query: string, variables: Record<string, unknown>, headers: Record<string, string>): Promise<TestResponse>
  websocket(connectionParams: Record<string, unknown>): Client
}

export interface TestResponse {
  status: number
  headers: Headers
  /** parsed JSON, or the text when the body is not JSON */
  body: any
  text: string
}

export interface TestAppOptions {
  auth?: JwtSettings
  queryLimits?: QueryLimits
  /** WebSocket subscription limits and credential re-check interval */
  websocket?: Partial<WebSocketSettings>
  /** whether GraphQL introspection is allowed (the server's default: true) */
  introspection?: boolean
  limits?: Partial<UploadLimits>
  /** bounds on rules_text (the engine's defaults otherwise) */
  ruleLimits?: RuleLimits
  /** run a real graphile worker in this process */
  worker?: boolean
  /** the worker's scan time limits (its defaults otherwise) */
  scanLimits?: ScanLimits
  /** run the stale-scan check with this heartbeat timeout */
  heartbeatTimeoutSeconds?: number
  /** the bundled dashboard served at / (the server's default: dist/web) */
  dashboardDir?: string
}

export function useTestApp(options: TestAppOptions = {}): TestApp {
  const db = useTestDatabase()
  const app = { db, url: '' } as TestApp
  const sockets: Client[] = []
  let server: ApiServer | undefined
  let events: EventListener | undefined
  let worker: Worker | undefined
  let reaper: { stop(): void } | undefined
  beforeAll(async () => {
    const logger = createLogger((process.env['TEST_LOG_LEVEL'] as LogLevel | undefined) ?? 'silent')
    const authenticate = createAuthenticator(db.orm, options.auth ?? { jwtSecret: TEST_JWT_SECRET })
    events = new EventListener(db.url, [EVENTS_CHANNEL], logger)
    await events.start()
    if (options.worker) worker = await startWorker({ connectionString: db.url, orm: db.orm, concurrency: 2, logger, maxFileBytes: 1024 * 1024, ...(options.scanLimits && { scanLimits: options.scanLimits }) })
    if (options.heartbeatTimeoutSeconds) reaper = startStaleScanReaper({ orm: db.orm, timeoutSeconds: options.heartbeatTimeoutSeconds, logger, intervalMs: 500 })
    server = await startApiServer({ runtime: { orm: db.orm, limits: { ...DEFAULT_UPLOAD_LIMITS, ...options.limits }, ...(options.ruleLimits && { ruleLimits: options.ruleLimits }), events }, authenticate, logger, host: '127.0.0.1', port: 0, ...(options.queryLimits && { queryLimits: options.queryLimits }), websocket: { ...DEFAULT_WEBSOCKET_SETTINGS, ...options.websocket }, ...(options.introspection !== undefined && { introspection: options.introspection }), ...(options.dashboardDir && { dashboardDir: options.dashboardDir }) })
    app.url = server.url
  })
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.dispose()))
    await server?.close()
    reaper?.stop()
    await worker?.stop()
    await events?.close()
  })
  app.request = (path, init = {}) => requestJson(app.url, path, init)
  app.graphql = (query, variables, headers) =>
    app.request('/graphql', { method: 'POST', headers, json: { query, variables } })
  app.websocket = (connectionParams) => {
    const client = createClient({ url: app.url.replace('http', 'ws') + '/graphql', webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true })
    sockets.push(client)
    return client
  }
  return app
}

/** One HTTP request as tests make it: `json` sent as the body, the answer parsed when it is JSON. */
export async function requestJson(baseUrl: string, path: string, init: RequestInit & { json?: unknown } = {}): Promise<TestResponse> {
  const { json, ...rest } = init
  const headers = new Headers(rest.headers)
  if (json !== undefined) headers.set('content-type', 'application/json')
  const response = await fetch(baseUrl + path, { ...rest, headers, ...(json !== undefined && { body: JSON.stringify(json) }) })
  return toTestResponse(response)
}

async function toTestResponse(response: Response): Promise<TestResponse> {
  const text = await response.text()
  let body: unknown = text
  try {
    body = text ? JSON.parse(text) : undefined
  } catch {
    body = text
  }
  return { status: response.status, headers: response.headers, body, text }
}

/** Runs one operation over graphql-ws and resolves with its single result. */
export function runOverWebSocket(client: Client, query: string, variables: Record<string, unknown> = {}) {
  return new Promise<{ data?: any; errors?: any[] }>((resolve, reject) => {
    let result: { data?: any; errors?: any[] } | undefined
    client.subscribe({ query, variables }, {
      next: (value) => (result = value as typeof result),
      error: reject,
      complete: () => (result ? resolve(result) : reject(new Error('no result'))),
    })
  })
}

/** No response body of any status may carry a stack trace or an internal path. */
export function expectNoInternals(response: TestResponse): void {
  expect(response.text).not.toMatch(/\bat .+\(.+:\d+:\d+\)|node_modules|\/src\/|stacktrace/i)
}

/** How a WebSocket connection ended (the close code and reason the server sent); rejects after `timeoutMs`. */
export function closeOf(client: Client, timeoutMs = 30_000): Promise<{ code: number; reason: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the connection was still open after ${timeoutMs} ms`)), timeoutMs)
    client.on('closed', (event) => {
      clearTimeout(timer)
      const { code, reason } = event as { code: number; reason: string }
      resolve({ code, reason })
    })
  })
}
