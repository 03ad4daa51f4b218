/** A small leveled logger writing one line per event to stderr. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

export interface Logger {
  debug(message: string, data?: Record<string, unknown>): void
  info(message: string, data?: Record<string, unknown>): void
  warn(message: string, data?: Record<string, unknown>): void
  error(message: string, data?: Record<string, unknown>): void
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stderr.write(line + '\n')): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>) => (message: string, data?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return
    write(`${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} ${message}${data ? ' ' + safeJson(data) : ''}`)
  }
  return { debug: emit('debug'), info: emit('info'), warn: emit('warn'), error: emit('error') }
}

function safeJson(data: Record<string, unknown>): string {
  try {
    return JSON.stringify(data, (_key, value: unknown) => (value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value))
  } catch {
    return '[unserializable]'
  }
}
