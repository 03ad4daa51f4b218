/** GraphQL upload mutation: the same service as POST /api/upload. */
import type { Resolvers } from '../../generated/graphql.ts'
import { authorOf } from '../../graphql/arguments.ts'
import { GraphQLUpload } from 'graphql-upload-minimal'
import type { SpooledFileUpload } from '../../http/rest/multipart.ts'
import { parseInput } from '../../http/rest/validation.ts'
import { uploadRepository } from './upload.service.ts'
import { graphqlUploadFields } from './upload.validation.ts'

export const uploadResolvers: Resolvers = {
  Upload: GraphQLUpload,
  Mutation: {
    uploadRepository: async (_parent, { input }, { em, caller, runtime }) => {
      const fields = parseInput(graphqlUploadFields, { repoName: input.repoName, branchName: input.branchName }, 'body')
      const upload: SpooledFileUpload = await input.file
      return uploadRepository(em, { ...fields, open: () => upload.createReadStream(), spooled: upload.spooled }, runtime.limits, authorOf(caller))
    },
  },
}
