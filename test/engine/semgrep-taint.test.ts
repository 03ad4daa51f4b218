/**
 * Semgrep `mode: taint` rules, run through the scan API as a user pastes them into a ruleset:
 * sources, sinks, sanitizers and propagators on the data-flow engine, in Python, JavaScript /
 * TypeScript (helpers in the same file and in another file), Java and Go. Test files are
 * annotated as for Semgrep's test runner: a `ruleid: <id>` comment marks the next line as a
 * finding of that rule, an `ok: <id>` comment a look-alike that must not be one.
 */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/index.ts'
import type { ScanReport } from '../../src/engine/index.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'

async function scan(rulesText: string, files: Record<string, string>, workers = 0): Promise<ScanReport> {
  const rules = parseRulesText(rulesText)
  const problems: string[] = []
  const report = await scanSources(
    Object.entries(files).map(([path, text]) => ({ path, content: Buffer.from(text) })),
    { analyzers: ['sast'], builtinRules: false, extraRules: rules, workers, onLog: (event) => (event.level === 'error' || event.level === 'warning' ? problems.push(event.message) : undefined) },
  )
  expect(problems).toEqual([])
  return report
}

/** `path:line` of every line a `ruleid: <id>` comment stands above. */
function annotated(files: Record<string, string>, id: string): string[] {
  const expected: string[] = []
  for (const [path, text] of Object.entries(files)) {
    const lines = text.split('\n')
    lines.forEach((line, index) => {
      if (new RegExp(`ruleid:\\s*${id}\\b`).test(line)) expected.push(`${path}:${index + 2}`)
    })
  }
  return expected.sort()
}

function reported(report: ScanReport, id: string): string[] {
  return report.findings
    .filter((finding) => finding.ruleId === id)
    .map((finding) => `${finding.filePath}:${finding.lineNumber}`)
    .sort()
}

async function expectAnnotated(rulesText: string, files: Record<string, string>, id: string): Promise<ScanReport> {
  const report = await scan(rulesText, files)
  expect(annotated(files, id).length).toBeGreaterThan(0)
  expect(reported(report, id)).toEqual(annotated(files, id))
  return report
}

