/**
 * The one configuration object of the service, built once at start from environment
 * variables and validated: a wrong value stops the process with a message naming the variable.
 */
import path from 'node:path'
import { z } from 'zod'

const integer = (min: number, max: number) => z.coerce.number().int().min(min).max(max)
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional()

const byteSize = z
  .string()
  .trim()
  .regex(/^\d+\s*(b|kb|kib|mb|mib|gb|gib)?$/i, 'expected a size such as 104857600, 100MB or 100MiB')
  .transform(parseByteSize)

function parseByteSize(text: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim())
  const amount = Number(match?.[1] ?? 0)
  const unit = (match?.[2] ?? '').toLowerCase()
  const factors: Record<string, number> = { '': 1, b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3 }
  return amount * (factors[unit] ?? 1)
}

const environmentSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('0.0.0.0'),
    PORT: integer(0, 65535).default(8000),
    LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
    DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    DATABASE_POOL_SIZE: integer(1, 200).default(10),
    DATABASE_CONNECT_TIMEOUT: integer(1, 600).default(10),
    PARAPET_DATA_DIR: z.string().default('.parapet-data'),
    EMBEDDED_PG_PORT: integer(1, 65535).default(54329),
    AUTH_JWT_SECRET: optionalText.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    AUTH_JWT_PUBLIC_KEY: optionalText.pipe(
      z.string().includes('-----BEGIN PUBLIC KEY-----', { message: 'must be a PEM "PUBLIC KEY" (SPKI)' }).optional(),
    ),
    AUTH_JWKS_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    AUTH_JWT_ISSUER: optionalText,
    AUTH_JWT_AUDIENCE: optionalText,
    AUTH_JWT_MAX_LIFETIME: integer(60, 366 * 86_400).default(86_400),
    AUTH_JWT_CLOCK_SKEW: integer(0, 3600).default(60),
    AUTH_RECHECK_INTERVAL: integer(1, 3600).default(5),
    UPLOAD_MAX_BYTES: byteSize.default(100 * 1024 ** 2),
    ZIP_MAX_ENTRIES: integer(1, 10_000_000).default(50_000),
    ZIP_MAX_UNCOMPRESSED_BYTES: byteSize.default(1024 ** 3),
    ZIP_MAX_COMPRESSION_RATIO: integer(1, 100_000).default(200),
    ZIP_RATIO_MIN_BYTES: byteSize.default(10 * 1024 ** 2),
    SCAN_MAX_FILE_BYTES: byteSize.default(1024 ** 2),
    WORKER_CONCURRENCY: integer(1, 64).default(2),
    SCAN_HEARTBEAT_TIMEOUT: integer(5, 86_400).default(120),
    GRAPHQL_MAX_DEPTH: integer(2, 50).default(10),
    GRAPHQL_MAX_COST: integer(10, 1_000_000).default(20_000),
    GRAPHQL_MAX_ROOT_FIELDS: integer(1, 1000).default(20),
    GRAPHQL_INTROSPECTION: z.enum(['true', 'false']).default('true').transform((value) => value === 'true'),
    GRAPHQL_MAX_SUBSCRIPTIONS_PER_CONNECTION: integer(1, 100_000).default(50),
    GRAPHQL_MAX_SUBSCRIPTIONS_PER_ORG: integer(1, 1_000_000).default(500),
    SCAN_FILE_TIMEOUT: integer(1, 86_400).default(30),
    SCAN_TIMEOUT: integer(10, 7 * 86_400).default(3600),
    RULES_MAX_BYTES: byteSize.default(512 * 1024),
    RULES_MAX_COUNT: integer(1, 100_000).default(500),
    RULES_MAX_DEPTH: integer(4, 1000).default(32),
    RULES_MAX_PATTERN_LENGTH: integer(16, 1_000_000).default(4096),
    RULES_MAX_PATTERN_NESTING: integer(4, 1000).default(64),
    RULES_VALIDATION_TIMEOUT: integer(1, 600).default(5),
  })
  .refine((env) => !(env.AUTH_JWT_PUBLIC_KEY && env.AUTH_JWKS_URL), {
    path: ['AUTH_JWKS_URL'],
    message: 'set either AUTH_JWT_PUBLIC_KEY or AUTH_JWKS_URL, not both',
  })

