/**
 * A scan's life as clients see it (src/modules/scans/scan-lifecycle.ts): each transition shows
 * on the scan, on its repository's last_scan_status, and to live subscribers, once.
 */
import type { Client } from 'graphql-ws'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, type Principal } from '../support/factories.ts'
import { isTerminal, largeProject, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'

// no worker in this process: scans stay queued until a test starts one
const queuedOnly = useTestApp()
const withWorker = useTestApp({ worker: true })

interface StatusEvent {
  status: string
  progress: number
  filesScanned: number
  issuesFound: number
}

function watchStatus(client: Client, scanId: string): { events: StatusEvent[]; done: Promise<void> } {
  const events: StatusEvent[] = []
  const done = new Promise<void>((resolve, reject) => {
    client.subscribe(
      { query: 'subscription($id: ID!) { scanStatus(scanId: $id) { status progress filesScanned filesTotal issuesFound } }', variables: { id: scanId } },
      { next: (value) => events.push((value.data as { scanStatus: StatusEvent }).scanStatus), error: reject, complete: resolve },
    )
  })
  return { events, done }
}

async function lastScanStatus(app: typeof queuedOnly, caller: Principal, repoId: string): Promise<string | null> {
  const listed = (await app.request('/api/repositories', { headers: caller.headers })).body.all_repos as { id: string; last_scan_status: string | null }[]
  return listed.find((repository) => repository.id === repoId)?.last_scan_status ?? null
}

describe('the scan lifecycle', () => {
  it('queue: the scan is queued, its repository says so', async () => {
    const caller = await makeApiKeyPrincipal(queuedOnly.db.orm)
    const repository = await uploadProject(queuedOnly, caller, vulnerableProject())
    const created = await queuedOnly.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })
    expect(created.body.status).toBe('queued')
    expect(await lastScanStatus(queuedOnly, caller, repository.id)).toBe('queued')
  })

  it('stop (queued): the scan and its repository say stopped, and subscribers hear it', async () => {
    const caller = await makeApiKeyPrincipal(queuedOnly.db.orm)
    const repository = await uploadProject(queuedOnly, caller, vulnerableProject())
    const created = await queuedOnly.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })
    const watched = watchStatus(queuedOnly.websocket({ apiKey: caller.headers['X-API-Key'] }), created.body.id)
    await expect.poll(() => watched.events.length).toBeGreaterThan(0)
    expect((await queuedOnly.request(`/api/scans/${created.body.id}/stop`, { method: 'POST', headers: caller.headers })).status).toBe(200)
    await watched.done
    expect(watched.events.map((event) => event.status)).toEqual(['QUEUED', 'STOPPED'])
    expect(await lastScanStatus(queuedOnly, caller, repository.id)).toBe('stopped')
  })

  it('stop (by deleting the repository): subscribers of its scans hear the scan stopped', async () => {
    const caller = await makeApiKeyPrincipal(queuedOnly.db.orm)
    const repository = await uploadProject(queuedOnly, caller, vulnerableProject())
    const created = await queuedOnly.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: {} })
    const watched = watchStatus(queuedOnly.websocket({ apiKey: caller.headers['X-API-Key'] }), created.body.id)
    await expect.poll(() => watched.events.length).toBeGreaterThan(0)
    expect((await queuedOnly.request(`/api/repositories/${repository.id}`, { method: 'DELETE', headers: caller.headers })).status).toBe(204)
    await expect.poll(() => watched.events.map((event) => event.status)).toEqual(['QUEUED', 'STOPPED'])
  })

  it('claim, progress, complete: the repository follows, progress is sent only when it changes, and the counts agree with the log', async () => {
    const caller = await makeApiKeyPrincipal(withWorker.db.orm)
    const repository = await uploadProject(withWorker, caller, { ...vulnerableProject(), ...largeProject(150), 'node_modules/lib/index.js': 'module.exports = 1\n' })
    const created = await withWorker.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    const watched = watchStatus(withWorker.websocket({ apiKey: caller.headers['X-API-Key'] }), created.body.id)
    await watched.done
    const done = await waitForScan(withWorker, caller, created.body.id, isTerminal)
    expect(done.status).toBe('completed')
    expect(await lastScanStatus(withWorker, caller, repository.id)).toBe('completed')
    const statuses = watched.events.map((event) => JSON.stringify(event))
    expect(statuses.filter((event, index) => event === statuses[index - 1])).toEqual([])
    expect(watched.events.at(-1)).toMatchObject({ status: 'COMPLETED', progress: 100 })

    const scan = ((await withWorker.request('/api/scans', { headers: caller.headers })).body as { id: string; issues_count: number }[]).find((listed) => listed.id === created.body.id)
    const status = (await withWorker.request(`/api/scans/${created.body.id}/status`, { headers: caller.headers })).body
    const logs = (await withWorker.request(`/api/scans/${created.body.id}/logs`, { headers: caller.headers })).body as { message: string }[]
    const summary = logs.map((entry) => entry.message).find((message) => message.startsWith('Scan completed')) as string
    expect(summary).toBe(`Scan completed: ${status.issues_found} issues; ${status.files_scanned} of ${status.files_total} files scanned, ${status.files_total - status.files_scanned} skipped`)
    expect(status.files_total - status.files_scanned).toBeGreaterThan(0) // node_modules is skipped
    expect(scan?.issues_count).toBe(status.issues_found)
  })

  it('stop (running): the repository says stopped, not running', async () => {
    const caller = await makeApiKeyPrincipal(withWorker.db.orm)
    const repository = await uploadProject(withWorker, caller, largeProject(3000))
    const created = await withWorker.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })
    await waitForScan(withWorker, caller, created.body.id, (status) => status === 'running' || isTerminal(status))
    const stopped = await withWorker.request(`/api/scans/${created.body.id}/stop`, { method: 'POST', headers: caller.headers })
    if (stopped.status === 400) return // finished before the stop arrived: nothing to check on this machine
    expect(stopped.status).toBe(200)
    expect(await lastScanStatus(withWorker, caller, repository.id)).toBe('stopped')
  })
})
