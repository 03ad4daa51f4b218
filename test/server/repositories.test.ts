/**
 * The repository read routes: GET /api/repositories, /api/repositories/summaries and
 * /api/repositories/{repo_id}/summary, through REST and GraphQL, with scopes and other orgs.
 */
import { describe, expect, it } from 'vitest'
import { expectNoInternals, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeOrgId, makeRepository, makeSummary, makeTokenPrincipal } from '../support/factories.ts'

const app = useTestApp()
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'

describe('GET /api/repositories', () => {
  it('answers {"all_repos": []} for an organization with no repository', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request('/api/repositories', { headers: caller.headers })
    expect(response.status).toBe(200)
    expect(response.body).toEqual({ all_repos: [] })
  })

  it("lists the caller's active repositories with every field, newest first", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const older = await makeRepository(app.db.orm, { orgId: caller.orgId, repoName: 'older', createdAt: new Date('2026-01-01T00:00:00Z') })
    const newer = await makeRepository(app.db.orm, { orgId: caller.orgId, repoName: 'newer', lastScanStatus: 'completed' })
    await makeRepository(app.db.orm, { orgId: caller.orgId, repoName: 'gone', isActive: false })

    const response = await app.request('/api/repositories', { headers: caller.headers })

    expect(response.status).toBe(200)
    expect(response.body.all_repos.map((repo: { repo_name: string }) => repo.repo_name)).toEqual(['newer', 'older'])
    expect(response.body.all_repos[0]).toEqual({
      id: newer.id,
      org_id: caller.orgId,
      repo_name: 'newer',
      branch_name: 'main',
      is_active: true,
      size_bytes: 1234,
      file_count: 3,
      languages: { Python: 120, JavaScript: 40 },
      content_sha256: null,
      created_by: 'factory',
      created_at: newer.createdAt.toISOString(),
      updated_at: newer.updatedAt.toISOString(),
      last_scan_id: null,
      last_scan_status: 'completed',
    })
    expect(response.body.all_repos[1].id).toBe(older.id)
  })

  it("never shows another organization's repositories", async () => {
    const owner = await makeApiKeyPrincipal(app.db.orm)
    await makeRepository(app.db.orm, { orgId: owner.orgId, repoName: 'secret-project' })
    const stranger = await makeTokenPrincipal()

    const response = await app.request('/api/repositories', { headers: stranger.headers })

    expect(response.body).toEqual({ all_repos: [] })
    expect(response.text).not.toContain('secret-project')
  })

  it('needs the read:repo scope', async () => {
    const caller = await makeTokenPrincipal({ scopes: ['write:scan', 'write:repo', 'delete:repo'] })
    const response = await app.request('/api/repositories', { headers: caller.headers })
    expect(response.status).toBe(403)
    expect(response.body).toEqual({ detail: 'Insufficient scope: this operation requires "read:repo"' })
  })

  it('is 401 without credentials, with a WWW-Authenticate challenge', async () => {
    const response = await app.request('/api/repositories')
    expect(response.status).toBe(401)
    expect(response.headers.get('www-authenticate')).toContain('Bearer')
    expect(response.body).toEqual({ detail: 'Not authenticated' })
  })

  it('is 403 when the credential names no organization', async () => {
    const { mintToken } = await import('../../src/auth/jwt.ts')
    const { TEST_JWT_SECRET } = await import('../support/app.ts')
    const token = await mintToken({ secret: TEST_JWT_SECRET, orgId: '', userId: 'u1', scopes: ['read:repo'], expiresIn: 60 })
    const response = await app.request('/api/repositories', { headers: { Authorization: `Bearer ${token}` } })
    expect(response.status).toBe(403)
    expect(response.body).toEqual({ detail: 'No organization found for the caller' })
  })
})

