/**
 * The dashboard (web/, bundled into dist/web by the build) served at `/`: its content-hashed
 * assets under /assets, cached for good, and its page for `/` and for any other unknown path a
 * browser asks for as HTML (the dashboard routes in the browser, so its URLs can be reloaded).
 * API paths never fall back to it: /api, /graphql and the docs answer as before. The page runs
 * under a strict Content-Security-Policy: only its own scripts and styles, and requests to this
 * origin (HTTP and WebSocket).
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import express, { type Request, type Response, type Router } from 'express'

/** dist/web: next to the compiled code (dist/src/http), or under dist/ when running the sources. */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL(import.meta.url.includes('/dist/src/') ? '../../web/' : '../../dist/web/', import.meta.url))

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // 'self' covers this origin's ws: and wss: (graphql-ws on /graphql)
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ')

/** Paths that belong to the API or its documentation: never answered with the dashboard's page. */
const API_PREFIXES = ['/api', '/graphql', '/graphiql', '/docs', '/openapi.json', '/healthz', '/readyz', '/assets']

const isUnder = (requestPath: string, prefix: string) => requestPath === prefix || requestPath.startsWith(`${prefix}/`)

function wantsPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false
  if (req.path === '/') return true
  return (req.headers.accept ?? '').includes('text/html') && !API_PREFIXES.some((prefix) => isUnder(req.path, prefix))
}

export function dashboard(directory = DEFAULT_DASHBOARD_DIR): Router {
  const router = express.Router()
  const page = path.join(directory, 'index.html')
  router.use('/assets', express.static(path.join(directory, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true, redirect: false }))
  router.use((req: Request, res: Response, next) => {
    if (!wantsPage(req)) {
      next()
      return
    }
    if (!existsSync(page)) {
      res.status(503).json({ detail: 'The dashboard is not built: run `npm run build`' })
      return
    }
    res.set({
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    })
    res.sendFile(page)
  })
  return router
}
