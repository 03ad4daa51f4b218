/**
 * The test suite can fail: a failing test in a run that starts the server project's PostgreSQL
 * makes vitest exit non-zero (a library's exit hook once turned it into 0), and a passing one
 * exits zero.
 */
import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'

function runCheck(outcome: 'pass' | 'fail'): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/support/runner-check/vitest.config.ts'], {
      env: { ...process.env, RUNNER_CHECK_OUTCOME: outcome, NODE_ENV: 'test' },
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

describe('the test runner', () => {
  it('exits non-zero when a test fails', { timeout: 120_000 }, async () => {
    const run = await runCheck('fail')
    expect(run.output).toMatch(/1 failed/)
    expect(run.code).toBe(1)
  })

  it('exits zero when every test passes', { timeout: 120_000 }, async () => {
    const run = await runCheck('pass')
    expect(run.output).toMatch(/1 passed/)
    expect(run.code).toBe(0)
  })
})
