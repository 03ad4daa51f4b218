/**
 * The dashboard's shell: sign-in until a credential is accepted, then the navigation, the
 * organization's live scans, and the page the location names (routes.tsx).
 */
import { SessionProvider, useSession, useSessionState } from './api/session.tsx'
import { LiveScansProvider, useLiveScans } from './api/scan-events.tsx'
import { Link, matchPath, RouterProvider, useRouter } from './router.tsx'
import { NAVIGATION, ROUTES } from './routes.tsx'
import { SignInView } from './views/SignInView.tsx'
import { NotFoundView } from './views/NotFoundView.tsx'

export function App() {
  return (
    <RouterProvider>
      <SessionProvider>
        <SignedInOrNot />
      </SessionProvider>
    </RouterProvider>
  )
}

function SignedInOrNot() {
  const { session } = useSessionState()
  if (!session) return <SignInView />
  // rendered only while signed in: a new sign-in starts every page's state afresh
  return (
    <LiveScansProvider>
      <Shell />
    </LiveScansProvider>
  )
}

function Shell() {
  const { location } = useRouter()
  const { signOut } = useSession()
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top-bar">
        <Link to="/" className="brand">
          Parapet
        </Link>
        <nav aria-label="Main">
          <ul className="nav-list">
            {NAVIGATION.map((entry) => {
              const current = location.path === entry.section || location.path.startsWith(`${entry.section}/`)
              return (
                <li key={entry.to}>
                  <Link to={entry.to} aria-current={current ? 'page' : undefined}>
                    {entry.label}
                  </Link>
                </li>
              )
            })}
          </ul>
        </nav>
        <RunningScansIndicator />
        <button type="button" className="sign-out" onClick={() => signOut('Signed out.')}>
          Sign out
        </button>
      </header>
      <main id="main">
        <CurrentPage path={location.path} />
      </main>
    </div>
  )
}

function CurrentPage({ path }: { path: string }) {
  for (const route of ROUTES) {
    const params = matchPath(route.path, path)
    // keyed by the path: another resource's page starts with fresh state
    if (params) return <div key={path}>{route.render(params)}</div>
  }
  return <NotFoundView />
}

/** The organization's queued and running scans, live on every page. */
function RunningScansIndicator() {
  const { active, available } = useLiveScans()
  if (!available) return null
  const running = active.filter((scan) => scan.status === 'RUNNING').length
  const queued = active.length - running
  const text = active.length === 0 ? 'No scans running' : `${running} running${queued ? `, ${queued} queued` : ''}`
  return (
    <Link to="/scans?status=active" className={`live-scans${active.length ? ' busy' : ''}`} aria-live="polite" data-testid="live-scans">
      <span className="live-dot" aria-hidden="true" />
      {text}
    </Link>
  )
}
