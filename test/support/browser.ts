/**
 * A real browser for tests of web pages: Debian's Chromium (`apt-get install chromium`), driven
 * by playwright-core, headless, with a fresh profile per launch. Closed after the test file.
 */
import { existsSync } from 'node:fs'
import { afterAll } from 'vitest'
import { chromium, type Browser } from 'playwright-core'

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
// the machine has no network but loopback: Chromium's background traffic only slows it down
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage']

export function useBrowser(): () => Promise<Browser> {
  let browser: Browser | undefined
  afterAll(async () => {
    await browser?.close()
  })
  return async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`)
    browser ??= await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS })
    return browser
  }
}
