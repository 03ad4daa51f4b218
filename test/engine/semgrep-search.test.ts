/**
 * Semgrep search-mode rules, written as Semgrep rule files and run through the scan API: every
 * pattern operator and pattern feature, in Python, JavaScript, TypeScript, Java and Go, each
 * with code it must match and code it must not.
 */
import { describe, expect, it } from 'vitest'
import { parse } from '@ast-grep/napi'
import { scanSources } from '../../src/engine/index.ts'
import type { Finding, LogEvent } from '../../src/engine/index.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { ensureLanguagesRegistered, napiLanguage } from '../../src/engine/core/languages.ts'
import { checkSemgrepPatterns, evaluateFormula } from '../../src/engine/semgrep/evaluate.ts'
import { emptySastMetrics } from '../../src/engine/sast/analyzer.ts'
import type { SemgrepRule } from '../../src/engine/semgrep/types.ts'
import { source } from './support/helpers.ts'

/** A Semgrep rule file with one rule `test.rule`; `body` is the rule's pattern keys, unindented. */
function semgrepRule(languages: string, body: string, options: { message?: string; extra?: string } = {}): string {
  const indented = body
    .trim()
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
  return `rules:
  - id: test.rule
    languages: [${languages}]
    severity: WARNING
    message: ${JSON.stringify(options.message ?? 'found it')}
${options.extra ? `${options.extra.trim().split('\n').map((line) => `    ${line}`).join('\n')}\n` : ''}${indented}
`
}

async function scan(rules: string, files: Record<string, string>): Promise<{ findings: Finding[]; logs: LogEvent[] }> {
  const logs: LogEvent[] = []
  const report = await scanSources(
    Object.entries(files).map(([path, text]) => source(path, text)),
    { analyzers: ['sast'], builtinRules: false, extraRules: parseRulesText(rules), workers: 0, onLog: (event) => logs.push(event) },
  )
  return { findings: report.findings, logs }
}

/** The 1-based lines the rule reports in one file (sorted), after checking no rule failed. */
async function matchedLines(rules: string, path: string, code: string): Promise<number[]> {
  const { findings, logs } = await scan(rules, { [path]: code })
  expect(logs.filter((event) => event.level === 'error' || event.level === 'warning').map((event) => event.message)).toEqual([])
  return findings.map((finding) => finding.lineNumber).sort((a, b) => a - b)
}