describe('GET /api/repositories/summaries', () => {
  it('answers the summaries of active repositories and their count', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const summary = await makeSummary(app.db.orm, repository)
    const inactive = await makeRepository(app.db.orm, { orgId: caller.orgId, isActive: false })
    await makeSummary(app.db.orm, inactive)

    const response = await app.request('/api/repositories/summaries', { headers: caller.headers })

    expect(response.status).toBe(200)
    expect(response.body).toEqual({
      total_count: 1,
      summaries: [
        {
          id: summary.id,
          repo_id: repository.id,
          org_id: caller.orgId,
          architecture_pattern: 'Flask REST API over PostgreSQL',
          auth_logic_summary: 'JWT bearer tokens checked by a decorator',
          trust_boundaries: { entry_points: [{ method: 'GET', path: '/items', file: 'app.py', line: 10 }] },
          business_logic_flows: { flows: [] },
          cross_file_dependencies: { files: 2, edges: [] },
          rag_context: 'A small item service.',
          security_context: 'No CSRF protection.',
          data_flow_analysis: { flows: [] },
          created_at: summary.createdAt.toISOString(),
          updated_at: summary.updatedAt.toISOString(),
        },
      ],
    })
  })

  it("shows nothing of another organization's summaries", async () => {
    const repository = await makeRepository(app.db.orm)
    await makeSummary(app.db.orm, repository)
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request('/api/repositories/summaries', { headers: stranger.headers })
    expect(response.body).toEqual({ summaries: [], total_count: 0 })
  })

  it('needs read:repo, and credentials', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['write:scan'] })
    expect((await app.request('/api/repositories/summaries', { headers: caller.headers })).status).toBe(403)
    expect((await app.request('/api/repositories/summaries', { headers: { 'X-API-Key': 'pk_nope' } })).status).toBe(401)
  })
})

describe('GET /api/repositories/{repo_id}/summary', () => {
  it('answers the summary of a repository', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const summary = await makeSummary(app.db.orm, repository)
    const response = await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })
    expect(response.status).toBe(200)
    expect(response.body.id).toBe(summary.id)
    expect(response.body.repo_id).toBe(repository.id)
  })

  it('is 400 for a malformed identifier', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request('/api/repositories/not-a-uuid/summary', { headers: caller.headers })
    expect(response.status).toBe(400)
    expect(response.body).toEqual({ detail: 'Invalid repository identifier format' })
  })

  it('is 404 for an unknown repository, and for a repository without a summary', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const unknown = await app.request(`/api/repositories/${UNKNOWN_ID}/summary`, { headers: caller.headers })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ detail: 'Repository not found' })
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const missing = await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ detail: 'Repository summary not found' })
  })

  it('is 404 for a deactivated repository', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId, isActive: false })
    await makeSummary(app.db.orm, repository)
    const response = await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })
    expect(response.status).toBe(404)
  })

  it("is 403 for another organization's repository, with nothing of it in the body", async () => {
    const repository = await makeRepository(app.db.orm, { repoName: 'their-repo' })
    await makeSummary(app.db.orm, repository, { architecturePattern: 'their architecture' })
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    const response = await app.request(`/api/repositories/${repository.id}/summary`, { headers: stranger.headers })
    expect(response.status).toBe(403)
    expect(response.body).toEqual({ detail: 'Repository does not belong to your organization' })
    expect(response.text).not.toContain('their')
    expect(response.text).not.toContain(repository.orgId)
  })

  it('checks scope before the identifier, and credentials before both', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['write:scan'] })
    expect((await app.request('/api/repositories/bad/summary', { headers: caller.headers })).status).toBe(403)
    const anonymous = await app.request('/api/repositories/bad/summary')
    expect(anonymous.status).toBe(401)
    expectNoInternals(anonymous)
  })
})

