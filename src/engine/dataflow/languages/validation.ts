/**
 * Catalog pieces every language shares for input validation as real code writes it: checks that
 * reject dangerous text (`".." in name` then abort), quote escaping for XPath and SQL string
 * literals, and the URL components that decide where a request or redirect goes.
 */
import type { SinkKind } from '../kinds.ts'
import type { GuardSpec, RejectionSpec, SanitizerSpec } from '../spec.ts'

/** `..`, or a lone directory separator: a name without them cannot leave its directory. */
const PATH_NEEDLE = String.raw`\.\.|^[/\\]$`
/** A lone apostrophe or double quote: a value without them cannot close a string literal. */
const QUOTE_NEEDLE = String.raw`^['"]$`

/** Membership operators or containment methods that reject path and quote characters. */
export function rejections(where: { readonly operator?: readonly string[]; readonly call?: readonly string[] }): RejectionSpec[] {
  return [
    { ...where, needle: PATH_NEEDLE, cleans: ['path'], note: 'rejects path traversal' },
    { ...where, needle: QUOTE_NEEDLE, cleans: ['xpath', 'sql'], note: 'rejects quotes' },
  ]
}

/** The first argument of a replace() is one quote character (a string, a Java char, a JS regex). */
const QUOTE_ARG = String.raw`^(?:"\\?'"|'\\''|'"'|"\\""|/\\?['"]/g?)$`
/** ...replaced by its XML character reference. */
const ENTITY_ARG = String.raw`^["'](?:&apos;|&#0*39;|&#[xX]0*27;|&quot;|&#0*34;|&#[xX]0*22;)["']$`
/** The first argument is an apostrophe... */
const APOSTROPHE_ARG = String.raw`^(?:"\\?'"|'\\''|/\\?'/g?)$`
/** ...doubled, as SQL and XPath 2 string literals escape it. */
const DOUBLED_ARG = String.raw`^(?:"''"|'\\'\\'')$`

/** `s.replace("'", "&apos;")` cleans XPath; `s.replace("'", "''")` XPath and SQL literals. */
export function quoteEscapes(call: readonly string[]): SanitizerSpec[] {
  return [
    { call, cleans: ['xpath'], when: [{ argText: { index: 0, matches: QUOTE_ARG } }, { argText: { index: 1, matches: ENTITY_ARG } }], note: 'quotes replaced by character references' },
    { call, cleans: ['xpath', 'sql'], when: [{ argText: { index: 0, matches: APOSTROPHE_ARG } }, { argText: { index: 1, matches: DOUBLED_ARG } }], note: 'apostrophes doubled' },
  ]
}

/** Kinds a URL's host decides: where a request goes, where a redirect sends the user. */
export const HOST_DECIDES: readonly SinkKind[] = ['url', 'redirect']

/** Source text of an argument that names a password (`password`, `req.body.passwd`, `pwd`). */
const PASSWORD_ARG = String.raw`[Pp]ass(?:word|wd|phrase)|PASS(?:WORD|WD)|\b(?:pwd|Pwd|PWD)\b|[a-z]Pwd\b`
/** Methods named like a credential check: `checkPassword`, `verifyLogin`, `authenticate`, `auth.check`... */
const CREDENTIAL_CHECKS = '**.{check,verify,validate,authenticate,login,checkPassword,verifyPassword,validatePassword,checkCredentials,verifyCredentials,validateCredentials,checkLogin,verifyLogin,validateLogin,isValidLogin,isValidPassword,passwordMatches}'

/**
 * A credential check that passes (`if (!auth.check(name, password)) return`): the name checked
 * together with a password is the caller's proven identity, not an unchecked claim, so storing it
 * in the session is no trust-boundary violation. The check is known by its name and by a second
 * argument naming a password; the identity is its first argument.
 */
export function credentialChecks(): GuardSpec[] {
  return [{ call: [CREDENTIAL_CHECKS], subject: { arg: 0 }, cleans: ['session'], when: [{ argText: { index: 1, matches: PASSWORD_ARG } }], note: 'successful authentication' }]
}

/**
 * The first argument of a replace() is a negated class of word characters and hyphens, matched
 * globally (`/[^\w-]/g`, `"[^A-Za-z0-9_-]"`): every other character is replaced, so what is left
 * holds no quote, markup, separator, dot or line break.
 */
const ALLOWLIST_CLASS = String.raw`\[\^(?:\\{1,2}w|\\{1,2}d|a-z|A-Z|0-9|_|\\{0,2}-)+\]\+?`
const ALLOWLIST_ARG = `^(?:/${ALLOWLIST_CLASS}/g[imsuy]*|"${ALLOWLIST_CLASS}")$`
/** What a word-only value cannot do: everything but choosing a host (`"https://" + v`), and secrets. */
const WORD_ONLY_CLEANS: readonly SinkKind[] = ['sql', 'nosql', 'command', 'code', 'template', 'path', 'redirect', 'html', 'ldap', 'xpath', 'header', 'log']

/** `s.replace(/[^\w-]/g, "_")`: an allowlist replacement (JavaScript regex literals, Java replaceAll patterns). */
export function allowlistReplacements(call: readonly string[]): SanitizerSpec[] {
  return [{ call, cleans: WORD_ONLY_CLEANS, when: [{ argText: { index: 0, matches: ALLOWLIST_ARG } }], note: 'characters outside an allowlist replaced' }]
}
