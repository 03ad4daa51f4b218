/**
 * Free-form JSON (the repository summary's parts) as readable HTML: objects as term lists, lists
 * of records as tables of their plain fields, long lists cut with how many were left out.
 * Nesting is bounded, so any stored value renders in bounded time.
 */
import type { ReactNode } from 'react'

const MAX_ROWS = 50
const MAX_DEPTH = 5

type Json = string | number | boolean | null | Json[] | { [key: string]: Json }

const isRecord = (value: unknown): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isPlain = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value)

/** camelCase and snake_case keys as words: httpRoutes -> http routes. */
function words(key: string): string {
  return key.replace(/_/g, ' ').replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
}

function plain(value: Json): string {
  if (value === null) return '—'
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  return String(value)
}

export function JsonView({ value, label }: { value: unknown; label: string }) {
  return <div className="json-view">{render(value as Json, label, 0)}</div>
}

function render(value: Json, label: string, depth: number): ReactNode {
  if (isPlain(value)) return <span>{plain(value)}</span>
  if (depth >= MAX_DEPTH) return <code>{JSON.stringify(value).slice(0, 200)}</code>
  if (Array.isArray(value)) return renderList(value, label, depth)
  const entries = Object.entries(value as Record<string, Json>)
  if (entries.length === 0) return <span className="hint">none</span>
  return (
    <dl className="json-object">
      {entries.map(([key, item]) => (
        <div key={key} className="json-entry">
          <dt>{words(key)}</dt>
          <dd>{render(item, words(key), depth + 1)}</dd>
        </div>
      ))}
    </dl>
  )
}

/**
 * A value inside a table cell: plain values and lists of them inline, a record of plain values as
 * "key: value" pairs, anything larger folded under a disclosure (a table inside a narrow cell
 * would squeeze every column of it).
 */
function cell(value: Json, label: string, depth: number): ReactNode {
  if (isPlain(value)) return plain(value)
  if (Array.isArray(value) && value.every(isPlain)) return value.length ? value.map(plain).join(', ') : <span className="hint">none</span>
  if (isRecord(value) && Object.values(value).every(isPlain)) {
    return Object.entries(value)
      .map(([key, item]) => `${words(key)}: ${plain(item)}`)
      .join('; ')
  }
  const size = Array.isArray(value) ? `${value.length} ${value.length === 1 ? 'entry' : 'entries'}` : 'details'
  return (
    <details className="json-details">
      <summary>{size}</summary>
      {render(value, label, depth)}
    </details>
  )
}

function renderList(items: Json[], label: string, depth: number): ReactNode {
  if (items.length === 0) return <span className="hint">none</span>
  const shown = items.slice(0, MAX_ROWS)
  const more = items.length - shown.length
  const tail = more > 0 && <p className="hint">and {more} more</p>
  if (shown.every(isPlain)) {
    return (
      <>
        <ul className="json-list">
          {shown.map((item, index) => (
            <li key={index}>{plain(item)}</li>
          ))}
        </ul>
        {tail}
      </>
    )
  }
  if (shown.every(isRecord)) {
    // the plain fields of the records are the columns; nested values show as their own lists
    const columns = [...new Set(shown.flatMap((item) => Object.keys(item)))].slice(0, 8)
    return (
      <>
        <div className="table-scroll">
          <table className="data-table json-table" aria-label={label}>
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {words(column)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.map((item, index) => (
                <tr key={index}>
                  {columns.map((column) => (
                    <td key={column} data-label={words(column)}>
                      {item[column] === undefined ? '' : cell(item[column] as Json, words(column), depth + 1)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {tail}
      </>
    )
  }
  return (
    <>
      <ol className="json-list">
        {shown.map((item, index) => (
          <li key={index}>{render(item, label, depth + 1)}</li>
        ))}
      </ol>
      {tail}
    </>
  )
}
