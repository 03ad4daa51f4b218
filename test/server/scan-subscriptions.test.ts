/**
 * Live scan events over graphql-ws: a scan's logs (past first, then live), its status, and the
 * organization's feed; credentials checked on subscribe and while the connection lives;
 * subscriptions limited per connection and per organization; nothing of another organization.
 */
import type { Client } from 'graphql-ws'
import { describe, expect, it } from 'vitest'
import { ApiKey } from '../../src/modules/api-keys/api-key.entity.ts'
import { revokeApiKey } from '../../src/modules/api-keys/api-key.service.ts'
import { closeOf, runOverWebSocket, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, type Principal } from '../support/factories.ts'
import { isTerminal, largeProject, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

const app = useTestApp({ worker: true, websocket: { maxSubscriptionsPerConnection: 3, maxSubscriptionsPerOrg: 5, credentialRecheckMs: 2000 } })

interface Collected {
  values: any[]
  done: Promise<void>
  error?: unknown
  unsubscribe: () => void
}

function collect(client: Client, query: string, variables: Record<string, unknown> = {}): Collected {
  const collected: Collected = { values: [], done: Promise.resolve(), unsubscribe: () => undefined }
  collected.done = new Promise((resolve, reject) => {
    collected.unsubscribe = client.subscribe({ query, variables }, {
      next: (value) => {
        if (value.errors) collected.error = value.errors
        else collected.values.push(value.data)
      },
      error: (error) => {
        collected.error = error
        reject(error)
      },
      complete: resolve,
    })
  })
  return collected
}

describe('Subscription.scanLogs', () => {
  it('sends the past entries, then the live ones, and completes when the scan ends', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, largeProject(400))
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const live = collect(client, 'subscription($id: ID!) { scanLogs(scanId: $id) { id scanId level message timestamp } }', { id: created.body.id })
    await live.done
    const messages = live.values.map((value) => value.scanLogs.message)
    expect(messages[0]).toBe('Scan started')
    expect(messages.at(-1)).toMatch(/^Scan completed/)
    const stored = await app.request(`/api/scans/${created.body.id}/logs`, { headers: caller.headers })
    expect(live.values.map((value) => value.scanLogs.id)).toEqual(stored.body.map((entry: { id: string }) => entry.id))

    const late = collect(client, 'subscription($id: ID!) { scanLogs(scanId: $id) { message } }', { id: created.body.id })
    await late.done
    expect(late.values.map((value) => value.scanLogs.message)).toEqual(messages)
  })
})

describe('Subscription.scanStatus', () => {
  it('sends every change up to the final status', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, largeProject(400))
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const updates = collect(client, 'subscription($id: ID!) { scanStatus(scanId: $id) { scanId status progress filesScanned filesTotal issuesFound } }', { id: created.body.id })
    await updates.done
    const statuses = updates.values.map((value) => value.scanStatus.status)
    expect(statuses.at(-1)).toBe('COMPLETED')
    expect(statuses).toContain('RUNNING')
    const progress = updates.values.map((value) => value.scanStatus.progress)
    expect([...progress].sort((a, b) => a - b)).toEqual(progress)
    expect(updates.values.at(-1).scanStatus).toMatchObject({ progress: 100, filesScanned: 400, filesTotal: 400 })
  })
})

