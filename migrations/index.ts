/** The ordered list of migrations; listed explicitly so that no file-system discovery is needed. */
import type { MigrationObject } from '@mikro-orm/core'
import { Migration20261121000000_initial } from './Migration20261121000000_initial.ts'
import { Migration20261121010000_scan_pipeline } from './Migration20261121010000_scan_pipeline.ts'
import { Migration20261126000000_content_root_prefix } from './Migration20261126000000_content_root_prefix.ts'
import { Migration20261126010000_issue_baselines } from './Migration20261126010000_issue_baselines.ts'
import { Migration20261126020000_triage_history } from './Migration20261126020000_triage_history.ts'

export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121000000_initial', class: Migration20261121000000_initial },
  { name: 'Migration20261121010000_scan_pipeline', class: Migration20261121010000_scan_pipeline },
  { name: 'Migration20261126000000_content_root_prefix', class: Migration20261126000000_content_root_prefix },
  { name: 'Migration20261126010000_issue_baselines', class: Migration20261126010000_issue_baselines },
  { name: 'Migration20261126020000_triage_history', class: Migration20261126020000_triage_history },
]
