/**
 * The organization's live scans, shared by every page: one `scanEvents` subscription per
 * signed-in tab (no polling) over the queued and running scans read once at sign-in. Views
 * subscribe to status changes (`useScanStatusChanges`) to refresh what they show.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { isActiveStatus } from '../components/Badge.tsx'
import type { ScanFieldsFragment } from '../gql/graphql.ts'
import { ActiveScansQuery, ScanEventsSubscription } from './documents/scans.ts'
import { useQuery, useSubscription } from './hooks.ts'

type Listener = (scan: ScanFieldsFragment) => void

interface LiveScans {
  /** queued and running scans, newest first */
  active: ScanFieldsFragment[]
  /** false when the credential may not watch scans (no write:scan) or the live connection failed */
  available: boolean
  addListener(listener: Listener): () => void
}

const LiveScansContext = createContext<LiveScans | undefined>(undefined)

export function LiveScansProvider({ children }: { children: ReactNode }) {
  const initial = useQuery(ActiveScansQuery, {})
  const [active, setActive] = useState(new Map<string, ScanFieldsFragment>())
  const listeners = useRef(new Set<Listener>())

  useEffect(() => {
    if (!initial.data) return
    setActive(new Map([...initial.data.queued, ...initial.data.running].map((scan) => [scan.id, scan])))
  }, [initial.data])

  const live = useSubscription(ScanEventsSubscription, {}, ({ scanEvents: { scan } }) => {
    setActive((previous) => {
      const next = new Map(previous)
      if (isActiveStatus(scan.status)) next.set(scan.id, scan)
      else next.delete(scan.id)
      return next
    })
    for (const listener of listeners.current) listener(scan)
  })

  const addListener = useCallback((listener: Listener) => {
    listeners.current.add(listener)
    return () => void listeners.current.delete(listener)
  }, [])
  const value = useMemo<LiveScans>(
    () => ({ active: [...active.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt)), available: !initial.error && !live.error, addListener }),
    [active, initial.error, live.error, addListener],
  )
  return <LiveScansContext.Provider value={value}>{children}</LiveScansContext.Provider>
}

export function useLiveScans(): LiveScans {
  const value = useContext(LiveScansContext)
  if (!value) throw new Error('useLiveScans outside LiveScansProvider')
  return value
}

/** Calls `onChange` with each scan whose status or progress changes while the component is mounted. */
export function useScanStatusChanges(onChange: Listener): void {
  const { addListener } = useLiveScans()
  const handler = useRef(onChange)
  handler.current = onChange
  useEffect(() => addListener((scan) => handler.current(scan)), [addListener])
}
