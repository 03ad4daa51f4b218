/**
 * Opens the service's database: the server at DATABASE_URL, or the embedded PostgreSQL under
 * the data folder when none is configured; migrations applied either way.
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import type { Config } from '../config.ts'
import type { Logger } from '../logger.ts'
import { startEmbeddedDatabase } from './embedded.ts'
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
    : await startEmbeddedDatabase({ ...config.database.embedded, log: (line) => logger.debug(line.trim()) })
  const url = config.database.url ?? embedded?.url
  if (!url) throw new Error('no database')
  if (embedded) logger.info('embedded PostgreSQL started', { dataDir: config.database.embedded.dataDir, port: config.database.embedded.port })
  try {
    const orm = await connectDatabase({ url, poolSize: config.database.poolSize, connectTimeoutMs: config.database.connectTimeoutMs })
    await migrateDatabase(orm)
    return {
      url,
      orm,
      embedded: Boolean(embedded),
      close: async () => {
        await orm.close()
        await embedded?.stop()
      },
    }
  } catch (error) {
    await embedded?.stop()
    throw error
  }
}