describe('Semgrep patterns', () => {
  it('match calls with metavariables and `...` arguments in every language', async () => {
    expect(await matchedLines(semgrepRule('python', 'pattern: os.system($X)'), 'a.py', 'import os\nos.system(cmd)\nos.popen(cmd)\nos.system(a, b)\n')).toEqual([2])
    expect(await matchedLines(semgrepRule('javascript', 'pattern: eval(...)'), 'a.js', 'eval(x)\neval()\nevaluate(x)\nwindow.eval(a, b)\n')).toEqual([1, 2])
    expect(
      await matchedLines(
        semgrepRule('java', 'pattern: $STMT.executeQuery(...)'),
        'A.java',
        'class A {\n  void f(Statement s, String q) {\n    s.executeQuery(q);\n    s.execute(q);\n  }\n}\n',
      ),
    ).toEqual([3])
    expect(
      await matchedLines(semgrepRule('go', 'pattern: exec.Command(...)'), 'a.go', 'package main\n\nfunc f(x string) {\n\texec.Command("sh", "-c", x)\n\texec.LookPath(x)\n}\n'),
    ).toEqual([4])
  })

  it('match an argument anywhere with `..., $X, ...`, and a trailing `...` also matches no argument', async () => {
    const rule = semgrepRule('python', 'pattern: run(..., secret, ...)')
    expect(await matchedLines(rule, 'a.py', 'run(secret)\nrun(a, secret)\nrun(a, secret, b)\nrun(a, b)\n')).toEqual([1, 2, 3])
    const js = semgrepRule('typescript', 'pattern: setTimeout($CODE, ...)')
    expect(await matchedLines(js, 'a.ts', 'setTimeout(code)\nsetTimeout(code, 10)\nsetInterval(code, 10)\n')).toEqual([1, 2])
  })

  it('bind `$...ARGS` to the arguments and interpolate it in the message', async () => {
    const rule = semgrepRule('javascript', 'pattern: exec($...ARGS)', { message: 'exec of $...ARGS' })
    const { findings } = await scan(rule, { 'a.js': 'exec(a, b, c)\n' })
    expect(findings.map((finding) => finding.description)).toEqual(['exec of a, b, c'])
  })

  it('match any string literal with "..." and a string by regex with "=~/re/"', async () => {
    expect(await matchedLines(semgrepRule('python', 'pattern: cursor.execute("...")'), 'a.py', 'cursor.execute("select 1")\ncursor.execute(query)\n')).toEqual([1])
    expect(
      await matchedLines(semgrepRule('java', 'pattern: $C.prepareStatement("...")'), 'A.java', 'class A { void f(Connection c, String q) {\n c.prepareStatement("select 1");\n c.prepareStatement(q);\n} }\n'),
    ).toEqual([2])
    expect(await matchedLines(semgrepRule('go', 'pattern: os.Getenv("...")'), 'a.go', 'package main\nfunc f(k string) {\n\tos.Getenv("HOME")\n\tos.Getenv(k)\n}\n')).toEqual([3])
    const regex = semgrepRule('python', 'pattern: $DB.execute("=~/^(?i)select .* where .*/" + $X)')
    expect(await matchedLines(regex, 'a.py', 'db.execute("SELECT * FROM t WHERE id=" + x)\ndb.execute("DELETE FROM t" + x)\n')).toEqual([1])
  })

  it('match an expression at any depth with <... e ...>', async () => {
    const rule = semgrepRule('javascript', 'pattern: eval(<... req.query ...>)')
    expect(await matchedLines(rule, 'a.js', 'eval(req.query)\neval("x" + f(req.query.a))\neval(req.body)\n')).toEqual([1, 2])
    const python = semgrepRule('python', 'pattern: os.system(<... $ARG ...>)\n', { message: 'os.system with $ARG' })
    expect((await scan(python, { 'a.py': 'os.system("ls " + name)\n' })).findings.length).toBeGreaterThan(0)
  })

  it('match an expression wherever it occurs, including inside an expression statement or an assignment', async () => {
    const rule = semgrepRule('python', 'pattern: hashlib.md5(...)')
    expect(await matchedLines(rule, 'a.py', 'hashlib.md5(data)\ndigest = hashlib.md5(data).hexdigest()\nhashlib.sha256(data)\n')).toEqual([1, 2])
    const statement = semgrepRule('java', 'pattern: Runtime.getRuntime().exec($CMD);')
    const code = 'class A { Process f(String c) {\n  Runtime.getRuntime().exec(c);\n  return Runtime.getRuntime().exec(c);\n} }\n'
    expect(await matchedLines(statement, 'A.java', code)).toEqual([2, 3])
  })

  it('match statement sequences in order within a block, with `...` between statements, bindings agreeing', async () => {
    const python = semgrepRule('python', 'pattern: |\n  $F = open($PATH)\n  ...\n  $F.write($DATA)')
    const code = [
      'def a(p, d):',
      '    f = open(p)',
      '    log(1)',
      '    f.write(d)',
      'def b(p, d):',
      '    g.write(d)',
      '    g = open(p)',
      'def c(p, d):',
      '    h = open(p)',
      '    other.write(d)',
      '',
    ].join('\n')
    expect(await matchedLines(python, 'a.py', code)).toEqual([2])
    const js = semgrepRule('javascript', 'pattern: |\n  $X = getInput();\n  ...\n  run($X);')
    expect(await matchedLines(js, 'a.js', 'function f() {\n  a = getInput();\n  b = 1;\n  run(a);\n}\nfunction g() {\n  a = getInput();\n  run(b);\n}\n')).toEqual([2])
    const go = semgrepRule('go', 'pattern: |\n  $V, $ERR := $F(...)\n  $USE($V)')
    expect(
      await matchedLines(go, 'a.go', 'package main\n\nfunc f() {\n\tv, err := load()\n\tuse(v)\n}\n\nfunc g() {\n\tv, err := load()\n\tcheck(err)\n\tuse(v)\n}\n'),
    ).toEqual([4])
  })

  it('extend a pattern that starts or ends with a `...` line to the whole block, so pattern-not compares whole blocks', async () => {
    const rule = semgrepRule(
      'java',
      'patterns:\n  - pattern: |\n      ...\n      makeTransaction($T);\n      ...\n  - pattern-not: |\n      ...\n      verifyTransaction($T);\n      ...\n      makeTransaction($T);\n      ...',
    )
    const code = [
      'class Bank {',
      '  void unchecked(Tx t) {',
      '    log(t);',
      '    makeTransaction(t);',
      '  }',
      '  void checked(Tx t) {',
      '    verifyTransaction(t);',
      '    makeTransaction(t);',
      '  }',
      '  void checkedOther(Tx t, Tx u) {',
      '    verifyTransaction(u);',
      '    makeTransaction(t);',
      '  }',
      '}',
      '',
    ].join('\n')
    expect(await matchedLines(rule, 'Bank.java', code)).toEqual([3, 11])
  })

  it('match every statement sequence of a long file', async () => {
    const rule = semgrepRule('python', 'pattern: |\n  $X = read()\n  ...\n  write($X)')
    const code = Array.from({ length: 700 }, (_, i) => `def f${i}():\n    v = read()\n    log(v)\n    write(v)\n`).join('\n')
    const lines = await matchedLines(rule, 'long.py', code)
    expect(lines).toHaveLength(700)
    expect(lines.slice(0, 2)).toEqual([2, 7])
  })

  it('match typed metavariables by declared or literal type (Java, Go, TypeScript)', async () => {
    const java = semgrepRule('java', 'pattern: "$X == (String $Y)"')
    const javaCode = 'class A {\n  boolean f(String s, int n, Object o) {\n    return o == s;\n  }\n  boolean g(int n, int m) {\n    return m == n;\n  }\n}\n'
    expect(await matchedLines(java, 'A.java', javaCode)).toEqual([3])
    const go = semgrepRule('go', 'pattern: "fmt.Sprintf($FMT, ($X : string))"')
    expect(await matchedLines(go, 'a.go', 'package main\n\nfunc f(name string, n int) {\n\tfmt.Sprintf("%s", name)\n\tfmt.Sprintf("%d", n)\n}\n')).toEqual([4])
    const constructed = semgrepRule('go', 'pattern: "($R : *zip.Reader).Open($NAME)"')
    expect(await matchedLines(constructed, 'b.go', 'package main\n\nfunc f(name string, d http.Dir) {\n\tr := &zip.Reader{}\n\tr.Open(name)\n\td.Open(name)\n}\n')).toEqual([5])
    const javaVar = semgrepRule('java', 'pattern: "(java.util.Random $R).nextInt()"')
    expect(await matchedLines(javaVar, 'B.java', 'class B { void f(SecureRandom s) {\n  var r = new Random();\n  r.nextInt();\n  s.nextInt();\n} }\n')).toEqual([3])
    const ts = semgrepRule('typescript', 'pattern: "query(($Q: string))"')
    expect(await matchedLines(ts, 'a.ts', 'function f(sql: string, id: number) {\n  query(sql)\n  query(id)\n}\n')).toEqual([2])
  })

  it('type a Go variable by the call that made it: a standard-library constructor or a function of the file', async () => {
    const zipOpen = semgrepRule('go', 'pattern: "($R : *zip.Reader).Open($NAME)"')
    const library =
      'package main\n\nfunc f(a io.ReaderAt, size int64, name string) error {\n\treader, err := zip.NewReader(a, size)\n\tif err != nil {\n\t\treturn err\n\t}\n\treader.Open(name)\n\tfile, _ := os.Open(name)\n\tfile.Open(name)\n\treturn nil\n}\n'
    expect(await matchedLines(zipOpen, 'a.go', library)).toEqual([8])
    const query = semgrepRule('go', 'pattern: "($DB : *sql.DB).Query(...)"')
    const declared =
      'package main\n\nfunc openStore() (*sql.DB, error) {\n\treturn sql.Open("postgres", dsn)\n}\n\nfunc newCache() *Cache {\n\treturn &Cache{}\n}\n\nfunc f(q string) {\n\tdb, _ := openStore()\n\tdb.Query(q)\n\tcache := newCache()\n\tcache.Query(q)\n\tvar other = sql.OpenDB(c)\n\tother.Query(q)\n}\n'
    expect(await matchedLines(query, 'b.go', declared)).toEqual([13, 17])
  })

  it('match a Go block written `{ ... }` over several lines whatever its body: empty, or opening with a comment', async () => {
    const rule = semgrepRule('go', 'patterns:\n  - pattern-inside: |\n      if isLocal($URL) {\n        ...\n      }\n  - pattern: use($URL)')
    const code =
      'package main\n\nfunc f(a, b, c string) {\n\tif isLocal(a) {\n\t\t// checked\n\t\tuse(a)\n\t}\n\tif isLocal(b) {\n\t\tuse(b)\n\t}\n\tuse(c)\n}\n'
    expect(await matchedLines(rule, 'a.go', code)).toEqual([6, 9])
    const emptyBody = semgrepRule('go', 'pattern: |\n  if $ERR != nil {\n    ...\n  }')
    expect(await matchedLines(emptyBody, 'b.go', 'package main\n\nfunc f(err error) {\n\tif err != nil {\n\t}\n\tif err != nil {\n\t\t// ignored\n\t}\n}\n')).toEqual([4, 6])
    const declaration = semgrepRule('go', 'pattern: |\n  func $F(w http.ResponseWriter, r *http.Request) {\n    ...\n  }')
    expect(await matchedLines(declaration, 'c.go', 'package main\n\nfunc h(w http.ResponseWriter, r *http.Request) {\n\t// serves nothing\n\tw.WriteHeader(204)\n}\n\nfunc g(s string) {\n}\n')).toEqual([3])
  })

  it('follow import aliases in Python, JavaScript, Java and Go', async () => {
    const python = semgrepRule('python', 'pattern: subprocess.call(...)')
    expect(await matchedLines(python, 'a.py', 'from subprocess import call\ncall(cmd)\n')).toEqual([2])
    expect(await matchedLines(python, 'b.py', 'import subprocess as sp\nsp.call(cmd)\n')).toEqual([2])
    expect(await matchedLines(python, 'c.py', 'from other import call\ncall(cmd)\n')).toEqual([])
    const js = semgrepRule('javascript', 'pattern: child_process.exec($CMD)')
    expect(await matchedLines(js, 'a.js', "const cp = require('child_process')\ncp.exec(cmd)\n")).toEqual([2])
    expect(await matchedLines(js, 'b.js', "import { exec } from 'node:child_process'\nexec(cmd)\n")).toEqual([2])
    expect(await matchedLines(js, 'c.js', "import { exec } from './shell'\nexec(cmd)\n")).toEqual([])
    expect(await matchedLines(js, 'd.js', "const run = require('child_process').exec\nrun(cmd)\n")).toEqual([2])
    expect(await matchedLines(js, 'e.js', 'const cp = tslib_1.__importStar(require("child_process"));\ncp.exec(cmd);\n')).toEqual([2])
    expect(await matchedLines(js, 'f.js', 'const cp = __importDefault(require("node:child_process"));\ncp.default.exec(cmd);\ncp.exec(cmd);\n')).toEqual([2])
    expect(await matchedLines(js, 'g.js', "const run = require('./child_process').exec\nrun(cmd)\n")).toEqual([])
    expect(await matchedLines(js, 'h.js', 'const child_process_1 = require("child_process");\n(0, child_process_1.exec)(cmd);\n(0, other_1.exec)(cmd);\n')).toEqual([2])
    const java = semgrepRule('java', 'pattern: java.lang.Runtime.getRuntime().exec(...)')
    expect(await matchedLines(java, 'A.java', 'class A {\n  void f(String c) {\n    Runtime.getRuntime().exec(c);\n  }\n}\n')).toEqual([3])
    const javaImport = semgrepRule('java', 'pattern: org.apache.commons.io.FileUtils.readFileToString(...)')
    expect(await matchedLines(javaImport, 'B.java', 'import org.apache.commons.io.FileUtils;\nclass B {\n  void f(File x) {\n    FileUtils.readFileToString(x);\n  }\n}\n')).toEqual([4])
    expect(await matchedLines(javaImport, 'C.java', 'import other.FileUtils;\nclass C {\n  void f(File x) {\n    FileUtils.readFileToString(x);\n  }\n}\n')).toEqual([])
    const go = semgrepRule('go', 'pattern: exec.Command(...)')
    expect(await matchedLines(go, 'a.go', 'package main\n\nimport run "os/exec"\n\nfunc f(x string) {\n\trun.Command(x)\n}\n')).toEqual([6])
  })

  it('match Python keyword arguments in any order', async () => {
    const rule = semgrepRule('python', 'pattern: requests.get($URL, verify=False, timeout=$T)')
    const code = 'requests.get(u, timeout=5, verify=False)\nrequests.get(u, verify=False, timeout=5)\nrequests.get(u, verify=True, timeout=5)\n'
    expect(await matchedLines(rule, 'a.py', code)).toEqual([1, 2])
    const ellipsis = semgrepRule('python', 'pattern: subprocess.run(..., shell=True, ...)')
    expect(await matchedLines(ellipsis, 'b.py', 'subprocess.run(c, shell=True, cwd=d)\nsubprocess.run(c, cwd=d, shell=True)\nsubprocess.run(c, cwd=d)\n')).toEqual([1, 2])
  })
})

