/**
 * What a failed job tells the tenant it ran for (a scan's `error` and log, a task's
 * `last_error`): a short reason, never SQL, a stack trace or a path on the worker's host. The
 * full error goes to the service log, for whoever runs the service.
 */
import { DriverException } from '@mikro-orm/core'
import { isDatabaseUnavailable } from '../src/db/unavailable.ts'

const INTERNAL = 'Internal error'
const MAX_REASON_LENGTH = 300

/** Statement text as database drivers put it into their messages. */
const SQL_TEXT = /\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+"?\w+"?\s+set\b|\bselect\b[\s\S]+\bfrom\b|\?::|\$\d+::/i
/** An absolute path (Unix or Windows), a file URL or a stack frame. */
const HOST_DETAIL = /(^|[\s'"(=:])\/[\w.@-]+\/|[A-Za-z]:\\|file:\/\/|node_modules|\bat .+:\d+:\d+/

export function failureReason(error: unknown): string {
  if (isDatabaseUnavailable(error)) return 'The database was unreachable'
  if (isDatabaseError(error)) return `${INTERNAL} (database error)`
  const code = (error as { code?: unknown } | null)?.code
  if (typeof (error as { syscall?: unknown } | null)?.syscall === 'string' && typeof code === 'string') {
    return code === 'ENOSPC' ? `${INTERNAL} (the worker ran out of disk space)` : `${INTERNAL} (${code})`
  }
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]?.trim() ?? ''
  if (message === '' || SQL_TEXT.test(message) || HOST_DETAIL.test(message)) return INTERNAL
  return message.length > MAX_REASON_LENGTH ? `${message.slice(0, MAX_REASON_LENGTH - 1)}…` : message
}

/** MikroORM's wrapped driver errors, and node-postgres's own (they carry the server's severity). */
function isDatabaseError(error: unknown): boolean {
  if (error instanceof DriverException) return true
  const { severity, code } = (error ?? {}) as { severity?: unknown; code?: unknown }
  return typeof severity === 'string' && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
}