describe('Semgrep taint rules: Python', () => {
  const rule = `
rules:
  - id: py-command-injection
    mode: taint
    languages: [python]
    severity: ERROR
    message: Request data reaches the shell through $CMD
    metadata:
      cwe: "CWE-78: Improper Neutralization of Special Elements used in an OS Command"
      owasp: "A03:2021 - Injection"
      confidence: HIGH
    pattern-sources:
      - pattern: flask.request.args.get(...)
    pattern-sanitizers:
      - pattern: shlex.quote(...)
    pattern-propagators:
      - pattern: copy_into($FROM, $TO)
        from: $FROM
        to: $TO
    pattern-sinks:
      - pattern: os.system($CMD)
`
  const files = {
    'app/views.py': `import os
import shlex
from flask import request


def listing():
    name = request.args.get("name")
    cmd = "ls " + name
    # ruleid: py-command-injection
    os.system(cmd)


def quoted():
    name = request.args.get("name")
    # ok: py-command-injection
    os.system("ls " + shlex.quote(name))


def constant():
    name = "reports"
    # ok: py-command-injection
    os.system("ls " + name)


def reassigned():
    name = request.args.get("name")
    name = "reports"
    # ok: py-command-injection
    os.system("ls " + name)


def branches(flag):
    name = request.args.get("name")
    target = "reports"
    if flag:
        target = name
    # ruleid: py-command-injection
    os.system("ls " + target)


def propagated():
    parts = []
    copy_into(request.args.get("name"), parts)
    # ruleid: py-command-injection
    os.system(parts)


def suppressed():
    name = request.args.get("name")
    os.system(name)  # nosemgrep: py-command-injection
`,
  }

  it('reports request data reaching the sink, not quoted, constant or overwritten values', async () => {
    const report = await expectAnnotated(rule, files, 'py-command-injection')
    const finding = report.findings.find((each) => each.lineNumber === 10)
    expect(finding).toMatchObject({
      analyzer: 'sast',
      modelUsed: 'parapet-sast/1.0',
      severity: 'high',
      category: 'command-injection',
      cweIds: ['CWE-78'],
      owaspCategory: 'A03:2021 - Injection',
      description: 'Request data reaches the shell through cmd',
    })
    expect(finding?.dataFlow?.source).toMatchObject({ filePath: 'app/views.py', lineNumber: 7 })
    expect(finding?.dataFlow?.sink).toMatchObject({ filePath: 'app/views.py', lineNumber: 10, kind: 'rule', cwe: 'CWE-78' })
    expect(finding?.dataFlow?.steps.map((step) => step.lineNumber)).toEqual([7, 8])
    expect(report.stats.suppressed).toBe(1)
  })

  it('reports the same in a worker process, as the server scans', async () => {
    const inThread = await scan(rule, files)
    const inWorker = await scan(rule, files, 1)
    expect(inWorker.findings).toEqual(inThread.findings)
    expect(inWorker.findings.length).toBeGreaterThan(0)
  })

  it('keeps the sanitized path as a trace', async () => {
    const report = await scan(rule, files)
    const sanitized = report.dataFlows.filter((trace) => trace.sanitized)
    expect(sanitized.map((trace) => trace.sink.lineNumber)).toEqual([16])
    expect(sanitized[0]?.sink.cwe).toBe('CWE-78')
    expect(sanitized[0]?.sanitizer?.lineNumber).toBe(16)
  })

  it('takes a cursor argument focused with focus-metavariable as an exact sink', async () => {
    const sqlRule = `
rules:
  - id: py-sql-injection
    mode: taint
    languages: [python]
    severity: WARNING
    message: Request data in SQL text
    pattern-sources:
      - patterns:
          - pattern-inside: |
              @app.route(...)
              def $VIEW($DB, $PARAM):
                ...
          - pattern: $PARAM
          - focus-metavariable: $PARAM
    pattern-sinks:
      - patterns:
          - pattern: $CURSOR.execute($QUERY, ...)
          - focus-metavariable: $QUERY
`
    const sqlFiles = {
      'db.py': `from flask import Flask
app = Flask(__name__)


@app.route("/users/<name>")
def user(cursor, name):
    # ruleid: py-sql-injection
    cursor.execute("SELECT * FROM users WHERE name = '" + name + "'")
    # ok: py-sql-injection
    cursor.execute("SELECT * FROM users WHERE name = %s", (name,))


def internal(cursor, name):
    # ok: py-sql-injection
    cursor.execute("SELECT * FROM users WHERE name = '" + name + "'")
`,
    }
    const report = await expectAnnotated(sqlRule, sqlFiles, 'py-sql-injection')
    expect(report.findings[0]).toMatchObject({ severity: 'medium', columnStart: 20 })
  })

  it('takes a matched return statement as a sink for the returned value', async () => {
    const xss = `
rules:
  - id: py-reflected
    mode: taint
    languages: [python]
    severity: WARNING
    message: Request data returned as HTML
    pattern-sources:
      - pattern: flask.request.args.get(...)
    pattern-sanitizers:
      - pattern: html.escape(...)
    pattern-sinks:
      - patterns:
          - pattern-inside: |
              @app.route(...)
              def $VIEW(...):
                ...
          - pattern: return $BODY
`
    const code = {
      'hello.py': `import html
from flask import Flask, request

app = Flask(__name__)


@app.route("/hello")
def hello():
    name = request.args.get("name", "")
    # ruleid: py-reflected
    return "<p>Hello " + name + "</p>"


@app.route("/hello-escaped")
def hello_escaped():
    name = request.args.get("name", "")
    # ok: py-reflected
    return "<p>Hello " + html.escape(name) + "</p>"
`,
    }
    await expectAnnotated(xss, code, 'py-reflected')
  })

  it('taints a variable a by-side-effect source fills from there on', async () => {
    const rule = `
rules:
  - id: py-filled
    mode: taint
    languages: [python]
    severity: ERROR
    message: Socket data reaches eval
    pattern-sources:
      - patterns:
          - pattern: $SOCK.recv_into($BUF)
          - focus-metavariable: $BUF
        by-side-effect: true
    pattern-sinks:
      - pattern: eval(...)
`
    const code = {
      'server.py': `def serve(sock):
    buffer = bytearray(1024)
    # ok: py-filled
    eval(buffer)
    sock.recv_into(buffer)
    # ruleid: py-filled
    eval(buffer)
`,
    }
    await expectAnnotated(rule, code, 'py-filled')
  })

  it('cleans a variable checked by a by-side-effect sanitizer from there on', async () => {
    const sideEffect = `
rules:
  - id: py-validated
    mode: taint
    languages: [python]
    severity: ERROR
    message: Unvalidated input reaches eval
    pattern-sources:
      - pattern: input()
    pattern-sanitizers:
      - patterns:
          - pattern: validate($X)
          - focus-metavariable: $X
        by-side-effect: true
    pattern-sinks:
      - pattern: eval(...)
`
    const code = {
      'calc.py': `def calc():
    expr = input()
    # ruleid: py-validated
    eval(expr)
    validate(expr)
    # ok: py-validated
    eval(expr)
`,
    }
    await expectAnnotated(sideEffect, code, 'py-validated')
  })
})

