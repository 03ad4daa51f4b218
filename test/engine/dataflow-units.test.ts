/**
 * Unit tests of the data-flow analyzer on small in-memory programs: propagation forms,
 * collections and fields, calls and imports, constant folding, guards, traces, fingerprints,
 * redaction, abort, and merging with pattern-rule findings.
 */
import { describe, expect, it } from 'vitest'
import { fingerprintOf, normalizeMatchedText } from '../../src/engine/core/findings.ts'
import type { SecretsDetector } from '../../src/engine/secrets/bridge.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { DATAFLOW_MODEL, analyzeDataFlow, analyzeDataFlowAsync, mergeWithPatternFindings, supportsDataFlow } from '../../src/engine/dataflow/index.ts'

type Files = Record<string, string>

function run(files: Files) {
  return analyzeDataFlow(Object.entries(files).map(([path, text]) => ({ path, text })))
}

/** `path:line ruleId` of every finding. */
function reported(files: Files): string[] {
  return run(files).findings.map((finding) => `${finding.filePath}:${finding.lineNumber} ${finding.ruleId}`)
}

const FLASK = 'import os\nfrom flask import request\n\n@app.route("/x")\ndef view():\n'

function flask(body: string): Files {
  return { 'app.py': FLASK + body.replace(/^/gm, '    ') + '\n' }
}

describe('propagation', () => {
  it.each([
    ['concatenation', 'q = request.args["q"]\ncmd = "echo " + q\nos.system(cmd)'],
    ['f-string', 'q = request.args["q"]\nos.system(f"echo {q}")'],
    ['%-format', 'q = request.args["q"]\nos.system("echo %s" % q)'],
    ['.format()', 'q = request.args["q"]\nos.system("echo {}".format(q))'],
    ['join', 'q = request.args["q"]\nos.system(" ".join(["echo", q]))'],
    ['replace on the tainted value', 'q = request.args["q"]\nos.system(q.replace("a", "b"))'],
    ['augmented assignment', 'q = request.args["q"]\ncmd = "echo "\ncmd += q\nos.system(cmd)'],
    ['list element', 'parts = []\nparts.append(request.args["q"])\nos.system(parts[0])'],
    ['dict value', 'd = {"cmd": request.args["q"]}\nos.system(d["cmd"])'],
    ['tuple unpacking', 'a, b = request.args["q"], "x"\nos.system(a)'],
    ['walrus in a condition', 'if (q := request.args.get("q")):\n    os.system(q)'],
  ])('follows %s', (_, body) => {
    expect(reported(flask(body))).toEqual([`app.py:${FLASK.split('\n').length + body.split('\n').length - 1} dataflow.python.command-injection`])
  })

  it.each([
    ['a different dict key', 'd = {}\nd["a"] = request.args["q"]\nos.system(d["b"])'],
    ['a different tuple position', 'a, b = request.args["q"], "x"\nos.system(b)'],
    ['a value overwritten by a constant', 'q = request.args["q"]\nq = "safe"\nos.system(q)'],
    ['a comparison result', 'q = request.args["q"]\nflag = q == "yes"\nos.system("echo " + str(flag))'],
    ['a numeric conversion', 'n = int(request.args["n"])\nos.system("sleep " + str(n))'],
    ['an allowlist check', 'q = request.args["q"]\nif q in {"a", "b"}:\n    os.system("run " + q)'],
    ['an early-exit allowlist check', 'q = request.args["q"]\nif q not in ALLOWED:\n    abort(400)\nos.system("run " + q)'],
    ['an equality check', 'q = request.args["q"]\nif q == "status":\n    os.system("run " + q)'],
  ])('does not report %s', (_, body) => {
    expect(reported(flask(body))).toEqual([])
  })

  it('keeps object fields apart', () => {
    const files = {
      'app.js': [
        "const { exec } = require('child_process')",
        "app.get('/', (req, res) => {",
        "  const job = { name: req.query.name, kind: 'nightly' }",
        "  exec('run ' + job.kind)",
        "  exec('run ' + job.name)",
        '})',
      ].join('\n'),
    }
    expect(reported(files)).toEqual(['app.js:5 dataflow.javascript.command-injection'])
  })

  it('follows Map writes and reads by constant key', () => {
    const files = {
      'app.ts': [
        "import { exec } from 'node:child_process'",
        "export function handler(req: any) {",
        '  const m = new Map<string, string>()',
        "  m.set('a', req.body.cmd)",
        "  exec(m.get('b') ?? 'true')",
        "  exec(m.get('a') ?? 'true')",
        '}',
      ].join('\n'),
    }
    expect(reported(files)).toEqual(['app.ts:6 dataflow.typescript.command-injection'])
  })
})

