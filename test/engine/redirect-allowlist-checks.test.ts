/**
 * Redirect targets that passed only a substring check (`url.includes("example.com")`,
 * `allowed.some(a => url.includes(a))`, an unanchored regex, `startsWith` without a `/` after
 * the host) are reported as open redirects, and the finding names the weak check; whole-host
 * comparisons make them safe. The fixture files hold the same cases for the fixture suite.
 */
import { describe, expect, it } from 'vitest'
import { analyzeDataFlow } from '../../src/engine/dataflow/index.ts'

const APP = `const express = require('express')
const app = express()
const ALLOWED = ['shop.example.com']
app.get('/go', (req, res) => {
  const url = req.query.url
  if (ALLOWED.some((a) => url.includes(a))) {
    return res.redirect(url)
  }
  res.redirect('/')
})
app.get('/go2', (req, res) => {
  const url = req.query.url
  if (ALLOWED.includes(new URL(url).hostname)) return res.redirect(url)
  res.redirect('/')
})
`

describe('redirects behind substring checks', () => {
  const { findings } = analyzeDataFlow([{ path: 'app.js', text: APP }])
  const redirects = findings.filter((finding) => finding.category === 'open-redirect')

  it('are reported, pointing at the weak check and the redirect', () => {
    expect(redirects.map((finding) => finding.lineNumber)).toEqual([7])
    const [finding] = redirects
    expect(finding?.description).toContain('at line 7')
    expect(finding?.description).toContain('at line 6 (`if (ALLOWED.some((a) => url.includes(a))) {`)')
    expect(finding?.description).toContain("only a substring check")
    expect(finding?.dataFlow?.steps.some((step) => step.lineNumber === 6 && step.note.startsWith('checked only by substring'))).toBe(true)
  })

  it('are not reported when the parsed host is compared as a whole', () => {
    expect(redirects.some((finding) => finding.lineNumber === 13)).toBe(false)
  })
})
