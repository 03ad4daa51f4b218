/** GraphQL resolvers of rulesets. */
import type { Resolvers } from '../../generated/graphql.ts'
import { authorOf, loaded, parseId } from '../../graphql/arguments.ts'
import { createRuleset, deleteRuleset, getRuleset, listRulesets, updateRuleset } from './ruleset.service.ts'
import { checkRulesetInput } from './ruleset.validation.ts'

export const rulesetResolvers: Resolvers = {
  Query: {
    rulesets: (_parent, _args, { em }) => listRulesets(em),
    ruleset: (_parent, { id }, { em }) => getRuleset(em, parseId(id, 'ruleset')),
  },
  Mutation: {
    createRuleset: async (_parent, { input }, { em, caller, runtime }) =>
      createRuleset(em, await checkRulesetInput({ ...input, repoIds: input.repoIds?.map((id) => parseId(id, 'repository')) }, 'create', runtime.ruleLimits), authorOf(caller)),
    updateRuleset: async (_parent, { id, input }, { em, runtime }) =>
      updateRuleset(em, parseId(id, 'ruleset'), await checkRulesetInput({ ...input, repoIds: input.repoIds?.map((repoId) => parseId(repoId, 'repository')) }, 'update', runtime.ruleLimits)),
    deleteRuleset: async (_parent, { id }, { em }) => {
      await deleteRuleset(em, parseId(id, 'ruleset'))
      return true
    },
  },
  Ruleset: {
    repoIds: (ruleset, _args, { loaders }) => loaders.repoIdsOfRuleset.load(ruleset.id),
    repositories: async (ruleset, _args, { loaders }) => {
      const repositories = await Promise.all((await loaders.repoIdsOfRuleset.load(ruleset.id)).map((id) => loaded(loaders.repository.load(id), 'Repository')))
      return repositories.sort((a, b) => a.repoName.localeCompare(b.repoName) || a.branchName.localeCompare(b.branchName))
    },
  },
}
