/**
 * Credentials in URLs on documentation hosts (example.com, *.example): ignored in code, prose
 * and tests, reported (at lower confidence) in deployment files where the URL is the
 * configuration.
 */
import { describe, expect, it } from 'vitest'
import { findSecrets } from '../../src/engine/secrets/index.ts'

const URL_RULES = new Set(['secrets.database-connection-string', 'secrets.url-credentials'])

function urlFindings(text: string, path: string) {
  return findSecrets(path, text).filter((m) => URL_RULES.has(m.ruleId))
}

describe('secrets: credentials in URLs on documentation hosts', () => {
  it('reports a real-looking password in a deployment .env file', () => {
    const found = urlFindings('ORCHARD_DB=postgres://orchard:Gr4fting-77@db.orchard.example:5432/orchard\n', 'deploy/orchard.env')
    expect(found).toHaveLength(1)
    expect(found[0]?.confidence).toBeLessThan(0.85)
  })

  it('reports it in a .properties file', () => {
    expect(urlFindings('spring.data.mongodb.uri=mongodb://sync:Qv7-Rta-2291@mongo.example.com/stock\n', 'src/main/resources/app.properties')).toHaveLength(1)
  })

  it('ignores a placeholder password in a deployment file', () => {
    expect(urlFindings('ORCHARD_DB=postgres://orchard:changeme@db.orchard.example/orchard\n', 'deploy/orchard.env')).toHaveLength(0)
  })

  it('ignores documentation hosts in code, prose and templates', () => {
    expect(urlFindings('url = "postgres://orchard:Gr4fting-77@db.example.com/orchard"\n', 'src/orchard/db.py')).toHaveLength(0)
    expect(urlFindings('Use postgres://orchard:Gr4fting-77@db.example.com/orchard\n', 'docs/setup.md')).toHaveLength(0)
    expect(urlFindings('ORCHARD_DB=postgres://orchard:Gr4fting-77@db.example.com/orchard\n', '.env.example')).toHaveLength(0)
  })
})
