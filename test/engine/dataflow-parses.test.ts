/**
 * How often the data-flow analysis parses the files it reads: once each, whatever bound the
 * scan's tree keeper puts on the trees it shares with the other analyzers.
 */
import { describe, expect, it } from 'vitest'
import { SourceFile, TreeKeeper } from '../../src/engine/core/source-file.ts'
import { analyzeDataFlow } from '../../src/engine/dataflow/index.ts'

const FILES: Record<string, string> = {
  'pkg/views.py': 'from flask import request\nfrom .db import find\nfrom pkg import util\n\ndef view():\n    find(util.clean(request.args["id"]))\n    find(request.args["name"])\n',
  'pkg/db.py': 'def find(key):\n    cursor.execute("SELECT * FROM t WHERE k = \'" + key + "\'")\n',
  'pkg/util.py': 'def clean(value):\n    return int(value)\n',
}

describe('data-flow parses', () => {
  it('parse each file once when the scan keeps a single tree', () => {
    const keeper = new TreeKeeper(1)
    const files = Object.entries(FILES).map(([path, text]) => ({ path, text, source: new SourceFile(path, 'python', text, null, keeper) }))
    const result = analyzeDataFlow(files)
    // the flow crossed all three files, so each was parsed
    expect(result.findings.map((finding) => `${finding.filePath}:${finding.lineNumber}`)).toEqual(['pkg/db.py:2'])
    expect(result.traces.filter((trace) => trace.sanitized)).toHaveLength(1)
    expect(keeper.counter.treesParsed).toBe(3)
  })

  it('keep a file whose entry points are done until another file calls into it', () => {
    const keeper = new TreeKeeper(100)
    const files = Object.entries({
      // a.py is analyzed first: view is its entry point; run is analyzed only when b.py calls it
      'a.py': 'from flask import request\nimport os\n\ndef view():\n    os.system(request.args["q"])\n\ndef run(cmd):\n    os.system(cmd)\n',
      'b.py': 'from flask import request\nfrom a import run\n\ndef other():\n    run(request.args["c"])\n',
    }).map(([path, text]) => ({ path, text, source: new SourceFile(path, 'python', text, null, keeper) }))
    const result = analyzeDataFlow(files)
    expect(result.findings.map((finding) => `${finding.filePath}:${finding.lineNumber}`)).toEqual(['a.py:5', 'a.py:8'])
    expect(keeper.counter.treesParsed).toBe(2)
  })
})
