/**
 * Triage history: every triage of an issue is kept as an entry of `issue_notes`, with what it set
 * (false positive, exploitable, severity; null where it changed nothing) beside its note, which
 * may now be empty: an entry that only set flags still says who did it and when. Notes, as the
 * spec's issues show them, are the entries with a text. Existing rows are notes and set nothing.
 */
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126020000_triage_history extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table issue_notes add column false_positive boolean null;`)
    this.addSql(`alter table issue_notes add column exploitable boolean null;`)
    this.addSql(`alter table issue_notes add column severity text null check (severity in ('critical', 'high', 'medium', 'low', 'info'));`)
  }
}
