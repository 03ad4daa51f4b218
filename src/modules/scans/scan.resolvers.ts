/** Scan resolvers. The enum maps GraphQL's capitals to the lower-case values stored and served over REST. */
import type { Resolvers } from '../../generated/graphql.ts'

export const scanEnumResolvers: Resolvers = {
  ScanStatus: { QUEUED: 'queued', RUNNING: 'running', COMPLETED: 'completed', FAILED: 'failed', STOPPED: 'stopped' },
}
