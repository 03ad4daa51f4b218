/**
 * The dashboard from the keyboard: sign in, move through a form, follow the navigation (the new
 * page's heading takes the focus), open and cancel a confirmation; focus is always visible.
 */
import type { Page } from '@playwright/test'
import { expect, test, vulnerableProject, zipFile } from './support/fixtures.ts'

/** The outline style of the focused element (run in the page, which has the DOM this program's types lack). */
const focusOutline = (page: Page) => page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')

test('is usable from the keyboard', async ({ page, organization }, testInfo) => {
  await page.goto('/')
  await expect(page.getByLabel('API key (pk_...) or bearer token')).toBeFocused()
  await page.keyboard.type(organization.apiKey)
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeFocused()

  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Name')).toBeFocused()
  await page.keyboard.type('typed-app')
  await page.keyboard.press('Tab')
  await expect(page.getByLabel('Branch')).toBeFocused()
  expect(await focusOutline(page)).toBe('solid')
  await page.getByLabel('Zip archive').setInputFiles(await zipFile(testInfo, 'typed-app', vulnerableProject()))
  await page.getByRole('button', { name: 'Upload' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('status')).toContainText('Uploaded typed-app')

  await page.getByRole('button', { name: 'Delete typed-app' }).focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Delete typed-app?' })
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page.getByRole('row', { name: /typed-app/ })).toHaveCount(1)

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scans' }).focus()
  expect(await focusOutline(page)).toBe('solid')
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1, name: 'Scans' })).toBeFocused()
  await expect(page).toHaveURL(/\/scans$/)
})