describe('Semgrep literals, containers and equivalences', () => {
  it('match a string literal whatever its quotes, but not an f-string or a template with substitutions as "..."', async () => {
    expect(await matchedLines(semgrepRule('javascript', 'pattern: crypto.createHash("md5")'), 'a.js', "crypto.createHash('md5')\ncrypto.createHash(\"md5\")\ncrypto.createHash('sha256')\n")).toEqual([1, 2])
    const literalOnly = semgrepRule('python', 'patterns:\n  - pattern: logger.info($MSG)\n  - pattern-not: logger.info("...")')
    expect(await matchedLines(literalOnly, 'a.py', 'logger.info("plain")\nlogger.info(f"user {name}")\nlogger.info(\'single\')\n')).toEqual([2])
  })

  it('bind "$X" to a string\'s content', async () => {
    const rule = semgrepRule('go', 'patterns:\n  - pattern: exec.Command("$PROGRAM", ...)\n  - metavariable-regex:\n      metavariable: $PROGRAM\n      regex: (sh|bash)$', { message: 'runs $PROGRAM' })
    const { findings } = await scan(rule, { 'a.go': 'package main\nfunc f(x string) {\n\texec.Command("bash", "-c", x)\n\texec.Command("ls", x)\n}\n' })
    expect(findings.map((finding) => [finding.lineNumber, finding.description])).toEqual([[3, 'runs bash']])
  })

  it('match template literals with `...` around a substitution', async () => {
    const rule = semgrepRule('typescript', 'pattern: db.query(`...${$VALUE}...`)')
    expect(await matchedLines(rule, 'a.ts', 'db.query(`select * from t where id = ${id}`)\ndb.query(`select 1`)\ndb.query("select " + id)\n')).toEqual([1])
  })

  it('match object and dictionary patterns by their entries, in any position', async () => {
    const js = semgrepRule('javascript', 'patterns:\n  - pattern: cors($OPTIONS)\n  - metavariable-pattern:\n      metavariable: $OPTIONS\n      pattern: "{..., origin: \'*\', ...}"')
    expect(await matchedLines(js, 'a.js', "cors({ origin: '*' })\ncors({ credentials: true, origin: '*', maxAge: 5 })\ncors({ origin: 'https://a.example' })\n")).toEqual([1, 2])
    const python = semgrepRule('python', 'pattern: \'jwt.decode(..., options={..., "verify_signature": False, ...})\'')
    const code = 'jwt.decode(t, options={"verify_exp": False, "verify_signature": False})\njwt.decode(t, options={"verify_signature": False})\njwt.decode(t, options={"verify_exp": False})\n'
    expect(await matchedLines(python, 'a.py', code)).toEqual([1, 2])
  })

  it('match a literal of the pattern on a name the file binds once to it (constant propagation)', async () => {
    const python = semgrepRule('python', 'pattern-either:\n  - pattern: stripe.api_key = "..."\n  - pattern: requests.get(..., verify=False, ...)')
    const code = 'KEY = "sk_test_1"\nVERIFY = False\nstripe.api_key = KEY\nstripe.api_key = os.environ["K"]\nrequests.get(u, verify=VERIFY)\nrequests.get(u, verify=True)\nchanging = False\nchanging = True\nrequests.get(u, verify=changing)\n'
    expect(await matchedLines(python, 'a.py', code)).toEqual([3, 5])
    const js = semgrepRule('javascript', "pattern: \"session({..., secret: 'keyboard cat', ...})\"")
    expect(await matchedLines(js, 'a.js', "const s = 'keyboard cat'\nsession({ secret: s })\nsession({ secret: process.env.S })\n")).toEqual([2])
  })

  it('match method chains with `. ... .` between their start and a later call', async () => {
    const python = semgrepRule('python', 'pattern: $MODEL.objects. ... .extra(...)', { message: 'extra on $MODEL' })
    const code = 'User.objects.filter(a=1).order_by("n").extra(select=s)\nUser.objects.extra(where=w)\nUser.objects.filter(a=1)\nother.extra(x)\n'
    const { findings } = await scan(python, { 'a.py': code })
    expect(findings.map((finding) => [finding.lineNumber, finding.description])).toEqual([
      [1, 'extra on User'],
      [2, 'extra on User'],
    ])
    const js = semgrepRule('javascript', 'pattern: knex. ... .whereRaw($SQL)')
    expect(await matchedLines(js, 'a.js', 'knex("t").select("a").whereRaw(q)\ndb.select("a").whereRaw(q)\n')).toEqual([1])
  })

  it('match `..., $X` as the last argument whatever the number of arguments before it', async () => {
    const rule = semgrepRule('javascript', 'pattern: new Function(..., $CODE)', { message: 'code $CODE' })
    const { findings } = await scan(rule, { 'a.js': "new Function(body)\nnew Function('a', 'b', args.body)\n" })
    expect(findings.map((finding) => finding.description).sort()).toEqual(['code args.body', 'code body'])
  })

  it('match a Java for (...) loop in both its forms', async () => {
    const rule = semgrepRule('java', 'patterns:\n  - pattern-inside: for (...) { ... }\n  - pattern: $S.executeQuery(...)')
    const code = 'class A { void f(Statement s, List<String> ids) {\n  for (String id : ids) { s.executeQuery(id); }\n  for (int i = 0; i < 3; i++) { s.executeQuery("a"); }\n  s.executeQuery("b");\n} }\n'
    expect(await matchedLines(rule, 'A.java', code)).toEqual([2, 3])
  })

  it('match declaration patterns whatever modifiers, annotations, return types and receivers the code adds', async () => {
    const java = semgrepRule('java', 'patterns:\n  - pattern-inside: |\n      $RET $METHOD(...) {\n        ...\n      }\n  - pattern: System.out.println(...)')
    const javaCode = 'class A {\n  @Override\n  public String a() throws IOException {\n    System.out.println(1);\n    return "";\n  }\n  static { System.out.println(2); }\n}\n'
    expect(await matchedLines(java, 'A.java', javaCode)).toEqual([4])
    const go = semgrepRule('go', 'patterns:\n  - pattern-inside: func $F(...) { ... }\n  - pattern: fmt.Println(...)')
    const goCode = 'package main\n\nfunc (s *Server) Handle(x int) (int, error) {\n\tfmt.Println(x)\n\treturn 0, nil\n}\n\nvar f = fmt.Println\n'
    expect(await matchedLines(go, 'a.go', goCode)).toEqual([4])
    const python = semgrepRule('python', 'patterns:\n  - pattern-inside: |\n      def $F($ARG):\n          ...\n  - pattern: return $ARG')
    const pythonCode = 'async def f(a) -> int:\n    return a\n\ndef g(a, b):\n    return a\n'
    expect(await matchedLines(python, 'a.py', pythonCode)).toEqual([2])
    const annotated = semgrepRule('java', 'pattern: |\n  @Deprecated\n  void $M(...) { ... }')
    expect(await matchedLines(annotated, 'B.java', 'class B {\n  @Deprecated\n  void old() {}\n  void current() {}\n}\n')).toEqual([2])
  })

  it('match decorated members and annotated methods by the decorators and annotations the pattern names', async () => {
    const ts = semgrepRule('typescript', 'patterns:\n  - pattern-inside: |\n      @Get(...)\n      $M(...) { ... }\n  - pattern: $REQ.query')
    expect(await matchedLines(ts, 'a.ts', "class A {\n  @Get('/')\n  list(req) {\n    return req.query\n  }\n  other(req) { return req.query }\n}\n")).toEqual([4])
    const java = semgrepRule('java', 'patterns:\n  - pattern-inside: |\n      @RequestMapping(...)\n      public $RET $M(...) { ... }\n  - pattern: $R.getParameter(...)')
    const code = 'class A {\n  @RequestMapping("/a")\n  @ResponseBody\n  public String a(HttpServletRequest r) {\n    return r.getParameter("x");\n  }\n  @RequestMapping("/b")\n  private String b(HttpServletRequest r) {\n    return r.getParameter("y");\n  }\n}\n'
    expect(await matchedLines(java, 'A.java', code)).toEqual([5])
  })

  it('match a Java annotation pattern and Go struct literal fields', async () => {
    const annotation = semgrepRule('java', "pattern: '@SuppressWarnings(...)'")
    expect(await matchedLines(annotation, 'A.java', '@SuppressWarnings("all")\nclass A {}\n@Deprecated\nclass B {}\n')).toEqual([1])
    const go = semgrepRule('go', "pattern: 'tls.Config{..., InsecureSkipVerify: true, ...}'")
    const code = 'package main\n\nvar a = &tls.Config{MinVersion: 1, InsecureSkipVerify: true}\nvar b = tls.Config{InsecureSkipVerify: true, MinVersion: 2}\nvar c = tls.Config{MinVersion: 1}\n'
    expect(await matchedLines(go, 'a.go', code)).toEqual([3, 4])
  })

  it('match a TypeScript function pattern whatever return type the function declares', async () => {
    const rule = semgrepRule('typescript', 'patterns:\n  - pattern-inside: function $F(...) { ... }\n  - pattern: JSON.parse($X)')
    const code = 'function a(s: string): unknown {\n  return JSON.parse(s)\n}\nfunction b(s) {\n  return JSON.parse(s)\n}\nconst c = (s: string) => JSON.parse(s)\n'
    expect(await matchedLines(rule, 'a.ts', code)).toEqual([2, 5])
  })

  it('match a decorated class pattern on exported classes too', async () => {
    const rule = semgrepRule('typescript', 'patterns:\n  - pattern-inside: |\n      @Controller(...)\n      class $C { ... }\n  - pattern: this.$R.query(...)')
    const code = "@Controller('a')\nexport class A {\n  f() { this.repo.query(x) }\n}\nclass B {\n  f() { this.repo.query(x) }\n}\n@Controller('c')\nclass C {\n  f() { this.repo.query(x) }\n}\n"
    expect(await matchedLines(rule, 'a.ts', code)).toEqual([3, 10])
  })

  it('check typed metavariables on fields and TypeScript parameter properties', async () => {
    const rule = semgrepRule('typescript', 'pattern: "($S: DomSanitizer).bypassSecurityTrustHtml($V)"')
    const code = 'class C {\n  constructor(private sanitizer: DomSanitizer, private other: Formatter) {}\n  f(v: string) {\n    this.sanitizer.bypassSecurityTrustHtml(v)\n    this.other.bypassSecurityTrustHtml(v)\n  }\n}\n'
    expect(await matchedLines(rule, 'a.ts', code)).toEqual([4])
  })
})

