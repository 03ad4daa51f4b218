/**
 * Data for the triage specs, made the way any API client makes it: a repository uploaded
 * through REST with the organization's key, scanned to completion (full scans, so the
 * repository also gets its summary). Waiting polls what the API reports, with no fixed sleeps.
 */
import { expect, type APIRequestContext } from '@playwright/test'
import { makeZip, type ZipFiles } from '../../support/zips.ts'

export async function uploadRepository(request: APIRequestContext, apiKey: string, repoName: string, files: ZipFiles): Promise<string> {
  const response = await request.post('/api/upload', {
    headers: { 'X-API-Key': apiKey },
    multipart: { file: { name: `${repoName}.zip`, mimeType: 'application/zip', buffer: await makeZip(files) }, repo_name: repoName, branch_name: 'main' },
  })
  expect(response.status(), await response.text()).toBe(200)
  return ((await response.json()) as { id: string }).id
}

/** Starts a full scan and waits until it completed; its id. */
export async function completeScan(request: APIRequestContext, apiKey: string, repoId: string): Promise<string> {
  const headers = { 'X-API-Key': apiKey }
  const created = await request.post(`/api/scans/${repoId}`, { headers, data: { scan_type: 'full' } })
  expect(created.status(), await created.text()).toBe(201)
  const scanId = ((await created.json()) as { id: string }).id
  await expect
    .poll(async () => ((await (await request.get(`/api/scans/${scanId}/status`, { headers })).json()) as { status: string }).status, { timeout: 150_000, intervals: [500, 1000, 2000] })
    .toBe('completed')
  return scanId
}

/** A Flask view running a shell command from the query string (a data-flow finding) and an Express route calling eval. */
export function triageProject(): ZipFiles {
  return {
    'app/views.py': ['import os', 'from flask import Flask, request', '', 'app = Flask(__name__)', '', "@app.route('/ping')", 'def ping():', "    host = request.args.get('host')", "    os.system('ping -c 1 ' + host)", "    return 'ok'", ''].join('\n'),
    'web/server.js': ['const express = require("express")', 'const app = express()', 'app.get("/e", (req, res) => {', '  res.send(eval(req.query.code))', '})', 'app.listen(3000)', ''].join('\n'),
    'README.md': '# triage demo\n',
  }
}

/** The same project later: the eval is gone (fixed), an MD5 password hash is new. */
export function triageProjectLater(): ZipFiles {
  const { 'web/server.js': _removed, ...rest } = triageProject()
  return {
    ...rest,
    'app/passwords.py': ['import hashlib', '', 'def store(password):', '    return hashlib.md5(password.encode()).hexdigest()', ''].join('\n'),
  }
}
