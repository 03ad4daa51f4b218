/**
 * One scan, live: its status and progress (`scanStatus`) and its log as it is written
 * (`scanLogs`: past entries first, then new ones), both pushed by the server, no polling. Once
 * it ended: the issues it found by severity, and what changed against the previous scan.
 */
import { useEffect, useRef, useState } from 'react'
import { ScanLogsSubscription, ScanQuery, ScanResultsSummaryQuery, ScanStatusSubscription, StopScanMutation } from '../api/documents/scans.ts'
import { useMutation, useQuery, useSubscription } from '../api/hooks.ts'
import { isActiveStatus, StatusBadge } from '../components/Badge.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { formatDateTime, formatTime } from '../components/format.ts'
import { PageLayout } from '../components/PageLayout.tsx'
import { ProgressBar } from '../components/ProgressBar.tsx'
import type { ScanLogsSubscription as ScanLogsEvent, ScanStatusSubscription as ScanStatusEvent } from '../gql/graphql.ts'
import { Link } from '../router.tsx'

/** Entries kept on the page; a longer log shows its latest ones (the full log stays in the API). */
const SHOWN_LOG_ENTRIES = 2000
const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const

type LogEntry = ScanLogsEvent['scanLogs']
type StatusReport = ScanStatusEvent['scanStatus']

export function ScanView({ id }: { id: string }) {
  const scan = useQuery(ScanQuery, { id })
  const [live, setLive] = useState<StatusReport>()
  const statusFeed = useSubscription(ScanStatusSubscription, { scanId: id }, ({ scanStatus }) => setLive(scanStatus))
  const [stopScan, stopping] = useMutation(StopScanMutation)

  const shown = scan.data?.scan
  const status = live?.status ?? shown?.status
  const ended = status !== undefined && !isActiveStatus(status)
  // the comparison and the counts are computed when the scan ends: read them again then
  const reload = scan.reload
  const endedLive = ended && live !== undefined
  useEffect(() => {
    if (endedLive) reload()
  }, [endedLive, reload])

  const title = shown ? `${shown.scanType.toLowerCase()} scan of ${shown.repoName}` : 'Scan'
  return (
    <PageLayout
      title={title}
      subtitle={shown && <>Repository <Link to={`/repositories/${shown.repoId}`}>{`${shown.repoName} (${shown.branchName})`}</Link> · started by {shown.createdBy} · {formatDateTime(shown.createdAt)}</>}
      actions={
        status && isActiveStatus(status) ? (
          <button type="button" className="danger" disabled={stopping.running} onClick={() => void stopScan({ id })}>
            {stopping.running ? 'Stopping…' : 'Stop scan'}
          </button>
        ) : undefined
      }
    >
      <ErrorBanner error={scan.error ?? statusFeed.error} />
      <ErrorBanner error={stopping.error} onDismiss={stopping.clearError} />
      {shown && status && (
        <section className="card" aria-labelledby="status-title">
          <h2 id="status-title">
            Status <StatusBadge status={status} />
          </h2>
          <ProgressBar value={live?.progress ?? shown.progress} label="Scan progress" />
          <dl className="facts">
            <div>
              <dt>Files scanned</dt>
              <dd>
                {live?.filesScanned ?? shown.filesScanned} of {live?.filesTotal ?? shown.filesTotal}
              </dd>
            </div>
            <div>
              <dt>Issues found</dt>
              <dd data-testid="issues-found">{live?.issuesCount ?? shown.issuesCount}</dd>
            </div>
            <div>
              <dt>Analyzers</dt>
              <dd>{shown.activeModels.join(', ')}</dd>
            </div>
            <div>
              <dt>Finished</dt>
              <dd>{formatDateTime(live?.completedAt ?? shown.completedAt)}</dd>
            </div>
          </dl>
          {(live?.error ?? shown.error) && <p className="hint">{live?.error ?? shown.error}</p>}
        </section>
      )}
      {status === 'COMPLETED' && <ScanResults id={id} comparison={shown?.comparison ?? null} />}
      <ScanLog id={id} />
    </PageLayout>
  )
}

function ScanResults({ id, comparison }: { id: string; comparison: { newCount: number; unchangedCount: number; fixedCount: number; base: { id: string } | null } | null }) {
  const results = useQuery(ScanResultsSummaryQuery, { id })
  const summary = results.data?.scanResults.summary
  const bySeverity = (summary?.issuesBySeverity ?? {}) as Record<string, number>
  return (
    <section className="card" aria-labelledby="results-title">
      <h2 id="results-title">Results</h2>
      <ErrorBanner error={results.error} />
      {summary && (
        <dl className="facts">
          <div>
            <dt>Issues</dt>
            <dd>{summary.totalIssues}</dd>
          </div>
          {SEVERITIES.map((severity) => (
            <div key={severity}>
              <dt>{severity.toLowerCase()}</dt>
              <dd>{bySeverity[severity.toLowerCase()] ?? bySeverity[severity] ?? 0}</dd>
            </div>
          ))}
          <div>
            <dt>New</dt>
            <dd>{summary.newCount}</dd>
          </div>
          <div>
            <dt>Unchanged</dt>
            <dd>{summary.unchangedCount}</dd>
          </div>
          <div>
            <dt>Fixed</dt>
            <dd>{summary.fixedCount}</dd>
          </div>
        </dl>
      )}
      {comparison?.base && (
        <p className="hint">
          Compared with <Link to={`/scans/${comparison.base.id}`}>the previous completed scan</Link>.
        </p>
      )}
    </section>
  )
}

/** The scan's log, streamed; it follows new entries while the reader is at its end. */
function ScanLog({ id }: { id: string }) {
  const [entries, setEntries] = useState<LogEntry[]>([])
  const list = useRef<HTMLOListElement>(null)
  const following = useRef(true)
  const feed = useSubscription(ScanLogsSubscription, { scanId: id }, ({ scanLogs }) => setEntries((previous) => [...previous.slice(-(SHOWN_LOG_ENTRIES - 1)), scanLogs]))
  useEffect(() => {
    const element = list.current
    if (element && following.current) element.scrollTop = element.scrollHeight
  }, [entries])
  const onScroll = () => {
    const element = list.current
    if (element) following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24
  }
  return (
    <section aria-labelledby="log-title">
      <h2 id="log-title">Log</h2>
      <ErrorBanner error={feed.error} />
      <ol ref={list} className="log" aria-label="Scan log" aria-live="polite" tabIndex={0} onScroll={onScroll}>
        {entries.length === 0 && <li className="level-debug">{feed.completed ? 'No log entries.' : 'Waiting for log entries…'}</li>}
        {entries.map((entry) => (
          <li key={entry.id} className={`level-${entry.level.toLowerCase()}`}>
            <time dateTime={entry.timestamp}>{formatTime(entry.timestamp)}</time>
            <span className="level">{entry.level.toLowerCase()}</span>
            <span className="message">{entry.message}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}
