/**
 * Signing in and out of the dashboard: a credential is checked by the server before it is kept,
 * it lasts for the browser tab's session, and signing out forgets it.
 */
import { captureView, expect, signIn, test } from './support/fixtures.ts'

test('refuses a wrong API key with the server\'s message and keeps asking', async ({ page }) => {
  await page.goto('/')
  await captureView(page, 'sign-in')
  await page.getByLabel('API key (pk_...) or bearer token').fill('pk_wrong_key')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toContainText(/API key/i)
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
})

test('signs in with an API key, keeps it across reloads of any page, and signs out', async ({ page, organization }) => {
  await signIn(page, organization.apiKey)
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible()
  await expect(page.getByTestId('live-scans')).toHaveText('No scans running')

  await page.goto('/repositories')
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Repositories' })).toHaveAttribute('aria-current', 'page')

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByLabel('API key (pk_...) or bearer token')).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('API key (pk_...) or bearer token')).toBeVisible()
})

test('signs in with a bearer token', async ({ page, organization }) => {
  await signIn(page, organization.mintToken())
  await expect(page.getByRole('heading', { level: 1, name: 'Repositories' })).toBeVisible()
  await expect(page.getByTestId('live-scans')).toHaveText('No scans running')
})

test('returns to sign-in with the server\'s message when the key is revoked while signed in', async ({ page, organization }) => {
  await signIn(page, organization.apiKey)
  await expect(page.getByTestId('live-scans')).toHaveText('No scans running')
  organization.revokeApiKey()
  // the open live connection is closed by the server (4401), and any request would answer 401
  await expect(page.getByLabel('API key (pk_...) or bearer token')).toBeVisible({ timeout: 60_000 })
  await expect(page.getByRole('status')).toContainText(/Signed out: .*API key/i)
  await captureView(page, 'signed-out')
})
