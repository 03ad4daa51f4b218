/**
 * The GraphQL IDE shown when a browser GETs /graphql: GraphiQL and React from the installed
 * packages, served by this server (no CDN). Credentials go in GraphiQL's headers editor.
 */
import { createRequire } from 'node:module'
import path from 'node:path'
import express, { type Router } from 'express'

const require = createRequire(import.meta.url)
const packageDir = (name: string) => path.dirname(require.resolve(`${name}/package.json`))

const ASSETS: Record<string, string> = {
  'graphiql.min.js': path.join(packageDir('graphiql'), 'graphiql.min.js'),
  'graphiql.min.css': path.join(packageDir('graphiql'), 'graphiql.min.css'),
  'react.production.min.js': path.join(packageDir('react'), 'umd', 'react.production.min.js'),
  'react-dom.production.min.js': path.join(packageDir('react-dom'), 'umd', 'react-dom.production.min.js'),
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Parapet GraphQL</title>
  <link rel="stylesheet" href="/graphiql/graphiql.min.css">
  <style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
  <div id="graphiql">Loading...</div>
  <script src="/graphiql/react.production.min.js"></script>
  <script src="/graphiql/react-dom.production.min.js"></script>
  <script src="/graphiql/graphiql.min.js"></script>
  <script>
    const fetcher = GraphiQL.createFetcher({ url: location.origin + '/graphql', headers: { 'apollo-require-preflight': 'true' } });
    ReactDOM.createRoot(document.getElementById('graphiql')).render(
      React.createElement(GraphiQL, {
        fetcher,
        defaultHeaders: JSON.stringify({ 'X-API-Key': '<your API key>' }, null, 2),
        defaultEditorToolsVisibility: 'headers',
      }),
    );
  </script>
</body>
</html>`

export function graphiqlAssets(): Router {
  const router = express.Router()
  router.get('/graphiql/:asset', (req, res) => {
    const file = ASSETS[req.params.asset]
    if (!file) {
      res.status(404).json({ detail: 'Not Found' })
      return
    }
    res.sendFile(file, { maxAge: '1d' })
  })
  return router
}

/** A browser asking for /graphql (HTML, no query): the IDE. Anything else goes to Apollo. */
export function wantsGraphiql(method: string, accept: string | undefined, query: Record<string, unknown>): boolean {
  return method === 'GET' && !('query' in query) && (accept ?? '').includes('text/html')
}

export const GRAPHIQL_PAGE = PAGE
