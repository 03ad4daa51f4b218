/**
 * The baseline: a minimal Express handler running the same SQL as the service's issue list
 * with `pg`, returning the same JSON, with no ORM, no GraphQL and no authentication.
 */
import express from 'express'
import pg from 'pg'

// The statements of src/modules/issues/issue.records.ts for this filter, with pg's $n placeholders.
const PAGE_SQL = `
  select i.id, i.scan_id, i.repo_id, i.rule_id, i.fingerprint, i.file_path, i.line_number, i.column_start, i.column_end, i.category,
    i.severity, i.confidence, i.title, i.description, i.explanation, i.code_snippet, i.context_before, i.context_after, i.remediation,
    i.remediation_code, i.cwe_ids, i.owasp_category, i.cvss_score, i.tags, i.model_used, i.data_flow, i.false_positive, i.exploitable,
    i.created_at, i.updated_at, r.repo_name, s.status as scan_status, s.created_at as scan_created_at,
    (select json_agg(json_build_object('text', n.text, 'author', n.author, 'created_at', n.created_at) order by n.created_at, n.id)
       from issue_notes n where n.issue_id = i.id and n.org_id = i.org_id) as notes
  from issues i
  join repositories r on r.id = i.repo_id and r.org_id = i.org_id and r.is_active
  join scans s on s.id = i.scan_id and s.org_id = i.org_id
  where i.org_id = $1 and i.severity = any($2) order by i.created_at desc, i.id asc limit $3 offset $4`
const COUNT_SQL = `
  select count(*)::int as total from issues i
  join repositories r on r.id = i.repo_id and r.org_id = i.org_id and r.is_active
  where i.org_id = $1 and i.severity = any($2)`

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 })
const app = express()

app.get('/api/issues', async (req, res) => {
  const page = Number(req.query['page'] ?? 1)
  const perPage = Number(req.query['per_page'] ?? 20)
  const severities = String(req.query['severity'] ?? 'critical,high,medium,low,info').split(',')
  const params = [process.env['BENCH_ORG'], severities]
  const [rows, count] = await Promise.all([pool.query(PAGE_SQL, [...params, perPage, (page - 1) * perPage]), pool.query(COUNT_SQL, params)])
  const total = count.rows[0].total as number
  const totalPages = Math.ceil(total / perPage)
  res.json({
    issues: rows.rows.map((row) => ({
      id: row.id, scan_id: row.scan_id, repo_id: row.repo_id, rule_id: row.rule_id, fingerprint: row.fingerprint, file_path: row.file_path,
      line_number: row.line_number, category: row.category, severity: row.severity, confidence: row.confidence, title: row.title,
      description: row.description, column_start: row.column_start, column_end: row.column_end, explanation: row.explanation,
      code_snippet: row.code_snippet, context_before: row.context_before, context_after: row.context_after, remediation: row.remediation,
      remediation_code: row.remediation_code, cwe_ids: row.cwe_ids, owasp_category: row.owasp_category, cvss_score: row.cvss_score,
      tags: row.tags, model_used: row.model_used, data_flow: row.data_flow, false_positive: row.false_positive, exploitable: row.exploitable,
      notes: (row.notes ?? []).map((note: { text: string; author: string; created_at: string }) => ({ text: note.text, author: note.author, created_at: new Date(note.created_at) })),
      created_at: row.created_at, updated_at: row.updated_at, repo_name: row.repo_name, scan_status: row.scan_status, scan_created_at: row.scan_created_at,
    })),
    total, page, per_page: perPage, total_pages: totalPages, has_next: page < totalPages, has_prev: page > 1,
  })
})

const server = app.listen(Number(process.env['PORT']), '127.0.0.1', () => process.send?.('ready'))
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))))
