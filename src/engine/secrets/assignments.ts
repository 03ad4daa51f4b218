/**
 * Finds values assigned to secret-like names in the syntaxes source and config files use:
 *   x = "..."   x: "..."   "x": "..."   X=...   x := "..."   'x' => '...'   x == "..."
 *   <x>...</x>   <add key="x" value="..."/>   define('X', '...')   Password=...; (in a string)
 *   machine h login u password p (.netrc)
 * Scanning starts from cheap keyword hits (pass, secret, token, key, auth...), expands each
 * hit to the whole identifier and parses what follows with sticky regexes, so the cost is
 * per hit, never per character of the file.
 */
import type { PathProfile } from './path-profile.ts'
import type { ScanText } from './scan-text.ts'
import { classifySecretName, type SecretName } from './secret-names.ts'

export interface Assignment {
  /** identifier as written, e.g. `DB_PASSWORD`, `config.apiKey`, `x-api-key` */
  name: string
  secretName: SecretName
  value: string
  /** offset of the value in the text */
  valueStart: number
  /**
   * How the value was written: between quotes (or as XML element text); bare in a config
   * format or inside a string (`Password=...;`), where it is literal text; bare in a prose
   * snippet, where it may be literal text or code; bare in code, where it is an expression.
   */
  form: ValueForm
}

export type ValueForm = 'quoted' | 'bare-literal' | 'bare-prose' | 'expression'

const NAME_HIT = /pass|pwd|secret|token|key|auth|cred|pat(?![a-z])/gi
const MAX_NAME_LENGTH = 80

/**
 * What may follow a name: closing quote/bracket, optional type annotation (`: string =`),
 * an operator, then a quoted or bare value. Quoted bodies allow backslash escapes.
 */
const AFTER_NAME =
  /(["'`]?)\]?[ \t]*(?::[ \t]*[A-Za-z_][\w.<>[\]|?]*[ \t]*(?==(?!=)))?(:=|=>|===?|=|:|,|[ \t]+value[ \t]*=)[ \t]*(?:(?:[bBrRuUfF]{1,2}|@|\$)?(["'`])((?:(?!\3)[^\n\\]|\\.){0,1024})\3|((?:[Bb]earer|[Bb]asic|[Tt]oken)[ \t]+)?([^\s"'`,;]{1,1024}))/y
/** Cheap check before classifying the name: something assignment-like comes next. */
const OPERATOR_FOLLOWS = /^(?:["'`]?\]?[ \t]*(?::|=|,|[ \t]+value)|>)/
const XML_ELEMENT_TEXT = />([^<>\n]{1,1024})<\//y
const NETRC_VALUE = /[ \t]+([^\s]{1,1024})/y
const AUTH_SCHEME = /^(?:[Bb]earer|[Bb]asic|[Tt]oken)[ \t]+/

function isNameChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 95 || code === 46 || code === 45 || code === 36 || code === 64 // _ . - $ @
  )
}

export function findAssignments(text: ScanText, path: PathProfile): Assignment[] {
  const source = text.text
  const assignments: Assignment[] = []
  let scannedUntil = 0
  NAME_HIT.lastIndex = 0
  for (let hit = NAME_HIT.exec(source); hit; hit = NAME_HIT.exec(source)) {
    if (hit.index < scannedUntil) continue
    let start = hit.index
    while (start > 0 && hit.index - start < MAX_NAME_LENGTH && isNameChar(source.charCodeAt(start - 1))) start--
    let end = hit.index + hit[0].length
    while (end < source.length && end - hit.index < MAX_NAME_LENGTH && isNameChar(source.charCodeAt(end))) end++
    scannedUntil = end
    NAME_HIT.lastIndex = end
    // A trailing `.`/`-` belongs to the surrounding syntax (`token.`, `--key-`), not the name.
    while (end > start && /[.\-]/.test(source[end - 1] ?? '')) end--
    const assignment = parseAssignment(source, start, end, path)
    if (assignment) assignments.push(assignment)
  }
  return assignments
}

function parseAssignment(source: string, start: number, end: number, path: PathProfile): Assignment | null {
  const prev = source[start - 1] ?? ''
  // `@scope/password`, `/api/token`: a path or package segment, not a name.
  if (prev === '/') return null
  if (!path.isNetrc && !OPERATOR_FOLLOWS.test(source.slice(end, end + 24))) return null
  const name = source.slice(start, end)
  const secretName = classifySecretName(name)
  if (!secretName) return null
  const parsed =
    prev === '<' ? parseXmlElement(source, end) : path.isNetrc ? parseNetrc(source, end) : parseOperator(source, start, end, path)
  return parsed ? { name, secretName, ...parsed } : null
}

type ParsedValue = Omit<Assignment, 'name' | 'secretName'>

function parseXmlElement(source: string, end: number): ParsedValue | null {
  XML_ELEMENT_TEXT.lastIndex = end
  const match = XML_ELEMENT_TEXT.exec(source)
  if (!match?.[1]) return null
  const value = match[1].trim()
  return { value, valueStart: end + 1 + match[1].indexOf(value), form: 'quoted' }
}

function parseNetrc(source: string, end: number): ParsedValue | null {
  NETRC_VALUE.lastIndex = end
  const match = NETRC_VALUE.exec(source)
  if (!match?.[1]) return null
  return { value: match[1], valueStart: NETRC_VALUE.lastIndex - match[1].length, form: 'bare-literal' }
}

function parseOperator(source: string, start: number, end: number, path: PathProfile): ParsedValue | null {
  AFTER_NAME.lastIndex = end
  const match = AFTER_NAME.exec(source)
  if (!match) return null
  const [whole, closeQuote = '', operator = '', , quotedBody, , bare] = match
  const prev = source[start - 1] ?? ''
  const nameQuoted = prev === '"' || prev === "'" || prev === '`'
  const nameInsideString = nameQuoted && closeQuote === ''
  // `name, value` only as call arguments: define('KEY', '...'), setenv("TOKEN", "..."), put("password", "...").
  if (operator === ',' && !(nameQuoted && closeQuote !== '' && source[start - 2] === '(' && quotedBody !== undefined)) return null
  if (/value/.test(operator) && !(nameQuoted && closeQuote !== '')) return null
  const matchEnd = end + whole.length
  if (quotedBody !== undefined) {
    // `"Password:"` + `)...` : the quote after the operator closes the string holding the name.
    if (nameInsideString) return null
    const bodyStart = matchEnd - 1 - quotedBody.length
    const schemeMatch = AUTH_SCHEME.exec(quotedBody)
    const skip = schemeMatch ? schemeMatch[0].length : 0
    return { value: quotedBody.slice(skip), valueStart: bodyStart + skip, form: 'quoted' }
  }
  if (bare === undefined) return null
  const value = bare.replace(/[)\]}>]+$/, '')
  // Inside a string: "Password=...;", "?token=...&", "Authorization: Bearer ...". `&&` is code.
  const embedded =
    nameInsideString || prev === ';' || prev === '?' || (prev === '&' && source[start - 2] !== '&')
  if (!path.isConfigLike && (operator.startsWith('==') || looksLikeCode(value))) return null
  const form: ValueForm = path.isConfigLike || embedded ? 'bare-literal' : path.isProse ? 'bare-prose' : 'expression'
  return { value, valueStart: matchEnd - bare.length, form }
}

/** A bare value that is an expression: member access, call, comparison, boolean operator. */
function looksLikeCode(value: string): boolean {
  return /[(){}[\]]|&&|\|\||==|\?\?|^[A-Za-z_$][\w$]*\.[A-Za-z_$]/.test(value)
}
