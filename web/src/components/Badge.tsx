/** Small labelled tokens for a scan's status and an issue's severity (colour plus text, never colour alone). */
import type { ScanStatus } from '../gql/graphql.ts'

/** The schema's Severity (web/src/gql emits an enum only once a document selects it). */
export type Severity = 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO'

export function StatusBadge({ status }: { status: ScanStatus }) {
  return <span className={`badge status-${status.toLowerCase()}`}>{status.toLowerCase()}</span>
}

export function SeverityBadge({ severity }: { severity: Severity }) {
  return <span className={`badge severity-${severity.toLowerCase()}`}>{severity.toLowerCase()}</span>
}

export const isActiveStatus = (status: ScanStatus) => status === 'QUEUED' || status === 'RUNNING'
