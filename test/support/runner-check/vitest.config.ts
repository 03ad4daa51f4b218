/**
 * A vitest run over the server project's global setup (a real PostgreSQL) with one outcome
 * chosen by RUNNER_CHECK_OUTCOME: test/server/test-runner.test.ts runs it to prove that a
 * failing test makes vitest exit non-zero, and a passing one zero.
 */
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    root: new URL('../../..', import.meta.url).pathname,
    include: ['test/support/runner-check/outcome.check.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    hookTimeout: 120_000,
  },
})
