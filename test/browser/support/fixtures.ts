/**
 * What every browser spec starts from: a fresh organization with an API key made by the real
 * CLI (`organization`, which also revokes it and mints bearer tokens), a signed-in page (`signedIn`), zip files of projects on disk for the
 * upload field, and screenshots of views (`captureView`, into docs/screenshots when
 * PARAPET_SCREENSHOTS is set, as `npm run screenshots` does).
 */
import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test as base, type Page, type TestInfo } from '@playwright/test'
import { makeZip, type ZipFiles } from '../../support/zips.ts'
import { createApiKey, mintToken, PROJECT_ROOT, revokeApiKey } from './server.ts'

export interface Organization {
  orgId: string
  userId: string
  apiKey: string
  apiKeyId: string
  /** revokes the API key, as `parapet keys revoke` does */
  revokeApiKey(): void
  /** a bearer token for the same organization and user */
  mintToken(): string
}

function serverEnv(): Record<string, string> {
  const env = process.env['PARAPET_BROWSER_ENV']
  if (!env) throw new Error('PARAPET_BROWSER_ENV is unset: run the suite with `npm run test:browser`')
  return JSON.parse(env) as Record<string, string>
}

/** What the page must never log: script errors, and anything the Content-Security-Policy refused. */
const FORBIDDEN_CONSOLE = /Content Security Policy|Refused to|Uncaught/i

export const test = base.extend<{ organization: Organization; signedIn: Page }>({
  page: async ({ page }, use) => {
    const problems: string[] = []
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
    page.on('console', (message) => {
      if (message.type() === 'error' && FORBIDDEN_CONSOLE.test(message.text())) problems.push(`console: ${message.text()}`)
    })
    await use(page)
    expect(problems, 'errors in the page').toEqual([])
  },
  organization: async ({}, use) => {
    const orgId = `browser-${randomUUID().slice(0, 8)}`
    const env = serverEnv()
    const { key, id } = createApiKey(env, orgId, 'alice')
    await use({ orgId, userId: 'alice', apiKey: key, apiKeyId: id, revokeApiKey: () => revokeApiKey(env, id), mintToken: () => mintToken(env, orgId, 'alice') })
  },
  signedIn: async ({ page, organization }, use) => {
    await signIn(page, organization.apiKey)
    await use(page)
  },
})

export { expect }

export async function signIn(page: Page, credential: string): Promise<void> {
  await page.goto('/')
  await page.getByLabel('API key (pk_...) or bearer token').fill(credential)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible()
}

/** Writes the project as a zip under the test's output folder: the path for a file input. */
export async function zipFile(testInfo: TestInfo, name: string, files: ZipFiles): Promise<string> {
  const file = testInfo.outputPath(`${name}.zip`)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, await makeZip(files))
  return file
}

/** A small project the built-in rules find issues in. */
export function vulnerableProject(): ZipFiles {
  return {
    'app/views.py': ['import os', 'from flask import request', '', 'def run():', "    cmd = request.args.get('cmd')", '    os.system(cmd)', ''].join('\n'),
    'web/server.js': ['const express = require("express")', 'const app = express()', 'app.get("/e", (req, res) => {', '  res.send(eval(req.query.code))', '})', ''].join('\n'),
    'README.md': '# demo\n',
  }
}

/** Many files, so a scan runs long enough to watch it progress and to stop it. */
export function largeProject(files = 3000): ZipFiles {
  const project: ZipFiles = { 'README.md': '# large\n' }
  for (let index = 0; index < files; index++) {
    project[`src/module_${index}.js`] = Array.from({ length: 60 }, (_, line) => `export function f${line}(req, res) { const v${line} = req.query.a${line}; return res.send("<p>" + v${line} + "</p>") }`).join('\n')
  }
  return project
}

const SCREENSHOT_DIR = process.env['PARAPET_SCREENSHOTS'] ? path.resolve(PROJECT_ROOT, process.env['PARAPET_SCREENSHOTS']) : undefined

/** A screenshot of the view at desktop width (1280 px) and phone width (390 px), when screenshots are asked for. */
export async function captureView(page: Page, name: string): Promise<void> {
  if (!SCREENSHOT_DIR) return
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const original = page.viewportSize() ?? { width: 1280, height: 800 }
  for (const [suffix, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]] as const) {
    await page.setViewportSize(viewport)
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${suffix}.png`), fullPage: true, animations: 'disabled', caret: 'hide' })
  }
  await page.setViewportSize(original)
}
