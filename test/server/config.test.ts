/** Configuration: defaults, and a wrong value stops the process with the variable's name. */
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../src/config.ts'

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({})
    expect(config.http.port).toBe(8000)
    expect(config.database.url).toBeUndefined()
    expect(config.limits.uploadMaxBytes).toBe(100 * 1024 * 1024)
    expect(config.database.embedded.dataDir).toMatch(/\.parapet-data\/pg$/)
  })

  it('reads sizes with units and the auth settings', () => {
    const config = loadConfig({
      UPLOAD_MAX_BYTES: '5MiB',
      DATABASE_URL: 'postgres://u:p@db:5432/parapet',
      AUTH_JWT_SECRET: 'x'.repeat(32),
      AUTH_JWT_ISSUER: 'https://id.example',
    })
    expect(config.limits.uploadMaxBytes).toBe(5 * 1024 * 1024)
    expect(config.database.url).toBe('postgres://u:p@db:5432/parapet')
    expect(config.auth.issuer).toBe('https://id.example')
  })

  it('reads the scan time limits and the rule limits, with their defaults', () => {
    const defaults = loadConfig({})
    expect(defaults.scans).toEqual({ fileTimeoutMs: 30_000, scanTimeoutMs: 3_600_000 })
    expect(defaults.rules).toEqual({ maxBytes: 512 * 1024, maxRules: 500, maxDepth: 32, maxPatternLength: 4096, maxPatternNesting: 64, validationBudgetMs: 5000 })
    const config = loadConfig({ SCAN_FILE_TIMEOUT: '5', SCAN_TIMEOUT: '600', RULES_MAX_BYTES: '64KiB', RULES_MAX_COUNT: '20', RULES_MAX_PATTERN_NESTING: '16' })
    expect(config.scans).toEqual({ fileTimeoutMs: 5000, scanTimeoutMs: 600_000 })
    expect(config.rules).toMatchObject({ maxBytes: 64 * 1024, maxRules: 20, maxPatternNesting: 16 })
  })

  it.each([
    [{ SCAN_FILE_TIMEOUT: '0' }, 'SCAN_FILE_TIMEOUT'],
    [{ RULES_MAX_DEPTH: 'deep' }, 'RULES_MAX_DEPTH'],
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ AUTH_JWT_SECRET: 'short' }, 'AUTH_JWT_SECRET: must be at least 32 characters'],
    [{ AUTH_JWT_PUBLIC_KEY: 'not a pem' }, 'AUTH_JWT_PUBLIC_KEY'],
    [{ AUTH_JWKS_URL: 'ftp://keys' }, 'AUTH_JWKS_URL'],
    [{ AUTH_JWT_MAX_LIFETIME: 'forever' }, 'AUTH_JWT_MAX_LIFETIME'],
    [{ GRAPHQL_MAX_ROOT_FIELDS: '0' }, 'GRAPHQL_MAX_ROOT_FIELDS'],
    [{ UPLOAD_MAX_BYTES: 'lots' }, 'UPLOAD_MAX_BYTES'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
  ])('refuses %o naming the variable', (env, expected) => {
    expect(() => loadConfig(env)).toThrow(ConfigError)
    expect(() => loadConfig(env)).toThrow(expected)
  })

  it('never echoes a secret value in the message', () => {
    expect(() => loadConfig({ AUTH_JWT_SECRET: 'hunter2' })).toThrow(/^(?!.*hunter2)/s)
  })

  it('stops the process with the message and a non-zero code', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      env: { ...process.env, PORT: 'eighty', DATABASE_URL: '' },
      encoding: 'utf8',
      timeout: 30_000,
    })
    expect(result.status).toBe(78)
    expect(result.stderr).toContain('PORT: ')
    expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/)
  })
})
