/**
 * Every page of the dashboard: the route table (path pattern -> view) and the navigation entries.
 * A new view is one row here (and one in NAVIGATION when it is a top-level section).
 */
import type { ReactNode } from 'react'
import { IssuesView } from './views/IssuesView.tsx'
import { IssueView } from './views/IssueView.tsx'
import { RepositoriesView } from './views/RepositoriesView.tsx'
import { RepositorySummaryView } from './views/RepositorySummaryView.tsx'
import { RepositoryView } from './views/RepositoryView.tsx'
import { RulesetEditorView, RulesetsView } from './views/RulesetsView.tsx'
import { ScansView } from './views/ScansView.tsx'
import { ScanView } from './views/ScanView.tsx'

export interface Route {
  /** /segment/:param/... */
  path: string
  render(params: Record<string, string>): ReactNode
}

export const ROUTES: Route[] = [
  { path: '/', render: () => <RepositoriesView /> },
  { path: '/repositories', render: () => <RepositoriesView /> },
  { path: '/repositories/:id', render: ({ id }) => <RepositoryView id={id as string} /> },
  { path: '/scans', render: () => <ScansView /> },
  { path: '/scans/:id', render: ({ id }) => <ScanView id={id as string} /> },
  { path: '/repositories/:id/summary', render: ({ id }) => <RepositorySummaryView id={id as string} /> },
  { path: '/issues', render: () => <IssuesView /> },
  { path: '/issues/:id', render: ({ id }) => <IssueView id={id as string} /> },
  { path: '/rulesets', render: () => <RulesetsView /> },
  { path: '/rulesets/new', render: () => <RulesetEditorView /> },
  { path: '/rulesets/:id', render: ({ id }) => <RulesetEditorView id={id as string} /> },
]

export interface NavigationEntry {
  label: string
  to: string
  /** paths under this prefix mark the entry as the current section */
  section: string
}

export const NAVIGATION: NavigationEntry[] = [
  { label: 'Repositories', to: '/repositories', section: '/repositories' },
  { label: 'Scans', to: '/scans', section: '/scans' },
  { label: 'Issues', to: '/issues', section: '/issues' },
  { label: 'Rulesets', to: '/rulesets', section: '/rulesets' },
]
