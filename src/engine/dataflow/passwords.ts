/**
 * Passwords as data. A value is a password when the code names it so: a variable, parameter,
 * property, dict key or getter (`password`, `newPassword`, `user_pwd`, `getPassword()`,
 * `req.body.password`, `request.form["passwd"]`, `request.getParameter("pin")`); reading it adds a
 * `password` source fact (scope `password`), which flows like any other fact but only counts at
 * sinks that list that scope: the weak-hash sinks (a password given to MD5 or SHA-1). Project
 * functions that hash their parameter with a broken hash then become weak-hash sinks for their
 * callers through the ordinary summaries (`const h = s => md5(s)` in one file, `h(password)` in
 * another).
 *
 * Hash objects are followed too: a factory call that creates a broken hash (`createHash('md5')`,
 * `MessageDigest.getInstance(ALG)` with ALG folded, `hashlib.new('sha1')`) returns a value whose
 * qualified name is WEAK_HASHER, so the catalogs can name its `update`/`digest` methods as sinks
 * wherever the object is stored and used.
 */
import type { CallContext } from './call-context.ts'
import { weakHashCreated } from './crypto.ts'
import { indexByLanguage, lastSegment } from './glob.ts'
import type { Expr, Site } from './ir.ts'
import { SOURCE_KIND_INFO } from './kinds.ts'
import { join, sourceFact, val } from './values.ts'
import type { Val } from './values.ts'

/** The qualified name of a hash object of a broken algorithm (catalog sinks: `<weak-hasher>.update`). */
export const WEAK_HASHER = '<weak-hasher>'

/**
 * The last word of a name that makes it a password. Words are split at case changes, `_`, `-`
 * and digits, so `passwordHint`, `passwordHash`, `pinned` and `spin` are not passwords.
 */
const PASSWORD_WORD = /^(password|passwd|pwd|passphrase|passcode|pin|secret|credentials?)$/
/** an all-lowercase name that ends like a password (`newpassword`, `userpasswd`) */
const PASSWORD_SUFFIX = /(password|passwd|passphrase)$/

const known = new Map<string, boolean>()

/** Whether an identifier, property or key names a password (by its last word). */
export function isPasswordName(name: string): boolean {
  let result = known.get(name)
  if (result !== undefined) return result
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z]+/)
    .filter((word) => word !== '')
  const last = (words.at(-1) ?? '').toLowerCase()
  result = PASSWORD_WORD.test(last) || PASSWORD_SUFFIX.test(last)
  if (known.size < 10_000) known.set(name, result)
  return result
}

/**
 * A value read under a password's name: the value plus a password fact at the read. Functions,
 * classes, modules and known constants (a literal is a fixture or a default, not a user's
 * password) stay as they are.
 */
export function passwordRead(value: Val, name: string, site: Site): Val {
  if (!isPasswordName(name)) return value
  if ((value.ref && value.ref.t !== 'type') || (value.constant !== undefined && value.constant !== null)) return value
  return join(value, val({ facts: [sourceFact('password', SOURCE_KIND_INFO.password.scope, name, site)] }))
}

/** Getters that read one named input (`getParameter("password")`, `form.get("pwd")`, `param("pin")`). */
const NAMED_GETTER = /^(get[A-Za-z]*|param|params|getlist|getvalue|getfirst)$/i

/** Library calls that create a broken hash object whatever their arguments. */
const FIXED_WEAK_FACTORIES: Record<string, readonly string[]> = {
  java: ['**.DigestUtils.{getMd5Digest,getSha1Digest,getShaDigest}', '**.Hashing.{md5,sha1}'],
  python: ['hashlib.{md5,sha1}', 'Crypto.Hash.{MD5,SHA1,SHA}.new'],
  javascript: [],
}

const factoryIndex = indexByLanguage(FIXED_WEAK_FACTORIES, (glob) => [glob])

/**
 * The result of a library call, seen as a password or a hash object: a named getter whose first
 * argument names a password returns one; a call creating a broken hash returns a WEAK_HASHER.
 */
export function passwordCallResult(context: CallContext, result: Val, fold: (expr: Expr) => Val): Val {
  const first = context.args[0]
  const method = lastSegment(context.names[1] ?? context.names[0] ?? '')
  if (first && typeof first.value.constant === 'string' && NAMED_GETTER.test(method)) result = passwordRead(result, first.value.constant, first.arg.value.site)
  // `user.getPassword()`, `creds.password()`: a library object's accessor named like a password
  else if (context.args.length === 0 && context.expr.callee.t === 'member') result = passwordRead(result, method, context.expr.site)
  const unsafe = context.args.some(({ arg, value }) => arg.keyword === 'usedforsecurity' && value.constant === false)
  if (unsafe) return result
  const index = factoryIndex(context.unit.spec.name)
  const fixed = index.mayMatch(method) && index.match(context.names).length > 0
  if (fixed || weakHashCreated(context, fold) !== null) return { ...result, qname: WEAK_HASHER }
  return result
}

/** Names of broken hashes and their factories: text without any hashes no password weakly. */
const WEAK_HASH_TEXT = /md5|sha-?1|md4|MessageDigest|createHash|hashlib|DigestUtils|Hashing/i

/** Whether some text (a file, a function) may hash a password: a hash API and a password's name. */
export function mentionsPasswordHashing(text: string): boolean {
  if (!WEAK_HASH_TEXT.test(text)) return false
  for (const word of text.matchAll(/[A-Za-z_][A-Za-z0-9_]*/g)) if (isPasswordName(word[0])) return true
  return false
}
