/**
 * Rulesets: the organization's list, and one ruleset's editor (create or edit) with the rule
 * text in a code editor where the server's rule problems appear on their lines, and the
 * repositories it applies to (linked and unlinked by ticking them).
 */
import { useMemo, useState, type FormEvent } from 'react'
import type { ApiError } from '../api/client.ts'
import { CreateRulesetMutation, DeleteRulesetMutation, LinkableRepositoriesQuery, RulesetQuery, RulesetsQuery, UpdateRulesetMutation } from '../api/documents/rulesets.ts'
import { useMutation, useQuery } from '../api/hooks.ts'
import { ConfirmDialog } from '../components/ConfirmDialog.tsx'
import { DataTable, type Column } from '../components/DataTable.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'
import { formatDateTime } from '../components/format.ts'
import { PageLayout } from '../components/PageLayout.tsx'
import { RulesEditor, type RuleProblem } from '../components/RulesEditor.tsx'
import type { RulesetFieldsFragment } from '../gql/graphql.ts'
import { Link, useRouter } from '../router.tsx'

const STARTER_RULES = `id: no-eval
language: javascript
severity: high
message: eval() runs text as code
rule:
  pattern: eval($CODE)
`

export function RulesetsView() {
  const rulesets = useQuery(RulesetsQuery, {})
  const columns: Column<RulesetFieldsFragment>[] = [
    { key: 'name', header: 'Name', sortValue: (row) => row.name.toLowerCase(), render: (row) => <Link to={`/rulesets/${row.id}`}>{row.name}</Link> },
    { key: 'description', header: 'Description', render: (row) => row.description || '—' },
    { key: 'repositories', header: 'Applies to', render: (row) => (row.repositories.length ? row.repositories.map((repository) => repository.repoName).join(', ') : 'no repository') },
    { key: 'updated', header: 'Updated', sortValue: (row) => row.updatedAt, render: (row) => formatDateTime(row.updatedAt) },
  ]
  return (
    <PageLayout
      title="Rulesets"
      subtitle="Your own rules, added to the scans of the repositories each ruleset applies to."
      actions={
        <Link to="/rulesets/new" className="button primary">
          New ruleset
        </Link>
      }
    >
      <ErrorBanner error={rulesets.error} />
      {rulesets.data ? (
        <DataTable label="Rulesets" columns={columns} rows={rulesets.data.rulesets} rowKey={(row) => row.id} empty="No rulesets yet." />
      ) : (
        !rulesets.error && <p role="status">Loading rulesets…</p>
      )}
    </PageLayout>
  )
}

/** The problems of a refused rule text that name a line (the rest stay in the error banner). */
export function ruleProblemsOf(error: ApiError | undefined): RuleProblem[] {
  return (error?.details ?? []).flatMap((detail) => detail.issues ?? []).flatMap((issue) => (typeof issue['line'] === 'number' ? [{ line: issue['line'], message: issue.msg }] : []))
}

export function RulesetEditorView({ id }: { id?: string }) {
  const existing = useQuery(RulesetQuery, { id: id ?? '' }, { skip: id === undefined })
  const repositories = useQuery(LinkableRepositoriesQuery, {}, { skip: id !== undefined })
  if (id !== undefined && !existing.data) {
    return (
      <PageLayout title="Ruleset">
        <ErrorBanner error={existing.error} />
        {!existing.error && <p role="status">Loading the ruleset…</p>}
      </PageLayout>
    )
  }
  const choices = existing.data?.repositories ?? repositories.data?.repositories ?? []
  // keyed by the ruleset's update time: a save starts the form from what was stored
  return <RulesetForm key={existing.data?.ruleset.updatedAt ?? 'new'} ruleset={existing.data?.ruleset} repositories={choices} />
}

