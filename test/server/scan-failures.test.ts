/**
 * A scan that fails inside the service tells its owner a short reason: never SQL, a stack
 * trace or a path of the worker's host (the details go to the service log).
 */
import { describe, expect, it } from 'vitest'
import { expectNoInternals, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'
import { isTerminal, uploadProject, waitForScan } from '../support/scans.ts'

const app = useTestApp({ worker: true })

describe('a scan whose results the database refuses', () => {
  it('fails with a short reason in its status, log and task status', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    // past the first 8 KB (which decide "binary"), a finding's line holds a NUL character,
    // which PostgreSQL does not store in text: the insert of the issues fails
    const padding = Array.from({ length: 300 }, (_, line) => `// line ${line} of a long preamble ..........................`).join('\n')
    const repository = await uploadProject(app, caller, { 'web/server.js': `${padding}\napp.get("/e", (req, res) => { res.send(eval(req.query.code)) }) // \u0000\n` })
    const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: 'quick' } })

    const status = await waitForScan(app, caller, created.body.id, isTerminal)
    expect(status).toMatchObject({ status: 'failed', error: 'Internal error (database error)' })
    const logs = await app.request(`/api/scans/${created.body.id}/logs`, { headers: caller.headers })
    expect(logs.body.at(-1)).toMatchObject({ level: 'error', message: 'Scan failed: Internal error (database error)' })
    const task = await app.request(`/api/scans/${created.body.id}/task-status`, { headers: caller.headers })
    expect(task.body).toMatchObject({ status: 'failed', last_error: 'Internal error (database error)' })
    for (const response of [logs, task, await app.request(`/api/scans/${created.body.id}/status`, { headers: caller.headers })]) {
      expectNoInternals(response)
      expect(response.text).not.toMatch(/insert into|json_populate_recordset|\$\d|\?::/i)
    }
  })
})
