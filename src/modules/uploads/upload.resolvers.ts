/** GraphQL upload mutation: the same service as POST /api/upload. */
import type { Resolvers } from '../../generated/graphql.ts'
import { authorOf } from '../../graphql/arguments.ts'
import { GraphQLUpload } from 'graphql-upload-minimal'
import { parseInput } from '../../http/rest/validation.ts'
import { uploadRepository } from './upload.service.ts'
import { graphqlUploadFields } from './upload.validation.ts'

export const uploadResolvers: Resolvers = {
  Upload: GraphQLUpload,
  Mutation: {
    uploadRepository: async (_parent, { input }, { em, caller, runtime }) => {
      const fields = parseInput(graphqlUploadFields, { repoName: input.repoName, branchName: input.branchName }, 'body')
      const upload = await input.file
      return uploadRepository(em, { ...fields, file: upload.createReadStream() }, runtime.limits, authorOf(caller))
    },
  },
}
