/**
 * Passwords as data (src/engine/dataflow/passwords.ts): names that make a value a password, and
 * a project function wrapping a broken hash becoming a weak-hash sink for the callers that pass
 * it a password, across files. The fixture corpus (fixtures/dataflow/ weakhash_*) covers each
 * language; this checks the names and the trace through the public API.
 */
import { describe, expect, it } from 'vitest'
import { analyzeDataFlow } from '../../src/engine/dataflow/index.ts'
import { isPasswordName } from '../../src/engine/dataflow/passwords.ts'

describe('password names', () => {
  it('are recognized by their last word', () => {
    for (const name of ['password', 'newPassword', 'user_pwd', 'PASSWORD', 'passwd', 'pin', 'userPin', 'passphrase', 'clientSecret', 'credentials', 'getPassword', 'newpassword']) {
      expect(isPasswordName(name), name).toBe(true)
    }
    for (const name of ['passwordHint', 'passwordHash', 'pinned', 'spin', 'SECRET_KEY', 'email', 'pinCode', 'passwordResetToken']) {
      expect(isPasswordName(name), name).toBe(false)
    }
  })
})

describe('a wrapper around a weak hash', () => {
  const files = [
    { path: 'lib/hash.ts', text: "import md5 from 'md5'\nexport const h = (s: string) => md5(s)\n" },
    {
      path: 'routes/users.ts',
      text: [
        "import { Router } from 'express'",
        "import { h } from '../lib/hash'",
        'const router = Router()',
        "router.post('/users', (req, res) => {",
        '  const stored = h(req.body.password)',
        '  res.sendStatus(stored ? 201 : 400)',
        '})',
        '',
      ].join('\n'),
    },
  ]

  it('is a weak-hash sink for a password passed from another file, with the call in the trace', () => {
    const findings = analyzeDataFlow(files).findings.filter((finding) => finding.category === 'weak-hash')
    expect(findings.map((finding) => `${finding.filePath}:${finding.lineNumber}`)).toEqual(['lib/hash.ts:2'])
    const trace = findings[0]?.dataFlow
    expect(trace?.source).toMatchObject({ filePath: 'routes/users.ts', lineNumber: 5, kind: 'password' })
    expect(trace?.steps.some((step) => step.filePath === 'routes/users.ts' && step.lineNumber === 5)).toBe(true)
    expect(findings[0]?.cweIds).toEqual(['CWE-916'])
  })

  it('is not one for data that is not a password', () => {
    const other = files.map((file) => ({ ...file, text: file.text.replace('req.body.password', 'req.body.email') }))
    expect(analyzeDataFlow(other).findings.filter((finding) => finding.category === 'weak-hash')).toEqual([])
  })

  it('does not make passwords count for other sinks', () => {
    const logged = [{ path: 'a.js', text: "const { exec } = require('child_process')\nfunction run(password) { exec('login ' + password) }\nmodule.exports = { run }\n" }]
    expect(analyzeDataFlow(logged).findings).toEqual([])
  })
})
