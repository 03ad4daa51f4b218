/**
 * Issues: the organization's findings with the spec's filters plus the current state of the code
 * (`latest`) and new / unchanged, sorted and paged by the server, the state kept in the URL (so a
 * view can be reloaded or shared); rows selected (up to 100) are triaged together, each row's
 * outcome shown.
 */
import { useMemo, useState } from 'react'
import { BulkUpdateIssuesMutation, IssueFilterChoicesQuery, IssuesQuery } from '../api/documents/issues.ts'
import { useMutation, useQuery } from '../api/hooks.ts'
import { SeverityBadge } from '../components/Badge.tsx'
import { DataTable, type Column, type SortState } from '../components/DataTable.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { formatDateTime } from '../components/format.ts'
import { PageLayout } from '../components/PageLayout.tsx'
import { Pager } from '../components/Pager.tsx'
import { TriageFields, triageInput, type TriageChoice } from '../components/TriageFields.tsx'
import type { BaselineState, FalsePositiveFilter, IssueFilter, IssueRowFieldsFragment, IssueSortField, Severity } from '../gql/graphql.ts'
import { Link, useSearchParams } from '../router.tsx'

export const MAX_SELECTED = 100
const PER_PAGE = 25
const SEVERITIES: Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO']

/** Table columns the server can sort by, and the field each sorts on. */
const SORT_FIELDS: Record<string, IssueSortField> = {
  severity: 'SEVERITY',
  title: 'TITLE',
  location: 'FILE_PATH',
  rule: 'RULE_ID',
  category: 'CATEGORY',
  found: 'CREATED_AT',
}

/** The filters the URL's query string holds, as the API's IssueFilter. */
function filterOf(search: URLSearchParams): IssueFilter {
  const severity = search.getAll('severity').filter((value): value is Severity => (SEVERITIES as string[]).includes(value))
  const filter: IssueFilter = {}
  if (severity.length) filter.severity = severity
  if (search.get('category')) filter.category = [search.get('category') as string]
  if (search.get('repoId')) filter.repoId = search.get('repoId')
  if (search.get('scanId')) filter.scanId = search.get('scanId')
  if (search.get('filePath')) filter.filePath = search.get('filePath')
  if (search.get('falsePositive')) filter.falsePositive = search.get('falsePositive') as FalsePositiveFilter
  if (search.get('baselineState')) filter.baselineState = search.get('baselineState') as BaselineState
  if (search.get('latest') === 'true') filter.latest = true
  // dates are whole days in the reader's time zone: after the day's end, before its start
  const after = dayBound(search.get('createdAfter'), 'end')
  const before = dayBound(search.get('createdBefore'), 'start')
  if (after) filter.createdAfter = after
  if (before) filter.createdBefore = before
  return filter
}

function dayBound(day: string | null, bound: 'start' | 'end'): string | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined
  const date = new Date(`${day}T00:00:00`)
  if (Number.isNaN(date.getTime())) return undefined
  if (bound === 'end') date.setDate(date.getDate() + 1)
  return new Date(date.getTime() - (bound === 'end' ? 1 : 0)).toISOString()
}

function sortOf(search: URLSearchParams): SortState | undefined {
  const key = search.get('sort')
  if (!key || !SORT_FIELDS[key]) return undefined
  return { key, direction: search.get('direction') === 'asc' ? 'asc' : 'desc' }
}

