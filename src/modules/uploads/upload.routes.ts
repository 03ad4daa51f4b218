/** REST row of the upload (multipart/form-data: file, repo_name, branch_name). */
import { Upload } from 'graphql-upload-minimal'
import { z } from 'zod'
import { defineRoute } from '../../http/rest/route-table.ts'
import { REPOSITORY_FIELDS } from '../repositories/repository.routes.ts'
import { uploadFields } from './upload.validation.ts'

export const uploadRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/upload',
    summary: 'Upload a repository zip',
    tags: ['repositories'],
    upload: { field: 'file' },
    body: z.object({
      file: z.instanceof(Upload, { message: 'Expected a file upload' }).meta({ type: 'string', format: 'binary', description: 'a zip archive of the repository' }),
      ...uploadFields,
    }),
    operation: `mutation UploadRepository($input: UploadRepositoryInput!) { uploadRepository(input: $input) { ...RepositoryFields } } ${REPOSITORY_FIELDS}`,
    variables: ({ body }) => ({ input: { repoName: body.repo_name, branchName: body.branch_name, file: body.file } }),
    status: 200,
    errors: [400, 413],
  }),
]
