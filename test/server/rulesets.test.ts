/** Ruleset routes: create, list, get, update, delete; repository links; names unique per organization. */
import { describe, expect, it } from 'vitest'
import { expectNoInternals, useTestApp } from '../support/app.ts'
import { makeApiKeyPrincipal, makeRepository } from '../support/factories.ts'
import { EVAL_RULES } from '../support/rules.ts'

const app = useTestApp()
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'
const RULES = EVAL_RULES
/** A Semgrep rule file, as a team moving to Parapet pastes it: a search rule and a taint rule. */
const SEMGREP_RULES = `rules:
  - id: python-eval
    message: eval() runs $X as code
    severity: ERROR
    languages: [python]
    metadata:
      cwe: "CWE-95: Eval Injection"
    patterns:
      - pattern: eval($X)
      - pattern-not: eval("...")
  - id: flask-sql
    message: request data reaches a SQL query
    severity: HIGH
    languages: [python]
    mode: taint
    pattern-sources:
      - pattern: flask.request.args.get(...)
    pattern-sinks:
      - patterns:
          - pattern: $CURSOR.execute($QUERY, ...)
          - focus-metavariable: $QUERY
    pattern-sanitizers:
      - pattern: int(...)
`

async function arrange() {
  const caller = await makeApiKeyPrincipal(app.db.orm, { userId: 'carol' })
  const repository = await makeRepository(app.db.orm, { orgId: caller.orgId })
  return { caller, repository }
}

describe('POST /api/rulesets', () => {
  it('creates a ruleset (201) linked to repositories, with defaults', async () => {
    const { caller, repository } = await arrange()
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'team rules', rules_text: RULES, repo_ids: [repository.id] } })
    expect(response.status).toBe(201)
    expect(response.body).toEqual({
      id: expect.any(String),
      name: 'team rules',
      description: '',
      rules_text: RULES,
      org_id: caller.orgId,
      repo_ids: [repository.id],
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
      created_by: 'carol',
    })
    const minimal = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'minimal', rules_text: RULES } })
    expect(minimal.body.repo_ids).toEqual([])
  })

  it('answers 409 for a name already used in the organization, not in another', async () => {
    const { caller } = await arrange()
    await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'dup', rules_text: RULES } })
    const again = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'dup', rules_text: RULES } })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ detail: 'A ruleset named "dup" already exists' })
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.request('/api/rulesets', { method: 'POST', headers: stranger.headers, json: { name: 'dup', rules_text: RULES } })).status).toBe(201)
  })

  it('gives exactly one 201 to concurrent creates with one name', async () => {
    const { caller } = await arrange()
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'race', rules_text: RULES } })),
    )
    expect(responses.map((response) => response.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409])
  })

  it("answers 404 for repositories that are not the caller's, storing nothing", async () => {
    const { caller, repository } = await arrange()
    const theirs = await makeRepository(app.db.orm)
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'bad links', rules_text: RULES, repo_ids: [repository.id, theirs.id] } })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ detail: `Repository not found: ${theirs.id}` })
    const list = await app.request('/api/rulesets', { headers: caller.headers })
    expect(list.body.map((ruleset: { name: string }) => ruleset.name)).not.toContain('bad links')
  })

  it('answers 422 for every missing or malformed field', async () => {
    const { caller } = await arrange()
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { description: 5, repo_ids: ['x'] } })
    expect(response.status).toBe(422)
    expect(response.body.detail.map((item: { loc: unknown[]; type: string }) => [item.loc.join('.'), item.type])).toEqual([
      ['body.name', 'missing'],
      ['body.rules_text', 'missing'],
      ['body.description', 'string_type'],
      ['body.repo_ids.0', 'uuid_parsing'],
    ])
    const missingBody = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers })
    expect(missingBody.status).toBe(422)
    expect(missingBody.body.detail[0]).toMatchObject({ loc: ['body'], type: 'missing' })
  })

  it('needs write:repo', async () => {
    const reader = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    expect((await app.request('/api/rulesets', { method: 'POST', headers: reader.headers, json: { name: 'n', rules_text: RULES } })).status).toBe(403)
  })
})