describe('Semgrep pattern operators', () => {
  it('pattern-either matches any of its patterns', async () => {
    const rule = semgrepRule('python', 'pattern-either:\n  - pattern: hashlib.md5(...)\n  - pattern: hashlib.sha1(...)')
    expect(await matchedLines(rule, 'a.py', 'hashlib.md5(a)\nhashlib.sha1(a)\nhashlib.sha256(a)\n')).toEqual([1, 2])
  })

  it('patterns with pattern-not drops matches of the excluded pattern', async () => {
    const rule = semgrepRule('javascript', 'patterns:\n  - pattern: $EL.innerHTML = $V\n  - pattern-not: $EL.innerHTML = "..."')
    expect(await matchedLines(rule, 'a.js', 'el.innerHTML = input\nel.innerHTML = "<b>static</b>"\n')).toEqual([1])
  })

  it('pattern-inside keeps matches inside the context, with bindings agreeing; pattern-not-inside drops them', async () => {
    const inside = semgrepRule('python', 'patterns:\n  - pattern-inside: |\n      $Q = request.args.get(...)\n      ...\n  - pattern: cursor.execute($Q)')
    const code = 'def f():\n    q = request.args.get("q")\n    cursor.execute(q)\n    cursor.execute(other)\n'
    expect(await matchedLines(inside, 'a.py', code)).toEqual([3])
    const java = semgrepRule(
      'java',
      'patterns:\n  - pattern: $R.readObject()\n  - pattern-not-inside: |\n      try { ... } catch (InvalidClassException $E) { ... }',
    )
    const javaCode =
      'class A {\n  void f(ObjectInputStream in) {\n    in.readObject();\n    try { in.readObject(); } catch (InvalidClassException e) { log(e); }\n  }\n}\n'
    expect(await matchedLines(java, 'A.java', javaCode)).toEqual([3])
    const go = semgrepRule('go', 'patterns:\n  - pattern: $F.Close()\n  - pattern-not-inside: defer $F.Close()')
    expect(await matchedLines(go, 'a.go', 'package main\n\nfunc f(a File) {\n\tdefer a.Close()\n\ta.Close()\n}\n')).toEqual([5])
    const fn = semgrepRule('typescript', 'patterns:\n  - pattern-inside: |\n      function $F(...) { ... }\n  - pattern: console.log(...)')
    expect(await matchedLines(fn, 'a.ts', 'console.log(1)\nfunction f() {\n  console.log(2)\n}\n')).toEqual([3])
  })

  it('pattern-regex matches text and binds named groups; pattern-not-regex drops overlapping matches', async () => {
    const rule = semgrepRule('python', 'patterns:\n  - pattern-regex: (?P<KEY>AKIA[0-9A-Z]{16})\n  - pattern-not-regex: AKIAIOSFODNN7EXAMPLE', { message: 'AWS key $KEY' })
    const code = 'a = "AKIAABCDEFGHIJKLMNOP"\nb = "AKIAIOSFODNN7EXAMPLE"\nc = "nothing"\n'
    const { findings } = await scan(rule, { 'a.py': code })
    expect(findings.map((finding) => [finding.lineNumber, finding.description])).toEqual([[1, 'AWS key AKIAABCDEFGHIJKLMNOP']])
  })

  it('metavariable-regex tests the captured code from its start (re.match)', async () => {
    const rule = semgrepRule('java', 'patterns:\n  - pattern: MessageDigest.getInstance($ALG)\n  - metavariable-regex:\n      metavariable: $ALG\n      regex: \'"(MD5|SHA-?1|md5|sha-?1)"\'')
    const code = 'class A { void f() {\n MessageDigest.getInstance("MD5");\n MessageDigest.getInstance("SHA-256");\n MessageDigest.getInstance(x + "md5");\n} }\n'
    expect(await matchedLines(rule, 'A.java', code)).toEqual([2])
  })

  it('metavariable-pattern matches inside the captured code, or inside a string as another language', async () => {
    const same = semgrepRule('python', 'patterns:\n  - pattern: cursor.execute($Q)\n  - metavariable-pattern:\n      metavariable: $Q\n      pattern-either:\n        - pattern: $A + $B\n        - pattern: $S.format(...)')
    expect(await matchedLines(same, 'a.py', 'cursor.execute("a" + x)\ncursor.execute("{}".format(x))\ncursor.execute("select 1")\n')).toEqual([1, 2])
    const other = semgrepRule(
      'python',
      'patterns:\n  - pattern: $CTX.eval($CODE)\n  - metavariable-pattern:\n      metavariable: $CODE\n      language: javascript\n      pattern: require(\'child_process\')',
    )
    expect(await matchedLines(other, 'b.py', 'ctx.eval("require(\'child_process\').exec(x)")\nctx.eval("1 + 2")\n')).toEqual([1])
  })

  it('metavariable-comparison compares captured numbers and strings', async () => {
    const rule = semgrepRule('python', 'patterns:\n  - pattern: app.run(port=$P)\n  - metavariable-comparison:\n      metavariable: $P\n      comparison: $P < 1024 and $P != 80')
    expect(await matchedLines(rule, 'a.py', 'app.run(port=22)\napp.run(port=80)\napp.run(port=8080)\napp.run(port=p)\n')).toEqual([1])
    const go = semgrepRule('go', 'patterns:\n  - pattern: rsa.GenerateKey($R, $BITS)\n  - metavariable-comparison:\n      comparison: int($BITS) < 2048')
    expect(await matchedLines(go, 'a.go', 'package main\nfunc f() {\n\trsa.GenerateKey(rand.Reader, 1024)\n\trsa.GenerateKey(rand.Reader, 4096)\n}\n')).toEqual([3])
  })

  it('metavariable-comparison reads a variable assigned a single constant as that constant', async () => {
    const rule = semgrepRule('java', 'patterns:\n  - pattern: new byte[$N]\n  - metavariable-comparison:\n      metavariable: $N\n      comparison: $N < 2048')
    const code = 'class A { void f(int n) {\n  int size = 512;\n  byte[] a = new byte[size];\n  int big = 4096;\n  byte[] b = new byte[big];\n  int grows = 1;\n  grows = 100000;\n  byte[] c = new byte[grows];\n  byte[] d = new byte[n];\n} }\n'
    expect(await matchedLines(rule, 'A.java', code)).toEqual([3])
    const python = semgrepRule('python', 'patterns:\n  - pattern: app.run(port=$P)\n  - metavariable-comparison:\n      metavariable: $P\n      comparison: $P < 1024')
    expect(await matchedLines(python, 'a.py', 'PORT = 80\napp.run(port=PORT)\n')).toEqual([2])
  })

  it('focus-metavariable reports the captured code, one finding per metavariable of a list', async () => {
    const rule = semgrepRule('javascript', 'patterns:\n  - pattern: res.send($A, $B)\n  - focus-metavariable: $B')
    const { findings } = await scan(rule, { 'a.js': 'res.send(200, body)\n' })
    expect(findings.map((finding) => [finding.lineNumber, finding.columnStart, finding.columnEnd, finding.codeSnippet])).toEqual([[1, 15, 19, 'res.send(200, body)']])
    const both = semgrepRule('javascript', 'patterns:\n  - pattern: res.send($A, $B)\n  - focus-metavariable: [$A, $B]')
    const columns = (await scan(both, { 'a.js': 'res.send(200, body)\n' })).findings.map((finding) => finding.columnStart).sort((a, b) => a - b)
    expect(columns).toEqual([10, 15])
  })
})

