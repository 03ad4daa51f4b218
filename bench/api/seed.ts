/** Seeds one organization with 20 repositories, a completed scan each, 100,000 issues in all, and triage notes on a tenth of them. */
import pg from 'pg'

export const BENCH_ORG = 'org-bench'
export const REPOSITORIES = 20
export const ISSUES_PER_REPOSITORY = 5000

export async function seedIssues(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(
      `insert into repositories (id, org_id, repo_name, branch_name, created_by, languages)
       select gen_random_uuid(), $1, 'repo-' || g, 'main', 'bench', '{"Python": 50000}' from generate_series(1, $2::int) g`,
      [BENCH_ORG, REPOSITORIES],
    )
    await client.query(
      `insert into scans (id, org_id, repo_id, status, scan_type, created_by, created_at, started_at, completed_at)
       select gen_random_uuid(), org_id, id, 'completed', 'full', 'bench', now() - interval '1 day', now() - interval '1 day', now() - interval '23 hours'
       from repositories where org_id = $1`,
      [BENCH_ORG],
    )
    await client.query(
      `insert into issues (id, org_id, repo_id, scan_id, fingerprint, rule_id, file_path, line_number, column_start, column_end,
         category, severity, confidence, title, description, explanation, code_snippet, context_before, context_after,
         remediation, remediation_code, cwe_ids, owasp_category, cvss_score, tags, model_used, created_at, updated_at)
       select gen_random_uuid(), s.org_id, s.repo_id, s.id, md5(s.id::text || g), 'python.rule-' || (g % 50),
         'src/module_' || (g % 500) || '/file_' || g || '.py', g % 400 + 1, 5, 42,
         (array['sql-injection','xss','command-injection','path-traversal','weak-hash'])[g % 5 + 1],
         (array['critical','high','medium','low','info'])[(g / 5) % 5 + 1],
         0.8, 'Finding number ' || g, 'A query is built from request data', 'The value of id reaches cursor.execute',
         'cursor.execute(f"select * from items where id = {item_id}")', 'def load(item_id):', '    return cursor.fetchall()',
         'Use query parameters', 'cursor.execute("select * from items where id = %s", (item_id,))',
         '["CWE-89"]', 'A03:2021 - Injection', 8.6, '["injection", "sql"]', 'parapet-sast/1.0',
         now() - (g || ' seconds')::interval, now()
       from scans s, generate_series(1, $2::int) g where s.org_id = $1`,
      [BENCH_ORG, ISSUES_PER_REPOSITORY],
    )
    // triage leaves notes on some issues: one in ten has two
    await client.query(
      `insert into issue_notes (id, org_id, issue_id, text, author, created_at)
       select gen_random_uuid(), i.org_id, i.id, note.text, 'triager', i.created_at + note.delay
       from (select id, org_id, created_at, row_number() over (order by id) as n from issues where org_id = $1) i,
         (values ('Reproduced against staging', interval '1 hour'), ('Fix scheduled for the next release', interval '2 hours')) as note(text, delay)
       where i.n % 10 = 0`,
      [BENCH_ORG],
    )
    // the steady state autovacuum keeps: statistics and visibility map up to date
    await client.query('vacuum analyze')
  } finally {
    await client.end()
  }
}
