/**
 * The repository and scan flows in the browser: upload a zip (and see a refusal explained),
 * start a scan and watch its progress and log arrive live with no polling, see its results,
 * stop a running scan, follow the organization's running scans from any page, delete a
 * repository, sign out.
 */
import { writeFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { captureView, expect, largeProject, test, vulnerableProject, zipFile } from './support/fixtures.ts'

async function upload(page: Page, name: string, file: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Upload a repository' })
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('Branch').fill('main')
  await form.getByLabel('Zip archive').setInputFiles(file)
  await form.getByRole('button', { name: 'Upload' }).click()
}

/** GraphQL requests over HTTP from now on (subscriptions travel over the WebSocket). */
function countHttpGraphQL(page: Page): { count(): number } {
  let count = 0
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/graphql') count += 1
  })
  return { count: () => count }
}

const progressValue = (page: Page) => page.getByRole('progressbar', { name: 'Scan progress' }).evaluate((element) => Number(element.getAttribute('value')))

test('uploads a zip, scans it while the log streams in, and shows what the scan found', async ({ signedIn: page }, testInfo) => {
  const notAZip = testInfo.outputPath('notes.zip')
  writeFileSync(notAZip, 'this is not a zip archive')
  await upload(page, 'broken', notAZip)
  await expect(page.getByRole('form', { name: 'Upload a repository' }).getByRole('alert')).toContainText(/zip/i)

  await upload(page, 'demo-app', await zipFile(testInfo, 'demo-app', vulnerableProject()))
  await expect(page.getByRole('status')).toContainText('Uploaded demo-app')
  const row = page.getByRole('row', { name: /demo-app/ })
  await expect(row).toContainText('main')
  await expect(row).toContainText('never')
  await expect(page.getByRole('row', { name: /broken/ })).toHaveCount(0)
  await captureView(page, 'repositories')

  await row.getByRole('link', { name: 'demo-app' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'demo-app' })).toBeVisible()
  await expect(page.getByText('Python')).toBeVisible()
  const startForm = page.getByRole('form', { name: 'Start a scan' })
  await startForm.getByLabel('Scan type').selectOption('QUICK')
  await expect(startForm.getByRole('checkbox')).toHaveCount(2)
  await startForm.getByRole('button', { name: 'Start scan' }).click()

  await expect(page.getByRole('heading', { level: 1, name: 'quick scan of demo-app' })).toBeVisible()
  const log = page.getByRole('list', { name: 'Scan log' })
  await expect(page.getByRole('heading', { name: /Status/ })).toContainText('completed', { timeout: 120_000 })
  expect(await progressValue(page)).toBe(100)
  await expect(log.getByRole('listitem').first()).not.toContainText('Waiting')
  expect(await log.getByRole('listitem').count()).toBeGreaterThan(1)
  const results = page.getByRole('region', { name: 'Results' })
  await expect(results).toContainText('New')
  await expect(page.getByTestId('issues-found')).not.toHaveText('0')
  await captureView(page, 'scan-completed')

  await page.getByRole('link', { name: 'demo-app (main)' }).click()
  await expect(page.getByRole('row', { name: /quick scan/ })).toContainText('completed')
  await captureView(page, 'repository')
})

test('watches a long scan progress live with no polling, follows it from every page, stops it, and deletes the repository', async ({ signedIn: page }, testInfo) => {
  await upload(page, 'big-app', await zipFile(testInfo, 'big-app', largeProject()))
  await expect(page.getByRole('status')).toContainText('Uploaded big-app', { timeout: 120_000 })
  await page.getByRole('link', { name: 'big-app' }).click()
  await page.getByRole('form', { name: 'Start a scan' }).getByRole('button', { name: 'Start scan' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'full scan of big-app' })).toBeVisible()
  await expect(page.getByRole('heading', { name: /Status/ })).toContainText('running', { timeout: 120_000 })

  // from here on, everything the page learns comes over the WebSocket
  const http = countHttpGraphQL(page)
  const log = page.getByRole('list', { name: 'Scan log' })
  await expect.poll(() => progressValue(page), { timeout: 120_000 }).toBeGreaterThan(0)
  await expect.poll(() => log.getByRole('listitem').count()).toBeGreaterThan(1)
  await expect(page.getByRole('heading', { name: /Status/ })).toContainText('running')
  expect(http.count()).toBe(0)
  await expect(page.getByTestId('live-scans')).toHaveText('1 running')
  await captureView(page, 'scan-running')

  // the indicator and the scans list follow it on another page
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scans' }).click()
  await expect(page.getByRole('row', { name: /big-app/ })).toContainText('running')
  await captureView(page, 'scans')
  await page.getByTestId('live-scans').click()
  await expect(page.getByLabel('Status')).toHaveValue('active')
  await page.getByRole('row', { name: /big-app/ }).getByRole('link', { name: /full scan/ }).click()

  await page.getByRole('button', { name: 'Stop scan' }).click()
  await expect(page.getByRole('heading', { name: /Status/ })).toContainText('stopped')
  await expect(page.getByRole('button', { name: 'Stop scan' })).toHaveCount(0)
  await expect(page.getByTestId('live-scans')).toHaveText('No scans running')

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Repositories' }).click()
  const row = page.getByRole('row', { name: /big-app/ })
  await expect(row).toContainText('stopped')
  await row.getByRole('button', { name: 'Delete big-app' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete big-app?' })
  await expect(dialog).toBeVisible()
  await captureView(page, 'delete-repository')
  await dialog.getByRole('button', { name: 'Delete repository' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('row', { name: /big-app/ })).toHaveCount(0)

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('status')).toHaveText('Signed out.')
  await expect(page.getByLabel('API key (pk_...) or bearer token')).toBeVisible()
})