describe('rule text validation', () => {
  it('answers 422 on rules_text the engine refuses, naming the rule and the line, on create and update', async () => {
    const { caller } = await arrange()
    const broken = `${RULES}---
id: custom.bad
language: cobol
rule:
  pattern: eval($X)
severity: urgent
message: m
title: t
category: code-injection
cwe: [CWE-95]
owasp: "A03:2021 - Injection"
cvss: 5
confidence: 0.5
remediation: r
`
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'broken', rules_text: broken } })
    expect(response.status).toBe(422)
    expect(response.body.detail.length).toBeGreaterThanOrEqual(1)
    for (const problem of response.body.detail) {
      expect(problem.loc).toEqual(['body', 'rules_text'])
      expect(problem.msg).toMatch(/^rule "custom\.bad" \(line \d+\): /)
    }
    expect(response.body.detail.map((problem: { msg: string }) => problem.msg).join(' ')).toMatch(/cobol|language/)
    const list = await app.request('/api/rulesets', { headers: caller.headers })
    expect(list.body.map((ruleset: { name: string }) => ruleset.name)).not.toContain('broken')

    const created = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'fine', rules_text: RULES } })
    const update = await app.request(`/api/rulesets/${created.body.id}`, { method: 'PATCH', headers: caller.headers, json: { rules_text: 'id: [unclosed' } })
    expect(update.status).toBe(422)
    expect(update.body.detail[0].loc).toEqual(['body', 'rules_text'])
    expect((await app.request(`/api/rulesets/${created.body.id}`, { headers: caller.headers })).body.rules_text).toBe(RULES)
  })

  it('accepts a Semgrep rule file as rules_text (201), stored as written', async () => {
    const { caller } = await arrange()
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'from semgrep', rules_text: SEMGREP_RULES } })
    expect(response.status, response.text).toBe(201)
    expect(response.body.rules_text).toBe(SEMGREP_RULES)
  })

  it('answers 422 on a Semgrep feature Parapet cannot run, naming the rule, the line and the feature, on create and update', async () => {
    const { caller } = await arrange()
    const join = `${SEMGREP_RULES}  - id: joined-flows\n    message: m\n    severity: WARNING\n    languages: [python]\n    mode: join\n    join:\n      rules: []\n`
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'joined', rules_text: join } })
    expect(response.status).toBe(422)
    expect(response.body.detail).toEqual([
      { loc: ['body', 'rules_text'], msg: 'rule "joined-flows" (line 28): mode: join is not supported', type: 'value_error' },
    ])
    expectNoInternals(response)

    const created = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'semgrep, then joined', rules_text: SEMGREP_RULES } })
    const update = await app.request(`/api/rulesets/${created.body.id}`, { method: 'PATCH', headers: caller.headers, json: { rules_text: join } })
    expect(update.status).toBe(422)
    expect(update.body.detail[0].msg).toBe('rule "joined-flows" (line 28): mode: join is not supported')
    expect((await app.request(`/api/rulesets/${created.body.id}`, { headers: caller.headers })).body.rules_text).toBe(SEMGREP_RULES)

    const graphql = await app.graphql('mutation($input: CreateRulesetInput!) { createRuleset(input: $input) { id } }', { input: { name: 'joined over graphql', rulesText: join } }, caller.headers)
    expect(graphql.body.errors[0].extensions.code).toBe('BAD_USER_INPUT')
    expect(graphql.body.errors[0].extensions.issues.map((issue: { msg: string }) => issue.msg)).toEqual(['rule "joined-flows" (line 28): mode: join is not supported'])
  })

  it('answers BAD_USER_INPUT over GraphQL with the same problems', async () => {
    const { caller } = await arrange()
    const response = await app.graphql('mutation($input: CreateRulesetInput!) { createRuleset(input: $input) { id } }', { input: { name: 'g', rulesText: 'id: only-an-id' } }, caller.headers)
    expect(response.body.errors[0].extensions.code).toBe('BAD_USER_INPUT')
    expect(response.body.errors[0].extensions.issues[0].loc).toEqual(['body', 'rules_text'])
  })
})

