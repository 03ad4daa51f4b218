/**
 * Who is signed in: the credential (API key or bearer token) kept in sessionStorage for this
 * browser tab, and the GraphQL client that sends it. A credential is kept only after a real
 * query accepted it; a 401 anywhere (HTTP or WebSocket) signs out with the server's message.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { graphql } from '../gql/index.ts'
import { ApiError, createGraphQLClient, type GraphQLClient, type SessionEndedError } from './client.ts'

const STORAGE_KEY = 'parapet.credential'

const SignInCheck = graphql(`
  query SignInCheck {
    __typename
  }
`)

export interface Session {
  client: GraphQLClient
  signOut(message?: string): void
}

interface SessionState {
  session: Session | undefined
  /** why the last session ended, shown on the sign-in page */
  endedBecause: string | undefined
  signIn(credential: string): Promise<void>
}

const SessionContext = createContext<SessionState | undefined>(undefined)

export function SessionProvider({ children }: { children: ReactNode }) {
  const [credential, setCredential] = useState(() => sessionStorage.getItem(STORAGE_KEY) ?? undefined)
  const [endedBecause, setEndedBecause] = useState<string>()

  const signOut = useCallback((message?: string) => {
    sessionStorage.removeItem(STORAGE_KEY)
    setCredential(undefined)
    setEndedBecause(message)
  }, [])

  const session = useMemo<Session | undefined>(() => {
    if (!credential) return undefined
    const client = createGraphQLClient(credential, (error: SessionEndedError) => signOut(`Signed out: ${error.message}`))
    return { client, signOut }
  }, [credential, signOut])
  // a session that ends (sign-out, a 401) closes its live connection with it
  useEffect(() => () => session?.client.dispose(), [session])

  const signIn = useCallback(async (candidate: string) => {
    const trimmed = candidate.trim()
    if (!trimmed) throw new ApiError('Enter an API key or a bearer token', undefined, undefined)
    const client = createGraphQLClient(trimmed, () => undefined)
    try {
      await client.request(SignInCheck, {})
    } finally {
      client.dispose()
    }
    sessionStorage.setItem(STORAGE_KEY, trimmed)
    setEndedBecause(undefined)
    setCredential(trimmed)
  }, [])

  const state = useMemo(() => ({ session, endedBecause, signIn }), [session, endedBecause, signIn])
  return <SessionContext.Provider value={state}>{children}</SessionContext.Provider>
}

export function useSessionState(): SessionState {
  const state = useContext(SessionContext)
  if (!state) throw new Error('useSessionState outside SessionProvider')
  return state
}

/** The signed-in session; only views rendered after sign-in call it. */
export function useSession(): Session {
  const { session } = useSessionState()
  if (!session) throw new Error('useSession before sign-in')
  return session
}
