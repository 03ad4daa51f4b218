/** GET /openapi.json: a valid OpenAPI 3.1 document, generated from the route table; GET /docs: Swagger UI from local files. */
import { validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { REST_ROUTES } from '../../src/http/rest/routes.ts'
import { useTestApp } from '../support/app.ts'

const app = useTestApp()

/** The spec's routes this document must describe (method, path), with their success status. */
const SPEC_ROUTES: [string, string, string][] = [
  ['post', '/api/upload', '200'],
  ['get', '/api/repositories', '200'],
  ['delete', '/api/repositories/{repo_id}', '204'],
  ['get', '/api/repositories/{repo_id}/summary', '200'],
  ['get', '/api/repositories/summaries', '200'],
  ['get', '/api/repositories/{repo_id}/issues', '200'],
  ['post', '/api/scans/{repo_id}', '201'],
  ['get', '/api/scans', '200'],
  ['post', '/api/scans/{scan_id}/stop', '200'],
  ['get', '/api/scans/{scan_id}/status', '200'],
  ['get', '/api/scans/{scan_id}/task-status', '200'],
  ['get', '/api/scans/{scan_id}/results', '200'],
  ['get', '/api/scans/{scan_id}/logs', '200'],
  ['get', '/api/issues', '200'],
  ['get', '/api/issues/summary', '200'],
  ['patch', '/api/issues/bulk', '200'],
  ['patch', '/api/issues/{issue_id}', '200'],
  ['post', '/api/rulesets', '201'],
  ['get', '/api/rulesets', '200'],
  ['get', '/api/rulesets/{ruleset_id}', '200'],
  ['patch', '/api/rulesets/{ruleset_id}', '200'],
  ['delete', '/api/rulesets/{ruleset_id}', '204'],
]

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, version 1.8.0, with both security schemes', async () => {
    const response = await app.request('/openapi.json')
    expect(response.status).toBe(200)
    const document = response.body
    expect(document.openapi).toBe('3.1.0')
    expect(document.info.version).toBe('1.8.0')
    expect(document.components.securitySchemes).toEqual({
      ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    })
    const result = await validate(structuredClone(document))
    expect(result.valid, JSON.stringify(result)).toBe(true)
  })

  it('describes every route of the table and of the spec, with statuses, parameters and bodies', async () => {
    const { paths } = (await app.request('/openapi.json')).body
    const documented = Object.entries(paths as Record<string, Record<string, unknown>>).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
    expect(documented.sort()).toEqual(REST_ROUTES.map((route) => `${route.method} ${route.path.replace(/:([a-z_]+)/g, '{$1}')}`).sort())
    for (const [method, path, status] of SPEC_ROUTES) {
      const operation = paths[path]?.[method]
      expect(operation, `${method} ${path}`).toBeDefined()
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining([status, '401', '403', '422']))
    }
    const issues = paths['/api/issues'].get
    expect(issues.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['page', 'per_page', 'severity', 'category', 'false_positive', 'scan_id', 'file_path', 'latest', 'baseline_state', 'repo_id', 'created_after', 'created_before'])
    expect(issues.parameters.find((parameter: { name: string }) => parameter.name === 'baseline_state').schema).toMatchObject({ enum: ['new', 'unchanged'] })
    expect(paths['/api/issues/summary'].get.parameters.map((parameter: { name: string }) => parameter.name)).toEqual(['latest'])
    const results = paths['/api/scans/{scan_id}/results'].get.responses['200'].content['application/json'].schema
    expect(Object.keys(results.properties)).toEqual(['scan_id', 'status', 'issues', 'summary', 'fixed_issues'])
    expect(results.properties.summary.required).toEqual(expect.arrayContaining(['new_count', 'unchanged_count', 'fixed_count']))
    expect(paths['/api/scans/{scan_id}/sarif'].get).toMatchObject({ 'x-required-scope': 'write:scan', responses: { 200: expect.anything(), 400: expect.anything(), 404: expect.anything() } })
    expect(issues.parameters.find((parameter: { name: string }) => parameter.name === 'per_page').schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 })
    const bulk = paths['/api/issues/bulk'].patch.requestBody.content['application/json'].schema
    expect(bulk.required).toEqual(['issue_ids'])
    expect(bulk.properties.issue_ids).toMatchObject({ type: 'array', minItems: 1, maxItems: 100 })
    expect(bulk.properties.notes.anyOf[0]).toMatchObject({ maxLength: 1000 })
    expect(SPEC_ROUTES).toHaveLength(22)
    const upload = paths['/api/upload'].post.requestBody.content['multipart/form-data'].schema
    expect(upload.required).toEqual(['file', 'repo_name', 'branch_name'])
    expect(upload.properties.file).toMatchObject({ type: 'string', format: 'binary' })
    expect(paths['/api/repositories'].get.responses['200'].content['application/json'].schema).toEqual({
      type: 'object',
      properties: { all_repos: { type: 'array', items: { $ref: '#/components/schemas/Repository' } } },
      required: ['all_repos'],
    })
  })

  it('types the Issue as the spec does', async () => {
    const { components } = (await app.request('/openapi.json')).body
    const issue = components.schemas.Issue
    for (const field of ['id', 'scan_id', 'file_path', 'line_number', 'category', 'severity', 'confidence', 'title', 'description', 'column_start', 'column_end', 'explanation', 'code_snippet', 'context_before', 'context_after', 'remediation', 'remediation_code', 'cwe_ids', 'owasp_category', 'cvss_score', 'tags', 'model_used', 'false_positive', 'exploitable', 'created_at', 'updated_at', 'repo_name', 'scan_status', 'scan_created_at']) {
      expect(issue.properties, field).toHaveProperty(field)
    }
    expect(issue.properties.severity).toEqual({ type: 'string', enum: ['critical', 'high', 'medium', 'low', 'info'] })
    expect(issue.properties.line_number).toEqual({ type: 'integer' })
    expect(issue.properties.baseline_state).toEqual({ type: 'string', enum: ['new', 'unchanged'] })
    expect(issue.properties.first_seen_at).toEqual({ type: 'string', format: 'date-time' })
    expect(issue.properties.first_seen_scan_id).toEqual({ type: 'string' })
    expect(issue.properties.cwe_ids).toEqual({ type: 'array', items: { type: 'string' } })
  })
})

describe('GET /docs', () => {
  it('serves Swagger UI with every asset local', async () => {
    const page = await app.request('/docs')
    expect(page.status).toBe(200)
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string)
    expect(sources.length).toBeGreaterThanOrEqual(3)
    for (const source of sources) {
      expect(source.startsWith('/docs/assets/')).toBe(true)
      expect((await app.request(source)).status, source).toBe(200)
    }
    expect(page.text).toContain("url: '/openapi.json'")
  })
})
