/** The current summary of a repository: one row per repository, replaced by each full scan. */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core'

export const RepositorySummary = defineEntity({
  name: 'RepositorySummary',
  tableName: 'repository_summaries',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    repoId: p.uuid(),
    scanId: p.uuid().nullable(),
    architecturePattern: p.text().default(''),
    authLogicSummary: p.text().default(''),
    trustBoundaries: p.json<Record<string, unknown>>().onCreate(() => ({})),
    businessLogicFlows: p.json<Record<string, unknown>>().onCreate(() => ({})),
    crossFileDependencies: p.json<Record<string, unknown>>().onCreate(() => ({})),
    ragContext: p.text().default(''),
    securityContext: p.text().default(''),
    dataFlowAnalysis: p.json<Record<string, unknown>>().onCreate(() => ({})),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
})
export type RepositorySummary = InferEntity<typeof RepositorySummary>
