/**
 * The REST route table's vocabulary. A route is data: method, path, input schemas, the GraphQL
 * operation it runs (with snake_case aliases, so the JSON is the spec's as it comes out), how
 * inputs become variables, the success status and the part of the result it answers with.
 * No route holds business logic: the resolvers do.
 */
import type { z } from 'zod'
import type { Caller } from '../../auth/caller.ts'

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete'

export interface RouteInput<Params, Query, Body> {
  params: Params
  query: Query
  body: Body
  caller: Caller
}

export interface RestRoute<Params = unknown, Query = unknown, Body = unknown> {
  method: HttpMethod
  /** Express path syntax, e.g. /api/repositories/:repo_id/summary */
  path: string
  summary: string
  tags: string[]
  params?: z.ZodType<Params>
  query?: z.ZodType<Query>
  body?: z.ZodType<Body>
  /** one GraphQL operation; its single root field's @auth scope is the route's scope */
  operation: string
  variables?: (input: RouteInput<Params, Query, Body>) => Record<string, unknown>
  status: 200 | 201 | 204
  /** answer `{[wrap]: <root field value>}` instead of the value itself (e.g. all_repos) */
  wrap?: string
  /** multipart/form-data: this field is the uploaded file (as GraphQL's Upload), the others text */
  upload?: { field: string }
  /** error statuses the spec lists for the route, besides 401/403/422 (documented in OpenAPI) */
  errors?: (400 | 404 | 409 | 413)[]
}

/** Keeps each row's generic types checked while the table holds rows of different shapes. */
export function defineRoute<Params, Query, Body>(route: RestRoute<Params, Query, Body>): RestRoute {
  return route as RestRoute
}
