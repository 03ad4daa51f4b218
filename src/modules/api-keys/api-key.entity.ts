/**
 * An API key: bound to an organization, a user and scopes; only a hash of the secret is kept.
 * Looked up BEFORE the caller's organization is known, so it is the one entity outside the
 * organization filter; only src/auth reads it (see docs/org-scoping.md).
 */
import { defineEntity, p, type InferEntity } from '@mikro-orm/core'

export const ApiKey = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary().onCreate(() => crypto.randomUUID()),
    orgId: p.text(),
    userId: p.text(),
    name: p.text().default(''),
    scopes: p.json<string[]>(),
    /** the public part of the key, used to find the row */
    prefix: p.text().unique(),
    /** sha256 of the whole key, hex */
    keyHash: p.text(),
    createdAt: p.datetime().onCreate(() => new Date()),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
})
export type ApiKey = InferEntity<typeof ApiKey>
