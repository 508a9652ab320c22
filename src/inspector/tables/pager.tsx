import { counted } from '../format.js'

/** Previous/next buttons and where the list stands, for a table of `total` rows shown `size` at a time. */
export function Pager({ label, page, size, total, onPage }: { label: string; page: number; size: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / size))
  return (
    <nav class="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous page
      </button>
      <span>
        Page {Math.min(page, pages)} of {pages} ({counted(total, 'row')})
      </span>
      <button type="button" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next page
      </button>
    </nav>
  )
}