describe('Semgrep rules in the sast analyzer', () => {
  it('report under the rule id with the message and fix interpolated, at the match', async () => {
    const rule = semgrepRule('python', 'pattern: yaml.load($DATA)', { message: 'yaml.load of $DATA', extra: 'fix: yaml.safe_load($DATA)\nmetadata:\n  cwe: "CWE-502: Deserialization of Untrusted Data"' })
    const { findings } = await scan(rule, { 'app/a.py': 'import yaml\nconfig = yaml.load(body)\n' })
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({
      ruleId: 'test.rule',
      analyzer: 'sast',
      filePath: 'app/a.py',
      lineNumber: 2,
      columnStart: 10,
      columnEnd: 25,
      description: 'yaml.load of body',
      remediationCode: 'yaml.safe_load(body)',
      cweIds: ['CWE-502'],
    })
  })

  it('honour paths include and exclude', async () => {
    const rule = semgrepRule('python', 'pattern: eval(...)', { extra: 'paths:\n  include: ["src/"]\n  exclude: ["*_test.py", "/src/vendor"]' })
    const { findings } = await scan(rule, {
      'src/a.py': 'eval(x)\n',
      'src/a_test.py': 'eval(x)\n',
      'src/vendor/b.py': 'eval(x)\n',
      'lib/c.py': 'eval(x)\n',
      'lib/src/d.py': 'eval(x)\n',
    })
    expect(findings.map((finding) => finding.filePath).sort()).toEqual(['lib/src/d.py', 'src/a.py'])
  })

  it('run JavaScript rules on TypeScript files, and keep nosemgrep comments working', async () => {
    const rule = semgrepRule('javascript', 'pattern: eval($X)')
    expect(await matchedLines(rule, 'a.ts', 'const a: string = eval(x)\neval(y) // nosemgrep\neval(z) // nosemgrep: other.rule\n')).toEqual([1, 3])
  })

  it('skip, without parsing, files that lack the words every match needs, but still follow import aliases', async () => {
    const metrics = emptySastMetrics()
    const rule = semgrepRule('python', 'pattern-either:\n  - pattern: subprocess.call(...)\n  - pattern: os.system(...)')
    const report = await scanSources(
      [source('a.py', 'print(1)\n'), source('b.py', 'from subprocess import call as run\nrun(x)\n'), source('c.py', 'import os\nos.system(x)\n')],
      { analyzers: ['sast'], builtinRules: false, extraRules: parseRulesText(rule), workers: 0, sastMetrics: metrics },
    )
    expect(report.findings.map((finding) => `${finding.filePath}:${finding.lineNumber}`).sort()).toEqual(['b.py:2', 'c.py:2'])
    expect(metrics).toMatchObject({ filesParsed: 2, filesNotParsed: 1 })
  })

  it('leave taint-mode rules to the data-flow analysis: a source and a sink the data does not join are no match', async () => {
    const rule = semgrepRule('python', 'mode: taint\npattern-sources:\n  - pattern: input()\npattern-sinks:\n  - pattern: eval(...)')
    expect(await matchedLines(rule, 'a.py', 'name = input()\neval("1 + 1")\n')).toEqual([])
    expect(await matchedLines(rule, 'a.py', 'name = input()\neval(name)\n')).toEqual([2])
  })
})