/** A one-rule text like RULES, with its `rule:` block replaced. */
function ruleText(ruleBlock: string, id = 'custom.bounded'): string {
  return RULES.replace('custom.no-eval', id).replace('rule:\n  pattern: eval($X)\n', `rule:\n${ruleBlock}\n`)
}

describe('rule text bounds', () => {
  async function expectRefused(caller: { headers: Record<string, string> }, rulesText: string, message: RegExp) {
    const response = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: `bounded-${Math.random()}`, rules_text: rulesText } })
    expect(response.status, response.text).toBe(422)
    expect(response.body.detail).toEqual([{ loc: ['body', 'rules_text'], msg: expect.stringMatching(message), type: 'value_error' }])
    expectNoInternals(response)
    return response
  }

  it('refuses a pattern nested 20,000 calls deep before ast-grep parses it, and keeps answering', async () => {
    const { caller } = await arrange()
    const deep = `${'f('.repeat(20_000)}x${')'.repeat(20_000)}`
    await expectRefused(caller, ruleText(`  pattern: "${deep}"`), /^rule "custom\.bounded" \(line 4\): rule\.pattern is 60001 characters long, over the limit of 4096$/)
    const nested = `${'f('.repeat(1000)}x${')'.repeat(1000)}`
    await expectRefused(caller, ruleText(`  pattern: "${nested}"`), /^rule "custom\.bounded" \(line 4\): rule\.pattern nests brackets 1000 levels deep, over the limit of 64$/)
    const update = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'after the deep ones', rules_text: RULES } })
    expect(update.status).toBe(201)
    const patched = await app.request(`/api/rulesets/${update.body.id}`, { method: 'PATCH', headers: caller.headers, json: { rules_text: ruleText(`  pattern: "${deep}"`) } })
    expect(patched.status).toBe(422)
    expect((await app.request(`/api/rulesets/${update.body.id}`, { headers: caller.headers })).body.rules_text).toBe(RULES)
  })

  it('refuses YAML nested deeper than the limit, too many rules and too large a text', async () => {
    const { caller } = await arrange()
    await expectRefused(caller, ruleText(`  pattern: x\n  not: ${'['.repeat(5000)}${']'.repeat(5000)}`), /^rules_text \(line 5\): YAML nested more than 32 levels deep$/)
    await expectRefused(caller, ruleText(`  ${'not: {'.repeat(40)}pattern: x${'}'.repeat(40)}`), /^rules_text \(line 4\): YAML nested more than 32 levels deep$/)
    const many = Array.from({ length: 501 }, (_, index) => RULES.replace('custom.no-eval', `custom.rule-${index}`)).join('---\n')
    await expectRefused(caller, many, /^rules_text \(line \d+\): more than 500 rules, the limit for one text$/)
    const large = `${RULES}# ${'x'.repeat(600 * 1024)}\n`
    await expectRefused(caller, large, /^rules_text \(line 1\): the text is \d+ bytes, over the limit of 524288$/)
  })

  it('refuses YAML alias bombs and unresolved aliases with the reason', async () => {
    const { caller } = await arrange()
    const levels = 'abcdefghi'.split('')
    const bomb = [`${levels[0]}: &${levels[0]} ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`, ...levels.slice(1).map((name, index) => `${name}: &${name} [${Array(9).fill(`*${levels[index]}`).join(',')}]`)].join('\n')
    await expectRefused(caller, `${RULES}---\n${bomb}\n`, /^rules_text \(line 15\): YAML aliases expand too much \(more than 100 expansions\)/)
    await expectRefused(caller, ruleText('  pattern: *nowhere'), /^rule "custom\.bounded" \(line 1\): YAML error: Unresolved alias/)
    const cycle = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'cycle', rules_text: ruleText('  pattern: x\n  any: &loop [*loop]') } })
    expect(cycle.status).toBe(422)
  })
})

