/**
 * React hooks over the session's GraphQL client: a query's state (loading, data, error) with
 * reload, a mutation runner, and a subscription for the lifetime of a component.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError, type Document } from './client.ts'
import { useSession } from './session.tsx'

export interface QueryState<TResult> {
  data: TResult | undefined
  error: ApiError | undefined
  loading: boolean
  /** runs the query again, keeping the shown data until the answer arrives */
  reload(): void
}

function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(error instanceof Error ? error.message : String(error), undefined, undefined)
}

/** Runs the query now and whenever its variables change (compared by value). */
export function useQuery<TResult, TVariables>(document: Document<TResult, TVariables>, variables: TVariables, options: { skip?: boolean } = {}): QueryState<TResult> {
  const { client } = useSession()
  const [state, setState] = useState<{ data?: TResult; error?: ApiError; loading: boolean }>({ loading: !options.skip })
  const [generation, setGeneration] = useState(0)
  const key = JSON.stringify(variables)
  useEffect(() => {
    if (options.skip) return
    const controller = new AbortController()
    setState((previous) => ({ ...previous, loading: true }))
    client.request(document, JSON.parse(key) as TVariables, controller.signal).then(
      (data) => setState({ data, loading: false }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState((previous) => ({ ...previous, error: asApiError(error), loading: false }))
      },
    )
    return () => controller.abort()
  }, [client, document, key, generation, options.skip])
  const reload = useCallback(() => setGeneration((value) => value + 1), [])
  return { data: state.data, error: state.error, loading: state.loading, reload }
}

export interface MutationState {
  running: boolean
  error: ApiError | undefined
  clearError(): void
}

/** A function running the mutation (resolving to its data, or undefined when it failed: the error is in the state). */
export function useMutation<TResult, TVariables>(document: Document<TResult, TVariables>, options: { upload?: boolean } = {}): [(variables: TVariables) => Promise<TResult | undefined>, MutationState] {
  const { client } = useSession()
  const [running, setRunning] = useState(false)
  const [error, setError] = useState<ApiError>()
  const run = useCallback(
    async (variables: TVariables) => {
      setRunning(true)
      setError(undefined)
      try {
        return await (options.upload ? client.upload(document, variables) : client.request(document, variables))
      } catch (failure) {
        setError(asApiError(failure))
        return undefined
      } finally {
        setRunning(false)
      }
    },
    [client, document, options.upload],
  )
  return [run, { running, error, clearError: () => setError(undefined) }]
}

export interface SubscriptionState {
  error: ApiError | undefined
  /** the server completed the subscription (for a scan: it ended) */
  completed: boolean
}

/** Subscribes while mounted (and again when the variables change); `onEvent` sees every event. */
export function useSubscription<TResult, TVariables>(document: Document<TResult, TVariables>, variables: TVariables, onEvent: (data: TResult) => void, options: { skip?: boolean } = {}): SubscriptionState {
  const { client } = useSession()
  const [state, setState] = useState<SubscriptionState>({ error: undefined, completed: false })
  const handler = useRef(onEvent)
  handler.current = onEvent
  const key = JSON.stringify(variables)
  useEffect(() => {
    if (options.skip) return
    setState({ error: undefined, completed: false })
    return client.subscribe(document, JSON.parse(key) as TVariables, {
      next: (data) => handler.current(data),
      error: (error) => setState({ error, completed: false }),
      complete: () => setState((previous) => ({ ...previous, completed: true })),
    })
  }, [client, document, key, options.skip])
  return state
}
