// PostgreSQL pool and the knex query builder over it.
import knexFactory from 'knex'
import { Pool } from 'pg'
import { config } from '../config'

export const pool = new Pool({ connectionString: config.databaseUrl, max: 10 })
export const knex = knexFactory({ client: 'pg', connection: config.databaseUrl })
