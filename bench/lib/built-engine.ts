/**
 * The engine as users run it: the CLI and the service start from the build (dist/: compiled
 * JavaScript, the scan's bundle, the built-in rules' cache), not from the TypeScript sources
 * through tsx. Benchmarks that time a scan build first and load the engine from there.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

type EngineApi = typeof import('../../src/engine/index.ts')

/** `npm run build` (nothing to do when dist/ is current); throws when it fails. */
export function buildProject(): void {
  const build = spawnSync(process.execPath, [fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url)), '--quiet'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('npm run build failed')
}

/** The built engine's public API (dist/src/engine/index.js); buildProject() first. */
export async function builtEngine(): Promise<EngineApi> {
  return (await import(new URL('../../dist/src/engine/index.js', import.meta.url).href)) as EngineApi
}
