/**
 * The committed generated types (src/generated for the resolvers, web/src/gql for the
 * dashboard's documents) are what `npm run codegen` makes of the current schema and documents.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))

it('match the schema and the dashboard documents (else: npm run codegen)', () => {
  const check = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/codegen.ts', '--check'], { cwd: root, encoding: 'utf8', timeout: 120_000 })
  expect(check.stderr).toBe('')
  expect(check.status).toBe(0)
})
