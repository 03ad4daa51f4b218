/**
 * The scan pipeline: a scan remembers which stored content it reads (a newer upload must not
 * delete it mid-scan) and when its worker last showed signs of life (stale scans are failed).
 */
import { Migration } from '@mikro-orm/migrations'

export class Migration20261121010000_scan_pipeline extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table scans add column content_id uuid null references repository_contents (id) on delete set null;`)
    this.addSql(`alter table scans add column heartbeat_at timestamptz null;`)
    this.addSql(`create index scans_running_heartbeat_idx on scans (heartbeat_at) where status = 'running';`)
    // entries written in one batch share a timestamp: the sequence keeps their order
    this.addSql(`alter table scan_logs add column seq bigserial;`)
    this.addSql(`drop index scan_logs_scan_time_idx;`)
    this.addSql(`create index scan_logs_scan_seq_idx on scan_logs (scan_id, seq);`)
  }
}
