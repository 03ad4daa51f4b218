/**
 * Findings followed across scans: each scan records the scan it was compared with (its base, the
 * repository's previous completed scan), and each issue whether its fingerprint was in the base
 * (`unchanged`) or not (`new`) and where the fingerprint first appeared in its repository.
 *
 * Existing rows are backfilled from the history they already hold, with the rules the worker
 * applies to new scans (worker/store-findings.ts), so that every row has values and reads need
 * no null handling: a scan's base is the latest completed scan of its repository created before
 * it; an issue is `unchanged` when its scan's base holds its fingerprint; it was first seen in the
 * earliest completed scan of its repository holding the fingerprint, or in its own scan.
 */
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126010000_issue_baselines extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table scans add column base_scan_id uuid null references scans (id);`)
    this.addSql(`alter table issues add column baseline_state text not null default 'new' check (baseline_state in ('new', 'unchanged'));`)
    this.addSql(`alter table issues add column first_seen_at timestamptz null;`)
    this.addSql(`alter table issues add column first_seen_scan_id uuid null references scans (id);`)
    // a scan's issues by fingerprint: the base's triage, fixed issues (anti-join) and the backfill
    this.addSql(`create index issues_scan_fingerprint_idx on issues (scan_id, fingerprint);`)
    this.addSql(`drop index issues_scan_idx;`)

    // queued scans get their base when they store findings
    this.addSql(`
      update scans s set base_scan_id = (
        select p.id from scans p
        where p.repo_id = s.repo_id and p.org_id = s.org_id and p.status = 'completed' and p.id <> s.id and p.created_at <= s.created_at
        order by p.created_at desc, p.id desc limit 1)
      where s.status <> 'queued';`)
    this.addSql(`
      update issues i set
        baseline_state = case when exists (
          select 1 from issues b where b.scan_id = s.base_scan_id and b.org_id = i.org_id and b.fingerprint = i.fingerprint
        ) then 'unchanged' else 'new' end,
        first_seen_scan_id = i.scan_id,
        first_seen_at = i.created_at
      from scans s where s.id = i.scan_id and s.org_id = i.org_id;`)
    this.addSql(`
      update issues i set first_seen_scan_id = f.scan_id, first_seen_at = f.created_at
      from (
        select distinct on (e.repo_id, e.fingerprint) e.repo_id, e.fingerprint, e.scan_id, e.created_at, s.created_at as scan_created_at
        from issues e join scans s on s.id = e.scan_id and s.org_id = e.org_id and s.status = 'completed'
        order by e.repo_id, e.fingerprint, s.created_at, s.id
      ) f, scans own
      where f.repo_id = i.repo_id and f.fingerprint = i.fingerprint and own.id = i.scan_id and own.org_id = i.org_id
        and f.scan_id <> i.scan_id and f.scan_created_at <= own.created_at;`)
    this.addSql(`alter table issues alter column first_seen_at set not null, alter column first_seen_scan_id set not null;`)
  }
}
