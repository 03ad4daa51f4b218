/** Where credentials come from: HTTP headers, or graphql-ws connectionParams. */
import type { IncomingHttpHeaders } from 'node:http'
import type { Credentials } from '../auth/authenticate.ts'

export function credentialsFromHeaders(headers: IncomingHttpHeaders): Credentials {
  return { apiKey: firstHeader(headers['x-api-key']), authorization: firstHeader(headers.authorization) }
}

/** `{apiKey}` or `{authorization: "Bearer ..."}`; header-style keys are accepted too. */
export function credentialsFromConnectionParams(params: Readonly<Record<string, unknown>> | undefined): Credentials {
  const text = (...keys: string[]) => keys.map((key) => params?.[key]).find((value): value is string => typeof value === 'string' && value !== '')
  return { apiKey: text('apiKey', 'x-api-key', 'X-API-Key'), authorization: text('authorization', 'Authorization') }
}

function firstHeader(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value
  return first === '' ? undefined : first
}