describe('Semgrep taint rules beside the built-in data flow', () => {
  it('keeps a finding whose source only the rule knows', async () => {
    const rule = `
rules:
  - id: queue-command
    mode: taint
    languages: [python]
    severity: ERROR
    message: A queued job's payload reaches the shell
    metadata:
      cwe: "CWE-78: OS Command Injection"
    pattern-sources:
      - pattern: queue.next_job().payload
    pattern-sinks:
      - pattern: subprocess.run(...)
`
    const code = {
      'worker.py': `import subprocess
import queue


def work(request):
    command = queue.next_job().payload
    # ruleid: queue-command
    subprocess.run(command, shell=True)
`,
    }
    const report = await scanSources(
      Object.entries(code).map(([path, text]) => ({ path, content: Buffer.from(text) })),
      { analyzers: ['sast', 'dataflow'], builtinRules: false, extraRules: parseRulesText(rule), workers: 0 },
    )
    expect(reported(report, 'queue-command')).toEqual(annotated(code, 'queue-command'))
  })
})

describe('Semgrep taint rules in a language data flow does not follow', () => {
  it('are refused when written, naming the rule, its line and the language', () => {
    const rule = `
rules:
  - id: kt-eval
    mode: taint
    languages: [kotlin]
    severity: ERROR
    message: Input reaches eval
    pattern-sources:
      - pattern: readLine()
    pattern-sinks:
      - pattern: eval(...)
`
    expect(() => parseRulesText(rule)).toThrow('rule "kt-eval" (line 3): mode: taint is not supported for kotlin (taint rules run on the data-flow engine: python, javascript, typescript, java, go)')
  })
})

describe('Semgrep taint rules: several in one ruleset', () => {
  it('keeps each rule to its own sources and sinks', async () => {
    const rules = `
rules:
  - id: env-to-eval
    mode: taint
    languages: [python]
    severity: WARNING
    message: An environment variable is evaluated
    pattern-sources:
      - pattern: os.environ.get(...)
    pattern-sinks:
      - pattern: eval(...)
  - id: input-to-shell
    mode: taint
    languages: [python]
    severity: ERROR
    message: Input reaches the shell
    pattern-sources:
      - pattern: input()
    pattern-sinks:
      - pattern: os.system(...)
`
    const code = {
      'tool.py': `import os


def main():
    setting = os.environ.get("SETTING")
    answer = input()
    # ruleid: env-to-eval
    eval(setting)
    # ok: env-to-eval, ok: input-to-shell
    eval(answer)
    # ruleid: input-to-shell
    os.system(answer)
    # ok: input-to-shell
    os.system(setting)
`,
    }
    const report = await scan(rules, code)
    expect(reported(report, 'env-to-eval')).toEqual(annotated(code, 'env-to-eval'))
    expect(reported(report, 'input-to-shell')).toEqual(annotated(code, 'input-to-shell'))
    expect(report.findings).toHaveLength(2)
  })
})

