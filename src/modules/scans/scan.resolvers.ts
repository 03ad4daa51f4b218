/** Scan resolvers: queries, mutations and live subscriptions. Enums map GraphQL's capitals to the stored values. */
import type { Resolvers } from '../../generated/graphql.ts'
import { authorOf, loaded, optional, parseId } from '../../graphql/arguments.ts'
import type { ScanLog } from './scan.entity.ts'
import { scanSarif } from './scan.sarif.ts'
import { compareScan, createScan, getScan, listScans, scanLogs, scanResults, scanTypeOptions, statusReport, stopScan, taskStatus, type ScanStatusReport } from './scan.service.ts'
import { subscribeScanEvents, subscribeScanLogs, subscribeScanStatus, type ScanEventPayload } from './scan.subscriptions.ts'

export const scanResolvers: Resolvers = {
  ScanStatus: { QUEUED: 'queued', RUNNING: 'running', COMPLETED: 'completed', FAILED: 'failed', STOPPED: 'stopped' },
  ScanType: { FULL: 'full', QUICK: 'quick', SECRETS: 'secrets' },
  LogLevel: { DEBUG: 'debug', INFO: 'info', WARNING: 'warning', ERROR: 'error' },
  TaskStatus: { PENDING: 'pending', RUNNING: 'running', COMPLETED: 'completed', FAILED: 'failed', CANCELLED: 'cancelled' },
  ScanEventKind: { STATUS: 'scan', LOG: 'log' },
  Query: {
    scans: (_parent, { orgId, repoId, status, limit, offset }, { em }) => listScans(em, { orgId, repoId: repoId == null ? undefined : parseId(repoId, 'repository'), status, limit, offset }),
    scanTypes: () => scanTypeOptions(),
    scan: (_parent, { id }, { em }) => getScan(em, parseId(id, 'scan')),
    scanStatus: async (_parent, { id }, { em }) => statusReport(await getScan(em, parseId(id, 'scan'))),
    scanTaskStatus: (_parent, { id }, { em }) => taskStatus(em, parseId(id, 'scan')),
    scanResults: (_parent, { id }, { em }) => scanResults(em, parseId(id, 'scan')),
    scanLogs: (_parent, { id }, { em }) => scanLogs(em, parseId(id, 'scan')),
    scanSarif: (_parent, { id }, { em }) => scanSarif(em, parseId(id, 'scan')),
  },
  Mutation: {
    createScan: (_parent, { repoId, input }, { em, caller }) => createScan(em, parseId(repoId, 'repository'), input ?? {}, authorOf(caller)),
    stopScan: async (_parent, { id }, { em }) => {
      const scan = await stopScan(em, parseId(id, 'scan'))
      return { message: 'Scan stopped', scanId: scan.id, status: scan.status }
    },
  },
  Subscription: {
    // each event of the stream is the field's value as it is
    scanLogs: { subscribe: (_parent, { scanId }, context) => subscribeScanLogs(context, scanId), resolve: (log: ScanLog) => log },
    scanStatus: { subscribe: (_parent, { scanId }, context) => subscribeScanStatus(context, scanId), resolve: (report: ScanStatusReport) => report },
    scanEvents: { subscribe: (_parent, { kinds }, context) => subscribeScanEvents(context, optional(kinds)), resolve: (event: ScanEventPayload) => event },
  },
  Scan: {
    repoId: (scan) => scan.repository.id,
    repoName: async (scan, _args, { loaders }) => (await loaded(loaders.repository.load(scan.repository.id), 'Repository')).repoName,
    branchName: async (scan, _args, { loaders }) => (await loaded(loaders.repository.load(scan.repository.id), 'Repository')).branchName,
    repository: (scan, _args, { loaders }) => loaded(loaders.repository.load(scan.repository.id), 'Repository'),
    comparison: (scan, _args, { em }) => compareScan(em, scan),
    // a running scan's counts would call every issue of its base fixed
    issueCounts: (scan, _args, { loaders }) => (scan.status === 'completed' ? loaders.issueCountsOfScan.load(scan.id) : null),
  },
  ScanComparison: {
    base: async (comparison, _args, { loaders }) => (comparison.baseScanId ? loaded(loaders.scan.load(comparison.baseScanId), 'Scan') : null),
  },
}
