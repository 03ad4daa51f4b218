/**
 * Organization scoping, by construction.
 *
 * Every entity except UNSCOPED_ENTITIES gets the `org` filter, on by default, whose condition
 * needs the `orgId` parameter. An EntityManager fork made by `forkForOrg` carries that parameter;
 * any other EntityManager that queries a scoped entity fails (MikroORM refuses a filter with
 * missing arguments): forgetting to scope is an error, never a leak.
 *
 * The filter covers EntityManager calls only. QueryBuilder must call `await qb.applyFilters()`
 * and raw SQL must bind the org id itself: see docs/org-scoping.md for the rule.
 */
import type { EntityManager, Options } from '@mikro-orm/postgresql'
import { ENTITIES, UNSCOPED_ENTITIES } from './entities.ts'

export const ORG_FILTER = 'org'

type FilterDef = NonNullable<Options['filters']>[string]

export interface OrgFilterParams {
  orgId: string
}

export function orgFilterDefinition(): FilterDef {
  return {
    name: ORG_FILTER,
    cond: (params: Partial<OrgFilterParams>) => {
      if (typeof params.orgId !== 'string' || params.orgId === '') {
        throw new Error('organization scope is missing: use forkForOrg()')
      }
      return { orgId: params.orgId }
    },
    default: true,
    args: true,
    entity: scopedEntityNames(),
  }
}

export function scopedEntityNames(): string[] {
  return ENTITIES.map((schema) => schema.meta.className).filter((name) => !UNSCOPED_ENTITIES.includes(name))
}

/** A fresh identity map bound to one organization: the only way services get an EntityManager. */
export function forkForOrg(em: EntityManager, orgId: string): EntityManager {
  if (orgId === '') throw new Error('organization id must not be empty')
  const fork = em.fork({ clear: true, useContext: false })
  fork.setFilterParams(ORG_FILTER, { orgId } satisfies OrgFilterParams)
  return fork
}

/** The organization a scoped EntityManager is bound to. */
export function orgOf(em: EntityManager): string {
  const params = em.getFilterParams<OrgFilterParams>(ORG_FILTER)
  if (!params?.orgId) throw new Error('EntityManager is not bound to an organization')
  return params.orgId
}

/**
 * Whether a row with this id exists in ANOTHER organization. The one deliberate unscoped read:
 * it answers a boolean only, so routes where the spec says 403 for another organization's
 * resource can say so without revealing anything else.
 */
export async function existsInOtherOrg(em: EntityManager, entityName: string, id: string | string[]): Promise<boolean> {
  const count = await em.count(entityName, { id: Array.isArray(id) ? { $in: id } : id, orgId: { $ne: orgOf(em) } }, { filters: false })
  return count > 0
}
