/** A list of scans (status, progress, issues), with a stop button on the queued and running ones. */
import { useState } from 'react'
import { StopScanMutation } from '../api/documents/scans.ts'
import { useMutation } from '../api/hooks.ts'
import type { ScanFieldsFragment } from '../gql/graphql.ts'
import { Link } from '../router.tsx'
import { isActiveStatus, StatusBadge } from './Badge.tsx'
import { DataTable, type Column } from './DataTable.tsx'
import { ErrorBanner } from './ErrorBanner.tsx'
import { formatDateTime } from './format.ts'
import { ProgressBar } from './ProgressBar.tsx'

export function ScansTable({ scans, showRepository = false, empty }: { scans: ScanFieldsFragment[]; showRepository?: boolean; empty: string }) {
  const [stopScan, stopping] = useMutation(StopScanMutation)
  const [stoppingId, setStoppingId] = useState<string>()
  const stop = async (scan: ScanFieldsFragment) => {
    setStoppingId(scan.id)
    await stopScan({ id: scan.id })
    setStoppingId(undefined)
  }

  const columns: Column<ScanFieldsFragment>[] = [
    { key: 'scan', header: 'Scan', render: (row) => <Link to={`/scans/${row.id}`}>{`${row.scanType.toLowerCase()} scan · ${formatDateTime(row.createdAt)}`}</Link> },
    ...(showRepository ? [{ key: 'repository', header: 'Repository', sortValue: (row: ScanFieldsFragment) => row.repoName.toLowerCase(), render: (row: ScanFieldsFragment) => <Link to={`/repositories/${row.repoId}`}>{`${row.repoName} (${row.branchName})`}</Link> }] : []),
    { key: 'status', header: 'Status', sortValue: (row) => row.status, render: (row) => <StatusBadge status={row.status} /> },
    { key: 'progress', header: 'Progress', render: (row) => (isActiveStatus(row.status) ? <ProgressBar value={row.progress} label={`Progress of the scan of ${row.repoName}`} /> : `${row.filesScanned} files`) },
    { key: 'issues', header: 'Issues', className: 'number', sortValue: (row) => row.issuesCount, render: (row) => row.issuesCount },
    {
      key: 'actions',
      header: 'Actions',
      render: (row) =>
        isActiveStatus(row.status) ? (
          <button type="button" className="danger small" disabled={stoppingId === row.id} onClick={() => void stop(row)} aria-label={`Stop the scan of ${row.repoName} started ${formatDateTime(row.createdAt)}`}>
            Stop
          </button>
        ) : null,
    },
  ]
  return (
    <>
      <ErrorBanner error={stopping.error} onDismiss={stopping.clearError} />
      <DataTable label="Scans" columns={columns} rows={scans} rowKey={(row) => row.id} empty={empty} />
    </>
  )
}

/** `scans` with the changes the live feed reported since they were read (newer wins). */
export function withLiveChanges(scans: ScanFieldsFragment[], changes: ReadonlyMap<string, ScanFieldsFragment>): ScanFieldsFragment[] {
  return scans.map((scan) => changes.get(scan.id) ?? scan)
}
