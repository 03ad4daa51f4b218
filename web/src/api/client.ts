/**
 * The dashboard's GraphQL client: what any third-party client of /graphql would do. Queries and
 * mutations are POSTed as JSON (uploads as a GraphQL multipart request), subscriptions run over
 * graphql-ws on the same path; every request carries the signed-in credential. Documents come
 * typed from web/src/gql (`npm run codegen`), so variables and results are checked.
 */
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core'
import { createClient, type Client } from 'graphql-ws'
import { credentialConnectionParams, credentialHeaders } from './credentials.ts'

export type Document<TResult, TVariables> = DocumentTypeDecoration<TResult, TVariables> & { toString(): string }

export interface ApiErrorDetail {
  message: string
  code?: string
  /** the HTTP status the REST route would give (the server's `extensions.status`) */
  status?: number
  /** field errors of a BAD_USER_INPUT (422) refusal, as REST's `detail[]` */
  issues?: ValidationIssue[]
}

export interface ValidationIssue {
  loc: (string | number)[]
  msg: string
  type: string
  [more: string]: unknown
}

/** A refused operation; `message` is what the server said, for the user to read. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly status: number | undefined,
    readonly details: ApiErrorDetail[] = [],
  ) {
    super(message)
  }
}

/** The credential stopped working (HTTP 401, or WebSocket close 4401): the session ends. */
export class SessionEndedError extends ApiError {}

const ENDPOINT = '/graphql'
const WEBSOCKET_CLOSED_UNAUTHENTICATED = 4401
const WEBSOCKET_CLOSED_FORBIDDEN = 4403

export interface GraphQLClient {
  request<TResult, TVariables>(document: Document<TResult, TVariables>, variables: TVariables, signal?: AbortSignal): Promise<TResult>
  /** A mutation carrying files: GraphQL multipart request (files found among the variables). */
  upload<TResult, TVariables>(document: Document<TResult, TVariables>, variables: TVariables): Promise<TResult>
  subscribe<TResult, TVariables>(document: Document<TResult, TVariables>, variables: TVariables, sink: SubscriptionSink<TResult>): () => void
  dispose(): void
}

export interface SubscriptionSink<TResult> {
  next(data: TResult): void
  error?(error: ApiError): void
  complete?(): void
}

interface GraphQLResponse {
  data?: unknown
  errors?: { message: string; extensions?: { code?: string; status?: number; issues?: ValidationIssue[] } }[]
}

function toApiError(errors: NonNullable<GraphQLResponse['errors']>, httpStatus?: number): ApiError {
  const details = errors.map((error) => ({ message: error.message, code: error.extensions?.code, status: error.extensions?.status, issues: error.extensions?.issues }))
  const first = details[0]
  const ErrorClass = httpStatus === 401 || first?.code === 'UNAUTHENTICATED' ? SessionEndedError : ApiError
  return new ErrorClass(first?.message ?? 'The request failed', first?.code, first?.status ?? httpStatus, details)
}

async function readResponse<TResult>(response: Response): Promise<TResult> {
  const body = (await response.json().catch(() => undefined)) as GraphQLResponse | undefined
  if (body?.errors?.length) throw toApiError(body.errors, response.status)
  if (!response.ok || body?.data === undefined) {
    if (response.status === 401) throw new SessionEndedError('The credential was refused', 'UNAUTHENTICATED', 401)
    throw new ApiError(`The server answered ${response.status}`, undefined, response.status)
  }
  return body.data as TResult
}

/** Files among the variables, with their object paths as the multipart request names them. */
function extractFiles(value: unknown, path: string, files: Map<File, string[]>): unknown {
  if (value instanceof File) {
    files.set(value, [...(files.get(value) ?? []), path])
    return null
  }
  if (Array.isArray(value)) return value.map((item, index) => extractFiles(item, `${path}.${index}`, files))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, extractFiles(item, `${path}.${key}`, files)]))
  return value
}

export function createGraphQLClient(credential: string, onSessionEnded: (error: SessionEndedError) => void): GraphQLClient {
  const headers = { ...credentialHeaders(credential), 'apollo-require-preflight': 'true' }
  const guard = <T>(promise: Promise<T>): Promise<T> =>
    promise.catch((error: unknown) => {
      if (error instanceof SessionEndedError) onSessionEnded(error)
      throw error
    })

  let websocket: Client | undefined
  const socket = (): Client =>
    (websocket ??= createClient({
      url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${ENDPOINT}`,
      connectionParams: credentialConnectionParams(credential),
      lazy: true,
      retryAttempts: 5,
      // the server closes with 4401/4403 when the credential is revoked or expires: no retry
      shouldRetry: (event) => !isCloseEvent(event) || (event.code !== WEBSOCKET_CLOSED_UNAUTHENTICATED && event.code !== WEBSOCKET_CLOSED_FORBIDDEN),
      on: {
        closed: (event) => {
          if (isCloseEvent(event) && event.code === WEBSOCKET_CLOSED_UNAUTHENTICATED) onSessionEnded(new SessionEndedError(event.reason || 'The credential was refused', 'UNAUTHENTICATED', 401))
        },
      },
    }))

  return {
    request: (document, variables, signal) =>
      guard(
        fetch(ENDPOINT, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ query: document.toString(), variables }), ...(signal && { signal }) }).then((response) => readResponse(response)),
      ),
    upload: (document, variables) => {
      const files = new Map<File, string[]>()
      const operation = { query: document.toString(), variables: extractFiles(variables, 'variables', files) }
      const form = new FormData()
      form.append('operations', JSON.stringify(operation))
      const entries = [...files]
      form.append('map', JSON.stringify(Object.fromEntries(entries.map(([, paths], index) => [String(index), paths]))))
      entries.forEach(([file], index) => form.append(String(index), file, file.name))
      return guard(fetch(ENDPOINT, { method: 'POST', headers, body: form }).then((response) => readResponse(response)))
    },
    subscribe: (document, variables, sink) =>
      socket().subscribe(
        { query: document.toString(), variables: variables as Record<string, unknown> },
        {
          next: (result) => {
            if (result.errors?.length) sink.error?.(toApiError(result.errors as GraphQLResponse['errors'] & object))
            else if (result.data) sink.next(result.data as never)
          },
          error: (error) => sink.error?.(Array.isArray(error) ? toApiError(error) : new ApiError(isCloseEvent(error) ? error.reason || 'The live connection closed' : 'The live connection failed', undefined, undefined)),
          complete: () => sink.complete?.(),
        },
      ),
    dispose: () => {
      void websocket?.dispose()
      websocket = undefined
    },
  }
}

function isCloseEvent(value: unknown): value is CloseEvent {
  return typeof value === 'object' && value !== null && 'code' in value && 'reason' in value
}