describe('calls', () => {
  it('follows parameters and return values within a file, per call', () => {
    const files = flask('run(request.args["q"])\nrun("constant")\nos.system(wrap(request.args["w"]))\nos.system(wrap("fixed"))')
    files['app.py'] += '\ndef run(value):\n    os.system("echo " + value)\n\ndef wrap(value):\n    return "<" + value + ">"\n'
    expect(reported(files)).toEqual(['app.py:8 dataflow.python.command-injection', 'app.py:12 dataflow.python.command-injection'])
  })

  it('follows calls into other files through Python imports', () => {
    const files = {
      'pkg/views.py': 'from flask import request\nfrom .db import find\nfrom pkg import util\n\ndef view():\n    find(util.clean(request.args["id"]))\n    find(request.args["name"])\n',
      'pkg/db.py': 'def find(key):\n    cursor.execute("SELECT * FROM t WHERE k = \'" + key + "\'")\n',
      'pkg/util.py': 'def clean(value):\n    return int(value)\n',
    }
    const result = run(files)
    expect(result.findings.map((finding) => `${finding.filePath}:${finding.lineNumber}`)).toEqual(['pkg/db.py:2'])
    expect(result.findings[0]?.dataFlow?.source).toMatchObject({ filePath: 'pkg/views.py', lineNumber: 7 })
    expect(result.traces.filter((trace) => trace.sanitized)).toHaveLength(1)
  })

  it('follows ES imports and CommonJS requires', () => {
    const files = {
      'src/routes.ts': "import { run } from './jobs.js'\nimport helpers from './helpers'\nexport function route(req: any) {\n  run(helpers.label(req.query.job))\n}\n",
      'src/jobs.ts': "import { execSync } from 'child_process'\nexport function run(job: string) {\n  execSync('run ' + job)\n}\n",
      'src/helpers.js': "module.exports = { label: (value) => `[${value}]` }\n",
    }
    expect(reported(files)).toEqual(['src/jobs.ts:3 dataflow.typescript.command-injection'])
  })

  it('resolves Java classes of the same package and interface implementations', () => {
    const files = {
      'src/main/java/app/Api.java': 'package app;\npublic class Api {\n  private Service service;\n  @GetMapping("/x")\n  public void get(@RequestParam String id) { service.load(id); }\n}\n',
      'src/main/java/app/Service.java': 'package app;\npublic interface Service { void load(String id); }\n',
      'src/main/java/app/ServiceImpl.java': 'package app;\npublic class ServiceImpl implements Service {\n  public void load(String id) {\n    statement.executeQuery("SELECT * FROM t WHERE id = " + id);\n  }\n}\n',
    }
    expect(reported(files)).toEqual(['src/main/java/app/ServiceImpl.java:4 dataflow.java.sql-injection'])
  })
})

describe('constant folding', () => {
  it('follows only the branch a constant condition takes', () => {
    const taken = 'q = request.args["q"]\nlimit = 9\nif limit * 3 > 20:\n    os.system(q)\nelse:\n    os.system(q)'
    expect(reported(flask(taken))).toEqual([`app.py:${FLASK.split('\n').length + 3} dataflow.python.command-injection`])
  })

  it('skips loops whose condition is false and code after returns', () => {
    const files = {
      'a.js': "const { exec } = require('child_process')\nfunction h(req) {\n  const debug = false\n  while (debug) { exec(req.query.a) }\n  return 1\n  exec(req.query.b)\n}\n",
    }
    expect(reported(files)).toEqual([])
  })

  it('reads constant module settings and static final fields', () => {
    const files = {
      'p.py': 'import os\nfrom flask import request\nDEBUG = False\n\ndef v():\n    if DEBUG:\n        os.system(request.args["q"])\n',
      'C.java': 'class C {\n  static final boolean ON = false;\n  void m(HttpServletRequest request) {\n    if (ON) Runtime.getRuntime().exec(request.getParameter("c"));\n  }\n}\n',
    }
    expect(reported(files)).toEqual([])
  })
})

