/**
 * The HTTP surface around the routes: health, the GraphQL IDE from local files, unknown routes
 * and methods, malformed bodies, and no internals in any error.
 */
import { describe, expect, it } from 'vitest'
import { expectNoInternals, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'

const app = useTestApp()

describe('health', () => {
  it('GET /healthz answers while the process lives', async () => {
    const response = await app.request('/healthz')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 'ok' })
  })

  it('GET /readyz checks the database', async () => {
    const response = await app.request('/readyz')
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ status: 'ready' })
  })
})

describe('the GraphQL IDE', () => {
  it('is served to a browser at GET /graphql, with every asset local', async () => {
    const page = await app.request('/graphql', { headers: { accept: 'text/html' } })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string)
    expect(sources.length).toBeGreaterThanOrEqual(4)
    for (const source of sources) {
      expect(source.startsWith('/')).toBe(true)
      const asset = await app.request(source)
      expect(asset.status, source).toBe(200)
      expect(asset.text.length, source).toBeGreaterThan(1000)
    }
    expect(page.text).not.toMatch(/https?:\/\/(?!localhost)/)
  })

  it('does not replace GraphQL GET queries', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request('/graphql?query=' + encodeURIComponent('{ repositories { id } }'), {
      headers: { ...caller.headers, 'apollo-require-preflight': 'true' },
    })
    expect(response.body).toEqual({ data: { repositories: [] } })
  })
})

describe('errors around the routes', () => {
  it('answers 404 {"detail": "Not Found"} for unknown paths', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    for (const path of ['/api/nothing', '/nothing', '/api/repositories/x/y/z']) {
      const response = await app.request(path, { headers: caller.headers })
      expect(response.status, path).toBe(404)
      expect(response.body).toEqual({ detail: 'Not Found' })
    }
  })

  it('answers 405 with Allow for a known path and another method', async () => {
    const response = await app.request('/api/repositories', { method: 'PUT' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET')
    expect(response.body).toEqual({ detail: 'Method Not Allowed' })
  })

  it('answers 422 json_invalid for a malformed JSON body', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const broken = await fetch(app.url + '/api/nothing', { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json' }, body: '{"a":' })
    expect(broken.status).toBe(422)
    expect(await broken.json()).toEqual({ detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }] })
  })

  it('never shows a stack trace, even for a broken GraphQL request', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const responses = [
      await app.graphql('{ repositories { nope } }', {}, caller.headers),
      await app.graphql('{ repositories ', {}, caller.headers),
      await app.request('/graphql', { method: 'POST', headers: { ...caller.headers, 'content-type': 'application/json' }, body: '{"query":' }),
    ]
    for (const response of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400)
      expectNoInternals(response)
    }
  })
})
