/**
 * Turns pushed scan events into something an async generator can await: subscribe first, read
 * state, then wait for the next matching event (events that arrive meanwhile are kept, so none
 * is lost between a read and the wait). `endsWithQueue` ties the generator's end to the queue.
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

/**
 * `stream`, whose return() (the subscriber left: unsubscribed or disconnected) closes `queue`
 * first. An async generator waiting for an event cannot be returned from until it reaches a
 * yield, so without this a stream of a quiet scan or organization would live on (its listener,
 * its place among the connection's subscriptions) until the next event. Closing the queue wakes
 * the wait with "no more events", and the generator ends through its own finally.
 */
export function endsWithQueue<T>(queue: ScanEventQueue, stream: AsyncGenerator<T>): AsyncGenerator<T> {
  const ended: AsyncGenerator<T> = {
    next: (...args) => stream.next(...args),
    return: (value) => {
      queue.close()
      return stream.return(value)
    },
    throw: (error) => {
      queue.close()
      return stream.throw(error)
    },
    [Symbol.asyncIterator]: () => ended,
  }
  return ended
}