describe('traces', () => {
  const files = flask('q = request.args.get("q")\nsql = "SELECT * FROM t WHERE a = \'" + q + "\'"\ncursor.execute(sql)\nsafe = int(request.args.get("n"))\ncursor.execute("SELECT * FROM t LIMIT " + str(safe))')

  it('describe source, steps and sink', () => {
    const { findings, traces } = run(files)
    expect(findings).toHaveLength(1)
    const trace = findings[0]?.dataFlow
    expect(trace?.source).toMatchObject({ filePath: 'app.py', lineNumber: 6, kind: 'http-query', code: 'q = request.args.get("q")' })
    expect(trace?.source.note).toContain('request.args')
    expect(trace?.steps.map((step) => `${step.lineNumber} ${step.note}`)).toEqual(['6 assigned to q', '7 assigned to sql'])
    expect(trace?.sink).toMatchObject({ lineNumber: 8, kind: 'sql', cwe: 'CWE-89', code: 'cursor.execute(sql)' })
    expect(trace?.sanitized).toBe(false)
    const sanitized = traces.find((candidate) => candidate.sanitized)
    expect(sanitized?.sanitizer).toMatchObject({ lineNumber: 9 })
    expect(sanitized?.sanitizer?.note).toContain('int()')
  })

  it('fill the finding like a pattern rule finding', () => {
    const finding = run(files).findings[0] as Finding
    expect(finding).toMatchObject({
      ruleId: 'dataflow.python.sql-injection',
      analyzer: 'dataflow',
      modelUsed: DATAFLOW_MODEL,
      category: 'sql-injection',
      severity: 'critical',
      lineNumber: 8,
      columnStart: 5,
      codeSnippet: '    cursor.execute(sql)',
      cweIds: ['CWE-89'],
      owaspCategory: 'A03:2021 - Injection',
    })
    expect(finding.contextBefore.split('\n')).toHaveLength(3)
    expect(finding.explanation).toContain('app.py:6')
    expect(finding.explanation).toContain('assigned to sql')
    expect(finding.confidence).toBeGreaterThanOrEqual(0.8)
  })

  it('redact secrets in snippets and trace lines', () => {
    const secret = 'sk_live_0123456789abcdef'
    const detector: SecretsDetector = {
      findSecrets: (_path, text) => {
        const lines = text.split('\n')
        const line = lines.findIndex((candidate) => candidate.includes(secret))
        if (line === -1) return []
        const column = (lines[line] ?? '').indexOf(secret) + 1
        return [{ ruleId: 's', title: 's', description: 's', severity: 'high', confidence: 1, cwe: [], tags: [], remediation: '', line: line + 1, columnStart: column, columnEnd: column + secret.length, secret }]
      },
      redact: () => '[REDACTED]',
      ruleCount: 1,
    }
    const source = flask(`q = request.args["q"] + "${secret}"\nos.system(q)`)
    const result = analyzeDataFlow([{ path: 'app.py', text: source['app.py'] ?? '' }], { secrets: detector })
    expect(JSON.stringify(result)).not.toContain(secret)
    expect(result.findings[0]?.dataFlow?.source.code).toContain('[REDACTED]')
  })
})

describe('fingerprints', () => {
  const body = 'os.system(request.args["a"])\nos.system(request.args["a"])'

  it('do not change when code is added above', () => {
    const before = run(flask(body)).findings.map((finding) => finding.fingerprint)
    const shifted = { 'app.py': `# a comment\n\n${flask(body)['app.py']}` }
    expect(run(shifted).findings.map((finding) => finding.fingerprint)).toEqual(before)
  })

  it('come from rule id, path, normalized sink text and occurrence', () => {
    const findings = run(flask(body)).findings
    const text = normalizeMatchedText('os.system(request.args["a"])')
    expect(findings.map((finding) => finding.fingerprint)).toEqual([
      fingerprintOf('dataflow.python.command-injection', 'app.py', text, 0),
      fingerprintOf('dataflow.python.command-injection', 'app.py', text, 1),
    ])
  })
})

