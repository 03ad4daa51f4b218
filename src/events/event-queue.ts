/**
 * Turns pushed scan events into something an async generator can await: subscribe first, read
 * state, then wait for the next matching event (events that arrive meanwhile are kept, so none
 * is lost between a read and the wait).
 */
import type { EventListener, ScanEvent } from './event-hub.ts'

export class ScanEventQueue {
  private readonly pending: ScanEvent[] = []
  private waiter: ((event: ScanEvent | undefined) => void) | undefined
  private readonly unsubscribe: () => void
  private closed = false

  constructor(listener: EventListener, accept: (event: ScanEvent) => boolean) {
    this.unsubscribe = listener.onScanEvent((event) => {
      if (!accept(event)) return
      if (this.waiter) {
        const wake = this.waiter
        this.waiter = undefined
        wake(event)
      } else {
        this.pending.push(event)
      }
    })
  }

  /** The next event, or undefined once closed. */
  next(): Promise<ScanEvent | undefined> {
    const queued = this.pending.shift()
    if (queued || this.closed) return Promise.resolve(queued)
    return new Promise((resolve) => (this.waiter = resolve))
  }

  /** Every event queued so far (several progress events collapse into one re-read). */
  drain(): ScanEvent[] {
    return this.pending.splice(0)
  }

  close(): void {
    this.closed = true
    this.unsubscribe()
    this.waiter?.(undefined)
    this.waiter = undefined
  }
}
