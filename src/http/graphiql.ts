/**
 * The GraphQL IDE shown when a browser GETs /graphql: GraphiQL, React and the graphql-ws client
 * from the installed packages, served by this server (no CDN).
 *
 * Every operation needs credentials, the schema's introspection included, so the page asks for
 * an API key or a bearer token first, keeps it for the browser session (sessionStorage), and only
 * then renders GraphiQL: queries and mutations send it as a header, subscriptions run over
 * WebSocket (graphql-ws) with it in `connectionParams`. "Sign out" forgets it.
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
  'graphql-ws.min.js': path.join(packageDir('graphql-ws'), 'umd', 'graphql-ws.min.js'),
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Parapet GraphQL</title>
  <link rel="stylesheet" href="/graphiql/graphiql.min.css">
  <style>
    html, body, #graphiql { height: 100%; margin: 0; }
    body { font-family: system-ui, sans-serif; }
    #sign-in { max-width: 32rem; margin: 10vh auto; padding: 0 1rem; }
    #sign-in label { display: block; font-weight: 600; margin-bottom: .5rem; }
    #sign-in input { width: 100%; box-sizing: border-box; padding: .5rem; font: inherit; }
    #sign-in button, #sign-out { margin-top: .75rem; padding: .4rem 1rem; font: inherit; cursor: pointer; }
    #sign-out { position: fixed; right: .75rem; bottom: .5rem; z-index: 10; margin: 0; }
    #sign-in-error { color: #b00020; }
  </style>
</head>
<body>
  <form id="sign-in" hidden>
    <h1>Parapet GraphQL</h1>
    <p>Every operation needs credentials. They are kept in this browser tab's session only.</p>
    <label for="credential">API key (pk_...) or bearer token</label>
    <input id="credential" name="credential" type="password" autocomplete="off" required autofocus>
    <button type="submit">Sign in</button>
    <p id="sign-in-error" role="alert"></p>
  </form>
  <div id="graphiql" hidden></div>
  <script src="/graphiql/react.production.min.js"></script>
  <script src="/graphiql/react-dom.production.min.js"></script>
  <script src="/graphiql/graphiql.min.js"></script>
  <script src="/graphiql/graphql-ws.min.js"></script>
  <script>
    const STORAGE_KEY = 'parapet.credential';
    const endpoint = location.origin + '/graphql';

    /** An API key goes in X-API-Key; anything else is a bearer token. */
    function headersFor(credential) {
      return credential.startsWith('pk_') ? { 'X-API-Key': credential } : { Authorization: 'Bearer ' + credential.replace(/^Bearer\\s+/i, '') };
    }
    function connectionParamsFor(credential) {
      return credential.startsWith('pk_') ? { apiKey: credential } : { authorization: 'Bearer ' + credential.replace(/^Bearer\\s+/i, '') };
    }

    function showSignIn(message) {
      document.getElementById('graphiql').hidden = true;
      const form = document.getElementById('sign-in');
      form.hidden = false;
      document.getElementById('sign-in-error').textContent = message || '';
      document.getElementById('credential').focus();
    }

    /** Checks the credential with a real request before keeping it. */
    async function signIn(credential) {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'apollo-require-preflight': 'true', ...headersFor(credential) },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      const body = await response.json().catch(() => ({}));
      if (!response.ok || body.errors) throw new Error((body.errors && body.errors[0] && body.errors[0].message) || 'Sign-in failed (' + response.status + ')');
      sessionStorage.setItem(STORAGE_KEY, credential);
    }

    function signOut() {
      sessionStorage.removeItem(STORAGE_KEY);
      location.reload();
    }

    function showGraphiql(credential) {
      const wsClient = graphqlWs.createClient({ url: endpoint.replace(/^http/, 'ws'), connectionParams: connectionParamsFor(credential), lazy: true });
      const fetcher = GraphiQL.createFetcher({ url: endpoint, headers: { 'apollo-require-preflight': 'true', ...headersFor(credential) }, wsClient });
      document.getElementById('sign-in').hidden = true;
      const root = document.getElementById('graphiql');
      root.hidden = false;
      const signOutButton = React.createElement('button', { id: 'sign-out', type: 'button', onClick: signOut }, 'Sign out');
      ReactDOM.createRoot(root).render(React.createElement(React.Fragment, null, React.createElement(GraphiQL, { fetcher }), signOutButton));
    }

    document.getElementById('sign-in').addEventListener('submit', async (event) => {
      event.preventDefault();
      const credential = document.getElementById('credential').value.trim();
      try {
        await signIn(credential);
        showGraphiql(credential);
      } catch (error) {
        showSignIn(error.message);
      }
    });

    const kept = sessionStorage.getItem(STORAGE_KEY);
    if (kept) showGraphiql(kept);
    else showSignIn();
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