export type Config = ReturnType<typeof toConfig>

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Builds the config from `env` (process.env by default); throws ConfigError naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environmentSchema.safeParse(env)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const variable = String(issue.path[0] ?? 'environment')
        const value = env[variable]
        const shown = value === undefined || /SECRET|KEY|DATABASE_URL/.test(variable) ? '' : ` (got "${value}")`
        return `${variable}: ${issue.message}${shown}`
      }),
    )
  }
  return toConfig(parsed.data)
}

function toConfig(env: z.infer<typeof environmentSchema>) {
  const dataDir = path.resolve(env.PARAPET_DATA_DIR)
  return {
    env: env.NODE_ENV,
    http: { host: env.HOST, port: env.PORT },
    logLevel: env.LOG_LEVEL,
    database: {
      url: env.DATABASE_URL,
      poolSize: env.DATABASE_POOL_SIZE,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT * 1000,
      embedded: { dataDir: path.join(dataDir, 'pg'), port: env.EMBEDDED_PG_PORT },
    },
    auth: {
      jwtSecret: env.AUTH_JWT_SECRET,
      jwtPublicKey: env.AUTH_JWT_PUBLIC_KEY,
      jwksUrl: env.AUTH_JWKS_URL,
      issuer: env.AUTH_JWT_ISSUER,
      audience: env.AUTH_JWT_AUDIENCE,
      maxLifetimeSeconds: env.AUTH_JWT_MAX_LIFETIME,
      clockSkewSeconds: env.AUTH_JWT_CLOCK_SKEW,
    },
    limits: {
      uploadMaxBytes: env.UPLOAD_MAX_BYTES,
      zipMaxEntries: env.ZIP_MAX_ENTRIES,
      zipMaxUncompressedBytes: env.ZIP_MAX_UNCOMPRESSED_BYTES,
      zipMaxCompressionRatio: env.ZIP_MAX_COMPRESSION_RATIO,
      zipRatioMinBytes: env.ZIP_RATIO_MIN_BYTES,
      scanMaxFileBytes: env.SCAN_MAX_FILE_BYTES,
    },
    worker: { concurrency: env.WORKER_CONCURRENCY, heartbeatTimeoutSeconds: env.SCAN_HEARTBEAT_TIMEOUT },
    graphql: { maxDepth: env.GRAPHQL_MAX_DEPTH, maxCost: env.GRAPHQL_MAX_COST, maxRootFields: env.GRAPHQL_MAX_ROOT_FIELDS },
    introspection: env.GRAPHQL_INTROSPECTION,
    websocket: {
      maxSubscriptionsPerConnection: env.GRAPHQL_MAX_SUBSCRIPTIONS_PER_CONNECTION,
      maxSubscriptionsPerOrg: env.GRAPHQL_MAX_SUBSCRIPTIONS_PER_ORG,
      credentialRecheckMs: env.AUTH_RECHECK_INTERVAL * 1000,
    },
    scans: { fileTimeoutMs: env.SCAN_FILE_TIMEOUT * 1000, scanTimeoutMs: env.SCAN_TIMEOUT * 1000 },
    rules: {
      maxBytes: env.RULES_MAX_BYTES,
      maxRules: env.RULES_MAX_COUNT,
      maxDepth: env.RULES_MAX_DEPTH,
      maxPatternLength: env.RULES_MAX_PATTERN_LENGTH,
      maxPatternNesting: env.RULES_MAX_PATTERN_NESTING,
      validationBudgetMs: env.RULES_VALIDATION_TIMEOUT * 1000,
    },
  }
}