describe('Semgrep taint rules: paths', () => {
  it('runs a rule only on the files its paths include and do not exclude', async () => {
    const rule = `
rules:
  - id: py-eval
    mode: taint
    languages: [python]
    severity: ERROR
    message: Input reaches eval
    paths:
      include: [app/]
      exclude: ["*_test.py"]
    pattern-sources:
      - pattern: input()
    pattern-sinks:
      - pattern: eval(...)
`
    const code = `def calc():
    # ruleid: py-eval
    eval(input())
`
    const report = await scan(rule, { 'app/calc.py': code, 'app/calc_test.py': code, 'scripts/calc.py': code })
    expect(reported(report, 'py-eval')).toEqual(['app/calc.py:3'])
  })
})

describe('Semgrep taint rules: JavaScript and TypeScript', () => {
  const rule = `
rules:
  - id: js-command-injection
    mode: taint
    languages: [javascript, typescript]
    severity: ERROR
    message: Query data reaches $ARG
    pattern-sources:
      - pattern: $REQ.query
    pattern-sanitizers:
      - pattern: shellEscape(...)
    pattern-sinks:
      - pattern-either:
          - pattern: exec($ARG, ...)
          - pattern: eval($ARG)
`
  const files = {
    'src/routes.ts': `import { exec } from 'child_process'
import { runReport } from './reports'

function buildCommand(name: string): string {
  return 'ls ' + name
}

export function list(req, res) {
  const name = req.query.name
  // ruleid: js-command-injection
  exec(buildCommand(name))
  // ok: js-command-injection
  exec(buildCommand('fixed'))
  // ok: js-command-injection
  exec(shellEscape(buildCommand(name)))
  runReport(name)
  runReport('daily')
}

export function calc(req, res) {
  const { expr } = req.query
  // ruleid: js-command-injection
  res.send(String(eval(expr)))
}

export function today(req, res) {
  let expr = req.query.expr
  expr = 'new Date().toISOString()'
  // ok: js-command-injection
  res.send(String(eval(expr)))
}
`,
    'src/server.js': `const express = require('express')
const { exec } = require('child_process')
const app = express()

app.get('/ping', (req, res) => {
  const host = req.query.host
  // ruleid: js-command-injection
  exec('ping -c 1 ' + host, (error, output) => res.send(output))
  const fixed = 'localhost'
  // ok: js-command-injection
  exec('ping -c 1 ' + fixed)
})
`,
    'src/reports.js': `const { exec } = require('child_process')

function runReport(kind) {
  // ruleid: js-command-injection
  exec('report --kind ' + kind)
}

module.exports = { runReport }
`,
  }

  it('follows data through helpers in the same file and in another file', async () => {
    const report = await expectAnnotated(rule, files, 'js-command-injection')
    const crossFile = report.findings.find((finding) => finding.filePath === 'src/reports.js')
    expect(crossFile?.dataFlow?.source).toMatchObject({ filePath: 'src/routes.ts', lineNumber: 9 })
    expect(crossFile?.tags).toContain('cross-file')
    expect(report.findings.find((finding) => finding.lineNumber === 11)?.description).toBe('Query data reaches buildCommand(name)')
  })
})

describe('Semgrep taint rules: exact sinks', () => {
  it('checks the whole matched expression of an exact sink, the receiver included', async () => {
    const rule = `
rules:
  - id: js-prepared-run
    mode: taint
    languages: [javascript]
    severity: ERROR
    message: A statement prepared from query data is run
    pattern-sources:
      - pattern: $REQ.query
    pattern-sinks:
      - pattern: $STMT.run(...)
        exact: true
`
    const code = {
      'users.js': `function find(db, req) {
  const name = req.query.name
  // ruleid: js-prepared-run
  db.prepare("SELECT * FROM users WHERE name = '" + name + "'").run()
  const fixed = db.prepare('SELECT * FROM users WHERE active = 1')
  // ok: js-prepared-run
  fixed.run()
}
`,
    }
    await expectAnnotated(rule, code, 'js-prepared-run')
  })
})