describe('GET /api/rulesets and /api/rulesets/{ruleset_id}', () => {
  it("lists and reads the organization's rulesets only", async () => {
    const { caller } = await arrange()
    const created = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'mine', rules_text: RULES } })
    const stranger = await makeApiKeyPrincipal(app.db.orm, { scopes: ['read:repo'] })
    await app.request('/api/rulesets', { method: 'POST', headers: (await makeApiKeyPrincipal(app.db.orm, { orgId: stranger.orgId })).headers, json: { name: 'theirs', rules_text: RULES } })

    const list = await app.request('/api/rulesets', { headers: caller.headers })
    expect(list.status).toBe(200)
    expect(list.body.map((ruleset: { name: string }) => ruleset.name)).toEqual(['mine'])
    const one = await app.request(`/api/rulesets/${created.body.id}`, { headers: caller.headers })
    expect(one.body).toEqual(created.body)

    const peek = await app.request(`/api/rulesets/${created.body.id}`, { headers: stranger.headers })
    expect(peek.status).toBe(404)
    expect(peek.text).not.toContain('mine')
    expect((await app.request('/api/rulesets/nope', { headers: caller.headers })).status).toBe(400)
    expect((await app.request(`/api/rulesets/${UNKNOWN_ID}`, { headers: caller.headers })).status).toBe(404)
  })

  it('drops deactivated repositories from repo_ids', async () => {
    const { caller, repository } = await arrange()
    const created = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'linked', rules_text: RULES, repo_ids: [repository.id] } })
    expect((await app.request(`/api/repositories/${repository.id}`, { method: 'DELETE', headers: caller.headers })).status).toBe(204)
    expect((await app.request(`/api/rulesets/${created.body.id}`, { headers: caller.headers })).body.repo_ids).toEqual([])
  })
})

describe('PATCH /api/rulesets/{ruleset_id}', () => {
  it('changes the given fields and replaces the links', async () => {
    const { caller, repository } = await arrange()
    const second = await makeRepository(app.db.orm, { orgId: caller.orgId })
    const created = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'before', rules_text: RULES, repo_ids: [repository.id] } })
    const response = await app.request(`/api/rulesets/${created.body.id}`, { method: 'PATCH', headers: caller.headers, json: { name: 'after', description: 'tuned', repo_ids: [second.id] } })
    expect(response.status).toBe(200)
    expect(response.body).toMatchObject({ name: 'after', description: 'tuned', rules_text: RULES, repo_ids: [second.id] })
    expect(new Date(response.body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(created.body.updated_at).getTime())
  })

  it('answers 409 on a taken name, 404 on foreign repositories or rulesets, 422 on bad types', async () => {
    const { caller } = await arrange()
    await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'taken', rules_text: RULES } })
    const created = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'free', rules_text: RULES } })
    const path = `/api/rulesets/${created.body.id}`
    expect((await app.request(path, { method: 'PATCH', headers: caller.headers, json: { name: 'taken' } })).status).toBe(409)
    const theirs = await makeRepository(app.db.orm)
    expect((await app.request(path, { method: 'PATCH', headers: caller.headers, json: { repo_ids: [theirs.id] } })).status).toBe(404)
    expect((await app.request(path, { method: 'PATCH', headers: caller.headers, json: { name: 7 } })).status).toBe(422)
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.request(path, { method: 'PATCH', headers: stranger.headers, json: { name: 'hijack' } })).status).toBe(404)
    expect((await app.request(path, { headers: caller.headers })).body.name).toBe('free')
  })
})

describe('DELETE /api/rulesets/{ruleset_id}', () => {
  it('deletes (204), then the ruleset is gone', async () => {
    const { caller } = await arrange()
    const created = await app.request('/api/rulesets', { method: 'POST', headers: caller.headers, json: { name: 'temp', rules_text: RULES } })
    const stranger = await makeApiKeyPrincipal(app.db.orm)
    expect((await app.request(`/api/rulesets/${created.body.id}`, { method: 'DELETE', headers: stranger.headers })).status).toBe(404)
    const response = await app.request(`/api/rulesets/${created.body.id}`, { method: 'DELETE', headers: caller.headers })
    expect(response.status).toBe(204)
    expect(response.text).toBe('')
    expect((await app.request(`/api/rulesets/${created.body.id}`, { headers: caller.headers })).status).toBe(404)
    expectNoInternals(await app.request(`/api/rulesets/${created.body.id}`, { method: 'DELETE', headers: caller.headers }))
  })
})
