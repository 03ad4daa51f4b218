/**
 * "The database cannot be reached right now", told apart from every other database error, in
 * one place: the surfaces answer it with 503 + Retry-After (src/errors.ts DatabaseUnavailableError),
 * the worker waits for the database instead of recording a failure it cannot write.
 *
 * Errors are classified by code wherever the driver gives one: Node's socket error codes
 * (refused, reset, unreachable...), and PostgreSQL's SQLSTATE class 08 (connection exception),
 * 57P01-57P03 (terminated by an administrator or a crash, starting up, shutting down) and
 * 53300 (too many connections). node-postgres, pg-pool and knex raise a few connection
 * failures without a code; those are recognised by their exact messages or class name.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import { DatabaseUnavailableError } from '../errors.ts'

const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
])

const SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300'])

/** node-postgres and pg-pool connection failures that carry no code. */
const CODELESS_MESSAGES: ReadonlySet<string> = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout expired',
  'timeout exceeded when trying to connect',
])

/** True when `error` (or what it wraps) says the database is unreachable, not that a statement failed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return causesOf(error).some((cause) => {
    const { code, message, name } = cause as { code?: unknown; message?: unknown; name?: unknown }
    if (typeof code === 'string' && code !== '') {
      if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true
    }
    // knex gives up waiting for a pooled connection (the pool is exhausted or cannot connect)
    if (name === 'KnexTimeoutError') return true
    if (typeof message !== 'string') return false
    // knex prefixes the statement: "<sql> - Connection terminated unexpectedly"
    return CODELESS_MESSAGES.has(message) || CODELESS_MESSAGES.has(message.slice(message.lastIndexOf(' - ') + 3))
  })
}

/** The domain error to answer with, when `error` is a database outage. */
export function databaseUnavailable(error: unknown): DatabaseUnavailableError | undefined {
  if (error instanceof DatabaseUnavailableError) return error
  return isDatabaseUnavailable(error) ? new DatabaseUnavailableError() : undefined
}

/** The error and what it wraps: `cause`, GraphQL's `originalError`, AggregateError's `errors`. */
function causesOf(error: unknown): object[] {
  const found: object[] = []
  const pending: unknown[] = [error]
  while (pending.length > 0 && found.length < 16) {
    const current = pending.shift()
    if (typeof current !== 'object' || current === null || found.includes(current)) continue
    found.push(current)
    const { cause, originalError, errors } = current as { cause?: unknown; originalError?: unknown; errors?: unknown }
    pending.push(cause, originalError, ...(Array.isArray(errors) ? errors : []))
  }
  return found
}

export interface WaitOptions {
  /** ends the wait (worker shutdown): the promise rejects with the signal's reason */
  signal?: AbortSignal | undefined
  /** first pause between checks; doubles up to `maxIntervalMs` */
  intervalMs?: number
  maxIntervalMs?: number
}

/**
 * Resolves once the database answers again. Any answer counts, even an error that is not an
 * outage: the caller's next statement will tell.
 */
export async function waitForDatabase(orm: MikroORM, options: WaitOptions = {}): Promise<void> {
  let interval = options.intervalMs ?? 250
  while (true) {
    options.signal?.throwIfAborted()
    try {
      await orm.em.getConnection().execute('select 1', [], 'get')
      return
    } catch (error) {
      if (!isDatabaseUnavailable(error)) return
    }
    await sleep(interval, options.signal)
    interval = Math.min(interval * 2, options.maxIntervalMs ?? 5000)
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