describe('Subscription.scanEvents', () => {
  it("feeds the organization's scan events, and none of another organization", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const feed: any[] = []
    const unsubscribe = client.subscribe({ query: 'subscription { scanEvents { kind scan { id orgId status } } }' }, { next: (value) => feed.push(value.data), error: () => undefined, complete: () => undefined })
    await new Promise((resolve) => setTimeout(resolve, 300))

    const theirRepository = await uploadProject(app, stranger, vulnerableProject())
    const theirs = await app.request(`/api/scans/${theirRepository.id}`, { method: 'POST', headers: stranger.headers, json: { scan_type: 'secrets' } })
    const repository = await uploadProject(app, caller, vulnerableProject())
    const mine = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    await waitForScan(app, caller, mine.body.id, isTerminal)
    await waitForScan(app, stranger, theirs.body.id, isTerminal)
    await new Promise((resolve) => setTimeout(resolve, 500))
    unsubscribe()

    expect(feed.every((event) => event.scanEvents.scan.orgId === caller.orgId)).toBe(true)
    expect(feed.some((event) => event.scanEvents.scan.id === mine.body.id && event.scanEvents.scan.status === 'COMPLETED')).toBe(true)
    expect(feed.some((event) => event.scanEvents.kind === 'LOG')).toBe(true)
    expect(JSON.stringify(feed)).not.toContain(theirs.body.id)
  })

  it('keeps only the kinds asked for', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const statuses = collect(client, 'subscription { scanEvents(kinds: [STATUS]) { kind scan { id status } } }')
    const repository = await uploadProject(app, caller, vulnerableProject())
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
    await waitForScan(app, caller, created.body.id, isTerminal)
    // the completion is the last status event: once it arrived, every log event was published before it
    await expect.poll(() => statuses.values.some((value) => value.scanEvents.scan.status === 'COMPLETED'), { timeout: 20_000 }).toBe(true)
    statuses.unsubscribe()

    expect(statuses.values.length).toBeGreaterThan(0)
    expect(statuses.values.every((value) => value.scanEvents.kind === 'STATUS')).toBe(true)
  })
})

describe('subscribing', () => {
  it("refuses another organization's scan, a missing scope, and a key revoked since connecting", async () => {
    const owner = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, owner, vulnerableProject())
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: owner.headers, json: { scan_type: 'secrets' } })

    const stranger = await makeApiKeyPrincipal(app.db.orm)
    const foreign = collect(app.websocket({ apiKey: stranger.headers['X-API-Key'] }), 'subscription($id: ID!) { scanStatus(scanId: $id) { status } }', { id: created.body.id })
    await foreign.done.catch(() => undefined)
    expect(JSON.stringify(foreign.error)).toContain('FORBIDDEN')
    expect(foreign.values).toEqual([])

    const reader = await makeApiKeyPrincipal(app.db.orm, { orgId: owner.orgId, scopes: ['read:repo'] })
    const unscoped = collect(app.websocket({ apiKey: reader.headers['X-API-Key'] }), 'subscription($id: ID!) { scanStatus(scanId: $id) { status } }', { id: created.body.id })
    await unscoped.done.catch(() => undefined)
    expect(JSON.stringify(unscoped.error)).toContain('FORBIDDEN')

    const revocable = await makeApiKeyPrincipal(app.db.orm, { orgId: owner.orgId })
    const client = app.websocket({ apiKey: revocable.headers['X-API-Key'] })
    // a long-lived subscription keeps the connection open while the key is revoked
    const holdOpen = client.subscribe({ query: 'subscription { scanEvents { kind } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined })
    const first = collect(client, 'subscription($id: ID!) { scanStatus(scanId: $id) { status } }', { id: created.body.id })
    await first.done
    const record = await app.db.orm.em.fork().findOneOrFail(ApiKey, { userId: revocable.userId })
    await revokeApiKey(app.db.orm.em.fork(), record.id)
    const second = collect(client, 'subscription($id: ID!) { scanStatus(scanId: $id) { status } }', { id: created.body.id })
    await second.done.catch(() => undefined)
    expect(second.error).toMatchObject({ code: 4401, reason: 'Invalid API key' })
    expect(second.values).toEqual([])
    holdOpen()
  })
})

describe('a connection whose API key is revoked', () => {
  it('is closed with 4401 within the re-check interval, with no event needed', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const closed = closeOf(client)
    const feed = collect(client, FEED)
    expect(await runOverWebSocket(client, '{ repositories { id } }')).toEqual({ data: { repositories: [] } })
    const record = await app.db.orm.em.fork().findOneOrFail(ApiKey, { userId: caller.userId })
    await revokeApiKey(app.db.orm.em.fork(), record.id)
    expect(await closed).toEqual({ code: 4401, reason: 'Invalid API key' })
    await feed.done.catch(() => undefined)
    expect(feed.error).toMatchObject({ code: 4401 })
  })
})

