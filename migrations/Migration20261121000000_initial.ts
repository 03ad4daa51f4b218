/**
 * The first schema: every record of the design, with the indexes the spec's list filters use
 * and the partial unique index that allows one queued-or-running scan per repository.
 */
import { Migration } from '@mikro-orm/migrations'

export class Migration20261121000000_initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`)

    this.addSql(`
      create table repositories (
        id uuid primary key,
        org_id text not null,
        repo_name text not null,
        branch_name text not null,
        is_active boolean not null default true,
        size_bytes bigint not null default 0,
        file_count integer not null default 0,
        languages jsonb not null default '{}',
        content_sha256 text null,
        content_id uuid null,
        created_by text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        last_scan_id uuid null,
        last_scan_status text null,
        deactivated_at timestamptz null
      );`)
    this.addSql(`create index repositories_org_created_idx on repositories (org_id, created_at desc);`)
    this.addSql(`create unique index repositories_active_name_uniq on repositories (org_id, repo_name, branch_name) where is_active;`)

    this.addSql(`
      create table repository_contents (
        id uuid primary key,
        org_id text not null,
        repo_id uuid not null references repositories (id),
        sha256 text not null,
        size_bytes bigint not null,
        chunk_count integer not null,
        created_at timestamptz not null default now()
      );`)
    this.addSql(`create index repository_contents_repo_idx on repository_contents (repo_id);`)
    this.addSql(`
      create table repository_content_chunks (
        content_id uuid not null references repository_contents (id) on delete cascade,
        seq integer not null,
        org_id text not null,
        data bytea not null,
        primary key (content_id, seq)
      );`)

    this.addSql(`
      create table repository_summaries (
        id uuid primary key,
        org_id text not null,
        repo_id uuid not null unique references repositories (id),
        scan_id uuid null,
        architecture_pattern text not null default '',
        auth_logic_summary text not null default '',
        trust_boundaries jsonb not null default '{}',
        business_logic_flows jsonb not null default '{}',
        cross_file_dependencies jsonb not null default '{}',
        rag_context text not null default '',
        security_context text not null default '',
        data_flow_analysis jsonb not null default '{}',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`)
    this.addSql(`create index repository_summaries_org_idx on repository_summaries (org_id, created_at desc);`)

    this.addSql(`
      create table scans (
        id uuid primary key,
        org_id text not null,
        repo_id uuid not null references repositories (id),
        status text not null default 'queued'
          check (status in ('queued', 'running', 'completed', 'failed', 'stopped')),
        scan_type text not null default 'full' check (scan_type in ('full', 'quick', 'secrets')),
        active_models jsonb not null default '[]',
        task_id text null,
        progress integer not null default 0 check (progress between 0 and 100),
        files_total integer not null default 0,
        files_scanned integer not null default 0,
        issues_count integer not null default 0,
        error text null,
        created_by text not null,
        created_at timestamptz not null default now(),
        started_at timestamptz null,
        completed_at timestamptz null,
        updated_at timestamptz not null default now()
      );`)
    this.addSql(`create index scans_org_created_idx on scans (org_id, created_at desc);`)
    this.addSql(`create index scans_org_status_idx on scans (org_id, status);`)
    this.addSql(`create index scans_repo_created_idx on scans (repo_id, created_at desc);`)
    this.addSql(`create unique index scans_one_active_per_repo on scans (repo_id) where status in ('queued', 'running');`)

    this.addSql(`
      create table scan_logs (
        id uuid primary key,
        org_id text not null,
        scan_id uuid not null references scans (id),
        "timestamp" timestamptz not null default now(),
        level text not null check (level in ('debug', 'info', 'warning', 'error')),
        message text not null,
        data jsonb null
      );`)
    this.addSql(`create index scan_logs_scan_time_idx on scan_logs (scan_id, "timestamp", id);`)

    this.addSql(`
      create table issues (
        id uuid primary key,
        org_id text not null,
        repo_id uuid not null references repositories (id),
        scan_id uuid not null references scans (id),
        fingerprint text not null,
        rule_id text not null,
        file_path text not null,
        line_number integer not null,
        column_start integer null,
        column_end integer null,
        category text not null,
        severity text not null check (severity in ('critical', 'high', 'medium', 'low', 'info')),
        confidence double precision null,
        title text not null,
        description text null,
        explanation text null,
        code_snippet text null,
        context_before text null,
        context_after text null,
        remediation text null,
        remediation_code text null,
        cwe_ids jsonb not null default '[]',
        owasp_category text null,
        cvss_score double precision null,
        tags jsonb not null default '[]',
        model_used text null,
        false_positive boolean not null default false,
        exploitable boolean null,
        data_flow jsonb null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      );`)
    this.addSql(`create index issues_org_created_idx on issues (org_id, created_at desc, id);`)
    this.addSql(`create index issues_org_severity_idx on issues (org_id, severity, created_at desc);`)
    // lets the page total of a severity filter be counted from the index alone
    this.addSql(`create index issues_org_severity_repo_idx on issues (org_id, severity, repo_id);`)
    this.addSql(`create index issues_org_category_idx on issues (org_id, category, created_at desc);`)
    this.addSql(`create index issues_org_false_positive_idx on issues (org_id, false_positive, created_at desc);`)
    this.addSql(`create index issues_repo_created_idx on issues (repo_id, created_at desc);`)
    this.addSql(`create index issues_scan_idx on issues (scan_id);`)
    this.addSql(`create index issues_repo_fingerprint_idx on issues (repo_id, fingerprint);`)
    this.addSql(`create index issues_file_path_trgm_idx on issues using gin (file_path gin_trgm_ops);`)

    this.addSql(`
      create table issue_notes (
        id uuid primary key,
        org_id text not null,
        issue_id uuid not null references issues (id),
        text text not null,
        author text not null,
        created_at timestamptz not null default now()
      );`)
    this.addSql(`create index issue_notes_issue_idx on issue_notes (issue_id, created_at);`)

    this.addSql(`
      create table rulesets (
        id uuid primary key,
        org_id text not null,
        name text not null,
        description text not null default '',
        rules_text text not null,
        created_by text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (org_id, name)
      );`)
    this.addSql(`
      create table ruleset_repositories (
        ruleset_id uuid not null references rulesets (id) on delete cascade,
        repo_id uuid not null references repositories (id),
        org_id text not null,
        primary key (ruleset_id, repo_id)
      );`)
    this.addSql(`create index ruleset_repositories_repo_idx on ruleset_repositories (repo_id);`)

    this.addSql(`
      create table api_keys (
        id uuid primary key,
        org_id text not null,
        user_id text not null,
        name text not null default '',
        scopes jsonb not null,
        prefix text not null unique,
        key_hash text not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz null,
        revoked_at timestamptz null
      );`)
    this.addSql(`create index api_keys_org_idx on api_keys (org_id);`)
  }
}