describe('analysis control', () => {
  it('knows which files it reads', () => {
    expect(['a.py', 'b.js', 'c.tsx', 'D.java', 'e.go', 'f.rb'].map(supportsDataFlow)).toEqual([true, true, true, true, false, false])
  })

  it('stops when aborted', () => {
    const controller = new AbortController()
    controller.abort()
    expect(() => analyzeDataFlow([{ path: 'app.py', text: flask('os.system(request.args["q"])')['app.py'] ?? '' }], { signal: controller.signal })).toThrow(/abort/)
  })

  it('keeps going past broken and deeply nested files', () => {
    const deep = `import os\nfrom flask import request\nx = ${Array.from({ length: 20000 }, () => '"a"').join(' + ')}\n`
    const result = analyzeDataFlow([
      { path: 'broken.py', text: 'def (:\n  request.args[\n' },
      { path: 'deep.py', text: deep },
      { path: 'app.py', text: flask('os.system(request.args["q"])')['app.py'] ?? '' },
    ])
    expect(result.findings.map((finding) => finding.filePath)).toEqual(['app.py'])
    // Nesting deeper than the stack allows fails that file alone (the stack size varies).
    expect(result.errors.filter((error) => error.path !== 'deep.py')).toEqual([])
  })

  it('gives the same result synchronously and asynchronously', async () => {
    const files = [{ path: 'app.py', text: flask('os.system(request.args["q"])')['app.py'] ?? '' }]
    expect(await analyzeDataFlowAsync(files)).toEqual(analyzeDataFlow(files))
  })
})

describe('mergeWithPatternFindings', () => {
  function finding(parts: Partial<Finding>): Finding {
    return {
      ruleId: 'python.command-injection.os-system',
      analyzer: 'sast',
      modelUsed: 'parapet-sast/1.0',
      filePath: 'app.py',
      language: 'python',
      lineNumber: 10,
      columnStart: 5,
      columnEnd: 30,
      endLineNumber: 10,
      category: 'command-injection',
      severity: 'high',
      confidence: 0.8,
      title: 't',
      description: 'd',
      explanation: 'e',
      codeSnippet: 's',
      contextBefore: '',
      contextAfter: '',
      remediation: 'r',
      remediationCode: null,
      cweIds: ['CWE-78'],
      owaspCategory: 'A03:2021 - Injection',
      cvssScore: 8.8,
      tags: [],
      fingerprint: 'f',
      ...parts,
    }
  }

  it('keeps the data-flow finding where both hit the same sink', () => {
    const flow = finding({ ruleId: 'dataflow.python.command-injection', analyzer: 'dataflow', columnStart: 5, columnEnd: 40 })
    const samePlace = finding({})
    const otherCategory = finding({ ruleId: 'python.code-injection.eval', category: 'code-injection' })
    const otherLine = finding({ lineNumber: 20, endLineNumber: 20 })
    const otherFile = finding({ filePath: 'other.py' })
    const merged = mergeWithPatternFindings([samePlace, otherCategory, otherLine, otherFile], [flow])
    expect(merged).toContain(flow)
    expect(merged).not.toContain(samePlace)
    expect(merged).toEqual(expect.arrayContaining([otherCategory, otherLine, otherFile]))
    expect(merged).toHaveLength(4)
  })

  it('treats touching spans as distinct and multi-line spans as overlapping', () => {
    const flow = finding({ analyzer: 'dataflow', lineNumber: 10, columnStart: 1, columnEnd: 5, endLineNumber: 10 })
    const after = finding({ columnStart: 5, columnEnd: 9 })
    const multiLine = finding({ lineNumber: 9, columnStart: 1, columnEnd: 3, endLineNumber: 11 })
    expect(mergeWithPatternFindings([after, multiLine], [flow])).toEqual([flow, after])
  })
})

describe('guards', () => {
  it('clean only the key a check is about', () => {
    const body = 'if request.args.get("mode") in ALLOWED:\n    os.system("run " + request.args.get("mode"))\n    os.system("run " + request.args.get("cmd"))'
    expect(reported(flask(body))).toEqual([`app.py:${FLASK.split('\n').length + 2} dataflow.python.command-injection`])
  })

  it('need a normalized path for a prefix check to count', () => {
    const files = {
      'a.js': [
        "const path = require('path')",
        "const fs = require('fs')",
        "function h(req) {",
        "  const raw = '/srv/' + req.query.f",
        "  if (raw.startsWith('/srv/')) fs.readFileSync(raw)",
        "  const full = path.resolve('/srv', req.query.f)",
        "  if (full.startsWith('/srv/')) fs.readFileSync(full)",
        '}',
      ].join('\n'),
    }
    expect(reported(files)).toEqual(['a.js:5 dataflow.javascript.path-traversal'])
  })
})