describe('checkSemgrepPatterns', () => {
  it('reports every pattern, regex or comparison that cannot be compiled for the language, with its line', () => {
    const rule: SemgrepRule = {
      mode: 'search',
      line: 1,
      formula: {
        kind: 'patterns',
        line: 5,
        clauses: [
          { kind: 'positive', formula: { kind: 'pattern', pattern: 'foo($X', line: 6 } },
          { kind: 'not', formula: { kind: 'pattern', pattern: 'bar(...)', line: 7 } },
          { kind: 'metavariable-regex', metavariable: '$X', regex: '(unclosed', line: 8 },
          { kind: 'metavariable-comparison', comparison: '$X >', line: 9 },
        ],
      },
    }
    const problems = checkSemgrepPatterns(rule, 'python')
    expect(problems.map((problem) => problem.line)).toEqual([6, 8, 9])
    expect(problems[0]?.message).toMatch(/pattern `foo\(\$X` cannot be used for python/)
    expect(checkSemgrepPatterns({ ...rule, formula: { kind: 'pattern', pattern: 'eval(...)', line: 3 } }, 'javascript')).toEqual([])
  })

  it('checks taint specifications too', () => {
    const rule: SemgrepRule = {
      mode: 'taint',
      line: 1,
      taint: {
        sources: [{ formula: { kind: 'pattern', pattern: 'input()', line: 4 }, line: 4 }],
        sinks: [{ formula: { kind: 'pattern', pattern: 'eval(', line: 6 }, line: 6 }],
        sanitizers: [],
        propagators: [],
      },
    }
    expect(checkSemgrepPatterns(rule, 'python').map((problem) => problem.line)).toEqual([6])
  })
})