const FEED = 'subscription { scanEvents { kind scan { id } } }'
const TOO_MANY = 'TOO_MANY_SUBSCRIPTIONS'

/** Runs a secrets scan of the caller's and resolves once it has ended. */
async function runScan(caller: Principal): Promise<string> {
  const repository = await uploadProject(app, caller, vulnerableProject())
  const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'secrets' } })
  await waitForScan(app, caller, created.body.id, isTerminal)
  return created.body.id
}

/** Polls `check` until it holds (bounded): for what the server does after answering. */
async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/**
 * Subscribes to the feed, then runs a query on the same connection: once the query is answered,
 * the subscribe has been admitted or its refusal has arrived (the server decides in order).
 */
async function subscribeSettled(client: Client): Promise<Collected> {
  const feed = collect(client, FEED)
  feed.done.catch(() => undefined)
  await runOverWebSocket(client, '{ __typename }')
  return feed
}

const sawScan = (feed: Collected, scanId: string) => feed.values.some((value) => value.scanEvents.scan.id === scanId)

describe('subscription limits', () => {
  it('refuse the subscribe past the limit of a connection with an error; the connection and its subscriptions carry on', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const client = app.websocket({ apiKey: caller.headers['X-API-Key'] })
    const feeds = [collect(client, FEED), collect(client, FEED), collect(client, FEED)]
    const extra = await subscribeSettled(client)
    expect(extra.error).toEqual([{ message: 'Too many subscriptions: this connection has 3 active subscriptions, the limit is 3', extensions: { code: TOO_MANY, status: 429 } }])

    expect(await runOverWebSocket(client, '{ repositories { id } }')).toMatchObject({ data: { repositories: [] } })

    // leaving a quiet subscription (no event has come yet) frees its place at once, not at the next event
    feeds[0]?.unsubscribe()
    let replacement: Collected | undefined
    await eventually(async () => {
      const attempt = await subscribeSettled(client)
      if (attempt.error === undefined) replacement = attempt
      return replacement !== undefined
    }, 'a place freed by an unsubscribe')

    const live = [feeds[1], feeds[2], replacement] as Collected[]
    const scanId = await runScan(caller)
    await eventually(() => live.every((feed) => sawScan(feed, scanId)), 'every admitted subscription saw the scan')
    expect(live.map((feed) => feed.error)).toEqual([undefined, undefined, undefined])
  })

  it("refuse the subscribe past the organization's limit across connections, and free the places of a closed connection", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const key = { apiKey: caller.headers['X-API-Key'] }
    const first = app.websocket(key)
    for (let index = 0; index < 3; index++) expect((await subscribeSettled(first)).error).toBeUndefined()
    const second = app.websocket(key)
    const secondFeeds = [await subscribeSettled(second), await subscribeSettled(second)]
    expect(secondFeeds.map((feed) => feed.error)).toEqual([undefined, undefined])
    const refused = await subscribeSettled(second)
    expect(refused.error).toEqual([{ message: 'Too many subscriptions: your organization has 5 active subscriptions, the limit is 5', extensions: { code: TOO_MANY, status: 429 } }])

    const stranger = await makeApiKeyPrincipal(app.db.orm)
    expect((await subscribeSettled(app.websocket({ apiKey: stranger.headers['X-API-Key'] }))).error).toBeUndefined()

    await first.dispose()
    let admitted: Collected | undefined
    await eventually(async () => {
      const attempt = await subscribeSettled(second)
      if (attempt.error === undefined) admitted = attempt
      return admitted !== undefined
    }, 'a place freed by the closed connection')
    const scanId = await runScan(caller)
    await eventually(() => [...secondFeeds, admitted as Collected].every((feed) => sawScan(feed, scanId)), 'the second connection saw the scan')
  })
})
