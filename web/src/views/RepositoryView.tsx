/** One repository: what it holds, its scans (live), starting a scan with a type and analyzers, and stopping one. */
import { useEffect, useState, type FormEvent } from 'react'
import { RepositoryQuery } from '../api/documents/repositories.ts'
import { CreateScanMutation, RepositoryScansQuery } from '../api/documents/scans.ts'
import { useMutation, useQuery } from '../api/hooks.ts'
import { useScanStatusChanges } from '../api/scan-events.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { formatBytes, formatDateTime } from '../components/format.ts'
import { PageLayout } from '../components/PageLayout.tsx'
import { ScansTable, withLiveChanges } from '../components/ScansTable.tsx'
import { SeverityChart } from '../components/SeverityChart.tsx'
import type { RepositoryScansQuery as RepositoryScansResult, ScanFieldsFragment, ScanType } from '../gql/graphql.ts'
import { Link, useRouter } from '../router.tsx'

export function RepositoryView({ id }: { id: string }) {
  const repository = useQuery(RepositoryQuery, { id })
  const scans = useQuery(RepositoryScansQuery, { repoId: id })
  const [changes, setChanges] = useState(new Map<string, ScanFieldsFragment>())
  useScanStatusChanges((scan) => {
    if (scan.repoId !== id) return
    if (scans.data?.scans.some((known) => known.id === scan.id)) setChanges((previous) => new Map(previous).set(scan.id, scan))
    else scans.reload()
  })
  useEffect(() => setChanges(new Map()), [scans.data])

  const shown = repository.data?.repository
  return (
    <PageLayout title={shown ? shown.repoName : 'Repository'} subtitle={shown && `Branch ${shown.branchName}`} actions={<Link to={`/repositories/${id}/summary`}>Repository summary</Link>}>
      <ErrorBanner error={repository.error} />
      {shown && (
        <dl className="facts">
          <div>
            <dt>Size</dt>
            <dd>{formatBytes(shown.sizeBytes)}</dd>
          </div>
          <div>
            <dt>Files</dt>
            <dd>{shown.fileCount}</dd>
          </div>
          <div>
            <dt>Languages (lines)</dt>
            <dd>{languageLines(shown.languages)}</dd>
          </div>
          <div>
            <dt>Uploaded by</dt>
            <dd>{shown.createdBy}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>{formatDateTime(shown.updatedAt)}</dd>
          </div>
        </dl>
      )}
      {scans.data && <StartScanForm repoId={id} scanTypes={scans.data.scanTypes} onStarted={scans.reload} />}
      <section aria-labelledby="scans-title">
        <h2 id="scans-title">Scans</h2>
        <ErrorBanner error={scans.error} />
        {scans.data && <ScansTable scans={withLiveChanges(scans.data.scans, changes)} empty="No scans yet: start one above." />}
      </section>
      <SeverityChart repoId={id} />
    </PageLayout>
  )
}

function languageLines(languages: unknown): string {
  const entries = Object.entries((languages ?? {}) as Record<string, number>).sort((a, b) => b[1] - a[1])
  return entries.length ? entries.map(([language, lines]) => `${language} ${lines}`).join(', ') : '—'
}

function StartScanForm({ repoId, scanTypes, onStarted }: { repoId: string; scanTypes: RepositoryScansResult['scanTypes']; onStarted(): void }) {
  const { navigate } = useRouter()
  const [createScan, creating] = useMutation(CreateScanMutation)
  const [scanType, setScanType] = useState<ScanType>(scanTypes[0]?.scanType ?? 'FULL')
  const offered = scanTypes.find((option) => option.scanType === scanType)?.analyzers ?? []
  const [analyzers, setAnalyzers] = useState(new Set(offered))
  const chooseType = (next: ScanType) => {
    setScanType(next)
    setAnalyzers(new Set(scanTypes.find((option) => option.scanType === next)?.analyzers ?? []))
  }
  const toggle = (name: string) => {
    const next = new Set(analyzers)
    if (next.has(name)) next.delete(name)
    else next.add(name)
    setAnalyzers(next)
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const result = await createScan({ repoId, input: { scanType, activeModels: offered.filter((name) => analyzers.has(name)) } })
    if (!result) return
    onStarted()
    navigate(`/scans/${result.createScan.id}`)
  }

  return (
    <form className="card" onSubmit={submit} aria-labelledby="start-scan-title">
      <h2 id="start-scan-title">Start a scan</h2>
      <div className="form-row">
        <label>
          Scan type
          <select value={scanType} onChange={(event) => chooseType(event.target.value as ScanType)}>
            {scanTypes.map((option) => (
              <option key={option.scanType} value={option.scanType}>
                {option.scanType.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>Analyzers</legend>
          {offered.map((name) => (
            <label key={name}>
              <input type="checkbox" checked={analyzers.has(name)} onChange={() => toggle(name)} /> {name}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="primary" disabled={creating.running}>
          {creating.running ? 'Starting…' : 'Start scan'}
        </button>
      </div>
      <ErrorBanner error={creating.error} onDismiss={creating.clearError} />
    </form>
  )
}
