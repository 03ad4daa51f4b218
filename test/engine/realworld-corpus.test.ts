/**
 * The real-world corpus (bench/corpus/, scored by `npm run bench:realworld`) is well-formed:
 * every label names a known category and stands on a code line that exists, sidecar labels
 * point at lines holding the text they quote, and every application scans without errors with
 * the full analysis. How well the engine scores on it is the benchmark's business, not this test's.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanDirectory } from '../../src/engine/index.ts'
import { ANALYZERS } from '../../src/engine/core/types.ts'
import type { Finding } from '../../src/engine/core/types.ts'
import { CORPUS_ROOT, listApplications, readApplicationLabels, scoreApplication } from '../../bench/lib/realworld-corpus.ts'
import type { LabelProblem } from '../../bench/lib/realworld-corpus.ts'
import { tempTree } from './support/helpers.ts'

function describeProblem(problem: LabelProblem): string {
  return `${problem.application}/${problem.file}:${problem.line}: ${problem.message}`
}

function findingAt(filePath: string, lineNumber: number, category: Finding['category']): Finding {
  return { filePath, lineNumber, category, ruleId: `test.${category}` } as Finding
}

describe('real-world corpus', () => {
  const applications = listApplications()

  it('holds applications in Java, Python, JavaScript and TypeScript, each with vulnerable and safe cases', () => {
    const languages = new Set<string>()
    for (const application of applications) {
      const { cases } = readApplicationLabels(application)
      expect(cases.some((corpusCase) => corpusCase.polarity === 'vuln'), `${application} has vulnerable cases`).toBe(true)
      expect(cases.some((corpusCase) => corpusCase.polarity === 'safe'), `${application} has safe cases`).toBe(true)
      for (const corpusCase of cases) languages.add(corpusCase.language)
    }
    expect([...languages]).toEqual(expect.arrayContaining(['java', 'python', 'javascript', 'typescript', 'config']))
  })

  it('labels name known categories and stand on code lines that exist', () => {
    const problems = applications.flatMap((application) => readApplicationLabels(application).problems)
    expect(problems.map(describeProblem)).toEqual([])
  })

  it('every application scans without errors with the full analysis, labelled files included', async () => {
    for (const application of applications) {
      const messages: string[] = []
      const skipped: string[] = []
      await scanDirectory(join(CORPUS_ROOT, application), {
        analyzers: [...ANALYZERS],
        onLog: (event) => {
          if (event.level === 'error' || event.level === 'warning') messages.push(event.message)
          const path = event.data?.['path']
          if (event.message.startsWith('skipped ') && typeof path === 'string') skipped.push(path)
        },
      })
      expect(messages, application).toEqual([])
      const labelledFiles = new Set(readApplicationLabels(application).labels.map((label) => label.file))
      expect(skipped.filter((path) => labelledFiles.has(path)), `${application}: labelled files the scan skipped`).toEqual([])
    }
  })

  describe('label reader', () => {
    it('reports unknown categories, labels on a line of their own, and sidecar lines that do not match their file', () => {
      const root = tempTree({
        'app/Main.java': 'class Main {\n  void a() { run(x); } // vuln: sql-injektion\n  // safe: xss\n  void b() {}\n}\n',
        'app/app.properties': 'db.password=secret\n',
        'app/labels.txt': 'app.properties:1 vuln: hardcoded-secret "db.user="\nmissing.env:1 vuln: hardcoded-secret "X"\n',
      })
      const messages = readApplicationLabels('app', root).problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`)
      expect(messages).toEqual([
        'Main.java:3: a label goes at the end of the code line it labels, not on a line of its own',
        'labels.txt:1: app.properties:1 does not contain "db.user="',
        'labels.txt:2: missing.env does not exist',
        'Main.java:2: unknown category "sql-injektion"',
      ])
    })

    it('extends a label over the statement it starts and joins labels of one group into one case', () => {
      const root = tempTree({
        'app/views.py': [
          'def a(request):',
          '    cursor.execute(  # vuln: sql-injection',
          '        "select " + request.args["q"],',
          '    )',
          '    token = random.random()  # vuln: insecure-randomness [token]',
          '    resp.set_cookie("t", str(token))  # vuln: insecure-randomness [token]',
          '    os.system("ls")  # safe: command-injection',
          '',
        ].join('\n'),
      })
      const labels = readApplicationLabels('app', root)
      expect(labels.problems).toEqual([])
      expect(labels.cases.map((corpusCase) => [corpusCase.category, corpusCase.locations.map((location) => location.line)])).toEqual([
        ['sql-injection', [2, 3, 4]],
        ['insecure-randomness', [5, 6]],
        ['command-injection', [7]],
      ])
      const score = scoreApplication(labels, [
        findingAt('views.py', 3, 'sql-injection'),
        findingAt('views.py', 6, 'insecure-randomness'),
        findingAt('views.py', 7, 'code-injection'),
      ])
      expect(score.results.map((result) => result.outcome)).toEqual(['TP', 'TP', 'TN'])
      expect(score.unlabelled.map((finding) => `${finding.lineNumber} ${finding.category}`)).toEqual(['7 code-injection'])
    })
  })
})
