/**
 * Names that say a value is a secret: a variable, field, dict key, keyword argument, parameter,
 * setter or function called `resetToken`, `csrf_token`, `otp`, `apiKey`, `set_password`... A
 * predictable random value stored or returned under such a name is a weak secret (sink kind
 * `randomness`). Names are split into words (camelCase, snake_case, kebab-case) and compared
 * word by word, so `tokenize` or `spinner` are not secrets; the last word decides what the value
 * is, so `tokenExpiry` or `pinLength` (a time, a size) are not secrets either.
 */
import type { SinkSpec } from './spec.ts'

/** Words that name a secret on their own. */
const SECRET_WORDS = new Set([
  'token',
  'tokens',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'passcode',
  'secret',
  'secrets',
  'nonce',
  'otp',
  'totp',
  'hotp',
  'pin',
  'salt',
  'iv',
  'apikey',
  'sessionid',
  'sid',
  'csrf',
  'xsrf',
  'credential',
  'credentials',
  'captcha',
])

/** Two adjacent words that name a secret together (`api key`, `session id`, `reset code`). */
const SECRET_PAIRS = new Set([
  'api key',
  'secret key',
  'access key',
  'private key',
  'signing key',
  'encryption key',
  'session key',
  'session id',
  'auth code',
  'reset code',
  'verification code',
  'confirmation code',
  'activation code',
  'invite code',
  'invitation code',
  'access code',
  'recovery code',
  'security code',
  'login code',
  'unlock code',
  'one time',
])

/** Last words that make the name a property of a secret rather than the secret itself. */
const NOT_THE_SECRET = new Set([
  'ttl',
  'expiry',
  'expires',
  'expiration',
  'expire',
  'lifetime',
  'age',
  'delay',
  'timeout',
  'interval',
  'backoff',
  'jitter',
  'retry',
  'retries',
  'attempts',
  'length',
  'len',
  'size',
  'count',
  'index',
  'idx',
  'offset',
  'position',
  'weight',
  'color',
  'colour',
  'type',
  'kind',
  'name',
  'label',
  'field',
  'header',
  'param',
  'url',
  'path',
  'seconds',
  'ms',
  'millis',
  'minutes',
  'hours',
  'days',
])

/** `resetToken`, `RESET_TOKEN`, `reset-token`, `XMLHttpToken` -> reset token / xml http token. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.toLowerCase())
}

const cache = new Map<string, boolean>()

/** Whether a name says its value is a secret (token, password, OTP, API key...). */
export function isSecretName(name: string): boolean {
  let known = cache.get(name)
  if (known === undefined) {
    known = secretName(name)
    if (cache.size < 10_000) cache.set(name, known)
  }
  return known
}

function secretName(name: string): boolean {
  let words = nameWords(name)
  // A setter or getter names the property it writes: `setResetToken` is about `resetToken`.
  if (words.length > 1 && (words[0] === 'set' || words[0] === 'get')) words = words.slice(1)
  const last = words.at(-1)
  if (last === undefined || NOT_THE_SECRET.has(last)) return false
  return words.some((word, index) => SECRET_WORDS.has(word) || (index > 0 && SECRET_PAIRS.has(`${words[index - 1]} ${word}`)))
}

const specs = new Map<string, SinkSpec>()

/**
 * The sink a secret name makes: the name and how it was given (`stored in resetToken`,
 * `returned from generateToken()`) are the note the trace shows.
 */
export function secretNameSink(note: string): SinkSpec {
  let spec = specs.get(note)
  if (!spec) {
    spec = { kind: 'randomness', note, sources: ['prng'] }
    if (specs.size < 10_000) specs.set(note, spec)
  }
  return spec
}
