import { createRequire } from 'node:module'
import { defineConfig } from 'vitest/config'

// graphql ships CommonJS and ESM builds; Node (and so the libraries vitest leaves external)
// loads the CommonJS one, so tests must too: two copies refuse each other's schemas.
const graphqlEntry = createRequire(import.meta.url).resolve('graphql')

// Two projects: the engine needs no database; the server tests share one PostgreSQL
// (embedded unless DATABASE_URL is given) and get a database per test file, cloned from a
// migrated template (test/support/global-setup.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'engine',
          include: ['test/engine/**/*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
        test: {
          name: 'server',
          include: ['test/server/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          env: { NODE_ENV: 'test' },
        },
      },
    ],
  },
})
