/**
 * Issues by severity over a repository's completed scans (oldest left), as stacked bars in
 * hand-written SVG, with each scan's new and fixed counts under its bar and in a table beside
 * it (the table is also what assistive technology reads).
 */
import { RepositoryScanCountsQuery } from '../api/documents/insights.ts'
import { useQuery } from '../api/hooks.ts'
import { useScanStatusChanges } from '../api/scan-events.tsx'
import type { RepositoryScanCountsQuery as ScanCountsData, Severity } from '../gql/graphql.ts'
import { ErrorBanner } from './ErrorBanner.tsx'
import { formatDateTime } from './format.ts'

type ScanCounts = ScanCountsData['scans'][number]

const SEVERITIES: Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']
const HEIGHT = 180
const BAR = 28
const GAP = 14
const AXIS = 34
const LABELS = 34

export function SeverityChart({ repoId }: { repoId: string }) {
  const scans = useQuery(RepositoryScanCountsQuery, { repoId, limit: 30 })
  // a scan of the repository completed: it joins the chart
  useScanStatusChanges((scan) => {
    if (scan.repoId === repoId && scan.status === 'COMPLETED') scans.reload()
  })
  return (
    <section className="card severity-chart" aria-labelledby="chart-title">
      <h2 id="chart-title">Issues by severity over scans</h2>
      <ErrorBanner error={scans.error} />
      {scans.data ? <Chart scans={[...scans.data.scans].reverse()} /> : !scans.error && <p role="status">Loading the chart…</p>}
    </section>
  )
}

function countOf(scan: ScanCounts, severity: Severity): number {
  return scan.issueCounts?.bySeverity.find((entry) => entry.severity === severity)?.count ?? 0
}

function Chart({ scans }: { scans: ScanCounts[] }) {
  if (scans.length === 0) return <p className="hint">No completed scans yet: the chart fills in as scans complete.</p>
  const highest = Math.max(1, ...scans.map((scan) => scan.issueCounts?.total ?? 0))
  const width = AXIS + scans.length * (BAR + GAP) + GAP
  const scale = (count: number) => (count / highest) * HEIGHT
  return (
    <div className="chart-wrap">
      <svg className="chart" viewBox={`0 0 ${width} ${HEIGHT + LABELS + 8}`} width={width} height={HEIGHT + LABELS + 8} role="img" aria-label={`Issues by severity in the last ${scans.length} completed scans; the table below gives the numbers`}>
        <line className="chart-axis" x1={AXIS} y1={HEIGHT} x2={width} y2={HEIGHT} />
        <text className="chart-tick" x={AXIS - 6} y={12} textAnchor="end">
          {highest}
        </text>
        <text className="chart-tick" x={AXIS - 6} y={HEIGHT} textAnchor="end">
          0
        </text>
        {scans.map((scan, index) => {
          const x = AXIS + GAP + index * (BAR + GAP)
          let top = HEIGHT
          return (
            <g key={scan.id} data-scan={scan.id}>
              <title>{`${formatDateTime(scan.createdAt)}: ${scan.issueCounts?.total ?? 0} issues (${SEVERITIES.map((severity) => `${countOf(scan, severity)} ${severity.toLowerCase()}`).join(', ')}), ${scan.issueCounts?.newCount ?? 0} new, ${scan.issueCounts?.fixedCount ?? 0} fixed`}</title>
              {SEVERITIES.map((severity) => {
                const height = scale(countOf(scan, severity))
                if (height === 0) return null
                top -= height
                return <rect key={severity} className={`chart-${severity.toLowerCase()}`} x={x} y={top} width={BAR} height={height} />
              })}
              <text className="chart-count new" x={x + BAR / 2} y={HEIGHT + 14} textAnchor="middle">
                +{scan.issueCounts?.newCount ?? 0}
              </text>
              <text className="chart-count fixed" x={x + BAR / 2} y={HEIGHT + 28} textAnchor="middle">
                −{scan.issueCounts?.fixedCount ?? 0}
              </text>
            </g>
          )
        })}
      </svg>
      <ul className="chart-legend" aria-hidden="true">
        {SEVERITIES.map((severity) => (
          <li key={severity}>
            <svg width="12" height="12" aria-hidden="true">
              <rect className={`chart-${severity.toLowerCase()}`} width="12" height="12" />
            </svg>
            {severity.toLowerCase()}
          </li>
        ))}
        <li>+ new · − fixed</li>
      </ul>
      <div className="table-scroll">
        <table className="data-table chart-table" aria-label="Issues of each completed scan">
          <thead>
            <tr>
              <th scope="col">Scan</th>
              {SEVERITIES.map((severity) => (
                <th scope="col" key={severity} className="number">
                  {severity.toLowerCase()}
                </th>
              ))}
              <th scope="col" className="number">
                Total
              </th>
              <th scope="col" className="number">
                New
              </th>
              <th scope="col" className="number">
                Fixed
              </th>
            </tr>
          </thead>
          <tbody>
            {[...scans].reverse().map((scan) => (
              <tr key={scan.id}>
                <th scope="row">{formatDateTime(scan.createdAt)}</th>
                {SEVERITIES.map((severity) => (
                  <td key={severity} className="number" data-label={severity.toLowerCase()}>
                    {countOf(scan, severity)}
                  </td>
                ))}
                <td className="number" data-label="Total">
                  {scan.issueCounts?.total ?? 0}
                </td>
                <td className="number" data-label="New">
                  {scan.issueCounts?.newCount ?? 0}
                </td>
                <td className="number" data-label="Fixed">
                  {scan.issueCounts?.fixedCount ?? 0}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
