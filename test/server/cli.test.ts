/** The `parapet` command: keys are created, listed and revoked in the database; tokens are minted. */
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { TEST_JWT_SECRET, useTestApp } from '../support/app.ts'
import { makeOrgId } from '../support/factories.ts'

const app = useTestApp()

function parapet(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/parapet.js', ...args], { env: { ...process.env, DATABASE_URL: app.db.url, ...env } })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe('parapet keys', () => {
  it('creates a key shown once, lists it without the secret, and revokes it', async () => {
    const orgId = makeOrgId()
    const created = await parapet(['keys', 'create', '--org', orgId, '--user', 'alice', '--scopes', 'read:repo,write:scan', '--name', 'ci'])
    expect(created.code).toBe(0)
    const key = created.stdout.trim().split('\n').at(-1) as string
    expect(key).toMatch(/^pk_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/)
    expect((await app.request('/api/repositories', { headers: { 'X-API-Key': key } })).body).toEqual({ all_repos: [] })

    const listed = await parapet(['keys', 'list', '--org', orgId])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain('scopes=read:repo,write:scan')
    expect(listed.stdout).not.toContain(key)
    const id = listed.stdout.split(/\s+/)[0] as string

    const revoked = await parapet(['keys', 'revoke', id])
    expect(revoked.code).toBe(0)
    expect((await app.request('/api/repositories', { headers: { 'X-API-Key': key } })).status).toBe(401)
    expect((await parapet(['keys', 'list', '--org', orgId])).stdout).toContain('revoked')
  })

  it('refuses unknown scopes and missing options with a usage message', async () => {
    const badScope = await parapet(['keys', 'create', '--org', 'o', '--user', 'u', '--scopes', 'admin'])
    expect(badScope.code).toBe(2)
    expect(badScope.stderr).toContain('unknown scope(s): admin')
    const missing = await parapet(['keys', 'create', '--user', 'u'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('--org is required')
  })
})

describe('parapet token', () => {
  it('mints a bearer token the server accepts', async () => {
    const result = await parapet(['token', '--org', makeOrgId(), '--user', 'bob', '--scopes', 'read:repo'], { AUTH_JWT_SECRET: TEST_JWT_SECRET })
    expect(result.code).toBe(0)
    const response = await app.request('/api/repositories', { headers: { Authorization: `Bearer ${result.stdout.trim()}` } })
    expect(response.status).toBe(200)
  })

  it('mints no token the server would refuse: --expires-in at most AUTH_JWT_MAX_LIFETIME', async () => {
    const tooLong = await parapet(['token', '--org', 'o', '--user', 'u', '--expires-in', '90000'], { AUTH_JWT_SECRET: TEST_JWT_SECRET })
    expect(tooLong.code).toBe(2)
    expect(tooLong.stderr).toContain('--expires-in must be at most 86400 seconds (AUTH_JWT_MAX_LIFETIME)')
    const raised = await parapet(['token', '--org', 'o', '--user', 'u', '--expires-in', '90000'], { AUTH_JWT_SECRET: TEST_JWT_SECRET, AUTH_JWT_MAX_LIFETIME: '100000' })
    expect(raised.code).toBe(0)
  })

  it('needs AUTH_JWT_SECRET', async () => {
    const result = await parapet(['token', '--org', 'o', '--user', 'u'], { AUTH_JWT_SECRET: '' })
    expect(result.code).toBe(2)
    expect(result.stderr).toContain('AUTH_JWT_SECRET must be set')
  })
})
