/** GET /openapi.json (generated from the route table) and GET /docs (Swagger UI from the installed package). */
import { createRequire } from 'node:module'
import path from 'node:path'
import express, { type Router } from 'express'
import type { GraphQLSchema } from 'graphql'
import { buildOpenApiDocument } from './openapi.ts'
import type { RestRoute } from './rest/route-table.ts'

const require = createRequire(import.meta.url)
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'))
const SWAGGER_ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'])

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Parapet API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/openapi.json',
      dom_id: '#swagger-ui',
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
      persistAuthorization: true,
    });
  </script>
</body>
</html>`

export function apiDocs(schema: GraphQLSchema, routes: readonly RestRoute[]): Router {
  const document = buildOpenApiDocument(schema, routes)
  const router = express.Router()
  router.get('/openapi.json', (_req, res) => {
    res.json(document)
  })
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE)
  })
  router.get('/docs/assets/:asset', (req, res) => {
    if (!SWAGGER_ASSETS.has(req.params.asset)) {
      res.status(404).json({ detail: 'Not Found' })
      return
    }
    res.sendFile(req.params.asset, { root: SWAGGER_DIR, maxAge: '1d' })
  })
  return router
}