describe('Semgrep taint rules: Java', () => {
  const rule = `
rules:
  - id: java-injection
    mode: taint
    languages: [java]
    severity: ERROR
    message: Request parameter reaches $Q
    pattern-sources:
      - pattern: (HttpServletRequest $REQ).getParameter(...)
    pattern-sanitizers:
      - pattern: Integer.parseInt(...)
    pattern-sinks:
      - pattern: (Statement $S).executeQuery($Q)
      - pattern: Runtime.getRuntime().exec($Q)
`
  const files = {
    'src/main/java/com/acme/UserServlet.java': `package com.acme;

import java.sql.Statement;
import javax.servlet.http.HttpServletRequest;

public class UserServlet {
    private Statement statement;

    public void find(HttpServletRequest request) throws Exception {
        String name = request.getParameter("name");
        String sql = "SELECT * FROM users WHERE name = '" + name + "'";
        // ruleid: java-injection
        statement.executeQuery(sql);
        // ok: java-injection
        statement.executeQuery("SELECT * FROM users WHERE id = " + Integer.parseInt(request.getParameter("id")));
        // ok: java-injection
        statement.executeQuery("SELECT * FROM users");
    }

    public void ping(HttpServletRequest request) throws Exception {
        String host = request.getParameter("host");
        StringBuilder command = new StringBuilder("ping -c 1 ");
        command.append(host);
        // ruleid: java-injection
        Runtime.getRuntime().exec(command.toString());
        host = "localhost";
        // ok: java-injection
        Runtime.getRuntime().exec("ping " + host);
    }
}
`,
  }

  it('reports parameters reaching queries and commands, not parsed numbers or constants', async () => {
    await expectAnnotated(rule, files, 'java-injection')
  })
})

