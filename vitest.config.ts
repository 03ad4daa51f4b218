import { defineConfig } from 'vitest/config'

// Two projects: the engine needs no database; the server tests share one PostgreSQL
// (embedded unless DATABASE_URL is given) and get a database per test file.
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
    ],
  },
})