describe('evaluateFormula', () => {
  it('returns ranges and bindings that agree across a `patterns` list', () => {
    ensureLanguagesRegistered()
    const code = 'x = source()\nsink(x)\nsink(y)\n'
    const root = parse(napiLanguage('python'), code).root()
    const matches = evaluateFormula(root, code, 'python', {
      kind: 'patterns',
      line: 1,
      clauses: [
        { kind: 'inside', formula: { kind: 'pattern', pattern: '$V = source()\n...', line: 2 } },
        { kind: 'positive', formula: { kind: 'pattern', pattern: 'sink($V)', line: 3 } },
      ],
    })
    expect(matches.map((match) => [code.slice(match.start, match.end), match.bindings.$V?.text])).toEqual([['sink(x)', 'x']])
  })
})

/**
 * Every operator in every language the issue names: a rule, code, and the lines it must report
 * (the other lines of the code are the negative cases).
 */
const OPERATOR_CASES: Array<{ operator: string; language: string; file: string; body: string; code: string; lines: number[] }> = [
  // pattern-either
  { operator: 'pattern-either', language: 'javascript', file: 'a.js', body: 'pattern-either:\n  - pattern: crypto.createHash("md5")\n  - pattern: crypto.createHash("sha1")', code: 'crypto.createHash("md5")\ncrypto.createHash("sha1")\ncrypto.createHash("sha256")\n', lines: [1, 2] },
  { operator: 'pattern-either', language: 'typescript', file: 'a.ts', body: 'pattern-either:\n  - pattern: document.write($X)\n  - pattern: $E.outerHTML = $X', code: 'document.write(html)\nel.outerHTML = html\nel.textContent = html\n', lines: [1, 2] },
  { operator: 'pattern-either', language: 'java', file: 'A.java', body: 'pattern-either:\n  - pattern: new Random()\n  - pattern: Math.random()', code: 'class A { void f() {\n  new Random();\n  Math.random();\n  new SecureRandom();\n} }\n', lines: [2, 3] },
  { operator: 'pattern-either', language: 'go', file: 'a.go', body: 'pattern-either:\n  - pattern: md5.New()\n  - pattern: sha1.New()', code: 'package main\nfunc f() {\n\tmd5.New()\n\tsha1.New()\n\tsha256.New()\n}\n', lines: [3, 4] },
  // pattern-not
  { operator: 'pattern-not', language: 'python', file: 'a.py', body: 'patterns:\n  - pattern: requests.get(...)\n  - pattern-not: requests.get(..., timeout=$T, ...)', code: 'requests.get(u)\nrequests.get(u, timeout=5)\nrequests.get(u, timeout=5, verify=True)\n', lines: [1] },
  { operator: 'pattern-not', language: 'typescript', file: 'a.ts', body: 'patterns:\n  - pattern: new RegExp($X)\n  - pattern-not: new RegExp("...")', code: 'new RegExp(input)\nnew RegExp("^a+$")\n', lines: [1] },
  { operator: 'pattern-not', language: 'java', file: 'A.java', body: 'patterns:\n  - pattern: $S.executeQuery($Q)\n  - pattern-not: $S.executeQuery("...")', code: 'class A { void f(Statement s, String q) {\n  s.executeQuery(q);\n  s.executeQuery("select 1");\n} }\n', lines: [2] },
  { operator: 'pattern-not', language: 'go', file: 'a.go', body: 'patterns:\n  - pattern: db.Query($Q, ...)\n  - pattern-not: db.Query("...", ...)', code: 'package main\nfunc f(q string) {\n\tdb.Query(q)\n\tdb.Query("select 1", q)\n}\n', lines: [3] },
  // pattern-inside
  { operator: 'pattern-inside', language: 'javascript', file: 'a.js', body: 'patterns:\n  - pattern-inside: |\n      app.get($PATH, function ($REQ, $RES) { ... })\n  - pattern: $RES.send($REQ.query.$F)', code: 'app.get("/", function (req, res) {\n  res.send(req.query.name)\n})\nfunction g(req, res) {\n  res.send(req.query.name)\n}\n', lines: [2] },
  { operator: 'pattern-inside', language: 'java', file: 'A.java', body: 'patterns:\n  - pattern-inside: |\n      void $M(HttpServletRequest $R, ...) { ... }\n  - pattern: $R.getParameter(...)', code: 'class A {\n  void get(HttpServletRequest req, HttpServletResponse res) {\n    req.getParameter("a");\n  }\n  void other(Map req) {\n    req.getParameter("a");\n  }\n}\n', lines: [3] },
  { operator: 'pattern-inside', language: 'go', file: 'a.go', body: 'patterns:\n  - pattern-inside: |\n      func $F($W http.ResponseWriter, $R *http.Request) { ... }\n  - pattern: $R.URL.Query()', code: 'package main\n\nfunc h(w http.ResponseWriter, r *http.Request) {\n\tr.URL.Query()\n}\n\nfunc g(r *Other) {\n\tr.URL.Query()\n}\n', lines: [4] },
  // pattern-not-inside
  { operator: 'pattern-not-inside', language: 'python', file: 'a.py', body: 'patterns:\n  - pattern: open(...)\n  - pattern-not-inside: |\n      with open(...) as $H:\n          ...', code: 'f = open(p)\nwith open(p) as h:\n    h.read()\n', lines: [1] },
  { operator: 'pattern-not-inside', language: 'javascript', file: 'a.js', body: 'patterns:\n  - pattern: JSON.parse($X)\n  - pattern-not-inside: try { ... } catch ($E) { ... }', code: 'JSON.parse(a)\ntry {\n  JSON.parse(b)\n} catch (e) {}\n', lines: [1] },
  { operator: 'pattern-not-inside', language: 'typescript', file: 'a.ts', body: 'patterns:\n  - pattern: $EL.innerHTML = $Y\n  - pattern-not-inside: |\n      $Y = sanitize(...)\n      ...', code: 'function f(el: Element, a: string) {\n  const b = 1\n  el.innerHTML = a\n  a = sanitize(a)\n  el.innerHTML = a\n}\n', lines: [3] },
  // pattern-regex
  { operator: 'pattern-regex', language: 'javascript', file: 'a.js', body: 'pattern-regex: password\\s*=\\s*"[^"]+"', code: 'const password = "hunter2"\nconst password = process.env.P\n', lines: [1] },
  { operator: 'pattern-regex', language: 'typescript', file: 'a.ts', body: 'pattern-regex: "\\\\bTODO\\\\b"', code: '// TODO: fix\n// TODOS\n', lines: [1] },
  { operator: 'pattern-regex', language: 'java', file: 'A.java', body: 'pattern-regex: System\\.exit\\(\\d+\\)', code: 'class A { void f() {\n  System.exit(1);\n  System.exit(code);\n} }\n', lines: [2] },
  { operator: 'pattern-regex', language: 'go', file: 'a.go', body: 'pattern-regex: InsecureSkipVerify:\\s*true', code: 'package main\nvar a = tls.Config{InsecureSkipVerify: true}\nvar b = tls.Config{InsecureSkipVerify: false}\n', lines: [2] },
  // metavariable-regex
  { operator: 'metavariable-regex', language: 'python', file: 'a.py', body: 'patterns:\n  - pattern: $F(...)\n  - metavariable-regex:\n      metavariable: $F\n      regex: (exec|eval)$', code: 'eval(x)\nexec(x)\nmy_eval(x)\nevaluate(x)\n', lines: [1, 2] },
  { operator: 'metavariable-regex', language: 'javascript', file: 'a.js', body: 'patterns:\n  - pattern: document.$M($X)\n  - metavariable-regex:\n      metavariable: $M\n      regex: write(ln)?$', code: 'document.write(a)\ndocument.writeln(a)\ndocument.getElementById(a)\n', lines: [1, 2] },
  { operator: 'metavariable-regex', language: 'typescript', file: 'a.ts', body: 'patterns:\n  - pattern: const $K = "..."\n  - metavariable-regex:\n      metavariable: $K\n      regex: .*(secret|Secret|password|Password)', code: 'const apiSecret = "abc"\nconst title = "abc"\nconst password = "x"\n', lines: [1, 3] },
  { operator: 'metavariable-regex', language: 'go', file: 'a.go', body: 'patterns:\n  - pattern: os.$FN(...)\n  - metavariable-regex:\n      metavariable: $FN\n      regex: Chmod', code: 'package main\nfunc f(p string) {\n\tos.Chmod(p, 0777)\n\tos.Chown(p, 1, 1)\n}\n', lines: [3] },
  // metavariable-pattern
  { operator: 'metavariable-pattern', language: 'javascript', file: 'a.js', body: 'patterns:\n  - pattern: fetch($URL)\n  - metavariable-pattern:\n      metavariable: $URL\n      pattern: req.query', code: 'fetch("http://x/" + req.query.u)\nfetch(config.url)\n', lines: [1] },
  { operator: 'metavariable-pattern', language: 'typescript', file: 'a.ts', body: 'patterns:\n  - pattern: $DB.query($SQL)\n  - metavariable-pattern:\n      metavariable: $SQL\n      pattern: $A + $B', code: 'db.query("select " + id)\ndb.query("select 1")\n', lines: [1] },
  { operator: 'metavariable-pattern', language: 'java', file: 'A.java', body: 'patterns:\n  - pattern: Runtime.getRuntime().exec($CMD)\n  - metavariable-pattern:\n      metavariable: $CMD\n      pattern: $A + $B', code: 'class A { void f(String x) {\n  Runtime.getRuntime().exec("ls " + x);\n  Runtime.getRuntime().exec("ls");\n} }\n', lines: [2] },
  { operator: 'metavariable-pattern', language: 'go', file: 'a.go', body: 'patterns:\n  - pattern: exec.Command($NAME, ...)\n  - metavariable-pattern:\n      metavariable: $NAME\n      pattern: \'"sh"\'', code: 'package main\nfunc f(x string) {\n\texec.Command("sh", "-c", x)\n\texec.Command("ls")\n}\n', lines: [3] },
  // metavariable-comparison
  { operator: 'metavariable-comparison', language: 'javascript', file: 'a.js', body: 'patterns:\n  - pattern: setTimeout($F, $MS)\n  - metavariable-comparison:\n      metavariable: $MS\n      comparison: $MS > 1000', code: 'setTimeout(f, 5000)\nsetTimeout(f, 10)\nsetTimeout(f, delay)\n', lines: [1] },
  { operator: 'metavariable-comparison', language: 'typescript', file: 'a.ts', body: 'patterns:\n  - pattern: bcrypt.hash($P, $ROUNDS)\n  - metavariable-comparison:\n      metavariable: $ROUNDS\n      comparison: $ROUNDS < 10', code: 'bcrypt.hash(p, 4)\nbcrypt.hash(p, 12)\n', lines: [1] },
  { operator: 'metavariable-comparison', language: 'java', file: 'A.java', body: 'patterns:\n  - pattern: $KG.initialize($BITS)\n  - metavariable-comparison:\n      metavariable: $BITS\n      comparison: $BITS < 2048', code: 'class A { void f(KeyPairGenerator kg) {\n  kg.initialize(1024);\n  kg.initialize(4096);\n} }\n', lines: [2] },
]

