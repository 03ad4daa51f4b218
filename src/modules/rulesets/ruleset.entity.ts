/** A named text of rules owned by an organization, linked to the repositories it applies to. */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core'

export const Ruleset = defineEntity({
  name: 'Ruleset',
  tableName: 'rulesets',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    name: p.text(),
    description: p.text().default(''),
    rulesText: p.text(),
    createdBy: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
})
export type Ruleset = InferEntity<typeof Ruleset>

export const RulesetRepository = defineEntity({
  name: 'RulesetRepository',
  tableName: 'ruleset_repositories',
  properties: {
    rulesetId: p.uuid().primary(),
    repoId: p.uuid().primary(),
    orgId: p.text(),
  },
  primaryKeys: ['rulesetId', 'repoId'],
})
export type RulesetRepository = InferEntity<typeof RulesetRepository>
