/** A page's frame: its heading (focused on navigation, for keyboard and screen-reader users), actions beside it, and its content. */
import { useEffect, useRef, type ReactNode } from 'react'

export function PageLayout({ title, subtitle, actions, children }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    heading.current?.focus({ preventScroll: true })
    if (typeof title === 'string') document.title = `${title} · Parapet`
  }, [title])
  return (
    <section className="page">
      <header className="page-header">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {subtitle && <p className="page-subtitle">{subtitle}</p>}
        </div>
        {actions && <div className="page-actions">{actions}</div>}
      </header>
      {children}
    </section>
  )
}
