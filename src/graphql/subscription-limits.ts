/**
 * How many subscriptions may be live at once: per WebSocket connection, and per organization
 * over the connections of this process (each API process counts its own; N processes admit up
 * to N times the organization's limit). Every live subscription re-reads the database on each
 * event, so these bound the reads one tenant's events can cause.
 *
 * A subscription is admitted before it starts and released when it ends, however it ends
 * (completed, cancelled by the client, its connection closed). Admission is synchronous, so
 * concurrent subscribes never slip past a limit together.
 */
import { GraphQLError } from 'graphql'

export interface SubscriptionLimits {
  maxPerConnection: number
  maxPerOrg: number
}

export const DEFAULT_SUBSCRIPTION_LIMITS: SubscriptionLimits = { maxPerConnection: 50, maxPerOrg: 500 }

/** The subscriptions of one connection, as the ledger knows them. */
export interface ConnectionSubscriptions {
  /** admits subscription `id`, or answers the error the subscribe gets */
  admit(id: string): GraphQLError | undefined
  release(id: string): void
  /** the connection closed */
  releaseAll(): void
}

export class SubscriptionLedger {
  private readonly perOrg = new Map<string, number>()

  constructor(private readonly limits: SubscriptionLimits) {}

  openConnection(orgId: string): ConnectionSubscriptions {
    const live = new Set<string>()
    const release = (id: string) => {
      if (live.delete(id)) this.adjust(orgId, -1)
    }
    return {
      admit: (id) => {
        if (live.has(id)) return undefined
        if (live.size >= this.limits.maxPerConnection) return tooMany(`this connection has ${live.size} active subscriptions, the limit is ${this.limits.maxPerConnection}`)
        const ofOrg = this.perOrg.get(orgId) ?? 0
        if (ofOrg >= this.limits.maxPerOrg) return tooMany(`your organization has ${ofOrg} active subscriptions, the limit is ${this.limits.maxPerOrg}`)
        live.add(id)
        this.adjust(orgId, +1)
        return undefined
      },
      release,
      releaseAll: () => {
        for (const id of [...live]) release(id)
      },
    }
  }

  private adjust(orgId: string, delta: number): void {
    const next = (this.perOrg.get(orgId) ?? 0) + delta
    if (next > 0) this.perOrg.set(orgId, next)
    else this.perOrg.delete(orgId)
  }
}

function tooMany(detail: string): GraphQLError {
  return new GraphQLError(`Too many subscriptions: ${detail}`, { extensions: { code: 'TOO_MANY_SUBSCRIPTIONS', status: 429 } })
}
