/**
 * Decides whether an identifier names a secret: `DB_PASSWORD`, `apiKey`, `client-secret`,
 * `spring.datasource.password`, `AWS_SECRET_ACCESS_KEY`, `x-api-key` do; `tokenizer`,
 * `password_hash`, `public_key`, `next_page_token`, `token_url`, `primary_key` do not.
 * The identifier is split into words; the last meaningful word must be a secret noun.
 */

export type SecretNameFamily = 'password' | 'secret'

export interface SecretName {
  family: SecretNameFamily
  /** the words the identifier was split into, lowercased */
  words: string[]
}

/** Trailing words that qualify a secret without changing what it is (`API_KEY_PROD`). */
const NEUTRAL_SUFFIXES = new Set([
  'value', 'val', 'str', 'string', 'b64', 'base64', 'hex', 'bytes', 'raw', 'plain', 'plaintext', 'encoded',
  'prod', 'production', 'live', 'dev', 'development', 'staging', 'stage', 'qa', 'uat', 'local', 'default',
  'fallback', 'old', 'new', 'current', 'primary', 'secondary', 'main', 'base',
])

/** A word anywhere in the name that makes it something other than a secret. */
const DISQUALIFYING_WORDS = new Set([
  'public', 'pub', 'publishable', 'hash', 'hashed', 'digest', 'checksum', 'fingerprint', 'sha', 'sha1',
  'sha256', 'md5', 'crc', 'csrf', 'xsrf', 'pagination', 'cursor', 'next', 'prev', 'previous', 'page',
  'continuation', 'sort', 'foreign', 'partition', 'cache', 'idempotency', 'i18n', 'translation', 'lookup',
  'site', 'anon', 'example', 'sample', 'placeholder', 'dummy', 'fake', 'mock', 'label', 'hint', 'prompt',
  'regex', 'pattern', 'policy', 'length', 'len', 'min', 'max', 'size', 'count', 'format', 'field',
  'column', 'attr', 'attribute', 'param', 'header', 'input', 'bos', 'eos', 'pad', 'unk', 'sep', 'cls',
  'mask', 'special', 'reset', 'forgot', 'confirm', 'confirmation', 'strength', 'expiry', 'expires',
  'expiration', 'ttl', 'timeout', 'lifetime', 'type', 'kind', 'mode', 'method', 'scheme', 'version',
])

/** Secret nouns that can end an identifier. */
const SECRET_NOUNS = new Set([
  'secret', 'secrets', 'token', 'apikey', 'apitoken', 'authtoken', 'accesstoken', 'refreshtoken',
  'bearertoken', 'secretkey', 'privatekey', 'accesskey', 'authkey', 'apisecret', 'clientsecret',
  'credential', 'credentials', 'cred', 'creds', 'auth', 'authorization', 'pat', 'key',
])
const PASSWORD_NOUNS = new Set(['password', 'passwd', 'pwd', 'pass', 'passphrase', 'passcode', 'passw', 'pword'])

/** Compound lowercase words (`dbpassword`, `mysecretkey`) are recognised by their ending. */
const COMPOUND_ENDINGS: ReadonlyArray<[string, SecretNameFamily]> = [
  ['password', 'password'],
  ['passwd', 'password'],
  ['passphrase', 'password'],
  ['apikey', 'secret'],
  ['secretkey', 'secret'],
  ['privatekey', 'secret'],
  ['accesskey', 'secret'],
  ['authtoken', 'secret'],
  ['accesstoken', 'secret'],
  ['apitoken', 'secret'],
  ['secret', 'secret'],
  ['token', 'secret'],
]

/** Nouns too ambiguous alone (`key`, `pass`, `pwd` is the shell's working directory, `pat`). */
const NEEDS_QUALIFIER = new Set(['key', 'pass', 'pwd', 'pat'])

/** `pat` is a personal access token only after a platform word (`GITHUB_PAT`); else a pattern. */
const PAT_QUALIFIERS = new Set([
  'github', 'gh', 'gitlab', 'gl', 'ado', 'azure', 'devops', 'bitbucket', 'gitea', 'personal', 'access',
  'my', 'user', 'bot', 'ci', 'service', 'npm', 'docker', 'dockerhub', 'hub', 'atlassian', 'jira', 'confluence',
])

/** Words before `key` that make it a data-structure or storage key, not a credential. */
const NON_CREDENTIAL_KEY_QUALIFIERS = new Set([
  'primary', 'map', 'dict', 'object', 'item', 'row', 'record', 'entity', 'table', 'index', 'unique',
  'composite', 'compound', 'natural', 'surrogate', 'candidate', 'alternate', 'routing', 's3', 'bucket',
  'file', 'blob', 'message', 'metric', 'registry', 'redis', 'query', 'group', 'config', 'setting',
  'settings', 'env', 'property', 'prop', 'hot', 'short', 'shortcut', 'keyboard', 'join', 'dedup',
  'dedupe', 'shard', 'state', 'event', 'sequence', 'json', 'dynamo', 'range', 'hash', 'react', 'list',
  'lock', 'mutex', 'idem', 'tracking', 'correlation', 'request', 'browser',
])

/** Split `AWS_SECRET_ACCESS_KEY`, `apiKey`, `x-api-key`, `db.password`, `$pass` into words. */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.toLowerCase().replace(/\d+$/, ''))
    .filter((word) => word.length > 0)
}

export function classifySecretName(identifier: string): SecretName | null {
  const words = splitIdentifier(identifier)
  if (words.length === 0 || words.length > 8) return null
  if (words.some((word) => DISQUALIFYING_WORDS.has(word))) return null
  let end = words.length
  while (end > 1 && NEUTRAL_SUFFIXES.has(words[end - 1] ?? '')) end--
  const last = words[end - 1] ?? ''
  const qualified = end > 1
  if (PASSWORD_NOUNS.has(last)) {
    if (NEEDS_QUALIFIER.has(last) && !qualified) return null
    return { family: 'password', words }
  }
  if (SECRET_NOUNS.has(last)) {
    if (NEEDS_QUALIFIER.has(last) && !qualified) return null
    if (last === 'key' && NON_CREDENTIAL_KEY_QUALIFIERS.has(words[end - 2] ?? '')) return null
    if (last === 'pat' && !PAT_QUALIFIERS.has(words[end - 2] ?? '')) return null
    return { family: 'secret', words }
  }
  for (const [ending, family] of COMPOUND_ENDINGS) {
    if (last.length > ending.length && last.endsWith(ending)) return { family, words }
  }
  return null
}
