/**
 * Authentication and scopes: API keys, HS256 tokens, RS256/ES256 with a public key or a JWKS
 * URL, and every 401/403 case; the same caller identity over WebSocket connectionParams, and
 * WebSocket connections that end when their credentials do.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuthenticator, type Authenticator } from '../../src/auth/authenticate.ts'
import { UnauthenticatedError } from '../../src/errors.ts'
import { publishScanEvent } from '../../src/events/event-hub.ts'
import { revokeApiKey } from '../../src/modules/api-keys/api-key.service.ts'
import { ApiKey } from '../../src/modules/api-keys/api-key.entity.ts'
import { closeOf, expectNoInternals, runOverWebSocket, TEST_JWT_SECRET, useTestApp } from '../support/app.ts'
import { useTestDatabase } from '../support/database.ts'
import { makeApiKeyPrincipal, makeRepository, makeScan, makeTokenPrincipal } from '../support/factories.ts'

// no periodic re-check of WebSocket credentials here: what closes a connection is an event or the token's exp
const app = useTestApp({ websocket: { credentialRecheckMs: 3_600_000 } })

function sign(claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256' }) {
  return new SignJWT(claims).setProtectedHeader(header as { alg: string })
}
const now = () => Math.floor(Date.now() / 1000)
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })
const secretKey = new TextEncoder().encode(TEST_JWT_SECRET)

describe('API keys', () => {
  it('authenticate with X-API-Key', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const response = await app.request('/api/repositories', { headers: caller.headers })
    expect(response.status).toBe(200)
  })

  it('are stored only as a hash', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const key = caller.headers['X-API-Key'] as string
    const rows = await app.db.orm.em.fork().getConnection().execute('select * from api_keys where org_id = ?', [caller.orgId])
    expect(rows).toHaveLength(1)
    // the secret is base64url and may itself hold '_', so it is everything after the prefix
    const secret = key.slice('pk_'.length + (rows[0]?.prefix as string).length + 1)
    expect(secret).toHaveLength(43)
    expect(JSON.stringify(rows)).not.toContain(secret)
  })

  it.each([
    ['an unknown key', 'pk_AAAAAAAAAAAA_' + 'B'.repeat(43)],
    ['a malformed key', 'hello'],
  ])('refuse %s with 401', async (_label, key) => {
    const response = await app.request('/api/repositories', { headers: { 'X-API-Key': key } })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ detail: 'Invalid API key' })
    expect(response.headers.get('www-authenticate')).toMatch(/Bearer realm="parapet"/)
  })

  it('refuse a key whose secret part was altered', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const key = caller.headers['X-API-Key'] as string
    const altered = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A')
    expect((await app.request('/api/repositories', { headers: { 'X-API-Key': altered } })).status).toBe(401)
  })

  it('stop working once revoked', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const record = await app.db.orm.em.fork().findOneOrFail(ApiKey, { orgId: caller.orgId })
    await revokeApiKey(app.db.orm.em.fork(), record.id)
    expect((await app.request('/api/repositories', { headers: caller.headers })).status).toBe(401)
  })
})

describe('HS256 bearer tokens', () => {
  it('authenticate with sub, org_id and scope claims', async () => {
    const caller = await makeTokenPrincipal({ scopes: ['read:repo'] })
    expect((await app.request('/api/repositories', { headers: caller.headers })).status).toBe(200)
  })

  it('accept a scopes array', async () => {
    const token = await sign({ sub: 'u', org_id: 'o', scopes: ['read:repo'] }).setExpirationTime(now() + 60).sign(new TextEncoder().encode(TEST_JWT_SECRET))
    expect((await app.request('/api/repositories', { headers: bearer(token) })).status).toBe(200)
  })

  it('refuse an expired token', async () => {
    const caller = await makeTokenPrincipal({ expiresIn: -60 })
    const response = await app.request('/api/repositories', { headers: caller.headers })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ detail: 'Bearer token has expired' })
  })

  it('refuse a token not valid yet (nbf)', async () => {
    const token = await sign({ sub: 'u', org_id: 'o', scope: 'read:repo' }).setNotBefore(now() + 600).setExpirationTime(now() + 900).sign(secretKey)
    const response = await app.request('/api/repositories', { headers: bearer(token) })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ detail: 'Bearer token is not valid yet (nbf claim)' })
  })

  const claims = { sub: 'u', org_id: 'o', scope: 'read:repo' }
  const TOO_LONG = 'Bearer token lives too long: its lifetime exceeds the maximum of 86400 seconds'
  it.each([
    ['without exp', () => ({ ...claims, iat: now() }), 'Bearer token has no expiry (exp claim)'],
    ['with exp 1e300', () => ({ ...claims, iat: now(), exp: 1e300 }), TOO_LONG],
    ['living longer than 24 h (exp - iat)', () => ({ ...claims, iat: now() - 3600, exp: now() + 23 * 3600 + 60 }), TOO_LONG],
    ['living longer than 24 h (exp - now, no iat)', () => ({ ...claims, exp: now() + 24 * 3600 + 60 }), TOO_LONG],
    ['issued in the future beyond the clock skew', () => ({ ...claims, iat: now() + 600, exp: now() + 900 }), 'Bearer token is issued in the future (iat claim)'],
  ])('refuse a token %s, saying why', async (_label, makeClaims, detail) => {
    const token = await sign(makeClaims()).sign(secretKey)
    const response = await app.request('/api/repositories', { headers: bearer(token) })
    expect(response.status).toBe(401)
    expect(response.body).toEqual({ detail })
    expect(response.headers.get('www-authenticate')).toMatch(/Bearer realm="parapet"/)
  })

  it('accept iat and nbf within the clock skew, and a lifetime of exactly the maximum', async () => {
    const ahead = now() + 30
    const token = await sign({ ...claims, iat: ahead, nbf: ahead, exp: ahead + 24 * 3600 }).sign(secretKey)
    expect((await app.request('/api/repositories', { headers: bearer(token) })).status).toBe(200)
    const future = await sign({ ...claims, iat: now() + 120, exp: now() + 600 }).sign(secretKey)
    expect((await app.request('/api/repositories', { headers: bearer(future) })).status).toBe(401)
  })

  it('refuse a token signed with another secret', async () => {
    const caller = await makeTokenPrincipal({ secret: 'another-secret-of-at-least-32-characters!!' })
    expect((await app.request('/api/repositories', { headers: caller.headers })).status).toBe(401)
  })

  it('refuse alg "none"', async () => {
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const token = `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: 'u', org_id: 'o', scope: 'read:repo', exp: now() + 60 })}.`
    const response = await app.request('/api/repositories', { headers: bearer(token) })
    expect(response.status).toBe(401)
  })

  it('refuse garbage and a non-Bearer scheme', async () => {
    expect((await app.request('/api/repositories', { headers: bearer('not.a.jwt') })).status).toBe(401)
    expect((await app.request('/api/repositories', { headers: { Authorization: 'Basic dTpw' } })).status).toBe(401)
  })

  it.each([
    ['no org_id', {}, 403, 'No organization found for the caller'],
    ['an empty org_id', { org_id: '' }, 403, 'No organization found for the caller'],
    ['a numeric org_id', { org_id: 42 }, 401, 'Bearer token has an invalid org_id claim (expected a string)'],
    ['an object org_id', { org_id: { id: 'acme' } }, 401, 'Bearer token has an invalid org_id claim (expected a string)'],
  ])('with %s are refused on REST, /graphql and WebSocket alike', async (_label, orgClaim, status, detail) => {
    const token = await sign({ sub: 'u', scope: 'read:repo write:scan', ...orgClaim }).setIssuedAt().setExpirationTime(now() + 600).sign(secretKey)
    const rest = await app.request('/api/repositories', { headers: bearer(token) })
    expect(rest.status).toBe(status)
    expect(rest.body).toEqual({ detail })
    const graphql = await app.graphql('{ repositories { id } }', {}, bearer(token))
    expect(graphql.status).toBe(status)
    expect(graphql.body).toEqual({ errors: [{ message: detail, extensions: { code: status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN', status } }] })
    expectNoInternals(graphql)
    const closed = await runOverWebSocket(app.websocket({ authorization: `Bearer ${token}` }), '{ repositories { id } }').catch((error: unknown) => error)
    expect(closed).toMatchObject({ code: status === 401 ? 4401 : 4403, reason: detail })
  })

  it('is 403 for a token without the needed scope', async () => {
    const caller = await makeTokenPrincipal({ scopes: [] })
    const response = await app.request('/api/repositories', { headers: caller.headers })
    expect(response.status).toBe(403)
  })
})

describe('asymmetric tokens and issuer/audience checks', () => {
  const db = useTestDatabase()
  let rsa: { privateKey: CryptoKey; publicKey: CryptoKey }
  let ec: { privateKey: CryptoKey; publicKey: CryptoKey }
  let jwksServer: http.Server
  let jwksUrl = ''

  beforeAll(async () => {
    rsa = await generateKeyPair('RS256', { extractable: true })
    ec = await generateKeyPair('ES256', { extractable: true })
    const jwk = { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' }
    jwksServer = http.createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })))
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve))
    jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`
  })
  afterAll(() => new Promise<void>((resolve) => jwksServer.close(() => resolve())))

  const claims = { sub: 'alice', org_id: 'acme', scope: 'read:repo write:scan' }

  it('RS256 with AUTH_JWT_PUBLIC_KEY gives the caller of the claims', async () => {
    const authenticate = createAuthenticator(db.orm, { jwtPublicKey: await exportSPKI(rsa.publicKey) })
    const token = await sign(claims, { alg: 'RS256' }).setExpirationTime(now() + 60).sign(rsa.privateKey)
    const caller = await authenticate({ authorization: `Bearer ${token}` })
    expect(caller).toEqual({ orgId: 'acme', userId: 'alice', scopes: new Set(['read:repo', 'write:scan']), via: 'jwt', expiresAt: expect.any(Date) })
  })

  it('refuses algorithm confusion: an HS256 token signed with the public key', async () => {
    const publicPem = await exportSPKI(rsa.publicKey)
    const authenticate = createAuthenticator(db.orm, { jwtPublicKey: publicPem })
    const forged = await sign(claims, { alg: 'HS256' }).setExpirationTime(now() + 60).sign(new TextEncoder().encode(publicPem))
    await expect(authenticate({ authorization: `Bearer ${forged}` })).rejects.toBeInstanceOf(UnauthenticatedError)
  })

  it('refuses an RS256 token when only a secret is configured', async () => {
    const authenticate = createAuthenticator(db.orm, { jwtSecret: TEST_JWT_SECRET })
    const token = await sign(claims, { alg: 'RS256' }).setExpirationTime(now() + 60).sign(rsa.privateKey)
    await expect(authenticate({ authorization: `Bearer ${token}` })).rejects.toBeInstanceOf(UnauthenticatedError)
  })

  it('ES256 with AUTH_JWKS_URL, fetched over HTTP', async () => {
    const authenticate = createAuthenticator(db.orm, { jwksUrl })
    const token = await sign(claims, { alg: 'ES256', kid: 'ec-1' }).setExpirationTime(now() + 60).sign(ec.privateKey)
    expect((await authenticate({ authorization: `Bearer ${token}` })).orgId).toBe('acme')
    const stranger = await generateKeyPair('ES256')
    const forged = await sign(claims, { alg: 'ES256', kid: 'ec-1' }).setExpirationTime(now() + 60).sign(stranger.privateKey)
    await expect(authenticate({ authorization: `Bearer ${forged}` })).rejects.toBeInstanceOf(UnauthenticatedError)
  })

  it('checks iss and aud when configured', async () => {
    const authenticate: Authenticator = createAuthenticator(db.orm, { jwtSecret: TEST_JWT_SECRET, issuer: 'https://id.example', audience: 'parapet' })
    const key = new TextEncoder().encode(TEST_JWT_SECRET)
    const good = await sign(claims).setIssuer('https://id.example').setAudience('parapet').setExpirationTime(now() + 60).sign(key)
    const wrongIssuer = await sign(claims).setIssuer('https://evil.example').setAudience('parapet').setExpirationTime(now() + 60).sign(key)
    const wrongAudience = await sign(claims).setIssuer('https://id.example').setAudience('other').setExpirationTime(now() + 60).sign(key)
    expect((await authenticate({ authorization: `Bearer ${good}` })).userId).toBe('alice')
    await expect(authenticate({ authorization: `Bearer ${wrongIssuer}` })).rejects.toBeInstanceOf(UnauthenticatedError)
    await expect(authenticate({ authorization: `Bearer ${wrongAudience}` })).rejects.toBeInstanceOf(UnauthenticatedError)
  })

  it('refuses bearer tokens when no verification key is configured', async () => {
    const authenticate = createAuthenticator(db.orm, {})
    const token = await sign(claims).setExpirationTime(now() + 60).sign(new TextEncoder().encode(TEST_JWT_SECRET))
    await expect(authenticate({ authorization: `Bearer ${token}` })).rejects.toThrow('Bearer tokens are not enabled')
  })
})

describe('WebSocket connectionParams', () => {
  it('authenticate with apiKey and run operations as that caller', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const result = await runOverWebSocket(client, '{ repositories { id } }')
    expect(result).toEqual({ data: { repositories: [] } })
  })

  it('authenticate with an authorization bearer token, scopes enforced', async () => {
    const caller = await makeTokenPrincipal({ scopes: ['write:scan'] })
    const client = app.websocket({ authorization: caller.headers.Authorization })
    const result = await runOverWebSocket(client, '{ repositories { id } }')
    expect(result.errors?.[0].extensions.code).toBe('FORBIDDEN')
  })

  it('close the connection on invalid credentials, with 4401 and the reason', async () => {
    const client = app.websocket({ apiKey: 'pk_wrong' })
    const failure = await runOverWebSocket(client, '{ repositories { id } }').catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: 4401, reason: 'Invalid API key' })
  })
})

describe('a WebSocket connection whose credentials end', () => {
  const STATUS = 'subscription($id: ID!) { scanStatus(scanId: $id) { status progress } }'

  /** A live scanStatus subscription; resolves `first` with the current status. */
  function watchScan(client: ReturnType<typeof app.websocket>, scanId: string) {
    const values: unknown[] = []
    let received: () => void = () => undefined
    const first = new Promise<void>((resolve) => (received = resolve))
    client.subscribe({ query: STATUS, variables: { id: scanId } }, {
      next: (value) => {
        values.push(value)
        received()
      },
      error: () => undefined,
      complete: () => undefined,
    })
    return { values, first }
  }

  it('is closed with 4401 instead of delivering the next event once its API key is revoked', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }), { status: 'running' })
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const closed = closeOf(client)
    const updates = watchScan(client, scan.id)
    await updates.first
    const record = await app.db.orm.em.fork().findOneOrFail(ApiKey, { orgId: caller.orgId })
    await revokeApiKey(app.db.orm.em.fork(), record.id)
    // a change the subscriber would be sent (unchanged states are not sent at all)
    await app.db.orm.em.getConnection().execute('update scans set progress = 50 where id = ?', [scan.id])
    await publishScanEvent(app.db.orm.em.fork(), { kind: 'scan', scanId: scan.id, orgId: caller.orgId })
    expect(await closed).toEqual({ code: 4401, reason: 'Invalid API key' })
    expect(updates.values).toHaveLength(1)
  })

  it('is closed with 4401 when its bearer token expires', async () => {
    const caller = await makeTokenPrincipal({ expiresIn: 8 })
    const scan = await makeScan(app.db.orm, await makeRepository(app.db.orm, { orgId: caller.orgId }), { status: 'running' })
    const client = app.websocket({ authorization: caller.headers.Authorization })
    const closed = closeOf(client)
    await watchScan(client, scan.id).first
    expect(await closed).toEqual({ code: 4401, reason: 'Bearer token has expired' })
  })
})
