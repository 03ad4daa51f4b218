/**
 * Allowlists: values that sit where a secret would but are not one. Template variables,
 * documentation placeholders, masks, well-known example keys published by providers,
 * references to an environment variable or secret store, hashes and identifiers.
 * Provider formats use `looksLikeFakeToken` on their random part; generic assignments use
 * the stricter `isPlaceholderValue` / `isReferenceValue` / `isNonSecretShape`.
 */
import { isShortPeriodRepetition, longestRun, sequentialRatio, shannonEntropy } from './entropy.ts'

/** Example credentials printed in provider documentation (exact values). */
const DOCUMENTED_EXAMPLES = new Set([
  'AKIAIOSFODNN7EXAMPLE',
  'AKIAI44QH8DHBEXAMPLE',
  'ASIAIOSFODNN7EXAMPLE',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY',
  // Stripe's documented test key, split so that this file does not look like it holds one.
  ['sk', 'test', '4eC39HqLyjWDarjtT1zdp7dc'].join('_'),
  // OAuth 2.0 (RFC 6749) and OAuth 1.0 (RFC 5849) example values, copied into many docstrings.
  '2YotnFZFEjr1zCsicMWpAA',
  'tGzv3JOkF0XG5Qx2TlKWIA',
  'SplxlOBeZQQYbYS6WxSbIA',
  '8xLOxBtZp8',
  '7Fjfp0ZBr1KtDRbnfVdmIw',
  'gX1fBat3bV',
  'dj202u89d8jf',
  'kd94hf93k423kf44',
  'hh5s93j4hdidpola',
  'nnch734d00sl2jdk',
  'pfkkdhi9sl3r4s00',
  '0685bd9184jfhq22',
  'ad180jjd733klru7',
  'kllo9940pd9333jh',
])

/** Words that mark a value as a stand-in (matched case-insensitively anywhere in it). */
const PLACEHOLDER_WORDS =
  /example|sample|dummy|placeholder|changeme|change[_-]me|changeit|changethis|redacted|replace[_-]?me|insert[_-]?(?:your|here)|your[_-]?(?:own[_-]?)?(?:api|access|secret|auth|app|client|private|token|key|pass|password|db)|yourkey|yourtoken|yoursecret|yourpass|[_-]here\b|xxxx|fake|mock|lorem|foobar|notasecret|not[_-]a[_-]secret|not[_-]?real|\btodo\b|fixme|\btest|test\b|_test_|-test-/i

/** Same idea for provider token bodies, where `test`-like words are part of the prefix. */
const FAKE_TOKEN_WORDS =
  /example|sample|dummy|placeholder|changeme|redacted|xxxx|fake|notreal|your(?:token|key|secret)|insert|replace/i

const EXACT_PLACEHOLDERS = new Set([
  'password', 'passwd', 'pass', 'pwd', 'secret', 'secrets', 'token', 'key', 'apikey', 'api_key', 'api-key',
  'none', 'null', 'nil', 'undefined', 'n/a', 'na', 'tbd', 'unset', 'empty', 'required', 'optional',
  'default', 'hidden', 'unknown', 'string', 'value', 'true', 'false', 'foo', 'bar', 'baz', 'qux',
  'admin', 'root', 'user', 'username', 'guest', 'postgres', 'mysql', 'sa', 'letmein', 'private',
  'public', 'anonymous', 'demo', 'local', 'localhost', 'dev', 'development', 'prod', 'production',
])

/** A masked or elided value: `****`, `•••`, `...`, `[REDACTED]`. */
const MASK = /^\*+$|\*{3}|•{2}|…|\.{3}|^\[[^\]]*\]$/

