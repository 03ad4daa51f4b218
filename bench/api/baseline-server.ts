/**
 * The baseline: a minimal Express handler running the same SQL as the service's issue list
 * with `pg`, returning the same JSON, with no ORM, no GraphQL and no authentication.
 */
import express from 'express'
import pg from 'pg'

const PAGE_SQL = `
  select i.*, r.repo_name, s.status as scan_status, s.created_at as scan_created_at
  from issues i join repositories r on r.id = i.repo_id join scans s on s.id = i.scan_id
  where i.org_id = $1 and r.is_active and i.severity = any($2)
  order by i.created_at desc, i.id asc limit $3 offset $4`
const COUNT_SQL = `
  select count(*)::int as total from issues i join repositories r on r.id = i.repo_id
  where i.org_id = $1 and r.is_active and i.severity = any($2)`
const NOTES_SQL = `select issue_id, text, author, created_at from issue_notes where issue_id = any($1) order by created_at, id`

const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 10 })
const app = express()

app.get('/api/issues', async (req, res) => {
  const page = Number(req.query['page'] ?? 1)
  const perPage = Number(req.query['per_page'] ?? 20)
  const severities = String(req.query['severity'] ?? 'critical,high,medium,low,info').split(',')
  const params = [process.env['BENCH_ORG'], severities]
  const [rows, count] = await Promise.all([pool.query(PAGE_SQL, [...params, perPage, (page - 1) * perPage]), pool.query(COUNT_SQL, params)])
  const notes = await pool.query(NOTES_SQL, [rows.rows.map((row) => row.id)])
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
      notes: notes.rows.filter((note) => note.issue_id === row.id).map((note) => ({ text: note.text, author: note.author, created_at: note.created_at })),
      created_at: row.created_at, updated_at: row.updated_at, repo_name: row.repo_name, scan_status: row.scan_status, scan_created_at: row.scan_created_at,
    })),
    total, page, per_page: perPage, total_pages: totalPages, has_next: page < totalPages, has_prev: page > 1,
  })
})

const server = app.listen(Number(process.env['PORT']), '127.0.0.1', () => process.send?.('ready'))
process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))))
