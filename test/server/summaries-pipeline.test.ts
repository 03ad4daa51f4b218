/**
 * Full scans compute the repository summary from the code and make it the repository's
 * current summary (replaced on each full scan, its created_at kept); quick scans leave it alone.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal } from '../support/factories.ts'
import { isTerminal, uploadProject, waitForScan } from '../support/scans.ts'
import type { ZipFiles } from '../support/zips.ts'

const app = useTestApp({ worker: true })
const EXPRESS_APP = path.join(import.meta.dirname, '..', 'engine', 'fixtures', 'apps', 'express-shop')

async function readFolder(folder: string): Promise<ZipFiles> {
  const files: ZipFiles = {}
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const absolute = path.join(entry.parentPath, entry.name)
    files[path.relative(folder, absolute)] = await fs.readFile(absolute)
  }
  return files
}

describe('the repository summary', () => {
  it('is computed by full scans, replaced by the next one, and served over REST and GraphQL', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, await readFolder(EXPRESS_APP), 'express-shop')
    const scan = async (scanType: string) => {
      const created = await app.request(`/api/scans/${repository.id}`, { method: 'POST', headers: caller.headers, json: { scan_type: scanType } })
      expect((await waitForScan(app, caller, created.body.id, isTerminal)).status).toBe('completed')
      return created.body.id as string
    }

    await scan('quick')
    expect((await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })).status).toBe(404)

    const firstScan = await scan('full')
    const first = await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })
    expect(first.status).toBe(200)
    expect(first.body.repo_id).toBe(repository.id)
    expect(first.body.architecture_pattern).toMatch(/Express/)
    expect(first.body.auth_logic_summary.length).toBeGreaterThan(20)
    expect(JSON.stringify(first.body.trust_boundaries)).toContain('/reports/:name')
    expect(JSON.stringify(first.body.cross_file_dependencies)).toContain('src/routes/orders.js')
    expect(first.body.rag_context.length).toBeGreaterThan(50)
    const logs = await app.request(`/api/scans/${firstScan}/logs`, { headers: caller.headers })
    expect(logs.body.map((entry: { message: string }) => entry.message)).toContain('Repository summary updated')

    await scan('full')
    const second = await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })
    expect(second.body.id).toBe(first.body.id)
    expect(second.body.created_at).toBe(first.body.created_at)
    expect(second.body.updated_at > first.body.updated_at).toBe(true)
    const { created_at: _c, updated_at: _u, ...firstContent } = first.body
    const { created_at: _c2, updated_at: _u2, ...secondContent } = second.body
    expect(secondContent).toEqual(firstContent)

    const all = await app.request('/api/repositories/summaries', { headers: caller.headers })
    expect(all.body.total_count).toBe(1)
    const gql = await app.graphql('query($id: ID!) { repositorySummary(repoId: $id) { architecturePattern } }', { id: repository.id }, caller.headers)
    expect(gql.body.data.repositorySummary.architecturePattern).toBe(first.body.architecture_pattern)
  })
})