/** Template/interpolation syntax of shells, JS, Python, Ruby, Helm, Jinja, ERB, .NET, Maven... */
const TEMPLATE =
  /\$\{|\$\(|\{\{|\}\}|<%|%>|#\{|@\{|^\$[A-Za-z_]|^%[A-Za-z_][\w.-]*%$|%[sdrifx]\b|%\([\w.]+\)[sdr]|\{\d*\}|\{[A-Za-z_][\w.]*\}|^@@[\w.-]+@@$|^__[A-Z0-9_]+__$|^<[^<>]+>$|<[A-Za-z_][\w .-]*>/

/** References to where the secret really lives: environment, vaults, cloud secret stores. */
const REFERENCE =
  /process\.env|import\.meta\.env|Deno\.env|os\.environ|os\.getenv|getenv\s*\(|System\.getenv|Environment\.GetEnvironmentVariable|\bENV\s*[[.]|\benv\s*\(|\bsecrets\.[A-Z_]|^(?:vault|ssm|secretsmanager|op|sm|gcp-secret|azure-keyvault|keyvault|secret|env):|arn:aws:(?:secretsmanager|ssm|kms)|@Microsoft\.KeyVault\(|\{\{resolve:|^!(?:Ref|Sub|GetAtt|ImportValue|vault)\b|projects\/[^/]+\/secrets\/|vault\.azure\.net\/secrets/

/** Password hashes and content digests are derived values, not the secret itself. */
const HASH_FORMAT =
  /^(?:sha(?:1|224|256|384|512)[-:]|md5:|\$2[abxy]?\$\d{2}\$|\$argon2(?:id|i|d)\$|\$pbkdf2|\$[156]\$|\$scrypt\$|pbkdf2_sha\d+\$|bcrypt\$|argon2\$|\{(?:SSHA|SHA|SSHA256|SSHA512|bcrypt|MD5|CRYPT)\})/i

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

export function isDocumentedExample(secret: string): boolean {
  return DOCUMENTED_EXAMPLES.has(secret)
}

/**
 * The random part of a provider token is a stand-in: documented example, placeholder word,
 * masked, repeated or sequential characters, or too little entropy to be generated.
 */
export function looksLikeFakeToken(body: string, fullSecret: string = body): boolean {
  if (isDocumentedExample(fullSecret) || isDocumentedExample(body)) return true
  if (FAKE_TOKEN_WORDS.test(body) || TEMPLATE.test(body) || MASK.test(body)) return true
  if (isShortPeriodRepetition(body) || longestRun(body) >= 7) return true
  if (body.length >= 8 && sequentialRatio(body) >= 0.5) return true
  const entropy = shannonEntropy(body)
  if (body.length >= 20 && entropy < 3.0) return true
  if (body.length >= 8 && entropy < 2.0) return true
  return false
}

/** Placeholder, template variable, mask or trivially weak stand-in value. */
export function isPlaceholderValue(value: string, name = ''): boolean {
  const trimmed = value.trim()
  if (trimmed.length === 0) return true
  const lower = trimmed.toLowerCase()
  if (EXACT_PLACEHOLDERS.has(lower) || EXACT_PLACEHOLDERS.has(lower.replace(/[^a-z0-9]/g, ''))) return true
  if (isDocumentedExample(trimmed)) return true
  // `mypassword`, `some-secret`, `pass#pass`, `123Abpassword`: a description of the value, not the value.
  if (/passw(?:or)?d/i.test(trimmed)) return true
  if (!/\d/.test(trimmed) && /^[a-z]*(?:pass|secret|token|apikey)[a-z]*$/.test(lower.replace(/[^a-z]/g, ''))) return true
  if (MASK.test(trimmed) || TEMPLATE.test(trimmed) || PLACEHOLDER_WORDS.test(trimmed)) return true
  if (name && normalizeName(trimmed) === normalizeName(name)) return true
  if (isShortPeriodRepetition(trimmed) || longestRun(trimmed) >= Math.max(5, trimmed.length * 0.6)) return true
  if (trimmed.length >= 6 && sequentialRatio(trimmed) >= 0.6) return true
  return false
}

/** Value that points at the secret's real home (environment variable, vault, secret manager). */
export function isReferenceValue(value: string): boolean {
  return REFERENCE.test(value)
}

/**
 * Shapes that are not secrets even under a secret-like name: URLs (handled by the URL
 * detectors), paths and key files, e-mail addresses, UUIDs, hashes, numbers, versions,
 * environment variable names and dotted configuration keys.
 */
export function isNonSecretShape(value: string): boolean {
  if (/\s/.test(value)) return true
  if (value.includes('://')) return true
  // Query strings and key=value lists; base64 only has `=` as trailing padding.
  if (/=[^=]/.test(value)) return true
  if (/^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\|\\\\)/.test(value)) return true
  if (/\.(?:pem|key|crt|cer|der|p12|pfx|jks|keystore|json|ya?ml|txt|env|ini|cfg|conf|properties|gpg|asc|pub|ppk|enc|age)$/i.test(value)) return true
  if (value.includes('/') && /^[a-z0-9_.\-/]+$/.test(value) && !/[A-Z+=]/.test(value)) return true
  if (/^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$/.test(value)) return true
  if (UUID.test(value) || HASH_FORMAT.test(value)) return true
  if (/^[\d\s.,:_+-]+$/.test(value)) return true
  if (/^[~^<>=v]*\d+(?:\.(?:\d+|x|\*))+(?:[-+][\w.]+)?$/.test(value)) return true
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value)) return true
  if (/^[a-z][A-Za-z0-9_]*(?:[.:][A-Za-z_][A-Za-z0-9_]*)+$/.test(value)) return true
  if (/^#[0-9a-fA-F]{3,8}$/.test(value)) return true
  // Issue and weakness ids: CWE-259, JIRA-1234.
  if (/^[A-Z]{2,}-\d+$/.test(value)) return true
  // Regular expressions: character classes, counted repetitions, escapes, groups.
  if (/\[[^\]]+\][*+?{]|\{\d+(?:,\d*)?\}|\\[dwsbDWSB]|\(\?[:=!<]/.test(value)) return true
  return false
}

function normalizeName(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, '')
}
