/** The organization's scans, newest first, by status; the running ones update live. */
import { useEffect, useState } from 'react'
import { ScansQuery } from '../api/documents/scans.ts'
import { useQuery } from '../api/hooks.ts'
import { useLiveScans, useScanStatusChanges } from '../api/scan-events.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { PageLayout } from '../components/PageLayout.tsx'
import { ScansTable, withLiveChanges } from '../components/ScansTable.tsx'
import type { ScanFieldsFragment, ScanStatus } from '../gql/graphql.ts'
import { useSearchParams } from '../router.tsx'

const PAGE_SIZE = 50
const STATUSES: ScanStatus[] = ['QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'STOPPED']
/** `?status=active`: the queued and running scans, as the live feed knows them. */
const ACTIVE = 'active'

export function ScansView() {
  const [search, setSearch] = useSearchParams()
  const status = search.get('status') ?? ''
  const page = Math.max(1, Number(search.get('page')) || 1)
  return (
    <PageLayout title="Scans" subtitle="Every scan of your organization, newest first.">
      <div className="form-row">
        <label>
          Status
          <select value={status} onChange={(event) => setSearch({ status: event.target.value, page: undefined })}>
            <option value="">any</option>
            <option value={ACTIVE}>queued or running</option>
            {STATUSES.map((option) => (
              <option key={option} value={option}>
                {option.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
      </div>
      {status === ACTIVE ? <ActiveScans /> : <ScanPage status={(STATUSES as string[]).includes(status) ? (status as ScanStatus) : null} page={page} onPage={(next) => setSearch({ page: next === 1 ? undefined : String(next) })} />}
    </PageLayout>
  )
}

function ActiveScans() {
  const { active } = useLiveScans()
  return <ScansTable scans={active} showRepository empty="No scans are queued or running." />
}

function ScanPage({ status, page, onPage }: { status: ScanStatus | null; page: number; onPage(page: number): void }) {
  const scans = useQuery(ScansQuery, { status, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })
  const [changes, setChanges] = useState(new Map<string, ScanFieldsFragment>())
  useEffect(() => setChanges(new Map()), [scans.data])
  useScanStatusChanges((scan) => {
    if (scans.data?.scans.some((known) => known.id === scan.id)) setChanges((previous) => new Map(previous).set(scan.id, scan))
    // a new scan appears at the top of the first page
    else if (page === 1) scans.reload()
  })
  const rows = scans.data ? withLiveChanges(scans.data.scans, changes) : []
  return (
    <>
      <ErrorBanner error={scans.error} />
      {scans.data && <ScansTable scans={rows} showRepository empty="No scans here." />}
      {scans.data && (page > 1 || rows.length === PAGE_SIZE) && (
        <nav className="pager" aria-label="Pages">
          <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
            Previous
          </button>
          <span>Page {page}</span>
          <button type="button" onClick={() => onPage(page + 1)} disabled={rows.length < PAGE_SIZE}>
            Next
          </button>
        </nav>
      )}
    </>
  )
}
