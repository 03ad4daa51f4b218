/**
 * Configuration facts the security context reports that are values rather than structure:
 * CORS origins, debug flags, disabled CSRF or TLS checks, insecure cookie flags, weak hashes,
 * hard-coded credentials (reported by name and location only, never by value). Each pattern
 * is guarded by a plain substring test so files without the keyword cost one `includes`.
 */
import type { SignalFact } from './model.ts'
import { lineAt, lineStarts, oneLine } from './text.ts'

interface SignalPattern {
  signal: string
  /** Substrings one of which must occur before the regex runs. */
  keyword: string | string[]
  pattern: RegExp
  detail(match: RegExpExecArray): string
}

const PATTERNS: SignalPattern[] = [
  { signal: 'cors-any-origin', keyword: 'cors(', pattern: /\bcors\(\s*\)/g, detail: () => 'cors() with no options allows every origin' },
  { signal: 'cors-any-origin', keyword: 'origin', pattern: /\borigins?\s*[:=]\s*(?:\[\s*)?(?:['"]\*['"]|true\b)/g, detail: (m) => oneLine(m[0], 80) },
  { signal: 'cors-any-origin', keyword: 'CORS(', pattern: /\bCORS\(\s*app\s*\)/g, detail: () => 'CORS(app) with no origins allows every origin' },
  { signal: 'cors-any-origin', keyword: 'allow_origins', pattern: /\ballow_origins\s*=\s*\[\s*['"]\*['"]/g, detail: () => 'allow_origins=["*"]' },
  { signal: 'cors-any-origin', keyword: 'CORS_', pattern: /\bCORS_(?:ALLOW_ALL_ORIGINS|ORIGIN_ALLOW_ALL)\s*=\s*True\b/g, detail: (m) => oneLine(m[0], 80) },
  { signal: 'cors-any-origin', keyword: 'llowedOrigin', pattern: /\ballowedOrigin(?:s|Patterns)?\(\s*"\*"\s*\)|@CrossOrigin(?!\s*\()|@CrossOrigin\(\s*(?:origins\s*=\s*)?"\*"/g, detail: (m) => oneLine(m[0], 80) },
  { signal: 'cors-any-origin', keyword: 'Access-Control-Allow-Origin', pattern: /Access-Control-Allow-Origin['"]\s*,\s*['"]\*['"]/g, detail: () => 'Access-Control-Allow-Origin: *' },
  { signal: 'cors-configured', keyword: 'cors(', pattern: /\bcors\(\s*\{[^)]{0,200}/g, detail: (m) => oneLine(m[0], 100) },
  { signal: 'cors-configured', keyword: 'CORS(', pattern: /\bCORS\(\s*\w+\s*,[^)]{0,200}/g, detail: (m) => oneLine(m[0], 100) },
  { signal: 'cors-configured', keyword: 'CORSMiddleware', pattern: /\badd_middleware\(\s*CORSMiddleware\b[^)]{0,200}/g, detail: (m) => oneLine(m[0], 100) },
  { signal: 'cors-configured', keyword: 'CORS_ALLOWED_ORIGINS', pattern: /\bCORS_ALLOWED_ORIGINS\s*=/g, detail: () => 'CORS_ALLOWED_ORIGINS' },
  { signal: 'cors-configured', keyword: 'CrossOrigin(', pattern: /@CrossOrigin\(\s*(?:origins\s*=\s*)?(?:\{\s*)?"(?!\*)[^"]+"/g, detail: (m) => oneLine(m[0], 100) },
  { signal: 'csrf-disabled', keyword: 'csrf_exempt', pattern: /@csrf_exempt\b/g, detail: () => '@csrf_exempt' },
  { signal: 'csrf-disabled', keyword: 'WTF_CSRF_ENABLED', pattern: /WTF_CSRF_ENABLED['"]?\s*[\]=:]\s*=?\s*False/g, detail: () => 'WTF_CSRF_ENABLED = False' },
  { signal: 'debug-enabled', keyword: 'debug', pattern: /\.run\([^)]*\bdebug\s*=\s*True/g, detail: () => 'app.run(debug=True)' },
  { signal: 'debug-enabled', keyword: 'DEBUG', pattern: /^DEBUG\s*=\s*True\b/gm, detail: () => 'DEBUG = True' },
  { signal: 'tls-verification-disabled', keyword: 'verify', pattern: /\bverify\s*=\s*False\b/g, detail: () => 'verify=False' },
  { signal: 'tls-verification-disabled', keyword: 'rejectUnauthorized', pattern: /\brejectUnauthorized\s*:\s*false\b/g, detail: () => 'rejectUnauthorized: false' },
  { signal: 'tls-verification-disabled', keyword: 'NODE_TLS_REJECT_UNAUTHORIZED', pattern: /NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*['"]?0/g, detail: () => 'NODE_TLS_REJECT_UNAUTHORIZED=0' },
  { signal: 'tls-verification-disabled', keyword: 'NoopHostnameVerifier', pattern: /\bNoopHostnameVerifier\b/g, detail: () => 'NoopHostnameVerifier' },
  { signal: 'insecure-cookie', keyword: 'ecure', pattern: /\bsecure\s*:\s*false\b|\bSESSION_COOKIE_SECURE\s*=\s*False\b/g, detail: (m) => oneLine(m[0], 60) },
  { signal: 'insecure-cookie', keyword: 'ttp', pattern: /\bhttpOnly\s*:\s*false\b|\bSESSION_COOKIE_HTTPONLY\s*=\s*False\b/g, detail: (m) => oneLine(m[0], 60) },
  { signal: 'weak-hash', keyword: 'createHash', pattern: /\bcreateHash\(\s*['"](md5|sha1)['"]/gi, detail: (m) => `createHash('${m[1]}')` },
  { signal: 'weak-hash', keyword: 'hashlib', pattern: /\bhashlib\.(md5|sha1)\(/g, detail: (m) => `hashlib.${m[1]}()` },
  { signal: 'weak-hash', keyword: 'MessageDigest', pattern: /MessageDigest\.getInstance\(\s*"(MD5|SHA-?1)"/gi, detail: (m) => `MessageDigest ${m[1]}` },
  { signal: 'crypto', keyword: 'createHash', pattern: /\bcreateHash\(\s*['"](sha256|sha384|sha512|sha3-\d+)['"]/gi, detail: (m) => `createHash('${m[1]}')` },
  { signal: 'crypto', keyword: 'Cipher', pattern: /\bcreateCipheriv\(\s*['"]([\w-]+)['"]|Cipher\.getInstance\(\s*"([^"]+)"/g, detail: (m) => `cipher ${m[1] ?? m[2]}` },
  { signal: 'crypto', keyword: 'andom', pattern: /\brandomBytes\(|\bsecrets\.token_\w+\(|\bnew SecureRandom\(|\brandomUUID\(/g, detail: (m) => oneLine(m[0].replace(/\($/, '()'), 40) },
  { signal: 'password-hashing', keyword: ['bcrypt', 'argon2', 'password_hash', 'make_password', 'check_password', 'PasswordEncoder', 'pbkdf2', 'scrypt'], pattern: /\b(?:bcrypt\.(?:hash|hashSync|compare|compareSync|hashpw|checkpw)|argon2\.(?:hash|verify)|generate_password_hash|check_password_hash|make_password|check_password|(?:BCrypt|Argon2|Pbkdf2|SCrypt)PasswordEncoder|pbkdf2(?:Sync|_hmac)?|scryptSync|hashlib\.scrypt)\b/g, detail: (m) => m[0] },
  { signal: 'jwt-unverified', keyword: 'erif', pattern: /['"]verify_signature['"]\s*:\s*False|\bjwt\.decode\([^)]*verify\s*=\s*False|ignoreExpiration\s*:\s*true/g, detail: (m) => oneLine(m[0], 80) },
  { signal: 'jwt-unverified', keyword: 'none', pattern: /\balgorithms?\s*[:=]\s*\[?\s*['"]none['"]/gi, detail: () => "algorithm 'none' accepted" },
  { signal: 'security-headers-manual', keyword: '-', pattern: /['"](?:Content-Security-Policy|Strict-Transport-Security|X-Frame-Options|X-Content-Type-Options)['"]/g, detail: (m) => m[0].replace(/['"]/g, '') },
  { signal: 'actuator-exposed', keyword: 'exposure', pattern: /management\.endpoints\.web\.exposure\.include\s*[=:]\s*['"]?\*/g, detail: () => 'all Spring Boot actuator endpoints exposed' },
]

const SECRET_KEY = /(secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|auth[_-]?token|private[_-]?key|client[_-]?secret|signing[_-]?key)([A-Za-z0-9_]*)['"]?\s*[:=]\s*['"]([^'"\s]{6,})['"]/gi
const SECRET_TRIGGER = /secret|passw|pwd|api.?key|access.?key|token|private.?key|signing.?key/i
const PLACEHOLDER = /^(?:\$\{.*\}|<.*>|%\(.*\)s|\{\{.*\}\}|x+|\*+|\.+|your[_-].*|example.*|changeit|dummy|test|none|null|undefined|string|password|secret)$/i

/** Hard-coded credentials: the name they are assigned to and where, never the value. */
function secretAssignments(text: string, starts: () => number[], into: SignalFact[]): void {
  SECRET_KEY.lastIndex = 0
  for (let match = SECRET_KEY.exec(text); match; match = SECRET_KEY.exec(text)) {
    const value = match[3] ?? ''
    if (PLACEHOLDER.test(value) || /process\.env|os\.environ|getenv/.test(value)) continue
    let begin = match.index
    while (begin > 0 && /[A-Za-z0-9_]/.test(text[begin - 1] ?? '')) begin--
    const name = `${text.slice(begin, match.index)}${match[1] ?? ''}${match[2] ?? ''}`
    // Form field labels and keys named like secrets (`password: 'Password'`) are not secrets.
    if (value.toLowerCase() === name.toLowerCase() || /^[A-Z][a-z]+(?: [A-Za-z]+)*$/.test(value)) continue
    into.push({ signal: 'hardcoded-secret', line: lineAt(starts(), match.index), detail: name })
  }
}

/** `spring.datasource.password=...`, `JWT_SECRET=...`: unquoted values in properties, YAML and dotenv files. */
const CONFIG_SECRET = /^[ \t]*(?:export[ \t]+)?([\w.-]*(?:secret|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|token|private[_-]?key)[\w.-]*)[ \t]*[=:][ \t]*['"]?([^\s'"#]{6,})['"]?[ \t]*$/gim

/** Signals of a configuration file (application.properties/yml, .env). */
export function scanConfigSignals(text: string): SignalFact[] {
  const found = scanSignals(text, false)
  const starts = lineStarts(text)
  CONFIG_SECRET.lastIndex = 0
  for (let match = CONFIG_SECRET.exec(text); match; match = CONFIG_SECRET.exec(text)) {
    const value = match[2] ?? ''
    if (PLACEHOLDER.test(value) || /^\$\{|^%|^<|^\{\{/.test(value)) continue
    found.push({ signal: 'hardcoded-secret', line: lineAt(starts, match.index), detail: match[1] ?? '' })
  }
  return found
}

export function scanSignals(text: string, secrets = true): SignalFact[] {
  const found: SignalFact[] = []
  let cached: number[] | undefined
  const starts = () => (cached ??= lineStarts(text))
  for (const entry of PATTERNS) {
    const keywords = typeof entry.keyword === 'string' ? [entry.keyword] : entry.keyword
    if (!keywords.some((keyword) => text.includes(keyword))) continue
    entry.pattern.lastIndex = 0
    for (let match = entry.pattern.exec(text); match; match = entry.pattern.exec(text)) {
      found.push({ signal: entry.signal, line: lineAt(starts(), match.index), detail: entry.detail(match) })
      if (match[0].length === 0) entry.pattern.lastIndex++
    }
  }
  if (secrets && SECRET_TRIGGER.test(text)) secretAssignments(text, starts, found)
  return found
}
