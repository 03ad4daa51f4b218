/**
 * One issue's page: where it is (the code with its context, the matched lines marked), how
 * untrusted data gets there (the data-flow trace, step by step), what it is (CWE and OWASP
 * links), how to fix it (remediation and fix code), and its triage with its history (who set what, when, and the notes).
 */
import { useState } from 'react'
import { IssueQuery, UpdateIssueMutation } from '../api/documents/issues.ts'
import { useMutation, useQuery } from '../api/hooks.ts'
import { SeverityBadge } from '../components/Badge.tsx'
import { CodeLines } from '../components/CodeLines.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { formatDateTime } from '../components/format.ts'
import { PageLayout } from '../components/PageLayout.tsx'
import { TriageFields, triageInput, type TriageChoice } from '../components/TriageFields.tsx'
import type { IssueQuery as IssueData } from '../gql/graphql.ts'
import { Link } from '../router.tsx'

type Issue = IssueData['issue']

export function IssueView({ id }: { id: string }) {
  const issue = useQuery(IssueQuery, { id })
  if (!issue.data) {
    return (
      <PageLayout title="Issue">
        <ErrorBanner error={issue.error} />
        {!issue.error && <p role="status">Loading the issue…</p>}
      </PageLayout>
    )
  }
  const found = issue.data.issue
  return (
    <PageLayout title={found.title} subtitle={<IssueFacts issue={found} />}>
      <ErrorBanner error={issue.error} />
      <div className="issue-layout">
        <div className="issue-main">
          <section className="card" aria-labelledby="code-title">
            <h2 id="code-title">
              Code <span className="mono hint">{found.filePath}:{found.lineNumber}</span>
            </h2>
            <CodeLines lines={found.codeLines} label={`Code of ${found.filePath} around line ${found.lineNumber}`} />
          </section>
          {found.trace && <Trace trace={found.trace} />}
          <section className="card" aria-labelledby="about-title">
            <h2 id="about-title">What it is</h2>
            {found.description && <p>{found.description}</p>}
            {found.explanation && found.explanation !== found.description && <p>{found.explanation}</p>}
            {found.references.length > 0 && (
              <ul className="references" aria-label="References">
                {found.references.map((reference) => (
                  <li key={`${reference.kind}-${reference.id}`}>
                    {reference.url ? (
                      <a href={reference.url} target="_blank" rel="noreferrer noopener">
                        {reference.id}
                        {reference.title ? ` ${reference.title}` : ''}
                      </a>
                    ) : (
                      `${reference.id}${reference.title ? ` ${reference.title}` : ''}`
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {(found.remediation || found.remediationCode) && (
            <section className="card" aria-labelledby="fix-title">
              <h2 id="fix-title">How to fix it</h2>
              {found.remediation && <p>{found.remediation}</p>}
              {found.remediationCode && (
                <pre className="code-block" aria-label="Fix code">
                  <code>{found.remediationCode}</code>
                </pre>
              )}
            </section>
          )}
        </div>
        <aside className="issue-side">
          <Triage issue={found} onSaved={issue.reload} />
        </aside>
      </div>
    </PageLayout>
  )
}

function IssueFacts({ issue }: { issue: Issue }) {
  return (
    <span className="issue-facts">
      <SeverityBadge severity={issue.severity} /> {issue.category} · <span className="mono">{issue.ruleId}</span> · in{' '}
      <Link to={`/repositories/${issue.repoId}`}>{issue.repoName}</Link> (<Link to={`/scans/${issue.scanId}`}>its scan</Link>) · {issue.baselineState === 'NEW' ? 'new in its scan' : 'unchanged since the previous scan'} · first seen {formatDateTime(issue.firstSeenAt)}
      {issue.cvssScore != null && ` · CVSS ${issue.cvssScore}`}
      {issue.confidence != null && ` · confidence ${Math.round(issue.confidence * 100)}%`}
    </span>
  )
}

function Trace({ trace }: { trace: NonNullable<Issue['trace']> }) {
  const steps = [
    { ...trace.source, role: `Source: ${trace.source.kind}` },
    ...trace.steps.map((step) => ({ ...step, role: 'Step' })),
    { ...trace.sink, role: `Sink: ${trace.sink.kind}` },
  ]
  return (
    <section className="card" aria-labelledby="trace-title">
      <h2 id="trace-title">Data flow</h2>
      <ol className="trace" aria-label="Data-flow steps">
        {steps.map((step, index) => (
          <li key={index} className={index === 0 ? 'trace-source' : index === steps.length - 1 ? 'trace-sink' : undefined}>
            <span className="trace-role">{step.role}</span>
            <span className="mono trace-where">
              {step.filePath}:{step.lineNumber}
            </span>
            <code className="trace-code">{step.code}</code>
            <span className="trace-note">{step.note}</span>
          </li>
        ))}
      </ol>
    </section>
  )
}

function Triage({ issue, onSaved }: { issue: Issue; onSaved(): void }) {
  const [choice, setChoice] = useState<TriageChoice>({})
  const [update, updating] = useMutation(UpdateIssueMutation)
  const [saved, setSaved] = useState(false)
  const input = triageInput(choice)
  const save = async () => {
    if (!input) return
    setSaved(false)
    if (await update({ id: issue.id, input })) {
      setChoice({})
      setSaved(true)
      onSaved()
    }
  }
  return (
    <section className="card" aria-labelledby="triage-title">
      <h2 id="triage-title">Triage</h2>
      <dl className="facts">
        <div>
          <dt>False positive</dt>
          <dd data-testid="false-positive">{issue.falsePositive ? 'yes' : 'no'}</dd>
        </div>
        <div>
          <dt>Exploitable</dt>
          <dd data-testid="exploitable">{issue.exploitable === null ? 'not assessed' : issue.exploitable ? 'yes' : 'no'}</dd>
        </div>
        <div>
          <dt>Severity</dt>
          <dd data-testid="severity">{issue.severity.toLowerCase()}</dd>
        </div>
      </dl>
      <TriageFields choice={choice} onChange={setChoice} idPrefix="issue" />
      <button type="button" className="primary" disabled={!input || updating.running} onClick={save}>
        {updating.running ? 'Saving…' : 'Save triage'}
      </button>
      <ErrorBanner error={updating.error} onDismiss={updating.clearError} />
      {saved && (
        <p className="notice" role="status">
          Triage saved.
        </p>
      )}
      <h3>History</h3>
      <TriageHistory entries={issue.triageHistory} />
    </section>
  )
}

/** What one triage set, in words: "false positive, severity critical". */
function changesOf(entry: Issue['triageHistory'][number]): string[] {
  const changes: string[] = []
  if (entry.falsePositive !== null) changes.push(entry.falsePositive ? 'marked false positive' : 'marked a real finding')
  if (entry.exploitable !== null) changes.push(entry.exploitable ? 'marked exploitable' : 'marked not exploitable')
  if (entry.severity !== null) changes.push(`set severity ${entry.severity.toLowerCase()}`)
  return changes
}

function TriageHistory({ entries }: { entries: Issue['triageHistory'] }) {
  if (entries.length === 0) return <p className="hint">Not triaged yet.</p>
  return (
    <ol className="notes" aria-label="Triage history">
      {[...entries].reverse().map((entry, index) => {
        const changes = changesOf(entry)
        return (
          <li key={index}>
            {entry.note && <p>{entry.note}</p>}
            <p className="hint">
              {entry.author}
              {changes.length > 0 && ` ${changes.join(', ')}`}
              {entry.note && changes.length === 0 && ' wrote a note'} · {formatDateTime(entry.createdAt)}
            </p>
          </li>
        )
      })}
    </ol>
  )
}
