/**
 * The dashboard's browser suite (`npm run test:browser`): Playwright driving Debian's Chromium
 * (`CHROMIUM_PATH` overrides /usr/bin/chromium; Playwright's own browser download does not work
 * on these machines) against one real server started by the global setup. Timeouts are generous:
 * the suite must pass while other test suites load the machine, and waits only on what is shown.
 */
import { defineConfig } from '@playwright/test'
import { CHROMIUM_FLAGS, chromiumPath } from './test/browser/support/chromium.ts'

export default defineConfig({
  testDir: 'test/browser',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/browser/support/global-setup.ts',
  // one server, specs in order: the machine has two cores shared with other suites
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env['CI'],
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  outputDir: 'test-results/browser',
  use: {
    baseURL: process.env['PARAPET_BROWSER_URL'],
    browserName: 'chromium',
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_FLAGS },
    viewport: { width: 1280, height: 800 },
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
})
