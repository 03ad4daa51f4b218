/**
 * Builds what changed (a no-op when dist/ is current), starts the real service once for the
 * whole browser suite and tells the specs where it is (PARAPET_BROWSER_URL, and the environment
 * the CLI needs in PARAPET_BROWSER_ENV); stops it after.
 */
import { spawnSync } from 'node:child_process'
import { assertChromiumInstalled } from './chromium.ts'
import { PROJECT_ROOT, startBrowserServer } from './server.ts'

export default async function globalSetup(): Promise<() => Promise<void>> {
  assertChromiumInstalled()
  const build = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: PROJECT_ROOT, stdio: 'inherit' })
  if (build.status !== 0) throw new Error('the build failed: the browser suite runs the built service')
  const server = await startBrowserServer()
  process.env['PARAPET_BROWSER_URL'] = server.url
  process.env['PARAPET_BROWSER_ENV'] = JSON.stringify(server.env)
  return () => server.stop()
}
