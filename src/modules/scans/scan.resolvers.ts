/** Scan resolvers. Enums map GraphQL's capitals to the lower-case values stored and served over REST. */
import type { Resolvers } from '../../generated/graphql.ts'
import { loaded } from '../../graphql/arguments.ts'

export const scanResolvers: Resolvers = {
  ScanStatus: { QUEUED: 'queued', RUNNING: 'running', COMPLETED: 'completed', FAILED: 'failed', STOPPED: 'stopped' },
  ScanType: { FULL: 'full', QUICK: 'quick', SECRETS: 'secrets' },
  LogLevel: { DEBUG: 'debug', INFO: 'info', WARNING: 'warning', ERROR: 'error' },
  Scan: {
    repoId: (scan) => scan.repository.id,
    repoName: async (scan, _args, { loaders }) => (await loaded(loaders.repository.load(scan.repository.id), 'Repository')).repoName,
    branchName: async (scan, _args, { loaders }) => (await loaded(loaders.repository.load(scan.repository.id), 'Repository')).branchName,
    repository: (scan, _args, { loaders }) => loaded(loaders.repository.load(scan.repository.id), 'Repository'),
  },
}
