/**
 * A zip whose files all sit under one top-level folder (a Git host's download, `shop-3f2a1c/...`)
 * is read without that folder: issue paths and the repository summary never carry it, so the
 * findings of a new download keep their fingerprints and their triage. Zips with files at the
 * root or several top-level folders, and contents stored before the rule, keep their paths.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import yazl from 'yazl'
import { useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, type Principal } from '../support/factories.ts'
import { isTerminal, uploadProject, vulnerableProject, waitForScan } from '../support/scans.ts'
import type { ZipFiles } from '../support/zips.ts'

const app = useTestApp({ worker: true })
const EXPRESS_APP = path.join(import.meta.dirname, '..', 'engine', 'fixtures', 'apps', 'express-shop')
/** a line the built-in rules flag */
const EVAL = 'eval(userInput)\n'

interface IssueRecord {
  id: string
  fingerprint: string
  file_path: string
  false_positive: boolean
}

/** The same files under `folder/`. */
function underFolder(folder: string, files: ZipFiles): ZipFiles {
  return Object.fromEntries(Object.entries(files).map(([name, content]) => [`${folder}/${name}`, content]))
}

async function scanOf(caller: Principal, repoId: string, scanType = 'quick'): Promise<{ id: string; status: Record<string, unknown>; issues: IssueRecord[] }> {
  const created = await app.request(`/api/scans/${repoId}`, { method: 'POST', headers: caller.headers, json: { scan_type: scanType } })
  expect(created.status).toBe(201)
  const status = await waitForScan(app, caller, created.body.id, isTerminal)
  expect(status.status).toBe('completed')
  const results = await app.request(`/api/scans/${created.body.id}/results`, { headers: caller.headers })
  return { id: created.body.id, status, issues: results.body.issues }
}

const pathsOf = (issues: IssueRecord[]) => [...new Set(issues.map((issue) => issue.file_path))].sort()

async function readFolder(folder: string): Promise<ZipFiles> {
  const files: ZipFiles = {}
  for (const entry of await fs.readdir(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const absolute = path.join(entry.parentPath, entry.name)
    files[path.relative(folder, absolute)] = await fs.readFile(absolute)
  }
  return files
}

/** A zip as macOS's Finder compresses a folder: directory entries, and resource forks under `__MACOSX/`. */
async function finderZip(folder: string, files: ZipFiles): Promise<Buffer> {
  const zip = new yazl.ZipFile()
  zip.addEmptyDirectory(`${folder}/`)
  for (const [name, content] of Object.entries(files)) {
    const parent = path.posix.dirname(name)
    if (parent !== '.') zip.addEmptyDirectory(`${folder}/${parent}/`)
    zip.addBuffer(Buffer.from(content), `${folder}/${name}`)
    // an AppleDouble header: what macOS keeps beside each file
    zip.addBuffer(Buffer.from([0, 5, 22, 7, 0, 2, 0, 0, ...Buffer.from('Mac OS X        ')]), `__MACOSX/${folder}/${path.posix.join(parent, `._${path.posix.basename(name)}`)}`)
  }
  zip.end()
  const chunks: Buffer[] = []
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk)
  return Buffer.concat(chunks)
}

describe('a zip with one top-level folder', () => {
  it('is read without it, so a new download of the same code keeps fingerprints and triage', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'gil' })
    const repository = await uploadProject(app, caller, underFolder('shop-1111', vulnerableProject()), 'shop')
    expect(repository).toMatchObject({ file_count: 3, languages: { python: 8, javascript: 5 } })

    const first = await scanOf(caller, repository.id)
    expect(first.status).toMatchObject({ files_total: 3, files_scanned: 2 })
    expect(pathsOf(first.issues)).toEqual(['app/views.py', 'web/server.js'])
    const triaged = first.issues.find((issue) => issue.file_path === 'web/server.js')!
    expect((await app.request(`/api/issues/${triaged.id}`, { method: 'PATCH', headers: caller.headers, json: { false_positive: true, notes: 'sandboxed' } })).status).toBe(200)

    const again = await uploadProject(app, caller, underFolder('shop-2222', vulnerableProject()), 'shop')
    expect(again.id).toBe(repository.id)
    const second = await scanOf(caller, repository.id)
    expect(second.issues.map((issue) => issue.fingerprint).sort()).toEqual(first.issues.map((issue) => issue.fingerprint).sort())
    expect(second.issues.find((issue) => issue.fingerprint === triaged.fingerprint)).toMatchObject({ file_path: 'web/server.js', false_positive: true, notes: [{ text: 'sandboxed', author: 'gil' }] })

    const listed = await app.request(`/api/repositories/${repository.id}/issues?file_path=shop-`, { headers: caller.headers })
    expect(listed.body.total).toBe(0)
  })

  it('ignores directory entries and macOS metadata, which it leaves unread', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const form = new FormData()
    form.set('repo_name', 'finder')
    form.set('branch_name', 'main')
    form.set('file', new Blob([await finderZip('shop', vulnerableProject())]), 'shop.zip')
    const uploaded = await app.request('/api/upload', { method: 'POST', headers: caller.headers, body: form })
    expect(uploaded.status).toBe(200)
    expect(uploaded.body).toMatchObject({ file_count: 3, languages: { python: 8, javascript: 5 } })

    const scan = await scanOf(caller, uploaded.body.id)
    expect(scan.status).toMatchObject({ files_total: 3, files_scanned: 2 })
    expect(pathsOf(scan.issues)).toEqual(['app/views.py', 'web/server.js'])
  })

  it.each<{ zip: string; files: ZipFiles; paths: string[] }>([
    { zip: 'a folder inside the folder', files: { 'shop-1111/shop/app.js': EVAL }, paths: ['shop/app.js'] },
    { zip: 'one file in one folder', files: { 'x/app.js': EVAL }, paths: ['app.js'] },
    { zip: 'one file at the root', files: { 'app.js': EVAL }, paths: ['app.js'] },
    { zip: 'a file at the root beside the folder', files: { 'shop-1111/app.js': EVAL, 'setup.js': EVAL }, paths: ['setup.js', 'shop-1111/app.js'] },
    { zip: 'two top-level folders', files: { 'api/app.js': EVAL, 'web/app.js': EVAL }, paths: ['api/app.js', 'web/app.js'] },
  ])('strips only a single top-level folder: $zip', async ({ files, paths }) => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, files)
    expect(pathsOf((await scanOf(caller, repository.id)).issues)).toEqual(paths)
  })

  it('gives the repository summary paths without it', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, underFolder('express-shop-3f2a1c', await readFolder(EXPRESS_APP)))
    await scanOf(caller, repository.id, 'full')
    const summary = await app.request(`/api/repositories/${repository.id}/summary`, { headers: caller.headers })
    expect(summary.status).toBe(200)
    expect(JSON.stringify(summary.body.cross_file_dependencies)).toContain('"src/routes/orders.js')
    expect(JSON.stringify(summary.body)).not.toContain('express-shop-3f2a1c')
  })
})

describe('a content stored before root folders were recorded', () => {
  it('keeps its paths, and so its fingerprints', async () => {
    const caller = await makeApiKeyPrincipal(app.db.orm)
    const repository = await uploadProject(app, caller, underFolder('shop-1111', vulnerableProject()))
    // what the migration leaves on contents uploaded before it
    await app.db.orm.em.getConnection().execute('update repository_contents set root_prefix = null where repo_id = ?', [repository.id])
    const scan = await scanOf(caller, repository.id)
    expect(pathsOf(scan.issues)).toEqual(['shop-1111/app/views.py', 'shop-1111/web/server.js'])
  })
})
