/** Which Chromium the browser suite drives, and how (shared by the Playwright config and its setup). */
import { existsSync } from 'node:fs'

// the machine has no network but loopback: Chromium's background traffic only slows it down
export const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage']

export function chromiumPath(): string {
  return process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
}

export function assertChromiumInstalled(): void {
  if (!existsSync(chromiumPath())) throw new Error(`no Chromium at ${chromiumPath()}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`)
}