export function IssuesView() {
  const [search, setSearch] = useSearchParams()
  const filter = useMemo(() => filterOf(search), [search])
  const sort = sortOf(search)
  const page = Math.max(1, Number(search.get('page')) || 1)
  const issues = useQuery(IssuesQuery, {
    filter,
    sort: sort ? { field: SORT_FIELDS[sort.key] as IssueSortField, direction: sort.direction === 'asc' ? 'ASC' : 'DESC' } : null,
    page,
    perPage: PER_PAGE,
  })
  const [selection, setSelection] = useState<Set<string>>(new Set())
  const [outcomes, setOutcomes] = useState<Map<string, string>>(new Map())
  const data = issues.data?.issues

  // a new filter, order or page starts from the first page and a fresh selection
  const change = (update: Record<string, string | undefined>) => {
    setSelection(new Set())
    setOutcomes(new Map())
    setSearch({ page: undefined, ...update })
  }

  const columns: Column<IssueRowFieldsFragment>[] = [
    { key: 'severity', header: 'Severity', sortable: true, render: (row) => <SeverityBadge severity={row.severity} /> },
    { key: 'title', header: 'Issue', sortable: true, render: (row) => <Link to={`/issues/${row.id}`}>{row.title}</Link> },
    { key: 'location', header: 'Location', sortable: true, className: 'mono', render: (row) => `${row.filePath}:${row.lineNumber}` },
    { key: 'repository', header: 'Repository', render: (row) => row.repoName },
    { key: 'rule', header: 'Rule', sortable: true, className: 'mono', render: (row) => row.ruleId },
    { key: 'category', header: 'Category', sortable: true, render: (row) => row.category },
    { key: 'state', header: 'State', render: (row) => <IssueState issue={row} /> },
    { key: 'found', header: 'Found', sortable: true, render: (row) => formatDateTime(row.createdAt) },
  ]
  if (outcomes.size > 0) columns.push({ key: 'outcome', header: 'Triage result', render: (row) => outcomes.get(row.id) ?? '' })

  return (
    <PageLayout title="Issues" subtitle="Findings of your repositories' scans. Filter, sort, open one, or select several to triage them at once.">
      <IssueFilters search={search} onChange={change} />
      <ErrorBanner error={issues.error} />
      {selection.size > 0 && (
        <BulkTriage
          selected={[...selection]}
          onDone={(results) => {
            setOutcomes(results)
            issues.reload()
          }}
          onClear={() => setSelection(new Set())}
        />
      )}
      {data ? (
        <>
          <p className="hint" role="status">
            {data.total === 1 ? '1 issue' : `${data.total} issues`}
            {selection.size > 0 && ` · ${selection.size} selected`}
          </p>
          <DataTable
            label="Issues"
            columns={columns}
            rows={data.issues}
            rowKey={(row) => row.id}
            rowLabel={(row) => `${row.title} at ${row.filePath}:${row.lineNumber}`}
            empty="No issues match these filters."
            sort={sort}
            onSort={(next) => change({ sort: next.key, direction: next.direction })}
            selection={selection}
            onSelectionChange={(next) => setSelection(new Set([...next].slice(0, MAX_SELECTED)))}
          />
          <Pager page={data.page} totalPages={data.totalPages} total={data.total} onPage={(next) => setSearch({ page: String(next) })} />
        </>
      ) : (
        !issues.error && <p role="status">Loading issues…</p>
      )}
    </PageLayout>
  )
}

function IssueState({ issue }: { issue: IssueRowFieldsFragment }) {
  const marks = [issue.baselineState === 'NEW' ? 'new' : 'unchanged']
  if (issue.falsePositive) marks.push('false positive')
  if (issue.exploitable === true) marks.push('exploitable')
  if (issue.exploitable === false) marks.push('not exploitable')
  return <span className="issue-state">{marks.join(' · ')}</span>
}

