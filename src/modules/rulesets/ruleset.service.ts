/**
 * Rulesets of the caller's organization: named rule texts linked to active repositories.
 * Names are unique per organization (409); linked repositories must be the caller's (404).
 */
import { UniqueConstraintViolationException } from '@mikro-orm/core'
import type { EntityManager } from '@mikro-orm/postgresql'
import { orgOf } from '../../db/org-scope.ts'
import { ConflictError, NotFoundError } from '../../errors.ts'
import { Repository } from '../repositories/repository.entity.ts'
import { Ruleset, RulesetRepository } from './ruleset.entity.ts'

export interface RulesetInput {
  name?: string | null | undefined
  description?: string | null | undefined
  rulesText?: string | null | undefined
  repoIds?: string[] | null | undefined
}

export async function listRulesets(em: EntityManager): Promise<Ruleset[]> {
  return em.find(Ruleset, {}, { orderBy: { name: 'asc', id: 'asc' } })
}

export async function getRuleset(em: EntityManager, id: string): Promise<Ruleset> {
  const ruleset = await em.findOne(Ruleset, { id })
  if (!ruleset) throw new NotFoundError('Ruleset not found')
  return ruleset
}

export async function createRuleset(em: EntityManager, input: RulesetInput & { name: string; rulesText: string }, createdBy: string): Promise<Ruleset> {
  return withUniqueName(input.name, () =>
    em.transactional(async (tx) => {
      await requireUniqueName(tx, input.name)
      const ruleset = tx.create(Ruleset, {
        orgId: orgOf(tx),
        name: input.name,
        description: input.description ?? '',
        rulesText: input.rulesText,
        createdBy,
      })
      // the links refer to the ruleset's row: write it first (the transaction undoes it on a bad link)
      await tx.flush()
      await linkRepositories(tx, ruleset, input.repoIds ?? [])
      return ruleset
    }),
  )
}

export async function updateRuleset(em: EntityManager, id: string, input: RulesetInput): Promise<Ruleset> {
  return withUniqueName(input.name ?? '', () =>
    em.transactional(async (tx) => {
      const ruleset = await getRuleset(tx, id)
      if (input.name != null && input.name !== ruleset.name) await requireUniqueName(tx, input.name)
      if (input.name != null) ruleset.name = input.name
      if (input.description != null) ruleset.description = input.description
      if (input.rulesText != null) ruleset.rulesText = input.rulesText
      if (input.repoIds != null) {
        await tx.nativeDelete(RulesetRepository, { rulesetId: ruleset.id })
        await linkRepositories(tx, ruleset, input.repoIds)
      }
      ruleset.updatedAt = new Date()
      return ruleset
    }),
  )
}

export async function deleteRuleset(em: EntityManager, id: string): Promise<void> {
  await em.transactional(async (tx) => {
    const ruleset = await getRuleset(tx, id)
    await tx.nativeDelete(RulesetRepository, { rulesetId: ruleset.id })
    tx.remove(ruleset)
  })
}

/** The rule texts a scan of this repository runs besides the built-in rules. */
export async function rulesetsOfRepository(em: EntityManager, repoId: string): Promise<Ruleset[]> {
  const links = await em.find(RulesetRepository, { repoId })
  return links.length ? em.find(Ruleset, { id: { $in: links.map((link) => link.rulesetId) } }, { orderBy: { name: 'asc' } }) : []
}

async function linkRepositories(em: EntityManager, ruleset: Ruleset, repoIds: string[]): Promise<void> {
  const wanted = [...new Set(repoIds.map((id) => id.toLowerCase()))]
  const found = new Set((await em.find(Repository, { id: { $in: wanted }, isActive: true }, { fields: ['id'] })).map((repository) => repository.id))
  const missing = wanted.filter((id) => !found.has(id))
  if (missing.length > 0) throw new NotFoundError(`Repository not found: ${missing.join(', ')}`)
  for (const repoId of wanted) em.create(RulesetRepository, { rulesetId: ruleset.id, repoId, orgId: ruleset.orgId })
}

async function requireUniqueName(em: EntityManager, name: string): Promise<void> {
  if ((await em.count(Ruleset, { name })) > 0) throw new ConflictError(`A ruleset named "${name}" already exists`)
}

/** Two concurrent creates with one name: the database's unique index decides, still a 409. */
async function withUniqueName<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw new ConflictError(`A ruleset named "${name}" already exists`)
    throw error
  }
}

