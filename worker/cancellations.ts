/**
 * The scans this worker process runs, by id, so that a cancel notification (from any API
 * process, through PostgreSQL) aborts the right one, and a shutdown aborts them all at once:
 * graphile-worker would give running jobs five seconds before aborting them, and an analysis
 * has nothing to save (the scan goes back to the queue).
 */

/** The abort reason of scans interrupted by a shutdown of their worker. */
export const SHUTDOWN = 'worker shutdown'

export class CancelRegistry {
  private readonly running = new Map<string, AbortController>()
  private shuttingDown = false

  register(scanId: string, controller: AbortController): () => void {
    this.running.set(scanId, controller)
    if (this.shuttingDown) controller.abort(SHUTDOWN)
    return () => {
      if (this.running.get(scanId) === controller) this.running.delete(scanId)
    }
  }

  cancel(scanId: string): void {
    this.running.get(scanId)?.abort('stopped')
  }

  /** Aborts every scan running here, and any that starts from now on. */
  shutdown(): void {
    this.shuttingDown = true
    for (const controller of this.running.values()) controller.abort(SHUTDOWN)
  }
}
