/**
 * Validation against the SARIF 2.1.0 JSON schema, so tests check what code-scanning tools will
 * accept and not only the fields they look at. sarif-schema-2.1.0.json beside this file is the
 * OASIS schema of SARIF 2.1.0 (its last release candidate, rtm.5, the standard's text), as the
 * npm package @microsoft/jest-sarif ships it; kept here so no test fetches it.
 */
import { readFileSync } from 'node:fs'
import ajvDraft04 from 'ajv-draft-04'

const schema = JSON.parse(readFileSync(new URL('./sarif-schema-2.1.0.json', import.meta.url), 'utf8')) as object

// The schema is draft-04; one of its patterns (a language tag) is not a valid Unicode regular
// expression; `format`s (uri, date-time) are left unchecked. ajv-draft-04 is CommonJS: its class
// is both the module and the module's `default`, the one its types name.
const validate = new ajvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false, validateFormats: false }).compile(schema)

/** The schema's complaints about `log`, one line each (empty when it is a valid SARIF log). */
export function sarifSchemaErrors(log: unknown): string[] {
  if (validate(log)) return []
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`)
}
