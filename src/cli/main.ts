/**
 * The `parapet` command line: scans of a local folder (the engine alone, no server or database),
 * API keys (create, list, revoke) and local bearer tokens.
 *
 *   parapet scan <dir> [options]          (parapet scan --help for the options)
 *   parapet keys create --org <org-id> --user <user-id> [--scopes read:repo,write:repo,...] [--name <label>]
 *   parapet keys list [--org <org-id>]
 *   parapet keys revoke <key-id>
 *   parapet token --org <org-id> --user <user-id> [--scopes ...] [--expires-in <seconds>]   (default 3600, at most AUTH_JWT_MAX_LIFETIME)
 *
 * Keys are written to the configured database: DATABASE_URL, or the embedded one (the running
 * server's if it is up, else started for the duration of the command).
 */
import { parseArgs } from 'node:util'
import type { MikroORM } from '@mikro-orm/postgresql'
import { isScope, SCOPES, type Scope } from '../auth/caller.ts'
import { mintToken } from '../auth/jwt.ts'
import { ConfigError, loadConfig, type Config } from '../config.ts'
import { runningEmbeddedDatabaseUrl, startEmbeddedDatabase } from '../db/embedded.ts'
import { connectDatabase, migrateDatabase } from '../db/orm.ts'
import { DomainError } from '../errors.ts'
import { createApiKey, listApiKeys, revokeApiKey } from '../modules/api-keys/api-key.service.ts'

const USAGE = `Usage:
  parapet scan <dir> [options]      scan a folder (see parapet scan --help)
  parapet keys create --org <org-id> --user <user-id> [--scopes <list>] [--name <label>]
  parapet keys list [--org <org-id>]
  parapet keys revoke <key-id>
  parapet token --org <org-id> --user <user-id> [--scopes <list>] [--expires-in <seconds>]

Scopes (comma or space separated, default all): ${SCOPES.join(', ')}`

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  if (argv[0] === 'scan') return scan(argv.slice(1))
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      user: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      'expires-in': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
  const [group, action, ...rest] = positionals
  if (values.help || !group) {
    process.stdout.write(USAGE + '\n')
    return
  }
  const config = loadConfig()
  if (group === 'token') return printToken(config, values)
  if (group !== 'keys') throw new UsageError(`unknown command "${group}"`)
  await withDatabase(config, async (orm) => {
    const em = orm.em.fork()
    if (action === 'create') {
      const { key, record } = await createApiKey(em, {
        orgId: required(values.org, '--org'),
        userId: required(values.user, '--user'),
        scopes: parseScopes(values.scopes),
        name: values.name ?? '',
      })
      process.stdout.write(`Created API key ${record.id} for org ${record.orgId}, user ${record.userId}, scopes ${record.scopes.join(' ')}.\n`)
      process.stdout.write(`The key is shown once; store it now:\n\n${key}\n`)
    } else if (action === 'list') {
      const keys = await listApiKeys(em, values.org ? { orgId: values.org } : {})
      for (const key of keys) {
        const state = key.revokedAt ? `revoked ${key.revokedAt.toISOString()}` : 'active'
        process.stdout.write(`${key.id}  org=${key.orgId}  user=${key.userId}  scopes=${key.scopes.join(',')}  prefix=pk_${key.prefix}  ${state}  ${key.name}\n`)
      }
      if (keys.length === 0) process.stdout.write('No API keys.\n')
    } else if (action === 'revoke') {
      const record = await revokeApiKey(em, required(rest[0], '<key-id>'))
      process.stdout.write(`Revoked API key ${record.id}.\n`)
    } else {
      throw new UsageError(`unknown keys command "${action ?? ''}"`)
    }
  })
}

/** The engine's own command line; loaded only for scans, which need no configuration. */
async function scan(argv: string[]): Promise<void> {
  const { runCli } = await import('../engine/cli/scan-command.ts')
  process.exitCode = await runCli(argv, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) })
}

async function printToken(config: Config, values: { org?: string | undefined; user?: string | undefined; scopes?: string | undefined; 'expires-in'?: string | undefined }): Promise<void> {
  if (!config.auth.jwtSecret) throw new UsageError('AUTH_JWT_SECRET must be set to mint a token')
  const expiresIn = Number(values['expires-in'] ?? 3600)
  if (!Number.isInteger(expiresIn) || expiresIn <= 0) throw new UsageError('--expires-in must be a positive number of seconds')
  // the server refuses longer-lived tokens: mint none it would refuse
  if (expiresIn > config.auth.maxLifetimeSeconds) throw new UsageError(`--expires-in must be at most ${config.auth.maxLifetimeSeconds} seconds (AUTH_JWT_MAX_LIFETIME)`)
  const token = await mintToken({
    secret: config.auth.jwtSecret,
    orgId: required(values.org, '--org'),
    userId: required(values.user, '--user'),
    scopes: parseScopes(values.scopes),
    expiresIn,
    issuer: config.auth.issuer,
    audience: config.auth.audience,
  })
  process.stdout.write(token + '\n')
}

async function withDatabase(config: Config, work: (orm: MikroORM) => Promise<void>): Promise<void> {
  const runningUrl = config.database.url ?? (await runningEmbeddedDatabaseUrl(config.database.embedded.dataDir))
  const embedded = runningUrl ? undefined : await startEmbeddedDatabase(config.database.embedded)
  const orm = await connectDatabase({ url: runningUrl ?? embedded?.url ?? '' })
  try {
    await migrateDatabase(orm)
    await work(orm)
  } finally {
    await orm.close()
    await embedded?.stop()
  }
}

function parseScopes(text: string | undefined): Scope[] {
  if (text === undefined) return [...SCOPES]
  const listed = text.split(/[\s,]+/).filter(Boolean)
  const unknown = listed.filter((scope) => !isScope(scope))
  if (unknown.length > 0) throw new UsageError(`unknown scope(s): ${unknown.join(', ')} (valid: ${SCOPES.join(', ')})`)
  return listed.filter(isScope)
}

function required(value: string | undefined, name: string): string {
  if (!value) throw new UsageError(`${name} is required`)
  return value
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError || error instanceof DomainError || (error instanceof TypeError && 'code' in error)) {
    process.stderr.write(`parapet: ${error.message}\n\n${error instanceof UsageError ? USAGE + '\n' : ''}`)
    process.exit(2)
  }
  process.stderr.write(`parapet: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
