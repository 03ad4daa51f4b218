/**
 * Opens the service's database: the server at DATABASE_URL, or the embedded PostgreSQL under
 * the data folder when none is configured; migrations applied either way. The embedded server
 * is the service's own to keep up: if it exits on its own (crashed, killed) it is started again,
 * with a growing pause while it keeps failing; requests answer 503 meanwhile.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import type { Config } from '../config.ts'
import type { Logger } from '../logger.ts'
import { startEmbeddedDatabase, type EmbeddedDatabase } from './embedded.ts'
import { connectDatabase, migrateDatabase } from './orm.ts'

export interface OpenDatabase {
  url: string
  orm: MikroORM
  embedded: boolean
  close(): Promise<void>
}

export async function openDatabase(config: Config, logger: Logger): Promise<OpenDatabase> {
  const embedded = config.database.url
    ? undefined
    : await startEmbeddedDatabase({ ...config.database.embedded, log: (line) => logger.debug(line.trim()), logger })
  const url = config.database.url ?? embedded?.url
  if (!url) throw new Error('no database')
  if (embedded) logger.info('embedded PostgreSQL started', { dataDir: config.database.embedded.dataDir, port: config.database.embedded.port })
  const stopRestarting = embedded ? keepRunning(embedded, logger) : () => undefined
  try {
    const orm = await connectDatabase({ url, poolSize: config.database.poolSize, connectTimeoutMs: config.database.connectTimeoutMs })
    await migrateDatabase(orm)
    return {
      url,
      orm,
      embedded: Boolean(embedded),
      close: async () => {
        stopRestarting()
        await orm.close()
        await embedded?.stop()
      },
    }
  } catch (error) {
    stopRestarting()
    await embedded?.stop()
    throw error
  }
}

/** Starts the embedded server again whenever it exits on its own; the returned function ends that. */
function keepRunning(embedded: EmbeddedDatabase, logger: Logger): () => void {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const restart = (delayMs: number) => {
    timer = setTimeout(() => {
      if (stopped) return
      embedded.restart().then(
        () => {
          if (stopped) return
          logger.info('embedded PostgreSQL started again')
          embedded.onUnexpectedExit(onExit)
        },
        // a killed server's backends may hold its shared memory for a moment
        (error: unknown) => {
          logger.warn('embedded PostgreSQL did not start again; retrying', { error })
          restart(Math.min(delayMs * 2, 10_000))
        },
      )
    }, delayMs)
  }
  const onExit = (reason: string) => {
    if (stopped) return
    logger.error('embedded PostgreSQL exited unexpectedly; starting it again', { reason })
    restart(500)
  }
  embedded.onUnexpectedExit(onExit)
  return () => {
    stopped = true
    clearTimeout(timer)
  }
}
