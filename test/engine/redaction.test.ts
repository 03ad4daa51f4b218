/** No secret text may appear in any finding field, whichever analyzers ran. */
import { describe, expect, it } from 'vitest'
import { scanSources } from '../../src/engine/scan/scan.ts'
import { parseRulesText } from '../../src/engine/rules/loader.ts'
import { SourceFile } from '../../src/engine/core/source-file.ts'
import { buildFinding } from '../../src/engine/core/findings.ts'
import type { SecretsDetector } from '../../src/engine/secrets/bridge.ts'
import { loadSecretsDetector } from '../../src/engine/secrets/bridge.ts'
import { toSarif } from '../../src/engine/output/sarif.ts'
import { ruleYaml, source } from './support/helpers.ts'

const TOKEN = 'ghp_R8x2LmQ7vK3pZ9wT4yN6bH1cJ5dF0gA2sE7u'
const PASSWORD = 'Tr0ub4dor&3xQ9!zLp'

const rules = parseRulesText(
  ruleYaml({
    id: 'js.exec-concat',
    language: 'javascript',
    rule: '\n  pattern: exec($CMD)',
    message: 'exec() runs $CMD',
    fix: 'execFile("curl", [$CMD])',
  }),
)

const text = [
  `const token = "${TOKEN}"`,
  `const password = "${PASSWORD}"`,
  `exec("curl -H 'Authorization: token ${TOKEN}' " + url)`,
  `login(user, "${PASSWORD}")`,
  '',
].join('\n')

const { detector } = await loadSecretsDetector()

describe.runIf(detector !== null)('redaction with the secrets analyzer', () => {
  it('keeps every secret out of the JSON and SARIF of a file with secrets', async () => {
    for (const analyzers of [['sast', 'secrets'], ['sast']] as const) {
      const report = await scanSources([source('src/deploy.js', text)], { analyzers: [...analyzers], builtinRules: false, extraRules: rules })
      expect(report.findings.some((finding) => finding.ruleId === 'js.exec-concat')).toBe(true)
      if ((analyzers as readonly string[]).includes('secrets')) expect(report.findings.some((finding) => finding.category === 'hardcoded-secret')).toBe(true)
      const json = JSON.stringify(report) + JSON.stringify(toSarif(report, { rules }))
      expect(json).not.toContain(TOKEN)
      expect(json).not.toContain(PASSWORD)
      expect(json).toContain('ghp_') // redacted form keeps a recognizable prefix
    }
  })

  it('builds secret findings with every field', async () => {
    const report = await scanSources([source('src/deploy.js', text)], { analyzers: ['secrets'] })
    const secret = report.findings.find((finding) => finding.ruleId === 'secrets.github-token')
    expect(secret).toMatchObject({
      analyzer: 'secrets',
      modelUsed: 'parapet-secrets/1.0',
      category: 'hardcoded-secret',
      owaspCategory: 'A07:2021 - Identification and Authentication Failures',
      lineNumber: 1,
      columnStart: 16,
      columnEnd: 56,
      remediationCode: null,
    })
    expect(secret?.cvssScore).toBeGreaterThan(0)
    expect(secret?.cweIds).toContain('CWE-798')
    expect(secret?.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(secret?.explanation).toContain('src/deploy.js')
  })
})

describe('redaction of display lines', () => {
  const fake: SecretsDetector = {
    ruleCount: 1,
    redact: (secret) => `${secret.slice(0, 3)}***`,
    findSecrets: (_path, content) => {
      const index = content.indexOf('SECRETVALUE123')
      if (index === -1) return []
      const before = content.slice(0, index)
      const line = before.split('\n').length
      const column = index - before.lastIndexOf('\n')
      return [{ ruleId: 's', title: 't', description: 'd', severity: 'high', confidence: 1, cwe: [], tags: [], remediation: 'r', line, columnStart: column, columnEnd: column + 14, secret: 'SECRETVALUE123' }]
    },
  }

  it('redacts before long lines are shortened, so no fragment of a secret survives the cut', () => {
    const longLine = `${'x'.repeat(390)}SECRETVALUE123${'y'.repeat(100)}`
    const file = new SourceFile('a.js', 'javascript', `${longLine}\nuse(SECRETVALUE123)\n`, fake)
    const finding = buildFinding(
      file,
      { startLine: 1, startColumn: 0, endLine: 1, endColumn: 18 },
      {
        ruleId: 'r', analyzer: 'sast', modelUsed: 'parapet-sast/1.0', category: 'xss', severity: 'low', confidence: 1, title: 't',
        description: 'use(SECRETVALUE123)', explanation: 'matched use(SECRETVALUE123)', remediation: 'r', remediationCode: 'safe(SECRETVALUE123)',
        cweIds: [], owaspCategory: 'A03:2021 - Injection', cvssScore: 1, tags: [],
      },
      'f',
    )
    expect(JSON.stringify(finding)).not.toMatch(/SECRETVAL|ETVALUE123/)
    expect(finding.codeSnippet).toBe('use(SEC***)')
    expect(finding.contextBefore).toContain('SEC***')
  })
})
