/**
 * A stored content remembers the one top-level folder all its files sit under (`shop-3f2a1c/`),
 * which readers strip from the entries' paths. Existing contents get null: read as they are, so
 * their paths, and the fingerprints of their findings, do not change.
 */
import { Migration } from '@mikro-orm/migrations'

export class Migration20261126000000_content_root_prefix extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table repository_contents add column root_prefix text null;`)
  }
}
