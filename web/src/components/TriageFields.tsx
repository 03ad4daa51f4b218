/**
 * The triage controls shared by one issue's page and the bulk selection: false positive,
 * exploitable, severity and a note, each left unchanged unless the user picks a value.
 */
import type { Severity } from '../gql/graphql.ts'

export const MAX_NOTE_LENGTH = 1000

export interface TriageChoice {
  falsePositive?: boolean
  exploitable?: boolean
  severity?: Severity
  notes?: string
}

/** The API's triage input, or undefined when nothing would change. */
export function triageInput(choice: TriageChoice): TriageChoice | undefined {
  const input: TriageChoice = {}
  if (choice.falsePositive !== undefined) input.falsePositive = choice.falsePositive
  if (choice.exploitable !== undefined) input.exploitable = choice.exploitable
  if (choice.severity !== undefined) input.severity = choice.severity
  if (choice.notes?.trim()) input.notes = choice.notes.trim()
  return Object.keys(input).length > 0 ? input : undefined
}

const yesNo = (value: string): boolean | undefined => (value === 'yes' ? true : value === 'no' ? false : undefined)
const fromYesNo = (value: boolean | undefined) => (value === true ? 'yes' : value === false ? 'no' : '')

export function TriageFields({ choice, onChange, idPrefix }: { choice: TriageChoice; onChange(next: TriageChoice): void; idPrefix: string }) {
  const set = (update: Partial<TriageChoice>) => onChange({ ...choice, ...update })
  return (
    <div className="triage-fields">
      <div className="form-row">
        <label>
          False positive
          <select value={fromYesNo(choice.falsePositive)} onChange={(event) => set({ falsePositive: yesNo(event.target.value) })}>
            <option value="">Leave as is</option>
            <option value="yes">Yes, false positive</option>
            <option value="no">No, a real finding</option>
          </select>
        </label>
        <label>
          Exploitable
          <select value={fromYesNo(choice.exploitable)} onChange={(event) => set({ exploitable: yesNo(event.target.value) })}>
            <option value="">Leave as is</option>
            <option value="yes">Exploitable</option>
            <option value="no">Not exploitable</option>
          </select>
        </label>
        <label>
          Severity
          <select value={choice.severity ?? ''} onChange={(event) => set({ severity: (event.target.value || undefined) as Severity | undefined })}>
            <option value="">Leave as is</option>
            {(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const).map((level) => (
              <option key={level} value={level}>
                {level.toLowerCase()}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label htmlFor={`${idPrefix}-note`}>Note</label>
      <textarea id={`${idPrefix}-note`} rows={3} maxLength={MAX_NOTE_LENGTH} value={choice.notes ?? ''} onChange={(event) => set({ notes: event.target.value })} />
      <p className="hint">{MAX_NOTE_LENGTH - (choice.notes?.length ?? 0)} characters left. Notes are kept with their author and time, never overwritten.</p>
    </div>
  )
}
