/** A path the dashboard does not know. */
import { PageLayout } from '../components/PageLayout.tsx'
import { Link } from '../router.tsx'

export function NotFoundView() {
  return (
    <PageLayout title="Page not found">
      <p>
        Nothing lives at this address. <Link to="/repositories">Go to the repositories</Link>.
      </p>
    </PageLayout>
  )
}
