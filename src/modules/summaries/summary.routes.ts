/** REST rows of repository summaries. */
import { z } from 'zod'
import { defineRoute } from '../../http/rest/route-table.ts'
import { idParam } from '../../http/rest/validation.ts'

const SUMMARY_FIELDS = /* GraphQL */ `
  fragment RepositorySummaryFields on RepositorySummary {
    id
    repo_id: repoId
    org_id: orgId
    architecture_pattern: architecturePattern
    auth_logic_summary: authLogicSummary
    trust_boundaries: trustBoundaries
    business_logic_flows: businessLogicFlows
    cross_file_dependencies: crossFileDependencies
    rag_context: ragContext
    security_context: securityContext
    data_flow_analysis: dataFlowAnalysis
    created_at: createdAt
    updated_at: updatedAt
  }
`

export const summaryRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/repositories/summaries',
    summary: 'All repository summaries',
    tags: ['repositories'],
    operation: `query ListSummaries { repositorySummaries { summaries { ...RepositorySummaryFields } total_count: totalCount } } ${SUMMARY_FIELDS}`,
    status: 200,
  }),
  defineRoute({
    method: 'get',
    path: '/api/repositories/:repo_id/summary',
    summary: 'One repository summary',
    tags: ['repositories'],
    params: z.object({ repo_id: idParam('repository') }),
    operation: `query GetSummary($repoId: ID!) { repositorySummary(repoId: $repoId) { ...RepositorySummaryFields } } ${SUMMARY_FIELDS}`,
    variables: ({ params }) => ({ repoId: params.repo_id }),
    status: 200,
  }),
]
