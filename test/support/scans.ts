/** Helpers for scan tests: upload a project, and wait for a scan to reach a state. */
import { expect } from 'vitest'
import type { TestApp } from './app.ts'
import type { Principal } from './factories.ts'
import { makeZip, type ZipFiles } from './zips.ts'
import { slowFile } from '../engine/support/hostile.ts'

export async function uploadProject(app: Pick<TestApp, 'request'>, caller: Principal, files: ZipFiles, name = `repo-${Math.random().toString(36).slice(2, 8)}`): Promise<{ id: string }> {
  const form = new FormData()
  form.set('repo_name', name)
  form.set('branch_name', 'main')
  form.set('file', new Blob([await makeZip(files)]), 'repo.zip')
  const response = await app.request('/api/upload', { method: 'POST', headers: caller.headers, body: form })
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body
}

export async function waitForScan(app: Pick<TestApp, 'request'>, caller: Principal, scanId: string, done: (status: string) => boolean, timeoutMs = 90_000): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs
  while (true) {
    const response = await app.request(`/api/scans/${scanId}/status`, { headers: caller.headers })
    if (done(response.body.status)) return response.body
    if (Date.now() > deadline) throw new Error(`scan ${scanId} still ${response.body.status}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

export const isTerminal = (status: string) => ['completed', 'failed', 'stopped'].includes(status)

/** A project the built-in rules have something to say about. */
export function vulnerableProject(): ZipFiles {
  return {
    'app/views.py': [
      'import os',
      'import subprocess',
      'from flask import request',
      '',
      'def run():',
      "    cmd = request.args.get('cmd')",
      '    os.system(cmd)',
      '    subprocess.call(cmd, shell=True)',
      '',
    ].join('\n'),
    'web/server.js': ['const express = require("express")', 'const app = express()', 'app.get("/e", (req, res) => {', '  res.send(eval(req.query.code))', '})', ''].join('\n'),
    'README.md': '# demo\n',
  }
}

/** Many files, so a scan runs long enough to be stopped or killed while running. */
export function largeProject(files = 3000): ZipFiles {
  const project: ZipFiles = {}
  for (let index = 0; index < files; index++) {
    project[`src/module_${index}.js`] = Array.from({ length: 60 }, (_, line) => `export function f${line}(req, res) { const v${line} = req.query.a${line}; return res.send("<p>" + v${line} + "</p>") }`).join('\n')
  }
  return project
}

/**
 * A file SLOW_RULES takes minutes on (src/slow.js), and one they find an eval() call in
 * (src/app.js); a README at the root keeps `src/` in the paths (a zip of one folder is read without it).
 */
export function slowProject(): ZipFiles {
  return {
    'src/slow.js': slowFile(),
    'src/app.js': 'eval(userInput)\n',
    'README.md': '# slow\n',
  }
}
