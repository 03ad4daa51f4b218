/**
 * The service's entry point. `--role all` (default: `npm start`) serves the API and runs the
 * worker in one process; `--role api` and `--role worker` run them apart, any number of each
 * against one database. SIGINT/SIGTERM: HTTP drained, worker stopped, database closed.
 * A database outage after the start stops nothing: requests answer 503 and the worker waits.
 */
import { parseArgs } from 'node:util'
import { createAuthenticator } from './auth/authenticate.ts'
import { ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './db/database.ts'
import { EmbeddedDatabaseInUseError } from './db/embedded.ts'
import { isPortFree } from './ports.ts'
import { isDatabaseUnavailable } from './db/unavailable.ts'
import { EVENTS_CHANNEL, EventListener } from './events/event-hub.ts'
import { startApiServer } from './http/app.ts'
import { startStaleScanReaper } from './modules/scans/stale-scans.ts'
import { createLogger, type Logger } from './logger.ts'
import { startWorker } from '../worker/index.ts'

type Role = 'all' | 'api' | 'worker'

class PortInUseError extends Error {}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } })
  const role = values.role as Role
  if (!['all', 'api', 'worker'].includes(role)) throw new ConfigError([`--role: expected all, api or worker (got "${role}")`])
  const config = loadConfig()
  const logger = createLogger(config.logLevel)
  survivePromiseRejections(logger)
  // before the database, which may take half a minute to create on a first start
  if (role !== 'worker' && config.http.port !== 0 && !(await isPortFree(config.http.port, config.http.host))) {
    throw new PortInUseError(`port ${config.http.port} is in use: is Parapet already running? Stop it, or set PORT to another port.`)
  }
  const database = await openDatabase(config, logger)
  const stops: (() => Promise<void>)[] = []

  // every process watches for scans whose worker died
  const reaper = startStaleScanReaper({ orm: database.orm, timeoutSeconds: config.worker.heartbeatTimeoutSeconds, logger })
  stops.unshift(async () => reaper.stop())
  if (role !== 'api') {
    const worker = await startWorker({
      connectionString: database.url,
      orm: database.orm,
      concurrency: config.worker.concurrency,
      maxFileBytes: config.limits.scanMaxFileBytes,
      scanLimits: { ...config.scans, ruleLimits: config.rules },
      connectTimeoutMs: config.database.connectTimeoutMs,
      logger,
    })
    stops.unshift(() => worker.stop())
  }
  if (role !== 'worker') {
    const events = new EventListener(database.url, [EVENTS_CHANNEL], logger, { connectTimeoutMs: config.database.connectTimeoutMs })
    await events.start()
    stops.push(() => events.close())
    const authenticate = createAuthenticator(database.orm, config.auth)
    const server = await startApiServer({ runtime: { orm: database.orm, limits: config.limits, ruleLimits: config.rules, events }, authenticate, logger, ...config.http, queryLimits: config.graphql, websocket: config.websocket, introspection: config.introspection })
    stops.unshift(() => server.close())
    logger.info(`Parapet listening on ${server.url} (REST under /api, GraphQL at /graphql)`)
    logger.info(
      [
        `  REST API     ${server.url}/api (browse it at ${server.url}/docs)`,
        `  GraphQL      ${server.url}/graphql (an IDE in a browser; subscriptions at ${server.url.replace(/^http/, 'ws')}/graphql)`,
        `  health       ${server.url}/healthz, ${server.url}/readyz`,
        '  API key      npx parapet keys create --org <org-id> --user <user-id>',
      ].join('\n'),
    )
  }

  let stopping = false
  const shutdown = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info(`${signal} received: shutting down`)
    for (const stop of stops) await stop().catch((error: unknown) => logger.error('shutdown step failed', { error }))
    await database.close().catch((error: unknown) => logger.error('database close failed', { error }))
    logger.info('stopped')
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
}

/**
 * A promise rejected with nobody to handle it ends a Node process by default. Libraries do
 * leave some: graphile-worker records a job's outcome without awaiting it, so a database lost at
 * that moment rejects there. One request's or one job's failure must not take the whole service
 * (every tenant, and under `npm start` the API with the worker) down: it is logged, and the
 * process carries on.
 */
function survivePromiseRejections(logger: Logger): void {
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) logger.warn('database unavailable during a background operation', { error: reason })
    else logger.error('unhandled promise rejection', { error: reason })
  })
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof EmbeddedDatabaseInUseError || error instanceof PortInUseError) {
    process.stderr.write(`parapet: ${error.message}\n`)
    process.exit(78)
  }
  process.stderr.write(`parapet: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(1)
})
