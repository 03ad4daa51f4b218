/** GraphQL resolvers of repositories: parse, call one service function, return. */
import { requireUser } from '../../auth/caller.ts'
import type { Resolvers } from '../../generated/graphql.ts'
import { parseId } from '../../graphql/arguments.ts'
import { deactivateRepository, getRepository, listRepositories } from './repository.service.ts'

export const repositoryResolvers: Resolvers = {
  Query: {
    repositories: (_parent, _args, { em }) => listRepositories(em),
    repository: (_parent, { id }, { em }) => getRepository(em, parseId(id, 'repository')),
  },
  Mutation: {
    deleteRepository: async (_parent, { id }, { em, caller }) => {
      // the spec: 403 when the organization or the user identifier is missing
      requireUser(caller)
      await deactivateRepository(em, parseId(id, 'repository'))
      return true
    },
  },
  Repository: {
    summary: async (repository, _args, { loaders }) => (await loaders.summaryOfRepository.load(repository.id)) ?? null,
  },
}