function RulesetForm({ ruleset, repositories }: { ruleset: RulesetFieldsFragment | undefined; repositories: { id: string; repoName: string; branchName: string }[] }) {
  const { navigate } = useRouter()
  const [name, setName] = useState(ruleset?.name ?? '')
  const [description, setDescription] = useState(ruleset?.description ?? '')
  const [rulesText, setRulesText] = useState(ruleset?.rulesText ?? STARTER_RULES)
  const [linked, setLinked] = useState(new Set(ruleset?.repositories.map((repository) => repository.id) ?? []))
  const [create, creating] = useMutation(CreateRulesetMutation)
  const [update, updating] = useMutation(UpdateRulesetMutation)
  const [remove, removing] = useMutation(DeleteRulesetMutation)
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [saved, setSaved] = useState(false)
  const error = creating.error ?? updating.error
  const problems = useMemo(() => ruleProblemsOf(error), [error])
  const allOnLines = problems.length > 0 && problems.length === (error?.details ?? []).flatMap((detail) => detail.issues ?? []).length

  const save = async (event: FormEvent) => {
    event.preventDefault()
    setSaved(false)
    const input = { name, description, rulesText, repoIds: [...linked] }
    if (!ruleset) {
      const result = await create({ input })
      if (result) navigate(`/rulesets/${result.createRuleset.id}`)
      return
    }
    if (await update({ id: ruleset.id, input })) setSaved(true)
  }

  const toggle = (repoId: string) => {
    const next = new Set(linked)
    if (next.has(repoId)) next.delete(repoId)
    else next.add(repoId)
    setLinked(next)
  }

  return (
    <PageLayout
      title={ruleset ? ruleset.name : 'New ruleset'}
      subtitle={<Link to="/rulesets">All rulesets</Link>}
      actions={
        ruleset && (
          <button type="button" className="danger" onClick={() => setConfirmDelete(true)}>
            Delete ruleset
          </button>
        )
      }
    >
      <form className="card ruleset-form" onSubmit={save} aria-label="Ruleset">
        <div className="form-row">
          <label>
            Name
            <input value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} autoComplete="off" />
          </label>
          <label className="grow">
            Description
            <input value={description} onChange={(event) => setDescription(event.target.value)} maxLength={2000} autoComplete="off" />
          </label>
        </div>
        <span className="field-label" id="rules-label">
          Rules (ast-grep or Semgrep YAML)
        </span>
        <RulesEditor value={rulesText} onChange={setRulesText} problems={problems} label="Rules (ast-grep or Semgrep YAML)" />
        <fieldset className="repository-links">
          <legend>Applies to</legend>
          {repositories.length === 0 && <p className="hint">No repositories yet.</p>}
          {repositories.map((repository) => (
            <label key={repository.id} className="checkbox">
              <input type="checkbox" checked={linked.has(repository.id)} onChange={() => toggle(repository.id)} />
              {repository.repoName} ({repository.branchName})
            </label>
          ))}
        </fieldset>
        <ErrorBanner
          error={allOnLines ? `The rules have ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}, marked on ${problems.length === 1 ? 'its line' : 'their lines'} above.` : error}
          onDismiss={() => (creating.error ? creating.clearError() : updating.clearError())}
        />
        <div className="form-row">
          <button type="submit" className="primary" disabled={creating.running || updating.running}>
            {creating.running || updating.running ? 'Saving…' : ruleset ? 'Save ruleset' : 'Create ruleset'}
          </button>
        </div>
        {saved && (
          <p className="notice" role="status">
            Ruleset saved.
          </p>
        )}
      </form>
      <ConfirmDialog
        open={confirmDelete}
        title={`Delete ${ruleset?.name ?? ''}?`}
        confirmLabel="Delete ruleset"
        busy={removing.running}
        onConfirm={async () => {
          if (ruleset && (await remove({ id: ruleset.id }))) navigate('/rulesets')
        }}
        onCancel={() => setConfirmDelete(false)}
      >
        <p>Scans of its repositories no longer run its rules. Issues found by it stay.</p>
        <ErrorBanner error={removing.error} />
      </ConfirmDialog>
    </PageLayout>
  )
}