describe('Semgrep taint rules: Go', () => {
  const rule = `
rules:
  - id: go-injection
    mode: taint
    languages: [go]
    severity: ERROR
    message: Query parameter reaches a command or a query
    pattern-sources:
      - pattern: $R.URL.Query().Get(...)
    pattern-sanitizers:
      - pattern: strconv.Atoi(...)
    pattern-sinks:
      - pattern: exec.Command(...)
      - patterns:
          - pattern: $DB.Query($Q, ...)
          - focus-metavariable: $Q
`
  const files = {
    'handlers/users.go': `package handlers

import (
	"database/sql"
	"fmt"
	"net/http"
	"os/exec"
	"strconv"
)

func quote(s string) string {
	return "'" + s + "'"
}

func Users(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("name")
	query := fmt.Sprintf("SELECT * FROM users WHERE name = %s", quote(name))
	// ruleid: go-injection
	db.Query(query)
	// ok: go-injection
	db.Query("SELECT * FROM users WHERE name = $1", name)
	id, _ := strconv.Atoi(r.URL.Query().Get("id"))
	// ok: go-injection
	db.Query(fmt.Sprintf("SELECT * FROM users WHERE id = %d", id))
}

func Ping(w http.ResponseWriter, r *http.Request) {
	host := r.URL.Query().Get("host")
	args := []string{"-c", "1"}
	for _, extra := range []string{host} {
		args = append(args, extra)
	}
	// ruleid: go-injection
	exec.Command("ping", args...).Run()
	host = "localhost"
	// ok: go-injection
	exec.Command("ping", host).Run()
	var target string
	if len(host) > 3 {
		target = r.URL.Query().Get("target")
	} else {
		target = "localhost"
	}
	// ruleid: go-injection
	exec.Command("ping", target).Run()
}

func lookup(db *sql.DB, table, name string) {
	// ruleid: go-injection
	db.Query("SELECT * FROM " + table + " WHERE name = '" + name + "'")
}

func Lookup(db *sql.DB, w http.ResponseWriter, r *http.Request) {
	if name := r.URL.Query().Get("name"); name != "" {
		lookup(db, "users", name)
	}
}
`,
  }

  it('follows data through assignments, formatting, loops, branches and helpers', async () => {
    const report = await expectAnnotated(rule, files, 'go-injection')
    // no pattern rule reads Go here: the taint rule alone makes the file scanned, not skipped
    expect(report.stats).toMatchObject({ filesScanned: 1, skipped: {} })
  })

  it('follows calls into another file of the same package', async () => {
    const packageFiles = {
      'handlers/reports.go': `package handlers

import (
	"net/http"
)

func Report(w http.ResponseWriter, r *http.Request) {
	kind := r.URL.Query().Get("kind")
	render(kind)
	render("daily")
}
`,
      'handlers/render.go': `package handlers

import "os/exec"

func render(kind string) {
	// ruleid: go-injection
	exec.Command("report", "--kind", kind).Run()
}
`,
    }
    const report = await expectAnnotated(rule, packageFiles, 'go-injection')
    expect(report.findings[0]?.dataFlow?.source).toMatchObject({ filePath: 'handlers/reports.go', lineNumber: 8 })
  })

  it('follows calls into other packages of the repository, functions and methods', async () => {
    const moduleFiles = {
      'cmd/api/main.go': `package main

import (
	"net/http"

	"example.com/shop/internal/store"
	reports "example.com/shop/internal/reporting"
)

func Orders(s *store.Store, w http.ResponseWriter, r *http.Request) {
	customer := r.URL.Query().Get("customer")
	s.ByCustomer(customer)
	s.ByCustomer("walk-in")
	reports.Run(customer)
}
`,
      'internal/store/store.go': `package store

import "database/sql"

type Store struct {
	db *sql.DB
}

func (s *Store) ByCustomer(name string) {
	// ruleid: go-injection
	s.db.Query("SELECT * FROM orders WHERE customer = '" + name + "'")
}
`,
      'internal/reporting/run.go': `package reporting

import "os/exec"

func Run(kind string) {
	// ruleid: go-injection
	exec.Command("report", kind).Run()
}
`,
    }
    await expectAnnotated(rule, moduleFiles, 'go-injection')
  })

  it('follows method calls through the receiver type', async () => {
    const methodFiles = {
      'server/server.go': `package server

import (
	"database/sql"
	"net/http"
)

type Server struct {
	db    *sql.DB
	table string
}

func (s *Server) Search(w http.ResponseWriter, r *http.Request) {
	s.find(r.URL.Query().Get("q"))
	s.find("all")
}
`,
      'server/queries.go': `package server

func (s *Server) find(term string) {
	// ruleid: go-injection
	s.db.Query("SELECT * FROM " + s.table + " WHERE name = '" + term + "'")
}
`,
    }
    await expectAnnotated(rule, methodFiles, 'go-injection')
  })

  it('cleans a value inside the block a sanitizer guards, whatever comment opens the block', async () => {
    const guarded = `
rules:
  - id: go-guarded-redirect
    mode: taint
    languages: [go]
    severity: WARNING
    message: the redirect target comes from the query string
    pattern-sources:
      - pattern: $R.URL.Query().Get(...)
    pattern-sanitizers:
      - patterns:
          - pattern-inside: |
              if isLocalURL($URL) {
                ...
              }
          - pattern: $URL
    pattern-sinks:
      - pattern: http.Redirect($W, $R, ...)
`
    const redirectFiles = {
      'web/next.go': `package web

import "net/http"

func Next(w http.ResponseWriter, r *http.Request) {
	target := r.URL.Query().Get("next")
	if isLocalURL(target) {
		// a local path: safe to follow
		// ok: go-guarded-redirect
		http.Redirect(w, r, target, http.StatusFound)
		return
	}
	// ruleid: go-guarded-redirect
	http.Redirect(w, r, target, http.StatusFound)
}

func Back(w http.ResponseWriter, r *http.Request) {
	back := r.URL.Query().Get("back")
	if isLocalURL(back) {
		// ok: go-guarded-redirect
		http.Redirect(w, r, back, http.StatusSeeOther)
	}
}
`,
    }
    await expectAnnotated(guarded, redirectFiles, 'go-guarded-redirect')
  })
})
