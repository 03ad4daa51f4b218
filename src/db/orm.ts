/**
 * The database connection: MikroORM over PostgreSQL with the organization filter, plus the
 * migrations (ours and graphile-worker's) applied at start.
 */
import { MikroORM, type Options, PostgreSqlDriver } from '@mikro-orm/postgresql'
import { Migrator } from '@mikro-orm/migrations'
import { runMigrations as runWorkerMigrations } from 'graphile-worker'
import { MIGRATIONS } from '../../migrations/index.ts'
import { ENTITIES } from './entities.ts'
import { ORG_FILTER, orgFilterDefinition } from './org-scope.ts'

export interface DatabaseOptions {
  url: string
  poolSize?: number
  /** how long opening a connection may take (an unreachable host fails instead of hanging) */
  connectTimeoutMs?: number
  debug?: boolean
  /** receives every SQL statement (tests count them) */
  onQuery?: (sql: string) => void
}

export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000

export function ormOptions(options: DatabaseOptions): Options {
  return {
    driver: PostgreSqlDriver,
    clientUrl: options.url,
    entities: ENTITIES,
    discovery: { warnWhenNoEntities: true },
    filters: { [ORG_FILTER]: orgFilterDefinition() },
    // Every row carries its own org_id and is filtered by it; joining each many-to-one target
    // only to re-check the same organization doubles the cost of counts on large tables.
    autoJoinRefsForFilters: false,
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false },
    pool: { min: 0, max: options.poolSize ?? 10 },
    driverOptions: { connection: { connectionTimeoutMillis: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS } },
    // the global EntityManager must never be used for queries: each request forks its own
    allowGlobalContext: false,
    forceUtcTimezone: true,
    debug: Boolean(options.onQuery) || options.debug === true ? ['query'] : false,
    logger: options.onQuery ? (message: string) => options.onQuery?.(message) : () => undefined,
    colors: false,
    serialization: { forceObject: true },
  }
}

export async function connectDatabase(options: DatabaseOptions): Promise<MikroORM> {
  return MikroORM.init(ormOptions(options))
}

/** Applies pending migrations: ours, then graphile-worker's schema. Safe to run on every start. */
export async function migrateDatabase(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up()
  await runWorkerMigrations({ connectionString: orm.config.get('clientUrl') })
}
