/**
 * The GraphQL IDE at /graphql, in a real browser: it asks for credentials before anything else,
 * keeps them for the session, loads the schema with them, runs queries over HTTP and
 * subscriptions over WebSocket, and forgets the credentials on sign-out.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { useTestApp } from '../support/app.ts'
import { useBrowser } from '../support/browser.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'
import { isTerminal, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

const app = useTestApp({ worker: true })
const browser = useBrowser()

async function openIde(): Promise<{ page: Page; graphqlStatuses: number[] }> {
  const context = await (await browser()).newContext()
  const page = await context.newPage()
  const graphqlStatuses: number[] = []
  page.on('response', (response) => {
    if (response.url().endsWith('/graphql') && response.request().method() === 'POST') graphqlStatuses.push(response.status())
  })
  await page.goto(`${app.url}/graphql`)
  return { page, graphqlStatuses }
}

async function runInEditor(page: Page, operation: string): Promise<void> {
  await page.locator('.graphiql-query-editor .CodeMirror').first().click()
  await page.keyboard.press('Control+A')
  await page.keyboard.press('Delete')
  // CodeMirror closes brackets as they are typed; the value is set whole instead
  await page.locator('.graphiql-query-editor .CodeMirror').first().evaluate((element, text) => {
    ;(element as unknown as { CodeMirror: { setValue(value: string): void } }).CodeMirror.setValue(text)
  }, operation)
  // GraphiQL re-parses an edited document after a short debounce, and picks HTTP or WebSocket
  // from the parsed operation: run once the parse has caught up
  await page.waitForTimeout(1000)
  await page.getByRole('button', { name: /Execute query/ }).click()
}

const resultText = (page: Page) => page.locator('.result-window').innerText()

describe('the GraphQL IDE', () => {
  it('asks for credentials first and sends nothing until they are given', async () => {
    const { page, graphqlStatuses } = await openIde()
    await expect.poll(() => page.getByLabel('API key (pk_...) or bearer token').isVisible()).toBe(true)
    await page.getByLabel('API key (pk_...) or bearer token').fill('pk_wrong_key')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').innerText()).toMatch(/API key/i)
    expect(graphqlStatuses).toEqual([401])
    await page.context().close()
  })

  it('loads the schema with the credentials, runs queries and subscriptions, keeps them across reloads, and signs out', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, vulnerableProject(), 'ide-repo')
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    await waitForScan(app, caller, created.body.id, isTerminal)

    const { page, graphqlStatuses } = await openIde()
    await page.getByLabel('API key (pk_...) or bearer token').fill(caller.headers['X-API-Key'] as string)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.locator('.graphiql-query-editor').waitFor()
    // the schema came by introspection with the key: the documentation explorer lists the root types
    await page.getByRole('button', { name: /Show Documentation Explorer/ }).click()
    await expect.poll(() => page.locator('.graphiql-doc-explorer').innerText(), { timeout: 20_000 }).toMatch(/Query/)

    await runInEditor(page, '{ repositories { repoName } }')
    await expect.poll(() => resultText(page), { timeout: 20_000 }).toContain('ide-repo')

    // GraphiQL shows the latest event of a subscription: the scan's last log entry
    await runInEditor(page, `subscription { scanLogs(scanId: "${created.body.id}") { message } }`)
    await expect.poll(() => resultText(page), { timeout: 20_000 }).toContain('Scan completed')
    expect(graphqlStatuses.every((status) => status === 200)).toBe(true)

    await page.reload()
    await page.locator('.graphiql-query-editor').waitFor()
    expect(await page.locator('#sign-in').isVisible()).toBe(false)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect.poll(() => page.getByLabel('API key (pk_...) or bearer token').isVisible()).toBe(true)
    await page.context().close()
  })
})
