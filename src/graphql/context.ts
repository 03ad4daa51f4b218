/**
 * The context of resolvers, made per HTTP request and per subscription. `em` is an
 * EntityManager fork bound to the caller's organization, so no resolver can run an unscoped
 * query. Loaders live and die with the context; `renew()` starts a fresh fork and fresh loaders
 * (each subscription event calls it, since graphql-ws keeps one context for a whole subscription).
 */
import type { EntityManager } from '@mikro-orm/postgresql'
import type { Caller } from '../auth/caller.ts'
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

/**
 * The fork and the loaders are made on first use, by getters on the prototype: Apollo Server
 * copies the context of every operation with Object.assign, which would run getters of the
 * object itself (and make both for operations that never read the database).
 */
class RequestContext implements GraphQLContext {
  private fork: EntityManager | undefined
  private batch: Loaders | undefined

  constructor(
    readonly caller: Caller,
    readonly runtime: ServiceRuntime,
  ) {}

  get em(): EntityManager {
    this.fork ??= forkForOrg(this.runtime.orm.em, this.caller.orgId)
    return this.fork
  }

  get loaders(): Loaders {
    this.batch ??= createLoaders(this.em)
    return this.batch
  }

  renew(): void {
    this.fork = undefined
    this.batch = undefined
  }
}

export function createContext(runtime: ServiceRuntime, caller: Caller): GraphQLContext {
  return new RequestContext(caller, runtime)
}
