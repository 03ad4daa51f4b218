/** The REST route table: every /api route of the spec, in matching order. */
import { repositoryRoutes } from '../../modules/repositories/repository.routes.ts'
import { summaryRoutes } from '../../modules/summaries/summary.routes.ts'
import type { RestRoute } from './route-table.ts'

// Fixed paths before parameterized ones (/api/repositories/summaries before /api/repositories/:repo_id...).
export const REST_ROUTES: readonly RestRoute[] = [...repositoryRoutes, ...summaryRoutes]
