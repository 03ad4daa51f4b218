/** Repositories: the organization's list (live scan status), upload of a zip, and delete. */
import { useState, type FormEvent } from 'react'
import { DeleteRepositoryMutation, RepositoriesQuery, UploadRepositoryMutation } from '../api/documents/repositories.ts'
import { useMutation, useQuery } from '../api/hooks.ts'
import { useScanStatusChanges } from '../api/scan-events.tsx'
import { StatusBadge } from '../components/Badge.tsx'
import { ConfirmDialog } from '../components/ConfirmDialog.tsx'
import { DataTable, type Column } from '../components/DataTable.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { formatBytes, formatDateTime, formatLanguages } from '../components/format.ts'
import { PageLayout } from '../components/PageLayout.tsx'
import type { RepositoryFieldsFragment } from '../gql/graphql.ts'
import { Link } from '../router.tsx'

export function RepositoriesView() {
  const repositories = useQuery(RepositoriesQuery, {})
  const [deleting, setDeleting] = useState<RepositoryFieldsFragment>()
  const [deleteRepository, deletion] = useMutation(DeleteRepositoryMutation)
  // a scan of one of them started, progressed or ended: its "last scan" column changes
  useScanStatusChanges((scan) => {
    if (repositories.data?.repositories.some((repository) => repository.id === scan.repoId && (repository.lastScanId !== scan.id || repository.lastScanStatus !== scan.status))) repositories.reload()
  })

  const confirmDelete = async () => {
    if (!deleting) return
    if (await deleteRepository({ id: deleting.id })) {
      setDeleting(undefined)
      repositories.reload()
    }
  }

  const columns: Column<RepositoryFieldsFragment>[] = [
    { key: 'name', header: 'Name', sortValue: (row) => row.repoName.toLowerCase(), render: (row) => <Link to={`/repositories/${row.id}`}>{row.repoName}</Link> },
    { key: 'branch', header: 'Branch', sortValue: (row) => row.branchName, render: (row) => row.branchName },
    { key: 'languages', header: 'Languages', render: (row) => formatLanguages(row.languages) },
    { key: 'size', header: 'Size', className: 'number', sortValue: (row) => row.sizeBytes, render: (row) => `${formatBytes(row.sizeBytes)} · ${row.fileCount} files` },
    {
      key: 'lastScan',
      header: 'Last scan',
      render: (row) => (row.lastScanId && row.lastScanStatus ? <Link to={`/scans/${row.lastScanId}`}><StatusBadge status={row.lastScanStatus} /></Link> : 'never'),
    },
    { key: 'updated', header: 'Updated', sortValue: (row) => row.updatedAt, render: (row) => formatDateTime(row.updatedAt) },
    {
      key: 'actions',
      header: 'Actions',
      render: (row) => (
        <button type="button" className="danger small" onClick={() => setDeleting(row)} aria-label={`Delete ${row.repoName}`}>
          Delete
        </button>
      ),
    },
  ]

  return (
    <PageLayout title="Repositories" subtitle="Upload a repository as a zip, then scan it.">
      <UploadForm onUploaded={repositories.reload} />
      <ErrorBanner error={repositories.error} />
      {repositories.data ? (
        <DataTable label="Repositories" columns={columns} rows={repositories.data.repositories} rowKey={(row) => row.id} empty="No repositories yet: upload one above." />
      ) : (
        !repositories.error && <p role="status">Loading repositories…</p>
      )}
      <ConfirmDialog open={deleting !== undefined} title={`Delete ${deleting?.repoName ?? ''}?`} confirmLabel="Delete repository" busy={deletion.running} onConfirm={confirmDelete} onCancel={() => { deletion.clearError(); setDeleting(undefined) }}>
        <p>The repository, its scans and its issues disappear from every list. Scans that are running are not stopped by this.</p>
        <ErrorBanner error={deletion.error} />
      </ConfirmDialog>
    </PageLayout>
  )
}

function UploadForm({ onUploaded }: { onUploaded(): void }) {
  const [upload, uploading] = useMutation(UploadRepositoryMutation, { upload: true })
  const [uploaded, setUploaded] = useState<string>()

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const fields = new FormData(form)
    const file = fields.get('file')
    if (!(file instanceof File)) return
    setUploaded(undefined)
    const result = await upload({ input: { repoName: String(fields.get('repoName')), branchName: String(fields.get('branchName')), file } })
    if (!result) return
    setUploaded(`Uploaded ${result.uploadRepository.repoName} (${formatBytes(result.uploadRepository.sizeBytes)}, ${result.uploadRepository.fileCount} files).`)
    form.reset()
    onUploaded()
  }

  return (
    <form className="card upload-form" onSubmit={submit} aria-labelledby="upload-title">
      <h2 id="upload-title">Upload a repository</h2>
      <div className="form-row">
        <label>
          Name
          <input name="repoName" required maxLength={255} autoComplete="off" />
        </label>
        <label>
          Branch
          <input name="branchName" required maxLength={255} defaultValue="main" autoComplete="off" />
        </label>
        <label>
          Zip archive
          <input name="file" type="file" accept=".zip,application/zip" required />
        </label>
        <button type="submit" className="primary" disabled={uploading.running}>
          {uploading.running ? 'Uploading…' : 'Upload'}
        </button>
      </div>
      <ErrorBanner error={uploading.error} onDismiss={uploading.clearError} />
      {uploaded && (
        <p className="notice" role="status">
          {uploaded}
        </p>
      )}
    </form>
  )
}
