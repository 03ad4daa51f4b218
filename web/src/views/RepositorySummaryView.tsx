/**
 * A repository's summary, as its latest full scan understood it: architecture, authentication,
 * trust boundaries (entry points, inputs, exits), business flows, dependencies, security
 * controls and data flows. Each part has its own heading, so the page can be read by section.
 */
import { RepositorySummaryQuery } from '../api/documents/insights.ts'
import { useQuery } from '../api/hooks.ts'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { formatDateTime } from '../components/format.ts'
import { JsonView } from '../components/JsonView.tsx'
import { PageLayout } from '../components/PageLayout.tsx'
import { Link } from '../router.tsx'

export function RepositorySummaryView({ id }: { id: string }) {
  const repository = useQuery(RepositorySummaryQuery, { id })
  const found = repository.data?.repository
  if (!found) {
    return (
      <PageLayout title="Repository summary">
        <ErrorBanner error={repository.error} />
        {!repository.error && <p role="status">Loading the summary…</p>}
      </PageLayout>
    )
  }
  const summary = found.summary
  return (
    <PageLayout
      title={`Summary of ${found.repoName}`}
      subtitle={
        <>
          <Link to={`/repositories/${found.id}`}>
            {found.repoName} ({found.branchName})
          </Link>
          {summary && ` · as of ${formatDateTime(summary.updatedAt)}`}
        </>
      }
    >
      {!summary ? (
        <p className="card">No summary yet: a full scan of the repository writes one.</p>
      ) : (
        <div className="summary-parts">
          <TextPart id="architecture" title="Architecture" text={summary.architecturePattern} />
          <TextPart id="authentication" title="Authentication" text={summary.authLogicSummary} />
          <JsonPart id="trust-boundaries" title="Trust boundaries" value={summary.trustBoundaries} />
          <JsonPart id="flows" title="Business logic flows" value={summary.businessLogicFlows} />
          <JsonPart id="dependencies" title="Dependencies" value={summary.crossFileDependencies} />
          <TextPart id="security" title="Security controls" text={summary.securityContext} />
          <JsonPart id="data-flows" title="Data flows" value={summary.dataFlowAnalysis} />
        </div>
      )}
    </PageLayout>
  )
}

function TextPart({ id, title, text }: { id: string; title: string; text: string }) {
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="summary-text">{text || '—'}</p>
    </section>
  )
}

function JsonPart({ id, title, value }: { id: string; title: string; value: unknown }) {
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <JsonView value={value} label={title} />
    </section>
  )
}
