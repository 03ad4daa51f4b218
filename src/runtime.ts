/**
 * What request handling needs besides the caller: the database, the configured limits and the
 * process's event listener. Built once per process (src/main.ts, the test helpers).
 */
import type { MikroORM } from '@mikro-orm/postgresql'
import type { RuleLimits } from './engine/rules/limits.ts'
import type { EventListener } from './events/event-hub.ts'
import type { UploadLimits } from './modules/uploads/zip-archive.ts'

export interface ServiceRuntime {
  orm: MikroORM
  limits: UploadLimits
  /** bounds on rulesets' rules_text (the engine's defaults when absent) */
  ruleLimits?: RuleLimits
  /** live events (subscriptions); absent in processes that serve no subscriptions */
  events?: EventListener
}

export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  uploadMaxBytes: 100 * 1024 ** 2,
  zipMaxEntries: 50_000,
  zipMaxUncompressedBytes: 1024 ** 3,
  zipMaxCompressionRatio: 200,
  zipRatioMinBytes: 10 * 1024 ** 2,
}
