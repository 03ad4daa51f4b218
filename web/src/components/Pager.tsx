/** Previous / next for paged lists, with where the reader is. */
export function Pager({ page, totalPages, total, onPage }: { page: number; totalPages: number; total: number; onPage(page: number): void }) {
  if (totalPages <= 1) return null
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <span>
        Page {page} of {totalPages} ({total} in all)
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= totalPages}>
        Next
      </button>
    </nav>
  )
}
