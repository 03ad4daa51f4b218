/** GraphQL resolvers of repositories: parse, call one service function, return. */
import type { Resolvers } from '../../generated/graphql.ts'
import { listRepositories } from './repository.service.ts'

export const repositoryResolvers: Resolvers = {
  Query: {
    repositories: (_parent, _args, { em }) => listRepositories(em),
  },
}
