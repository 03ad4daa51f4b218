/**
 * The scan's stages through the engine API: one parse per file shared by every analyzer in the
 * calling thread, and the repository summary delivered in the scan's report.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import { emptySastMetrics } from '../../src/engine/sast/analyzer.ts'
import { summarizeRepository } from '../../src/engine/summary/index.ts'
import { source } from './support/helpers.ts'

const FLASK_APP = `from flask import Flask, request
import os
from helpers import run

app = Flask(__name__)

@app.route('/run')
def run_command():
    command = request.args['cmd']
    os.system(command)
    run(command)
    return 'ok'
`
const HELPERS = `import subprocess

def run(command):
    subprocess.call(command, shell=True)
`
const EXPRESS_APP = `const express = require('express')
const { exec } = require('child_process')
const app = express()
app.get('/exec', (req, res) => {
  exec(req.query.cmd)
  res.send('done')
})
app.listen(3000)
`

const sources = () => [source('app.py', FLASK_APP), source('helpers.py', HELPERS), source('server.js', EXPRESS_APP), source('README.md', '# Orders service\n')]
const fullScan = { analyzers: ['sast' as const, 'secrets' as const, 'dataflow' as const], summary: true }

describe('scan stages', () => {
  it('parses each code file once in the calling thread, for the pattern rules, the data flow and the summary', async () => {
    const metrics = emptySastMetrics()
    const report = await scanSources(sources(), { ...fullScan, workers: 0, sastMetrics: metrics })
    // every analyzer used the trees: pattern rules ran, flows crossed files, the summary saw the routes
    expect(metrics.filesParsed).toBe(3)
    expect(report.findings.filter((finding) => finding.analyzer === 'dataflow').map((finding) => `${finding.filePath}:${finding.lineNumber}`)).toEqual(
      expect.arrayContaining(['app.py:10', 'helpers.py:4', 'server.js:5']),
    )
    expect(JSON.stringify(report.summary?.trustBoundaries)).toContain('/exec')
    expect(metrics.treesParsed).toBe(3)
  })

  it('delivers the repository summary in the report when asked, as the summary of the same sources with the scan traces', async () => {
    const unasked = await scanSources(sources(), { analyzers: fullScan.analyzers, workers: 0 })
    expect(unasked.summary).toBeUndefined()
    const inThread = await scanSources(sources(), { ...fullScan, workers: 0 })
    const inWorker = await scanSources(sources(), { ...fullScan, workers: 1 })
    const expected = await summarizeRepository(sources(), { dataFlows: inThread.dataFlows })
    expect(inThread.summary).toEqual(expected)
    expect(inWorker.summary).toEqual(expected)
    expect(inThread.summary?.architecturePattern).toMatch(/Express/)
    expect(inThread.summary?.dataFlowAnalysis).not.toEqual({})
  })
})