describe('the same reads over GraphQL', () => {
  it('gives the same records as REST', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId, lastScanStatus: 'running' })
    await makeSummary(app.db.orm, repository)

    const response = await app.graphql(
      `query($id: ID!) {
        repositories { id repoName orgId lastScanStatus languages createdAt }
        repositorySummaries { totalCount summaries { id repoId } }
        repositorySummary(repoId: $id) { repoId architecturePattern trustBoundaries }
      }`,
      { id: repository.id },
      caller.headers,
    )

    expect(response.status).toBe(200)
    expect(response.body.errors).toBeUndefined()
    expect(response.body.data.repositories).toEqual([
      { id: repository.id, repoName: repository.repoName, orgId: caller.orgId, lastScanStatus: 'RUNNING', languages: { Python: 120, JavaScript: 40 }, createdAt: repository.createdAt.toISOString() },
    ])
    expect(response.body.data.repositorySummaries.totalCount).toBe(1)
    expect(response.body.data.repositorySummary.repoId).toBe(repository.id)
  })

  it('maps errors to extensions.code and the REST status', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const other = await makeRepository(app.db.orm, { orgId: makeOrgId() })
    const query = `query($id: ID!) { repositorySummary(repoId: $id) { id } }`
    const cases = [
      { id: 'nope', code: 'BAD_REQUEST', status: 400 },
      { id: UNKNOWN_ID, code: 'NOT_FOUND', status: 404 },
      { id: other.id, code: 'FORBIDDEN', status: 403 },
    ]
    for (const { id, code, status } of cases) {
      const response = await app.graphql(query, { id }, caller.headers)
      expect(response.body.errors[0].extensions).toEqual({ code, status })
      expectNoInternals(response)
    }
    const unscoped = await makeApiKeyPrincipal(app.db.orm, { scopes: ['write:scan'] })
    const forbidden = await app.graphql('{ repositories { id } }', {}, unscoped.headers)
    expect(forbidden.body.errors[0].extensions).toEqual({ code: 'FORBIDDEN', status: 403 })
  })

  it("reads one repository by id: NOT_FOUND for an unknown, deleted or another organization's one", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const deleted = await makeRepository(app.db.orm, { orgId: caller.orgId, isActive: false })
    const other = await makeRepository(app.db.orm, { orgId: makeOrgId() })
    const query = 'query($id: ID!) { repository(id: $id) { id repoName branchName languages } }'

    const found = await app.graphql(query, { id: repository.id }, caller.headers)
    expect(found.body).toEqual({ data: { repository: { id: repository.id, repoName: repository.repoName, branchName: repository.branchName, languages: { Python: 120, JavaScript: 40 } } } })
    for (const id of [UNKNOWN_ID, deleted.id, other.id]) {
      const missing = await app.graphql(query, { id }, caller.headers)
      expect(missing.body.errors[0].extensions, id).toEqual({ code: 'NOT_FOUND', status: 404 })
      expect(missing.text).not.toContain(other.repoName)
    }
    expect((await app.graphql(query, { id: 'nope' }, caller.headers)).body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST', status: 400 })
  })

  it('is 401 UNAUTHENTICATED without credentials', async () => {
    const response = await app.graphql('{ repositories { id } }', {}, {})
    expect(response.status).toBe(401)
    expect(response.body.errors[0].extensions.code).toBe('UNAUTHENTICATED')
  })
})

describe('DELETE /api/repositories/{repo_id}', () => {
  it('deactivates (204): the repository, its scans and issues disappear from reads, nothing is erased', async () => {
    const { makeIssue, makeScan } = await import('../support/factories.ts')
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    await makeSummary(app.db.orm, repository)
    const scan = await makeScan(app.db.orm, repository, { status: 'running' })
    await makeIssue(app.db.orm, scan)

    const response = await app.request(`/api/repositories/${repository.id}`, { method: 'DELETE', headers: caller.headers })
    expect(response.status).toBe(204)
    expect(response.text).toBe('')

    expect((await app.request('/api/repositories', { headers: caller.headers })).body).toEqual({ all_repos: [] })
    expect((await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })).status).toBe(404)
    expect((await app.request(`/api/repositories/${repository.id}/issues`, { headers: caller.headers })).status).toBe(404)
    expect((await app.request('/api/issues', { headers: caller.headers })).body.total).toBe(0)
    expect((await app.request(`/api/repositories/${repository.id}`, { method: 'DELETE', headers: caller.headers })).status).toBe(404)
    const [row] = await app.db.orm.em.getConnection().execute('select is_active, (select status from scans where repo_id = r.id) as scan_status, (select count(*)::int from issues where repo_id = r.id) as issues from repositories r where id = ?', [repository.id])
    expect(row).toEqual({ is_active: false, scan_status: 'stopped', issues: 1 })
  })

  it("answers 404 for another organization's repository (and leaves it alone), 400 for a malformed id", async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const theirs = await makeRepository(app.db.orm)
    const response = await app.request(`/api/repositories/${theirs.id}`, { method: 'DELETE', headers: caller.headers })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ detail: 'Repository not found' })
    const owner = await makeApiKeyPrincipal(app.db.orm, { orgId: theirs.orgId })
    expect((await app.request('/api/repositories', { headers: owner.headers })).body.all_repos).toHaveLength(1)
    expect((await app.request('/api/repositories/xyz', { method: 'DELETE', headers: caller.headers })).status).toBe(400)
  })

  it('needs delete:repo and a user identifier', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo', 'write:repo'] })
    const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
    expect((await app.request(`/api/repositories/${repository.id}`, { method: 'DELETE', headers: caller.headers })).status).toBe(403)
    const { mintToken } = await import('../../src/auth/jwt.ts')
    const { TEST_JWT_SECRET } = await import('../support/app.ts')
    const token = await mintToken({ secret: TEST_JWT_SECRET, orgId: caller.orgId, userId: '', scopes: ['delete:repo'], expiresIn: 60 })
    const anonymous = await app.request(`/api/repositories/${repository.id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } })
    expect(anonymous.status).toBe(403)
    expect(anonymous.body).toEqual({ detail: 'No user identifier found for the caller' })
  })
})
