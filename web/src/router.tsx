/**
 * Client-side routing over the History API: paths like /repositories/:id matched against the
 * route table (routes.tsx), query strings for a view's filters, and links that stay in the page.
 * The server answers every such path with the dashboard (its SPA fallback), so any URL can be
 * reloaded or shared.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react'

export interface Location {
  path: string
  search: URLSearchParams
}

interface RouterState {
  location: Location
  navigate(to: string, options?: { replace?: boolean }): void
}

const RouterContext = createContext<RouterState | undefined>(undefined)

function currentLocation(): Location {
  return { path: window.location.pathname, search: new URLSearchParams(window.location.search) }
}

export function RouterProvider({ children }: { children: ReactNode }) {
  const [location, setLocation] = useState(currentLocation)
  useEffect(() => {
    const onPopState = () => setLocation(currentLocation())
    window.addEventListener('popstate', onPopState)
    return () => window.removeEventListener('popstate', onPopState)
  }, [])
  const navigate = useCallback((to: string, options: { replace?: boolean } = {}) => {
    if (options.replace) window.history.replaceState(null, '', to)
    else window.history.pushState(null, '', to)
    setLocation(currentLocation())
    if (!options.replace) window.scrollTo(0, 0)
  }, [])
  const state = useMemo(() => ({ location, navigate }), [location, navigate])
  return <RouterContext.Provider value={state}>{children}</RouterContext.Provider>
}

export function useRouter(): RouterState {
  const state = useContext(RouterContext)
  if (!state) throw new Error('useRouter outside RouterProvider')
  return state
}

/** The query string of the current location, and a setter that replaces it (for filters, sort, page). */
export function useSearchParams(): [URLSearchParams, (update: Record<string, string | undefined>) => void] {
  const { location, navigate } = useRouter()
  const update = useCallback(
    (changes: Record<string, string | undefined>) => {
      const next = new URLSearchParams(location.search)
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined || value === '') next.delete(name)
        else next.set(name, value)
      }
      const query = next.toString()
      navigate(`${location.path}${query ? `?${query}` : ''}`, { replace: true })
    },
    [location, navigate],
  )
  return [location.search, update]
}

/** `pattern` like /scans/:id against `path`: the parameters, or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const patternParts = pattern.split('/').filter(Boolean)
  const pathParts = path.split('/').filter(Boolean)
  if (patternParts.length !== pathParts.length) return undefined
  const params: Record<string, string> = {}
  for (const [index, part] of patternParts.entries()) {
    const actual = pathParts[index] as string
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual)
    else if (part !== actual) return undefined
  }
  return params
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & { to: string }

/** An anchor that navigates inside the page (a modified click still opens a new tab). */
export function Link({ to, onClick, ...props }: LinkProps) {
  const { navigate } = useRouter()
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event)
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(to)
  }
  return <a href={to} onClick={follow} {...props} />
}
