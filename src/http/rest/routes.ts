/** The REST route table: every /api route of the spec, in matching order. */
import { issueRoutes } from '../../modules/issues/issue.routes.ts'
import { repositoryRoutes, repositoryWriteRoutes } from '../../modules/repositories/repository.routes.ts'
import { rulesetRoutes } from '../../modules/rulesets/ruleset.routes.ts'
import { scanRoutes } from '../../modules/scans/scan.routes.ts'
import { summaryRoutes } from '../../modules/summaries/summary.routes.ts'
import { uploadRoutes } from '../../modules/uploads/upload.routes.ts'
import type { RestRoute } from './route-table.ts'

// Fixed paths before parameterized ones (/api/repositories/summaries before
// /api/repositories/:repo_id..., /api/issues/bulk before /api/issues/:issue_id).
export const REST_ROUTES: readonly RestRoute[] = [...uploadRoutes, ...repositoryRoutes, ...summaryRoutes, ...repositoryWriteRoutes, ...scanRoutes, ...issueRoutes, ...rulesetRoutes]
