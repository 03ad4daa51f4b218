/**
 * Live scan subscriptions (graphql-ws). Each one checks access when subscribing, then re-reads
 * through the subscriber's own organization scope on every event, with a fresh EntityManager
 * and fresh loaders per event (the context is renewed), so nothing cached goes stale. Each
 * listens from the moment it is asked for, and ends as soon as its subscriber leaves.
 */
import { endsWithQueue, ScanEventQueue } from '../../events/event-queue.ts'
import type { ScanEvent } from '../../events/event-hub.ts'
import type { GraphQLContext } from '../../graphql/context.ts'
import { parseId } from '../../graphql/arguments.ts'
import { Scan, ScanLog, type ScanStatus } from './scan.entity.ts'
import { getScan, statusReport, TERMINAL_STATUSES, type ScanStatusReport } from './scan.service.ts'

const LOG_PAGE = 500

function listenerOf(context: GraphQLContext) {
  const events = context.runtime.events
  if (!events) throw new Error('this process serves no live events')
  return events
}

function isTerminal(status: ScanStatus): boolean {
  return TERMINAL_STATUSES.includes(status)
}

/** Past entries first, then live ones; ends once the scan has ended and every entry was sent. */
export function subscribeScanLogs(context: GraphQLContext, rawScanId: string): AsyncGenerator<ScanLog> {
  const scanId = parseId(rawScanId, 'scan')
  const queue = new ScanEventQueue(listenerOf(context), (event) => event.scanId === scanId)
  return endsWithQueue(queue, streamScanLogs(context, scanId, queue))
}

async function* streamScanLogs(context: GraphQLContext, scanId: string, queue: ScanEventQueue): AsyncGenerator<ScanLog> {
  try {
    await getScan(context.em, scanId)
    let lastSeq = 0
    while (true) {
      context.renew()
      const logs = await context.em.find(ScanLog, { scanId, seq: { $gt: lastSeq } }, { orderBy: { seq: 'asc' }, limit: LOG_PAGE })
      for (const log of logs) {
        lastSeq = log.seq
        yield log
      }
      if (logs.length === LOG_PAGE) continue
      const scan = await context.em.findOne(Scan, { id: scanId })
      if (!scan) return
      if (isTerminal(scan.status)) {
        // entries written with the final status come before it: one last read sends them
        const tail = await context.em.find(ScanLog, { scanId, seq: { $gt: lastSeq } }, { orderBy: { seq: 'asc' } })
        yield* tail
        return
      }
      if (!(await queue.next())) return
      queue.drain()
    }
  } finally {
    queue.close()
  }
}

/** The current status first, then each change; ends after the terminal status. */
export function subscribeScanStatus(context: GraphQLContext, rawScanId: string): AsyncGenerator<ScanStatusReport> {
  const scanId = parseId(rawScanId, 'scan')
  const queue = new ScanEventQueue(listenerOf(context), (event) => event.scanId === scanId && event.kind === 'scan')
  return endsWithQueue(queue, streamScanStatus(context, scanId, queue))
}

async function* streamScanStatus(context: GraphQLContext, scanId: string, queue: ScanEventQueue): AsyncGenerator<ScanStatusReport> {
  try {
    let scan = await getScan(context.em, scanId)
    // an event can describe what the subscriber was already sent (the change it announces was
    // read when subscribing, or a heartbeat changed nothing it sees): only changes are sent
    let sent = ''
    while (true) {
      const report = statusReport(scan)
      const shown = JSON.stringify(report)
      if (shown !== sent) yield report
      sent = shown
      if (isTerminal(scan.status)) return
      if (!(await queue.next())) return
      queue.drain()
      context.renew()
      const reread = await context.em.findOne(Scan, { id: scanId })
      if (!reread) return
      scan = reread
    }
  } finally {
    queue.close()
  }
}

export interface ScanEventPayload {
  kind: ScanEvent['kind']
  scan: Scan
}

/** Every scan event of the caller's organization (of the kinds asked for, when given), until the subscriber leaves. */
export function subscribeScanEvents(context: GraphQLContext, kinds?: readonly ScanEvent['kind'][]): AsyncGenerator<ScanEventPayload> {
  const orgId = context.caller.orgId
  const queue = new ScanEventQueue(listenerOf(context), (event) => event.orgId === orgId && (!kinds || kinds.includes(event.kind)))
  return endsWithQueue(queue, streamScanEvents(context, queue))
}

async function* streamScanEvents(context: GraphQLContext, queue: ScanEventQueue): AsyncGenerator<ScanEventPayload> {
  try {
    while (true) {
      const event = await queue.next()
      if (!event) return
      context.renew()
      const scan = await context.em.findOne(Scan, { id: event.scanId, repository: { isActive: true } })
      if (scan) yield { kind: event.kind, scan }
    }
  } finally {
    queue.close()
  }
}
