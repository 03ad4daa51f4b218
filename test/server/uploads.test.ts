/** POST /api/upload and the GraphQL upload: stored whole or not at all; every hostile zip refused. */
import { describe, expect, it } from 'vitest'
import { expectNoInternals, useTestApp, type TestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, type Principal } from '../support/factories.ts'
import { makeZip, markEncrypted, renameEntries, renameEntry, rewriteCentralDirectory, sampleProject, shareOneEntry } from '../support/zips.ts'

const app = useTestApp({ limits: { uploadMaxBytes: 128 * 1024, zipMaxEntries: 20, zipMaxUncompressedBytes: 256 * 1024, zipMaxCompressionRatio: 50, zipRatioMinBytes: 64 * 1024 } })

function upload(target: TestApp, caller: Principal, fields: { file?: Buffer; repo_name?: string; branch_name?: string }) {
  const form = new FormData()
  if (fields.repo_name !== undefined) form.set('repo_name', fields.repo_name)
  if (fields.branch_name !== undefined) form.set('branch_name', fields.branch_name)
  if (fields.file) form.set('file', new Blob([fields.file]), 'repo.zip')
  return target.request('/api/upload', { method: 'POST', headers: caller.headers, body: form })
}

async function storedRows(orgId: string) {
  const [row] = await app.db.orm.em.getConnection().execute<{ repos: number; contents: number; chunks: number }[]>(
    `select (select count(*)::int from repositories where org_id = ?) as repos,
            (select count(*)::int from repository_contents where org_id = ?) as contents,
            (select count(*)::int from repository_content_chunks where org_id = ?) as chunks`,
    [orgId, orgId, orgId],
  )
  return row
}

