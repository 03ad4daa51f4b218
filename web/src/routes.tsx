/**
 * Every page of the dashboard: the route table (path pattern -> view) and the navigation entries.
 * A new view is one row here (and one in NAVIGATION when it is a top-level section).
 */
import type { ReactNode } from 'react'
import { RepositoriesView } from './views/RepositoriesView.tsx'

export interface Route {
  /** /segment/:param/... */
  path: string
  render(params: Record<string, string>): ReactNode
}

export const ROUTES: Route[] = [
  { path: '/', render: () => <RepositoriesView /> },
  { path: '/repositories', render: () => <RepositoriesView /> },
]

export interface NavigationEntry {
  label: string
  to: string
  /** paths under this prefix mark the entry as the current section */
  section: string
}

export const NAVIGATION: NavigationEntry[] = [
  { label: 'Repositories', to: '/repositories', section: '/repositories' },
]
