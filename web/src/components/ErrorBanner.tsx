/** A refused or failed operation, as the server explained it (announced to screen readers). */
import type { ApiError } from '../api/client.ts'

export function ErrorBanner({ error, onDismiss }: { error: ApiError | string | undefined; onDismiss?: () => void }) {
  if (!error) return null
  const message = typeof error === 'string' ? error : error.message
  const fieldErrors = typeof error === 'string' ? [] : error.details.flatMap((detail) => detail.issues ?? [])
  return (
    <div className="error-banner" role="alert">
      <p>{message}</p>
      {fieldErrors.length > 0 && (
        <ul>
          {fieldErrors.map((issue, index) => (
            <li key={index}>
              {issue.loc.join('.')}: {issue.msg}
            </li>
          ))}
        </ul>
      )}
      {onDismiss && (
        <button type="button" className="link-button" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  )
}
