/**
 * The context of resolvers, made per HTTP request and per subscription event. `em` is an
 * EntityManager fork bound to the caller's organization; reading it without an organization
 * is a 403, so no resolver can run an unscoped query. Loaders live and die with the context.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql'
import { requireOrg, type Caller } from '../auth/caller.ts'
import { forkForOrg } from '../db/org-scope.ts'
import { createLoaders, type Loaders } from './loaders.ts'

export interface GraphQLContext {
  caller: Caller
  readonly em: EntityManager
  readonly loaders: Loaders
}

export function createContext(orm: MikroORM, caller: Caller): GraphQLContext {
  let em: EntityManager | undefined
  let loaders: Loaders | undefined
  return {
    caller,
    get em() {
      em ??= forkForOrg(orm.em, requireOrg(caller))
      return em
    },
    get loaders() {
      loaders ??= createLoaders(this.em)
      return loaders
    },
  }
}
