/**
 * The context of resolvers, made per HTTP request and per subscription event. `em` is an
 * EntityManager fork bound to the caller's organization; reading it without an organization
 * is a 403, so no resolver can run an unscoped query. Loaders live and die with the context;
 * `renew()` starts a fresh fork and fresh loaders (each subscription event calls it, since
 * graphql-ws keeps one context for a whole subscription).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import { requireOrg, type Caller } from '../auth/caller.ts'
import { forkForOrg } from '../db/org-scope.ts'
import type { ServiceRuntime } from '../runtime.ts'
import { createLoaders, type Loaders } from './loaders.ts'

export interface GraphQLContext {
  caller: Caller
  runtime: ServiceRuntime
  readonly em: EntityManager
  readonly loaders: Loaders
  renew(): void
}

export function createContext(runtime: ServiceRuntime, caller: Caller): GraphQLContext {
  let em: EntityManager | undefined
  let loaders: Loaders | undefined
  return {
    caller,
    runtime,
    get em() {
      em ??= forkForOrg(runtime.orm.em, requireOrg(caller))
      return em
    },
    get loaders() {
      loaders ??= createLoaders(this.em)
      return loaders
    },
    renew() {
      em = undefined
      loaders = undefined
    },
  }
}