function IssueFilters({ search, onChange }: { search: URLSearchParams; onChange(update: Record<string, string | undefined>): void }) {
  const choices = useQuery(IssueFilterChoicesQuery, {})
  const categories = Object.keys((choices.data?.issuesSummary.issuesByCategory as Record<string, number> | undefined) ?? {})
  const severity = search.get('severity') ?? ''
  return (
    <form className="card filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <div className="form-row">
        <label>
          Severity
          <select value={severity} onChange={(event) => onChange({ severity: event.target.value || undefined })}>
            <option value="">Any</option>
            {SEVERITIES.map((level) => (
              <option key={level} value={level}>
                {level.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
        <label>
          Category
          <select value={search.get('category') ?? ''} onChange={(event) => onChange({ category: event.target.value || undefined })}>
            <option value="">Any</option>
            {categories.map((category) => (
              <option key={category} value={category}>
                {category}
              </option>
            ))}
          </select>
        </label>
        <label>
          Repository
          <select value={search.get('repoId') ?? ''} onChange={(event) => onChange({ repoId: event.target.value || undefined })}>
            <option value="">Any</option>
            {choices.data?.repositories.map((repository) => (
              <option key={repository.id} value={repository.id}>
                {repository.repoName} ({repository.branchName})
              </option>
            ))}
          </select>
        </label>
        <label>
          Triage
          <select value={search.get('falsePositive') ?? ''} onChange={(event) => onChange({ falsePositive: event.target.value || undefined })}>
            <option value="">Any</option>
            <option value="REVIEW">Not yet triaged</option>
            <option value="NO">Not false positive</option>
            <option value="YES">False positive</option>
          </select>
        </label>
        <label>
          Since the previous scan
          <select value={search.get('baselineState') ?? ''} onChange={(event) => onChange({ baselineState: event.target.value || undefined })}>
            <option value="">New or unchanged</option>
            <option value="NEW">New</option>
            <option value="UNCHANGED">Unchanged</option>
          </select>
        </label>
        <label>
          File path contains
          <input type="search" defaultValue={search.get('filePath') ?? ''} onKeyDown={(event) => event.key === 'Enter' && onChange({ filePath: event.currentTarget.value || undefined })} onBlur={(event) => onChange({ filePath: event.currentTarget.value || undefined })} />
        </label>
        <label>
          Found after
          <input type="date" value={search.get('createdAfter') ?? ''} onChange={(event) => onChange({ createdAfter: event.target.value || undefined })} />
        </label>
        <label>
          Found before
          <input type="date" value={search.get('createdBefore') ?? ''} onChange={(event) => onChange({ createdBefore: event.target.value || undefined })} />
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={search.get('latest') === 'true'} onChange={(event) => onChange({ latest: event.target.checked ? 'true' : undefined })} />
          Latest scans only
        </label>
      </div>
      {search.get('scanId') && (
        <p className="hint">
          Issues of one scan (<Link to={`/scans/${search.get('scanId')}`}>open the scan</Link>).{' '}
          <button type="button" className="link-button" onClick={() => onChange({ scanId: undefined })}>
            Show every scan
          </button>
        </p>
      )}
    </form>
  )
}

/** Triage of the selected issues in one request; each row then says what happened to it. */
function BulkTriage({ selected, onDone, onClear }: { selected: string[]; onDone(results: Map<string, string>): void; onClear(): void }) {
  const [choice, setChoice] = useState<TriageChoice>({})
  const [bulkUpdate, updating] = useMutation(BulkUpdateIssuesMutation)
  const [summary, setSummary] = useState<string>()
  const input = triageInput(choice)

  const apply = async () => {
    if (!input) return
    const result = await bulkUpdate({ input: { issueIds: selected, ...input } })
    if (!result) return
    const { updatedIssues, failedIssues, updatedCount, failedCount } = result.bulkUpdateIssues
    const outcomes = new Map<string, string>(updatedIssues.map((issue) => [issue.id, 'updated']))
    for (const failure of failedIssues) outcomes.set(failure.issueId, failure.error)
    setSummary(`${updatedCount} updated${failedCount ? `, ${failedCount} failed` : ''}.`)
    setChoice({})
    onDone(outcomes)
  }

  return (
    <section className="card bulk-triage" aria-labelledby="bulk-title">
      <h2 id="bulk-title">Triage {selected.length === 1 ? '1 selected issue' : `${selected.length} selected issues`}</h2>
      <TriageFields choice={choice} onChange={setChoice} idPrefix="bulk" />
      <div className="form-row">
        <button type="button" className="primary" disabled={!input || updating.running} onClick={apply}>
          {updating.running ? 'Applying…' : `Apply to ${selected.length} issue${selected.length === 1 ? '' : 's'}`}
        </button>
        <button type="button" onClick={onClear}>
          Clear selection
        </button>
      </div>
      {selected.length >= MAX_SELECTED && <p className="hint">At most {MAX_SELECTED} issues are triaged at once.</p>}
      <ErrorBanner error={updating.error} onDismiss={updating.clearError} />
      {summary && (
        <p className="notice" role="status">
          {summary}
        </p>
      )}
    </section>
  )
}
