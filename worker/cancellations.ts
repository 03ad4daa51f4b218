/**
 * The scans this worker process runs, by id, so that a cancel notification (from any API
 * process, through PostgreSQL) aborts the right one.
 */
export class CancelRegistry {
  private readonly running = new Map<string, AbortController>()

  register(scanId: string, controller: AbortController): () => void {
    this.running.set(scanId, controller)
    return () => {
      if (this.running.get(scanId) === controller) this.running.delete(scanId)
    }
  }

  cancel(scanId: string): void {
    this.running.get(scanId)?.abort('stopped')
  }
}
