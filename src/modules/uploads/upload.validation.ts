/** What an upload's text fields accept, for both surfaces. */
import { z } from 'zod'

const name = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters')

export const uploadFields = { repo_name: name, branch_name: name }
export const graphqlUploadFields = z.object({ repoName: name, branchName: name })