describe.each(OPERATOR_CASES)('$operator in $language', ({ language, file, body, code, lines }) => {
  it('reports the lines it must and no others', async () => {
    expect(await matchedLines(semgrepRule(language, body), file, code)).toEqual(lines)
  })
})

/** focus-metavariable in every language: the finding starts at the captured code. */
const FOCUS_CASES: Array<{ language: string; file: string; pattern: string; code: string; at: [number, number] }> = [
  { language: 'python', file: 'a.py', pattern: 'subprocess.run($CMD, shell=True)', code: 'subprocess.run(command, shell=True)\n', at: [1, 16] },
  { language: 'typescript', file: 'a.ts', pattern: 'res.send($A, $B)', code: 'res.send(200, body)\n', at: [1, 15] },
  { language: 'java', file: 'A.java', pattern: '$S.executeQuery($CMD)', code: 'class A { void f(Statement s, String q) {\n  s.executeQuery(q);\n} }\n', at: [2, 18] },
  { language: 'go', file: 'a.go', pattern: 'fmt.Sprintf($F, $CMD)', code: 'package main\nfunc f(x string) {\n\tfmt.Sprintf("%s", x)\n}\n', at: [3, 20] },
]

describe.each(FOCUS_CASES)('focus-metavariable in $language', ({ language, file, pattern, code, at }) => {
  it('reports the focused metavariable, not the whole match', async () => {
    const focusOn = pattern.includes('$B') ? '$B' : '$CMD'
    const { findings } = await scan(semgrepRule(language, `patterns:\n  - pattern: ${pattern}\n  - focus-metavariable: ${focusOn}`), { [file]: code })
    expect(findings.map((finding) => [finding.lineNumber, finding.columnStart])).toEqual([at])
  })
})
