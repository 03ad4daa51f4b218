/** GraphQL resolvers of repository summaries. */
import type { Resolvers } from '../../generated/graphql.ts'
import { parseId } from '../../graphql/arguments.ts'
import { getSummary, listSummaries } from './summary.service.ts'

export const summaryResolvers: Resolvers = {
  Query: {
    repositorySummaries: (_parent, _args, { em }) => listSummaries(em),
    repositorySummary: (_parent, args, { em }) => getSummary(em, parseId(args.repoId, 'repository')),
  },
}
