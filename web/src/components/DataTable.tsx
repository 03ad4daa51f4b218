/**
 * A table of rows with optional sorting and row selection. Sorting is either the table's own
 * (columns with `sortValue`, for lists loaded whole) or the caller's (`sort` + `onSort`, for
 * server-side order). Selection is the caller's set of row keys; a header checkbox selects the
 * rows shown. Headers are buttons, so sorting works from the keyboard; narrow screens scroll it.
 */
import { useMemo, useState, type ReactNode } from 'react'

export interface Column<Row> {
  key: string
  header: string
  render(row: Row): ReactNode
  /** sortable by the table itself on this value */
  sortValue?(row: Row): string | number
  /** sortable by the caller (`onSort`) */
  sortable?: boolean
  className?: string
}

export interface SortState {
  key: string
  direction: 'asc' | 'desc'
}

interface DataTableProps<Row> {
  /** names the table for assistive technology */
  label: string
  columns: Column<Row>[]
  rows: Row[]
  rowKey(row: Row): string
  empty?: ReactNode
  sort?: SortState
  onSort?(next: SortState): void
  selection?: ReadonlySet<string>
  onSelectionChange?(next: Set<string>): void
  /** how a row's checkbox is named, e.g. the title */
  rowLabel?(row: Row): string
}

const nextDirection = (current: SortState | undefined, key: string): SortState => ({ key, direction: current?.key === key && current.direction === 'asc' ? 'desc' : 'asc' })

export function DataTable<Row>({ label, columns, rows, rowKey, empty = 'Nothing here yet.', sort, onSort, selection, onSelectionChange, rowLabel }: DataTableProps<Row>) {
  const [ownSort, setOwnSort] = useState<SortState>()
  const activeSort = onSort ? sort : ownSort
  const shown = useMemo(() => {
    const column = columns.find((candidate) => candidate.key === ownSort?.key)
    if (onSort || !ownSort || !column?.sortValue) return rows
    const value = column.sortValue
    const factor = ownSort.direction === 'asc' ? 1 : -1
    return [...rows].sort((a, b) => (value(a) < value(b) ? -factor : value(a) > value(b) ? factor : 0))
  }, [rows, columns, ownSort, onSort])

  const selectable = selection !== undefined && onSelectionChange !== undefined
  const allSelected = selectable && shown.length > 0 && shown.every((row) => selection.has(rowKey(row)))
  const toggleAll = () => onSelectionChange?.(allSelected ? new Set() : new Set(shown.map(rowKey)))
  const toggle = (key: string) => {
    const next = new Set(selection)
    if (next.has(key)) next.delete(key)
    else next.add(key)
    onSelectionChange?.(next)
  }
  const sortBy = (key: string) => (onSort ? onSort(nextDirection(sort, key)) : setOwnSort(nextDirection(ownSort, key)))

  return (
    <div className="table-scroll">
      <table className="data-table" aria-label={label}>
        <thead>
          <tr>
            {selectable && (
              <th scope="col" className="select-cell">
                <input type="checkbox" aria-label="Select all shown" checked={allSelected} onChange={toggleAll} />
              </th>
            )}
            {columns.map((column) => {
              const canSort = column.sortable || column.sortValue !== undefined
              const direction = activeSort?.key === column.key ? activeSort.direction : undefined
              return (
                <th key={column.key} scope="col" className={column.className} aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : undefined}>
                  {canSort ? (
                    <button type="button" className="sort-button" onClick={() => sortBy(column.key)}>
                      {column.header}
                      <span aria-hidden="true">{direction === 'asc' ? ' ▲' : direction === 'desc' ? ' ▼' : ''}</span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td colSpan={columns.length + (selectable ? 1 : 0)} className="empty-cell">
                {empty}
              </td>
            </tr>
          ) : (
            shown.map((row) => {
              const key = rowKey(row)
              return (
                <tr key={key} className={selection?.has(key) ? 'selected' : undefined}>
                  {selectable && (
                    <td className="select-cell">
                      <input type="checkbox" aria-label={`Select ${rowLabel?.(row) ?? key}`} checked={selection.has(key)} onChange={() => toggle(key)} />
                    </td>
                  )}
                  {columns.map((column) => (
                    <td key={column.key} className={column.className} data-label={column.header}>
                      {column.render(row)}
                    </td>
                  ))}
                </tr>
              )
            })
          )}
        </tbody>
      </table>
    </div>
  )
}
