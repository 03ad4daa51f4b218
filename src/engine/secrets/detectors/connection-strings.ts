/**
 * Credentials embedded in URLs: database/broker connection strings
 * (postgres://user:pass@host, mongodb+srv://, redis://:pass@, amqp://...) and any other URL
 * with a user:password@ part (https://, ftp://, ssh://...). The password is the secret.
 */
import { isPlaceholderValue, isReferenceValue } from '../placeholders.ts'
import type { Detector } from '../types.ts'
import { PRIORITY, regexDetector, type Verdict, type VerifyInput } from './define.ts'

const DATABASE_SCHEMES =
  '(?:jdbc:)?(?:postgres(?:ql)?|mysqlx?|mariadb|mongodb|redis|rediss|amqps?|mssql|sqlserver|cockroachdb|clickhouse|neo4j|bolt|couchdb|cassandra|oracle|db2|memcached?|nats|kafka|elasticsearch|influxdb|snowflake)(?:\\+[a-z0-9]+)?'
const OTHER_SCHEMES = '(?:https?|ftps?|sftp|ssh|git|svn|smtps?|imaps?|pop3s?|ldaps?|wss?|rsync|socks5h?)'

/** scheme://user:password@host, user may be empty (redis://:pass@host). */
function credentialUrl(schemes: string): RegExp {
  return new RegExp(
    `(?<![\\w+.-])(${schemes}):\\/\\/([^\\s:@\\/'"\`<>{}]{0,128}):([^\\s@\\/'"\`<>]{1,256})@([^\\s\\/'"\`<>:?#,;@]{1,255})`,
    'gi',
  )
}

/** Hosts reserved for documentation (RFC 2606 / 6761). */
const DOCUMENTATION_HOST = /^(?:(?:[\w-]+\.)*example(?:\.(?:com|org|net))?|(?:[\w-]+\.)*(?:test|invalid|example))$/
/** Hosts of a developer machine or a docker-compose network. */
const LOCAL_HOST =
  /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?|host\.docker\.internal|db|database|postgres|postgresql|mysql|mariadb|mongo|mongodb|redis|rabbitmq|rabbit|broker|cache|memcached)$/

function verifyUrlCredentials({ match }: VerifyInput): Verdict | null {
  const user = safeDecode(match[2] ?? '')
  const password = safeDecode(match[3] ?? '')
  const host = (match[4] ?? '').toLowerCase()
  if (password.length < 3 || password === user) return null
  if (isPlaceholderValue(password, user) || isReferenceValue(password)) return null
  if (DOCUMENTATION_HOST.test(host)) return null
  if (LOCAL_HOST.test(host)) {
    return { confidence: 0.6, severity: 'medium', note: `(host "${host}" looks like a local development server)` }
  }
  return {}
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

export const connectionStringDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.database-connection-string',
    title: 'Database connection string with password',
    description: 'A database or message-broker connection string embeds its password.',
    severity: 'high',
    confidence: 0.85,
    tags: ['database', 'connection-string'],
    remediation:
      'Change the database user\'s password, remove the connection string from the code and git history, and build it at runtime from an environment variable or secret store (keep only the host and database name in config).',
    keywords: ['://'],
    priority: PRIORITY.structural,
    pattern: credentialUrl(DATABASE_SCHEMES),
    secretGroup: 3,
    skipFakeCheck: true,
    verify: verifyUrlCredentials,
  }),
  regexDetector({
    id: 'secrets.url-credentials',
    title: 'Credentials in URL',
    description: 'A URL embeds a user name and password (user:password@host); it leaks through logs, proxies and shell history as well as the code.',
    severity: 'high',
    confidence: 0.8,
    tags: ['url', 'basic-auth'],
    remediation:
      'Rotate the password or token, remove it from the URL, the code and git history, and pass credentials separately (an Authorization header or a credential helper) from a secret store.',
    keywords: ['://'],
    priority: PRIORITY.structural,
    pattern: credentialUrl(OTHER_SCHEMES),
    secretGroup: 3,
    skipFakeCheck: true,
    verify: verifyUrlCredentials,
  }),
]
