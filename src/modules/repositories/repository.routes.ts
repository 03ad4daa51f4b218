/** REST rows of repositories (spec: GET /api/repositories). */
import { z } from 'zod'
import { defineRoute } from '../../http/rest/route-table.ts'
import { idParam } from '../../http/rest/validation.ts'

export const REPOSITORY_FIELDS = /* GraphQL */ `
  fragment RepositoryFields on Repository {
    id
    org_id: orgId
    repo_name: repoName
    branch_name: branchName
    is_active: isActive
    size_bytes: sizeBytes
    file_count: fileCount
    languages
    content_sha256: contentSha256
    created_by: createdBy
    created_at: createdAt
    updated_at: updatedAt
    last_scan_id: lastScanId
    last_scan_status: lastScanStatus
  }
`

export const repositoryRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/repositories',
    summary: 'List repositories',
    tags: ['repositories'],
    operation: `query ListRepositories { repositories { ...RepositoryFields } } ${REPOSITORY_FIELDS}`,
    status: 200,
    wrap: 'all_repos',
  }),
]

export const repositoryWriteRoutes = [
  defineRoute({
    method: 'delete',
    path: '/api/repositories/:repo_id',
    summary: 'Delete (deactivate) a repository',
    tags: ['repositories'],
    params: z.object({ repo_id: idParam('repository') }),
    operation: `mutation DeleteRepository($id: ID!) { deleteRepository(id: $id) }`,
    variables: ({ params }) => ({ id: params.repo_id }),
    status: 204,
    errors: [400, 404],
  }),
]
