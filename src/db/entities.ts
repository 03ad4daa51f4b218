/** Every entity of the service. All are organization-scoped except those in UNSCOPED_ENTITIES. */
import type { EntitySchema } from '@mikro-orm/core'
import { ApiKey } from '../modules/api-keys/api-key.entity.ts'
import { Issue, IssueNote } from '../modules/issues/issue.entity.ts'
import { Repository, RepositoryContent, RepositoryContentChunk } from '../modules/repositories/repository.entity.ts'
import { Ruleset, RulesetRepository } from '../modules/rulesets/ruleset.entity.ts'
import { Scan, ScanLog } from '../modules/scans/scan.entity.ts'
import { RepositorySummary } from '../modules/summaries/summary.entity.ts'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- heterogeneous schema list
export const ENTITIES: EntitySchema<any, never>[] = [
  Repository,
  RepositoryContent,
  RepositoryContentChunk,
  RepositorySummary,
  Scan,
  ScanLog,
  Issue,
  IssueNote,
  Ruleset,
  RulesetRepository,
  ApiKey,
]

/** Read before the caller's organization is known (authentication); only src/auth touches them. */
export const UNSCOPED_ENTITIES: readonly string[] = [ApiKey.meta.className]
