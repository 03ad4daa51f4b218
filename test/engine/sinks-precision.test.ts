/**
 * Pattern-rule precision where data flow covers the sink: a code-injection, deserialization,
 * command-injection or SQL-injection pattern finding on a sink call that the data-flow analysis evaluated
 * and found clean (constants, sanitized data) is dropped; one on a tainted call, or on a call
 * data flow never reached, stays. Made-up Python, JavaScript and Java through the scan API.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { source } from './support/helpers.ts'

const PYTHON = `import subprocess
from flask import Flask, request

app = Flask(__name__)
GREETING = "'hello' + ' world'"
LIST_CMD = "ls -l /srv/reports"


@app.route("/calc")
def calc():
    mode = request.args.get("mode")
    shown = eval(GREETING)
    listing = subprocess.run(LIST_CMD, shell=True, capture_output=True)
    return str(eval(mode)) + shown + str(listing)


@app.route("/run")
def run():
    target = request.args.get("target")
    return str(subprocess.run("ping -c 1 " + target, shell=True))


def offline(expr):
    return eval(expr)


SORTS = {"name": "name", "newest": "created_at DESC"}


@app.route("/notes")
def notes(db):
    order = SORTS.get(request.args.get("sort"), "name")
    listed = db.execute("SELECT id FROM notes ORDER BY " + order)
    owner = request.args.get("owner")
    return str(listed) + str(db.execute("SELECT id FROM notes WHERE owner = '" + owner + "'"))
`

const JAVASCRIPT = `const express = require('express')
const { exec } = require('child_process')
const ROOT = '/var/lib/tickets'
const hoursByPriority = { p1: 4, p2: 8 }
const router = express.Router()

router.get('/disk', (req, res) => {
  exec('du -sh ' + ROOT, (err, out) => res.send(String(out)))
})

router.get('/hours', (req, res) => {
  res.json({ hours: eval('hoursByPriority.p' + Number(req.query.priority)) })
})

router.get('/grep', (req, res) => {
  exec('grep -r ' + req.query.q + ' ' + ROOT, (err, out) => res.send(String(out)))
})

router.get('/calc', (req, res) => {
  res.json({ value: eval(req.query.expr) })
})

module.exports = router
`

const JAVA = `package com.acme.tools;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

public class DiskServlet extends HttpServlet {
    private static final String REPORT = "/usr/bin/du -sh /srv/exports";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String folder = request.getParameter("folder");
        Runtime.getRuntime().exec(REPORT);
        Runtime.getRuntime().exec("/usr/bin/du -sh " + folder);
        ObjectInputStream initial = new ObjectInputStream(new ByteArrayInputStream("seed".getBytes()));
        ObjectInputStream posted = new ObjectInputStream(request.getInputStream());
        response.getWriter().println(initial.available() + posted.available());
    }
}
`

async function scan(path: string, text: string): Promise<Finding[]> {
  const report = await scanSources([source(path, text)], { analyzers: ['sast', 'dataflow'], workers: 0 })
  return report.findings
}

function linesOf(findings: readonly Finding[], category: string): number[] {
  return [...new Set(findings.filter((finding) => finding.category === category).map((finding) => finding.lineNumber))].sort((a, b) => a - b)
}

describe('pattern findings on sinks data flow found clean', () => {
  it('Python: eval of a constant and shell=True with a constant command are not reported; tainted ones and unanalysed ones are', async () => {
    const findings = await scan('app.py', PYTHON)
    expect(linesOf(findings, 'code-injection')).toEqual([14, 24])
    expect(linesOf(findings, 'command-injection')).toEqual([20])
  })

  it('Python: SQL built from an allow-list lookup is not reported; SQL built from a request value is', async () => {
    const findings = await scan('app.py', PYTHON)
    expect(linesOf(findings, 'sql-injection')).toEqual([35])
  })

  it('JavaScript: exec of a constant command and eval of a numeric value are not reported; tainted ones are', async () => {
    const findings = await scan('routes.js', JAVASCRIPT)
    expect(linesOf(findings, 'command-injection')).toEqual([16])
    expect(linesOf(findings, 'code-injection')).toEqual([20])
  })

  it('Java: deserializing a constant is not reported; the request body and a tainted command are', async () => {
    const findings = await scan('DiskServlet.java', JAVA)
    expect(linesOf(findings, 'command-injection')).toEqual([17])
    expect(linesOf(findings, 'insecure-deserialization')).toEqual([19])
  })
})
