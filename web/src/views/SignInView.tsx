/** Sign-in: an API key or a bearer token, checked by the server before it is kept for this tab. */
import { useState, type FormEvent } from 'react'
import { useSessionState } from '../api/session.tsx'
import { ErrorBanner } from '../components/ErrorBanner.tsx'

export function SignInView() {
  const { signIn, endedBecause } = useSessionState()
  const [credential, setCredential] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      await signIn(credential)
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
      setBusy(false)
    }
  }

  return (
    <main className="sign-in" id="main">
      <form onSubmit={submit} aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">Sign in to Parapet</h1>
        {endedBecause && !error && <p className="notice" role="status">{endedBecause}</p>}
        <label htmlFor="credential">API key (pk_...) or bearer token</label>
        <input id="credential" name="credential" type="password" autoComplete="off" autoFocus required value={credential} onChange={(event) => setCredential(event.target.value)} />
        <p className="hint">Kept in this browser tab only, until you sign out or close it.</p>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        <ErrorBanner error={error} />
      </form>
    </main>
  )
}
