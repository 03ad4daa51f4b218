/**
 * The dashboard served at /: its page under a strict Content-Security-Policy, its assets cached
 * for good, its page for any other path a browser asks for as HTML, and the API unchanged.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'

function builtDashboard(): string {
  const directory = mkdtempSync(path.join(tmpdir(), 'parapet-dashboard-'))
  mkdirSync(path.join(directory, 'assets'))
  writeFileSync(path.join(directory, 'index.html'), '<!doctype html><title>Parapet</title><script type="module" src="/assets/main-ABC.js"></script>')
  writeFileSync(path.join(directory, 'assets/main-ABC.js'), 'console.log("dashboard")')
  return directory
}

const app = useTestApp({ dashboardDir: builtDashboard() })
const html = { accept: 'text/html,application/xhtml+xml' }

describe('the dashboard', () => {
  it('is the page at / with a strict Content-Security-Policy, revalidated on every visit', async () => {
    const page = await app.request('/')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('/assets/main-ABC.js')
    const policy = page.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("connect-src 'self'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toContain('unsafe')
    expect(page.headers.get('cache-control')).toBe('no-cache')
  })

  it('serves its content-hashed assets with a cache lifetime of a year', async () => {
    const asset = await app.request('/assets/main-ABC.js')
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toContain('javascript')
    expect(asset.headers.get('cache-control')).toContain('immutable')
    const missing = await app.request('/assets/nothing.js')
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: 'Not Found' })
    const escaping = await app.request('/assets/..%2f..%2fpackage.json')
    expect(escaping.status).toBe(404)
  })

  it('answers a browser\'s request for any of its own paths with the page, so its URLs can be reloaded', async () => {
    for (const route of ['/repositories', '/scans/0b7c3a52-1d7f-4a8e-9f3c-111111111111', '/anything/else']) {
      const page = await app.request(route, { headers: html })
      expect(page.status, route).toBe(200)
      expect(page.text, route).toContain('/assets/main-ABC.js')
    }
  })

  it('leaves the API as it was: unknown API paths are 404 JSON even for a browser, and other clients get 404 elsewhere', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    for (const route of ['/api/nothing', '/api/repositories/x/y/z', '/docs/nothing', '/healthz/nothing']) {
      const response = await app.request(route, { headers: { ...caller.headers, ...html } })
      expect(response.status, route).toBe(404)
      expect(response.body, route).toEqual({ detail: 'Not Found' })
    }
    const notBrowser = await app.request('/repositories', { headers: caller.headers })
    expect(notBrowser.status).toBe(404)
    expect(notBrowser.body).toEqual({ detail: 'Not Found' })
    const listed = await app.request('/api/repositories', { headers: { ...caller.headers, ...html } })
    expect(listed.body).toEqual({ all_repos: [] })
  })
})

describe('a server whose dashboard was not built', () => {
  const unbuilt = useTestApp({ dashboardDir: path.join(tmpdir(), 'parapet-no-dashboard-here') })

  it('says how to build it instead of failing', async () => {
    const page = await unbuilt.request('/')
    expect(page.status).toBe(503)
    expect(page.body.detail).toMatch(/npm run build/)
  })
})