describe('POST /api/upload', () => {
  it('stores the zip and answers the repository record', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'dana' })
    const zip = await makeZip(sampleProject())
    const response = await upload(app, caller, { file: zip, repo_name: 'shop', branch_name: 'main' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({
      org_id: caller.orgId,
      repo_name: 'shop',
      branch_name: 'main',
      is_active: true,
      size_bytes: zip.length,
      file_count: 3,
      languages: { python: 4, javascript: 2 },
      content_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      created_by: 'dana',
      last_scan_id: null,
      last_scan_status: null,
    })
    expect(await storedRows(caller.orgId)).toEqual({ repos: 1, contents: 1, chunks: 1 })
    expect((await app.request('/api/repositories', { headers: caller.headers })).body.all_repos[0].id).toBe(response.body.id)
  })

  it('accepts small files that compress extremely well, as real repositories hold them', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    // a test fixture padded with zeros: ~60 KiB inflated from a few hundred bytes (ratio > 200:1)
    const padded = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(60 * 1024)])
    const response = await upload(app, caller, { file: await makeZip({ ...sampleProject(), 'test/files/invalidSizeForClient.pdf': padded }), repo_name: 'real', branch_name: 'main' })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ file_count: 4, languages: { python: 4, javascript: 2 } })
  })

  it('replaces the content of the same repo_name and branch_name, keeping the id', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const first = await upload(app, caller, { file: await makeZip(sampleProject()), repo_name: 'svc', branch_name: 'main' })
    const second = await upload(app, caller, { file: await makeZip({ 'main.go': 'package main\n' }), repo_name: 'svc', branch_name: 'main' })
    const otherBranch = await upload(app, caller, { file: await makeZip(sampleProject()), repo_name: 'svc', branch_name: 'dev' })
    expect(second.body.id).toBe(first.body.id)
    expect(second.body).toMatchObject({ file_count: 1, languages: { go: 1 } })
    expect(second.body.content_sha256).not.toBe(first.body.content_sha256)
    expect(otherBranch.body.id).not.toBe(first.body.id)
    expect(await storedRows(caller.orgId)).toEqual({ repos: 2, contents: 2, chunks: 2 })
  })

  it('answers 422 naming every missing field', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await upload(app, caller, {})
    expect(response.status).toBe(422)
    expect(response.body.detail.map((item: { loc: string[]; type: string }) => `${item.loc.join('.')}:${item.type}`)).toEqual(['body.file:missing', 'body.repo_name:missing', 'body.branch_name:missing'])
    const json = await app.request('/api/upload', { method: 'POST', headers: caller.headers, json: { repo_name: 'x', branch_name: 'y' } })
    expect(json.status).toBe(422)
  })

  it('needs write:repo', async () => {
    const reader = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    expect((await upload(app, reader, { file: await makeZip(sampleProject()), repo_name: 'a', branch_name: 'b' })).status).toBe(403)
  })

  const hostile: [string, () => Promise<Buffer>, number, RegExp][] = [
    ['not a zip', async () => Buffer.from('just some text, not an archive'), 400, /not a zip archive/],
    ['a truncated zip', async () => (await makeZip(sampleProject())).subarray(0, 120), 400, /not a zip archive|truncated|corrupt/],
    ['a corrupt entry', async () => corrupt(await makeZip({ 'a.py': randomText(4000) })), 400, /corrupt/],
    ['an encrypted entry', async () => markEncrypted(await makeZip(sampleProject())), 400, /Encrypted/],
    ['an absolute path', async () => renameEntry(await makeZip({ 'xetc/passwd': 'root' }), 'xetc/passwd', '/etc/passwd'), 400, /Unsafe path/],
    ['an escaping path', async () => renameEntry(await makeZip({ 'zz/evil.py': 'x' }), 'zz/evil.py', '../evil.py'), 400, /Unsafe path/],
    ['a symbolic link', async () => makeZip({ 'a.py': 'x' }, { symlinks: { 'link': '/etc/passwd' } }), 400, /Symbolic links/],
    ['too many entries', async () => makeZip(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}.py`, 'x']))), 400, /more than 20 entries/],
    ['too many bytes once inflated', async () => makeZip(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`f${i}.txt`, wordyText(50 * 1024)]))), 400, /expands to more than/],
    ['a large entry with a zip bomb ratio', async () => makeZip({ 'zeros.txt': Buffer.alloc(200 * 1024) }), 400, /Compression ratio/],
    // each entry is honest and the total stays under the limit: only the layout gives it away
    ['entries that share one compressed stream', async () => shareOneEntry(await makeZip({ 'a.txt': wordyText(4000) }), 10), 400, /overlap/],
    ['an entry whose data runs into the next entry', async () => rewriteCentralDirectory(await makeZip({ 'a.txt': wordyText(4000), 'b.txt': wordyText(4000) }), ([first, second]) => [{ ...first!, compressedSize: first!.compressedSize + 40 }, second!]), 400, /overlap/],
    ['a NUL byte in a name', async () => renameEntries(await makeZip({ 'app.py': 'x' }), () => 'a\u0000p.py'), 400, /Unsafe path.*control character/],
    ['a control character in a name', async () => renameEntries(await makeZip({ 'app.py': 'x' }), () => 'a\u001bp.py'), 400, /Unsafe path.*control character/],
    ['an empty name', async () => renameEntries(await makeZip({ 'app.py': 'x' }), () => ''), 400, /Unsafe path.*empty name/],
    ['an upload over the size limit', async () => Buffer.from(randomText(140 * 1024)), 413, /exceeds the limit/],
  ]

  it.each(hostile)('refuses %s with a clear 4xx and stores nothing', async (_label, build, status, message) => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const response = await upload(app, caller, { file: await build(), repo_name: 'hostile', branch_name: 'main' })
    expect(response.status).toBe(status)
    expect(response.body.detail).toMatch(message)
    expectNoInternals(response)
    expect(await storedRows(caller.orgId)).toEqual({ repos: 0, contents: 0, chunks: 0 })
  })
})

describe('the GraphQL upload mutation', () => {
  it('stores through the same path (multipart request spec)', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const form = new FormData()
    form.set('operations', JSON.stringify({
      query: 'mutation($input: UploadRepositoryInput!) { uploadRepository(input: $input) { id repoName fileCount languages } }',
      variables: { input: { repoName: 'gql', branchName: 'main', file: null } },
    }))
    form.set('map', JSON.stringify({ 0: ['variables.input.file'] }))
    form.set('0', new Blob([await makeZip(sampleProject())]), 'repo.zip')
    const response = await app.request('/graphql', { method: 'POST', headers: { ...caller.headers, 'apollo-require-preflight': 'true' }, body: form })
    expect(response.body.errors).toBeUndefined()
    expect(response.body.data.uploadRepository).toMatchObject({ repoName: 'gql', fileCount: 3, languages: { python: 4, javascript: 2 } })
  })

  it('refuses a hostile zip with BAD_REQUEST and stores nothing', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const form = new FormData()
    form.set('operations', JSON.stringify({ query: 'mutation($input: UploadRepositoryInput!) { uploadRepository(input: $input) { id } }', variables: { input: { repoName: 'gql', branchName: 'main', file: null } } }))
    form.set('map', JSON.stringify({ 0: ['variables.input.file'] }))
    form.set('0', new Blob([markEncrypted(await makeZip(sampleProject()))]), 'repo.zip')
    const response = await app.request('/graphql', { method: 'POST', headers: { ...caller.headers, 'apollo-require-preflight': 'true' }, body: form })
    expect(response.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST', status: 400 })
    expect(await storedRows(caller.orgId)).toEqual({ repos: 0, contents: 0, chunks: 0 })
  })
})

/** Text that compresses about 5:1, like source code. */
function wordyText(length: number): string {
  const words = ['const', 'value', 'return', 'function', 'import', 'export', 'if', 'else', 'for', 'while']
  let text = ''
  while (text.length < length) text += `${words[Math.floor(Math.random() * words.length)]}${Math.floor(Math.random() * 100)} `
  return text.slice(0, length)
}

function randomText(length: number): string {
  let text = ''
  while (text.length < length) text += Math.random().toString(36).slice(2)
  return text.slice(0, length)
}

/** Damages the deflated data of the first entry (its sizes stay as declared). */
function corrupt(zip: Buffer): Buffer {
  const copy = Buffer.from(zip)
  const nameLength = copy.readUInt16LE(26)
  const extraLength = copy.readUInt16LE(28)
  const dataStart = 30 + nameLength + extraLength
  for (let offset = dataStart; offset < dataStart + 8; offset++) copy[offset] = 0xff
  return copy
}
