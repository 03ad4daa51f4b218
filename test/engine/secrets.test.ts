/**
 * Secrets analyzer: every detector finds its format, and look-alikes (placeholders,
 * documented example keys, environment reads, UUIDs, hashes, short or low-entropy values)
 * are left alone. Fake tokens are generated from a seeded PRNG and assembled by
 * concatenation, so this file holds no string that looks like a live credential.
 */
import { crc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { findSecrets, redact, SECRET_RULES, type SecretMatch } from '../../src/engine/secrets/index.ts'

// ---------------------------------------------------------------------------------------
// Fake token factory

const DIGITS = '0123456789'
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const ALNUM = DIGITS + UPPER + LOWER
const HEX = '0123456789abcdef'
const UPPER_ALNUM = UPPER + DIGITS
const BASE64 = ALNUM + '+/'
const BASE64URL = ALNUM + '-_'
const BASE32 = UPPER + '234567'
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'

let seed = 0x5eed
function random(): number {
  // mulberry32: deterministic, so failures are reproducible.
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}
function rand(charset: string, length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += charset[Math.floor(random() * charset.length)]
  return out
}
function base62(value: number, width: number): string {
  let out = ''
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = ALNUM[rest % 62] + out
  return out.padStart(width, '0')
}
/** 30 random base62 characters + their CRC-32 in base62, as GitHub and npm tokens carry. */
function checksummedBody(): string {
  const randomPart = rand(ALNUM, 30)
  return randomPart + base62(crc32(randomPart), 6)
}
const join = (...parts: string[]): string => parts.join('')

function base64url(value: string): string {
  return Buffer.from(value).toString('base64url')
}
function makeJwt(payload: Record<string, unknown>, alg = 'HS256'): string {
  const signature = alg === 'none' ? '' : rand(BASE64URL, 43)
  return [base64url(JSON.stringify({ alg, typ: 'JWT' })), base64url(JSON.stringify(payload)), signature].join('.')
}
function pemBlock(label: string, firstChars: string, lines = 12): string {
  const body = [firstChars + rand(BASE64, 64 - firstChars.length)]
  for (let i = 1; i < lines; i++) body.push(rand(BASE64, 64))
  return join('-----BEGIN ', label, '-----\n', body.join('\n'), '\n-----END ', label, '-----')
}
function openSshBlock(cipher: string): string {
  const header = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    Buffer.from([0, 0, 0, cipher.length]),
    Buffer.from(cipher, 'latin1'),
    Buffer.from(rand(ALNUM, 300), 'latin1'),
  ]).toString('base64')
  const lines = header.match(/.{1,70}/g) ?? []
  return join('-----BEGIN ', 'OPENSSH PRIVATE KEY', '-----\n', lines.join('\n'), '\n-----END ', 'OPENSSH PRIVATE KEY', '-----')
}

// ---------------------------------------------------------------------------------------
// Helpers

function scan(text: string, path = 'src/app/settings.py'): SecretMatch[] {
  return findSecrets(path, text)
}
function ruleIds(matches: SecretMatch[]): string[] {
  return matches.map((match) => match.ruleId)
}
/** The text a match points at (on its line). */
function pointedText(text: string, match: SecretMatch): string {
  const line = text.split(/\r?\n/)[match.line - 1] ?? ''
  return line.slice(match.columnStart - 1, match.columnEnd - 1)
}

// ---------------------------------------------------------------------------------------
// Positive cases: one or more per rule

interface Positive {
  rule: string
  secret: string
  /** the source line(s); `%s` is replaced by the secret */
  template: string
  path?: string
}

const ghp = join('gh', 'p_', checksummedBody())
const npmToken = join('np', 'm_', checksummedBody())
const awsSecret = join('h3Kd9', rand(BASE64, 30), 'Zq7Lx')
const azureAccountKey = join(rand(BASE64, 86), '==')
const uuid = (): string => [rand(HEX, 8), rand(HEX, 4), '4' + rand(HEX, 3), 'a' + rand(HEX, 3), rand(HEX, 12)].join('-')
const discordId = '112233445566778899'
const discordToken = join(Buffer.from(discordId).toString('base64').replace(/=+$/, ''), '.', rand(BASE64URL, 6), '.', rand(BASE64URL, 38))
const slackBot = join('xo', 'xb-', rand(DIGITS, 12), '-', rand(DIGITS, 13), '-', rand(ALNUM, 24))
const jwt = makeJwt({ sub: 'user-8841', iat: 1700000000, scope: 'admin' })
const privateKeyPkcs8 = pemBlock(join('PRIVATE', ' KEY'), 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC')
const gcpPem = pemBlock(join('PRIVATE', ' KEY'), 'MIIEvgIBADANBgkqhkiG9w0BAQEFAASC').replace(/\n/g, '\\n')

const POSITIVES: Positive[] = [
  { rule: 'secrets.aws-access-key-id', secret: join('AK', 'IA', rand(BASE32, 16)), template: 'aws_access_key_id = "%s"' },
  { rule: 'secrets.aws-access-key-id', secret: join('AS', 'IA', rand(BASE32, 16)), template: 'AWS_ACCESS_KEY_ID=%s', path: 'deploy/.env' },
  { rule: 'secrets.aws-secret-access-key', secret: awsSecret, template: 'aws_secret_access_key = %s', path: 'home/.aws/credentials.ini' },
  { rule: 'secrets.aws-secret-access-key', secret: awsSecret, template: '  "SecretAccessKey": "%s",', path: 'infra/creds.json' },
  {
    rule: 'secrets.gcp-service-account-key',
    secret: `${gcpPem}\\n`,
    template: '{"type": "service_account", "client_email": "ci@proj.iam.gserviceaccount.com", "private_key": "%s"}',
    path: 'infra/sa.json',
  },
  { rule: 'secrets.gcp-api-key', secret: join('AI', 'za', rand(BASE64URL, 35)), template: 'const firebaseConfig = { apiKey: "%s" }', path: 'web/firebase.js' },
  { rule: 'secrets.gcp-oauth-client-secret', secret: join('GOC', 'SPX-', rand(BASE64URL, 28)), template: 'client_secret: %s', path: 'config/oauth.yml' },
  { rule: 'secrets.google-oauth-access-token', secret: join('ya', '29.', rand(BASE64URL, 120)), template: 'headers = {"Authorization": "Bearer %s"}' },
  {
    rule: 'secrets.azure-storage-account-key',
    secret: azureAccountKey,
    template: 'var conn = "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=%s;EndpointSuffix=core.windows.net";',
    path: 'src/Storage.cs',
  },
  {
    rule: 'secrets.azure-shared-access-key',
    secret: join(rand(BASE64, 43), '='),
    template: 'Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=%s',
    path: 'config/bus.properties',
  },
  {
    rule: 'secrets.azure-sas-token',
    secret: join(rand(ALNUM, 40), '%2B', rand(ALNUM, 2), '%3D'),
    template: 'url = "https://acme.blob.core.windows.net/c/f.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig=%s"',
  },
  { rule: 'secrets.azure-ad-client-secret', secret: join(rand(ALNUM, 3), '8Q', '~', rand(BASE64URL, 34)), template: 'AZURE_CLIENT_SECRET=%s', path: '.env' },
  { rule: 'secrets.digitalocean-token', secret: join('do', 'p_v1_', rand(HEX, 64)), template: 'export DIGITALOCEAN_TOKEN=%s', path: 'scripts/deploy.sh' },
  { rule: 'secrets.heroku-api-key', secret: uuid(), template: 'HEROKU_API_KEY = "%s"' },
  { rule: 'secrets.heroku-api-key', secret: join('HR', 'KU-', uuid()), template: 'auth = "%s"' },
  { rule: 'secrets.alibaba-access-key-id', secret: join('LT', 'AI', rand(ALNUM, 16) + '7'), template: 'access_key_id = "%s"' },
  { rule: 'secrets.github-token', secret: ghp, template: 'GITHUB_TOKEN = "%s"' },
  { rule: 'secrets.github-token', secret: join('gh', 's_', checksummedBody()), template: 'git clone https://x-access-token:%s@github.com/acme/app.git', path: 'ci/clone.sh' },
  { rule: 'secrets.github-fine-grained-token', secret: join('github', '_pat_', rand(ALNUM, 22), '_', rand(ALNUM, 59)), template: 'token: %s', path: 'config/gh.yml' },
  { rule: 'secrets.gitlab-token', secret: join('gl', 'pat-', rand(BASE64URL, 20)), template: 'GITLAB_TOKEN=%s', path: '.env' },
  { rule: 'secrets.gitlab-token', secret: join('GR13', '48941', rand(BASE64URL, 20)), template: 'registration_token = "%s"' },
  { rule: 'secrets.bitbucket-token', secret: join('AT', 'BB', rand(ALNUM, 32)), template: 'BITBUCKET_APP_PASSWORD=%s', path: '.env' },
  { rule: 'secrets.atlassian-api-token', secret: join('ATA', 'TT3', rand(BASE64URL, 180), '=', rand('0123456789ABCDEF', 8)), template: 'jira_token = "%s"' },
  { rule: 'secrets.slack-token', secret: slackBot, template: 'SLACK_BOT_TOKEN = "%s"' },
  { rule: 'secrets.slack-token', secret: join('xo', 'xp-', rand(DIGITS, 11), '-', rand(DIGITS, 11), '-', rand(DIGITS, 12), '-', rand(HEX, 32)), template: 'slack.token=%s', path: 'app.properties' },
  {
    rule: 'secrets.slack-webhook-url',
    secret: join('https://hooks.', 'slack.com/services/T', rand(UPPER_ALNUM, 8), '/B', rand(UPPER_ALNUM, 10), '/', rand(ALNUM, 24)),
    template: 'webhook_url = "%s"',
  },
  { rule: 'secrets.discord-bot-token', secret: discordToken, template: 'client.login("%s")', path: 'bot/index.js' },
  {
    rule: 'secrets.discord-webhook-url',
    secret: join('https://discord.com/api/', 'webhooks/', rand(DIGITS, 18), '/', rand(BASE64URL, 68)),
    template: 'DISCORD_WEBHOOK = "%s"',
  },
  { rule: 'secrets.telegram-bot-token', secret: join(rand(DIGITS, 9), ':A', 'A', rand(BASE64URL, 33)), template: 'bot = telegram.Bot(token="%s")' },
  { rule: 'secrets.stripe-secret-key', secret: join('sk', '_live_', rand(ALNUM, 24)), template: 'stripe.api_key = "%s"' },
  { rule: 'secrets.stripe-secret-key', secret: join('rk', '_live_', rand(ALNUM, 99)), template: 'Stripe.apiKey = "%s";', path: 'src/Pay.java' },
  { rule: 'secrets.stripe-webhook-secret', secret: join('wh', 'sec_', rand(ALNUM, 32)), template: 'endpoint_secret = "%s"' },
  { rule: 'secrets.square-access-token', secret: join('sq0', 'atp-', rand(BASE64URL, 22)), template: 'SQUARE_TOKEN = "%s"' },
  { rule: 'secrets.square-access-token', secret: join('EA', 'AA', rand(BASE64URL, 60)), template: 'square_client = Client(access_token="%s")' },
  { rule: 'secrets.square-oauth-secret', secret: join('sq0', 'csp-', rand(BASE64URL, 43)), template: 'SQUARE_APP_SECRET = "%s"' },
  { rule: 'secrets.braintree-access-token', secret: join('access_token', '$production$', rand('abcdefghijklmnopqrstuvwxyz0123456789', 16), '$', rand(HEX, 32)), template: 'gateway = braintree.BraintreeGateway(access_token="%s")' },
  { rule: 'secrets.sendgrid-api-key', secret: join('S', 'G.', rand(BASE64URL, 22), '.', rand(BASE64URL, 43)), template: "sg = SendGridAPIClient('%s')" },
  { rule: 'secrets.mailgun-api-key', secret: join('ke', 'y-', rand(HEX, 32)), template: 'auth=("api", "%s")  # mailgun' },
  { rule: 'secrets.mailgun-api-key', secret: join(rand(HEX, 32), '-', rand(HEX, 8), '-', rand(HEX, 8)), template: 'MAILGUN_API_KEY=%s', path: '.env' },
  { rule: 'secrets.mailchimp-api-key', secret: join(rand(HEX, 32), '-u', 's21'), template: "$client->setConfig(['apiKey' => '%s']);", path: 'src/News.php' },
  { rule: 'secrets.postmark-server-token', secret: uuid(), template: 'POSTMARK_SERVER_TOKEN = "%s"' },
  { rule: 'secrets.postmark-server-token', secret: uuid(), template: 'req.Header.Set("X-Postmark-Server-Token", "%s")', path: 'mail/send.go' },
  { rule: 'secrets.age-secret-key', secret: join('AGE-SECRET', '-KEY-1', rand(BECH32, 58)), template: '# %s', path: 'keys/backup.txt' },
  { rule: 'secrets.npm-token', secret: npmToken, template: '//registry.npmjs.org/:_authToken=%s', path: '.npmrc' },
  { rule: 'secrets.npm-token', secret: uuid(), template: '//registry.npmjs.org/:_authToken=%s', path: '.npmrc' },
  { rule: 'secrets.pypi-token', secret: join('py', 'pi-AgEIcHlwaS5vcmc', rand(BASE64URL, 150)), template: 'password = %s', path: '.pypirc' },
  { rule: 'secrets.jwt', secret: jwt, template: 'ADMIN_SESSION = "%s"' },
  { rule: 'secrets.twilio-api-key', secret: join('S', 'K', rand(HEX, 32)), template: 'client = Client("%s", api_secret, account_sid)  # twilio' },
  { rule: 'secrets.twilio-auth-token', secret: rand(HEX, 32), template: 'TWILIO_AUTH_TOKEN = "%s"' },
  { rule: 'secrets.shopify-token', secret: join('shp', 'at_', rand(HEX, 32)), template: 'X-Shopify-Access-Token: %s', path: 'http/shop.http' },
  { rule: 'secrets.openai-api-key', secret: join('sk', '-proj-', rand(BASE64URL, 74), 'T3Blbk', 'FJ', rand(BASE64URL, 74)), template: 'openai.api_key = "%s"' },
  { rule: 'secrets.openai-api-key', secret: join('sk', '-', rand(ALNUM, 20), 'T3Blbk', 'FJ', rand(ALNUM, 20)), template: 'OPENAI_API_KEY=%s', path: '.env' },
  { rule: 'secrets.anthropic-api-key', secret: join('sk', '-ant-api03-', rand(BASE64URL, 93), 'AA'), template: 'client = anthropic.Anthropic(api_key="%s")' },
  { rule: 'secrets.vault-token', secret: join('hv', 's.', rand(BASE64URL, 90)), template: 'VAULT_TOKEN=%s', path: 'ci/env.sh' },
  { rule: 'secrets.terraform-cloud-token', secret: join(rand(ALNUM, 14), '.atlas', 'v1.', rand(BASE64URL, 67)), template: 'token = "%s"', path: 'infra/credentials.tfrc' },
  { rule: 'secrets.doppler-token', secret: join('dp', '.st.', 'prd.', rand(ALNUM, 40)), template: 'DOPPLER_TOKEN=%s', path: '.env' },
  { rule: 'secrets.dynatrace-token', secret: join('dt0', 'c01.', rand(UPPER_ALNUM, 24), '.', rand(UPPER_ALNUM, 64)), template: 'api_token: "%s"', path: 'monitoring.yml' },
  { rule: 'secrets.new-relic-key', secret: join('NR', 'AK-', rand(UPPER_ALNUM, 27)), template: 'NEW_RELIC_API_KEY = "%s"' },
  { rule: 'secrets.new-relic-key', secret: join(rand(HEX, 36), 'NR', 'AL'), template: "license_key: '%s'", path: 'newrelic.yml' },
  { rule: 'secrets.huggingface-token', secret: join('h', 'f_', rand(UPPER + LOWER, 34)), template: 'login(token="%s")' },
  { rule: 'secrets.databricks-token', secret: join('da', 'pi', rand(HEX, 32)), template: 'DATABRICKS_TOKEN = "%s"' },
  { rule: 'secrets.postman-api-key', secret: join('PM', 'AK-', rand(HEX, 24), '-', rand(HEX, 34)), template: 'postman_api_key = "%s"' },
  { rule: 'secrets.docker-hub-token', secret: join('dckr', '_pat_', rand(BASE64URL, 27)), template: 'echo %s | docker login -u acme --password-stdin', path: 'ci/push.sh' },
  { rule: 'secrets.pulumi-token', secret: join('pu', 'l-', rand(HEX, 40)), template: 'PULUMI_ACCESS_TOKEN=%s', path: '.env' },
  { rule: 'secrets.rubygems-api-key', secret: join('rubygems', '_', rand(HEX, 48)), template: ':rubygems_api_key: %s', path: 'home/.gem/credentials.yml' },
  { rule: 'secrets.grafana-token', secret: join('gl', 'sa_', rand(ALNUM, 32), '_', rand(HEX, 8)), template: 'GRAFANA_TOKEN = "%s"' },
  { rule: 'secrets.linear-api-key', secret: join('lin', '_api_', rand(ALNUM, 40)), template: 'const linear = new LinearClient({ apiKey: "%s" })', path: 'src/linear.ts' },
  { rule: 'secrets.planetscale-token', secret: join('pscale', '_pw_', rand(BASE64URL, 43)), template: 'DATABASE_PASSWORD=%s', path: '.env' },
  { rule: 'secrets.supabase-access-token', secret: join('sb', 'p_', rand(HEX, 40)), template: 'SUPABASE_ACCESS_TOKEN=%s', path: '.env' },
  { rule: 'secrets.database-connection-string', secret: 'Xk9pLm2QrTz', template: 'DATABASE_URL = "postgres://app_user:%s@db.prod.acme.io:5432/app"' },
  { rule: 'secrets.database-connection-string', secret: 'uV7x2Pq9Lm', template: 'const uri = "mongodb+srv://svc:%s@cluster0.ab1cd.mongodb.net/prod?retryWrites=true"', path: 'src/db.ts' },
  { rule: 'secrets.database-connection-string', secret: 'r3d1sPassw0rdZ', template: 'REDIS_URL=redis://:%s@cache.acme.io:6379/0', path: '.env' },
  { rule: 'secrets.database-connection-string', secret: 'Mq8wTz4Kp', template: 'engine = create_engine("mysql+pymysql://reporting:%s@10.1.2.3/reports")' },
  { rule: 'secrets.url-credentials', secret: 'Tr0ub4dor-x9', template: 'curl https://deploy:%s@artifacts.acme.io/releases/app.tgz', path: 'scripts/fetch.sh' },
  { rule: 'secrets.generic-high-entropy', secret: 'q8Zr3Lm5Xv1Tb7Nk2Wp9Hs4Jd6Fg0Ya', template: 'const apiKey: string = "%s"', path: 'src/client.ts' },
  { rule: 'secrets.generic-high-entropy', secret: rand(HEX, 32), template: 'client_secret = "%s"' },
  { rule: 'secrets.generic-high-entropy', secret: 'x7Kp2Qm9Rt4Lw8Zn3Vb6', template: 'api:\n  secret_key: %s', path: 'config/app.yaml' },
  { rule: 'secrets.generic-high-entropy', secret: 'c2hhcmVkLXNlY3JldC12YWx1ZTox', template: 'token := "%s"', path: 'cmd/main.go' },
  { rule: 'secrets.generic-high-entropy', secret: 'Zp4Rk8Wq2Nv6Ty1Lm5Xs', template: '<add key="ApiKey" value="%s" />', path: 'Web.config' },
  { rule: 'secrets.generic-high-entropy', secret: 'Hq3Zx8Lp1Wm6Rv9Tk2Nd', template: '<clientSecret>%s</clientSecret>', path: 'config/auth.xml' },
  { rule: 'secrets.generic-high-entropy', secret: 'Jx4Ta9Lq2Vz7Pw1Mk5Rb', template: "define('AUTH_KEY', '%s');", path: 'wp-config.php' },
  { rule: 'secrets.generic-high-entropy', secret: 'Rt5Wq8Lx2Zk7Mp3Vn9Hb', template: 'headers: { Authorization: "Bearer %s" }', path: 'src/api.js' },
  { rule: 'secrets.hardcoded-password', secret: 'Summer2024!', template: 'DB_PASSWORD = "%s"' },
  { rule: 'secrets.hardcoded-password', secret: 'S3cr3tPa55!', template: 'DB_PASSWORD=%s', path: '.env' },
  { rule: 'secrets.hardcoded-password', secret: 'Pa55w0rd!x', template: 'var cs = "Server=sql01;Database=app;User Id=sa;Password=%s;";', path: 'src/Db.cs' },
  { rule: 'secrets.hardcoded-password', secret: 'hunter2-prod', template: 'spring.datasource.password=%s', path: 'src/main/resources/application.properties' },
  { rule: 'secrets.hardcoded-password', secret: 'n0tS0s3cret', template: 'if password == "%s":' },
  { rule: 'secrets.hardcoded-password', secret: 'Gh7!kLp2', template: 'machine ftp.acme.io login deploy password %s', path: 'home/.netrc' },
  { rule: 'secrets.hardcoded-password', secret: 'Winter#2023', template: "    'password' => '%s',", path: 'config/database.php' },
]

describe('secrets: provider and generic detectors find their formats', () => {
  for (const { rule, secret, template, path } of POSITIVES) {
    it(`${rule} in ${path ?? 'settings.py'}: ${template.replace('%s', redact(secret))}`, () => {
      const text = template.replace('%s', secret)
      const matches = scan(text, path)
      const match = matches.find((m) => m.ruleId === rule)
      expect(match, `rules found: ${ruleIds(matches).join(', ') || 'none'}`).toBeDefined()
      expect(match?.secret).toBe(secret)
      if (match) expect(pointedText(text, match)).toBe(secret)
      // One secret, one finding: the most specific detector wins an overlap.
      expect(matches.filter((m) => m.secret === secret)).toHaveLength(1)
    })
  }

  it('has a positive case for every rule the analyzer reports', () => {
    const covered = new Set(POSITIVES.map((p) => p.rule))
    covered.add('secrets.private-key') // multi-line: tested below
    const missing = SECRET_RULES.map((r) => r.id).filter((id) => !covered.has(id))
    expect(missing).toEqual([])
  })

  it('reports every rule with the documented metadata', () => {
    const ids = SECRET_RULES.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const rule of SECRET_RULES) {
      expect(rule.id).toMatch(/^secrets\.[a-z0-9-]+$/)
      expect(rule.cwe).toContain(rule.id === 'secrets.hardcoded-password' ? 'CWE-259' : 'CWE-798')
      expect(rule.remediation.length).toBeGreaterThan(40)
      expect(rule.title.length).toBeGreaterThan(3)
    }
  })
})

describe('secrets: severities and confidence reflect specificity', () => {
  it('rates live cloud and payment keys critical, tokens high, generic medium', () => {
    const severityOf = (rule: string): string | undefined => {
      const positive = POSITIVES.find((p) => p.rule === rule)
      if (!positive) return undefined
      return scan(positive.template.replace('%s', positive.secret), positive.path).find((m) => m.ruleId === rule)?.severity
    }
    expect(severityOf('secrets.aws-secret-access-key')).toBe('critical')
    expect(severityOf('secrets.stripe-secret-key')).toBe('critical')
    expect(severityOf('secrets.github-token')).toBe('high')
    expect(severityOf('secrets.slack-token')).toBe('high')
    expect(severityOf('secrets.generic-high-entropy')).toBe('medium')
    expect(severityOf('secrets.hardcoded-password')).toBe('medium')
  })

  it('gives a checksum-verified GitHub token 0.95+ and a bad checksum less', () => {
    const good = scan(`token = "${ghp}"`)[0]
    const tampered = ghp.slice(0, -1) + (ghp.endsWith('A') ? 'B' : 'A')
    const bad = scan(`token = "${tampered}"`)[0]
    expect(good?.confidence).toBeGreaterThanOrEqual(0.95)
    expect(good?.tags).toContain('checksum-verified')
    expect(bad?.ruleId).toBe('secrets.github-token')
    expect(bad?.confidence).toBeLessThan(0.9)
  })

  it('verifies npm token checksums the same way', () => {
    expect(scan(`NPM_TOKEN=${npmToken}`, '.env')[0]?.confidence).toBeGreaterThanOrEqual(0.95)
  })

  it('keeps generic entropy matches between 0.5 and 0.7', () => {
    for (const positive of POSITIVES.filter((p) => p.rule.startsWith('secrets.generic') || p.rule === 'secrets.hardcoded-password')) {
      for (const match of scan(positive.template.replace('%s', positive.secret), positive.path)) {
        expect(match.confidence).toBeGreaterThanOrEqual(0.5)
        expect(match.confidence).toBeLessThanOrEqual(0.7)
      }
    }
  })

  it('downgrades Stripe test keys and temporary AWS keys', () => {
    const testKey = scan(`stripe.api_key = "${join('sk', '_test_', rand(ALNUM, 24))}"`)[0]
    expect(testKey?.ruleId).toBe('secrets.stripe-secret-key')
    expect(testKey?.severity).toBe('low')
    expect(scan(`key = "${join('AS', 'IA', rand(BASE32, 16))}"`)[0]?.severity).toBe('high')
  })

  it('flags Supabase service-role JWTs as critical and unsigned JWTs as medium', () => {
    const serviceRole = makeJwt({ iss: 'supabase', role: 'service_role', ref: 'abcd' })
    expect(scan(`SUPABASE_KEY = "${serviceRole}"`)[0]?.severity).toBe('critical')
    const unsigned = makeJwt({ sub: 'u-1', admin: true }, 'none')
    const match = scan(`session = "${unsigned}"`)[0]
    expect(match?.ruleId).toBe('secrets.jwt')
    expect(match?.severity).toBe('medium')
  })
})

describe('secrets: private keys', () => {
  it('reports a PEM block on its BEGIN line and keeps the whole block as the secret', () => {
    const text = `import ssl\n\nKEY = """${privateKeyPkcs8}"""\nprint(KEY)\n`
    const matches = scan(text)
    expect(ruleIds(matches)).toEqual(['secrets.private-key'])
    const [match] = matches
    expect(match?.line).toBe(3)
    expect(match?.severity).toBe('critical')
    expect(match?.confidence).toBeGreaterThanOrEqual(0.95)
    expect(match?.secret).toBe(privateKeyPkcs8)
    expect(match?.secret).toContain('-----END ')
    expect(pointedText(text, match as SecretMatch)).toBe(join('-----BEGIN ', 'PRIVATE', ' KEY-----'))
  })

  it('finds RSA, EC, DSA and PGP blocks', () => {
    for (const [label, start] of [
      ['RSA PRIVATE KEY', 'MIIEowIBAAKCAQEA'],
      ['EC PRIVATE KEY', 'MHcCAQEEI'],
      ['DSA PRIVATE KEY', 'MIIBuwIBAAKBgQ'],
      ['PGP PRIVATE KEY BLOCK', 'lQdGBF'],
    ] as const) {
      const block = pemBlock(label, start, 6)
      const withArmorHeader = label.startsWith('PGP') ? block.replace('-----\n', '-----\nVersion: GnuPG v2\n\n') : block
      const matches = scan(`key: |\n  ${withArmorHeader.replace(/\n/g, '\n  ')}\n`, 'deploy/keys.yml')
      expect(ruleIds(matches), label).toEqual(['secrets.private-key'])
      expect(matches[0]?.line).toBe(2)
    }
  })

  it('reads whether an OpenSSH key is passphrase-protected', () => {
    const plain = scan(`id_ed25519 = """${openSshBlock('none')}"""`)[0]
    expect(plain?.severity).toBe('critical')
    expect(plain?.confidence).toBeGreaterThanOrEqual(0.95)
    const encrypted = scan(`id_ed25519 = """${openSshBlock('aes256-ctr')}"""`)[0]
    expect(encrypted?.ruleId).toBe('secrets.private-key')
    expect(encrypted?.severity).toBe('high')
    expect(encrypted?.description).toContain('passphrase-protected')
  })

  it('handles an escaped single-line key inside a JSON or JS string', () => {
    const escaped = privateKeyPkcs8.replace(/\n/g, '\\n')
    const text = `const key = "${escaped}";`
    const [match] = scan(text, 'src/sign.js')
    expect(match?.ruleId).toBe('secrets.private-key')
    expect(match?.columnStart).toBe(14)
    expect(match?.columnEnd).toBe(14 + escaped.length)
  })

  it('handles a key concatenated across source lines', () => {
    const lines = privateKeyPkcs8.split('\n')
    const text = `String key =\n${lines.map((l) => `    "${l}\\n"`).join(' +\n')};`
    const [match] = scan(text, 'src/Keys.java')
    expect(match?.ruleId).toBe('secrets.private-key')
    expect(match?.line).toBe(2)
  })

  it('prefers the GCP service-account rule over the generic private-key rule for key files', () => {
    const text = `{"type": "service_account", "private_key": "${gcpPem}\\n", "client_email": "a@b.iam.gserviceaccount.com"}`
    expect(ruleIds(scan(text, 'sa.json'))).toEqual(['secrets.gcp-service-account-key'])
  })

  it('ignores placeholder blocks and public keys', () => {
    const begin = join('-----BEGIN ', 'RSA PRIVATE', ' KEY-----')
    const end = join('-----END ', 'RSA PRIVATE', ' KEY-----')
    expect(scan(`KEY = """${begin}\n...\n${end}"""`)).toEqual([])
    expect(scan(`KEY = """${begin}\n<your private key here>\n${end}"""`)).toEqual([])
    expect(scan(`KEY = """${begin}\nMIIEowIBAAKCAQEAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n${end}"""`)).toEqual([])
    const publicKey = pemBlock('PUBLIC KEY', 'MIIBIjANBgkqhkiG9w0BAQEFAAOC', 6)
    expect(scan(`PUB = """${publicKey}"""`)).toEqual([])
    expect(scan('if line.startswith("-----BEGIN RSA PRIVATE KEY-----"):')).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------
// Look-alikes that must not be reported

/** Without `rule`, nothing at all may be reported; with it, that rule must stay silent. */
const NEGATIVES: Array<{ why: string; text: string; path?: string; rule?: string }> = [
  { why: 'AWS documented example key id', text: 'aws_access_key_id = AKIAIOSFODNN7EXAMPLE', path: 'config.ini' },
  { why: 'AWS documented example secret', text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', path: 'config.ini' },
  { why: 'masked AWS key id', text: `key = "${join('AK', 'IA', 'XXXXXXXXXXXXXXXX')}"` },
  { why: 'AWS role id is not a credential', text: `role_id = "${join('AR', 'OA', rand(BASE32, 16))}"` },
  { why: 'placeholder in angle brackets', text: 'GITHUB_TOKEN=<your-github-token>', path: '.env' },
  { why: 'shell variable', text: 'export API_KEY=${API_KEY}', path: 'run.sh' },
  { why: 'template variable', text: 'password: "{{ vault_db_password }}"', path: 'group_vars/all.yml' },
  { why: 'format string', text: 'password = "%s" % get_password()' },
  { why: 'ERB', text: 'password: <%= ENV["DB_PASSWORD"] %>', path: 'config/database.yml' },
  { why: 'GitHub Actions expression', text: '  token: ${{ secrets.GITHUB_TOKEN }}', path: '.github/workflows/ci.yml' },
  { why: 'xxx placeholder', text: 'api_key = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"' },
  { why: 'changeme', text: 'DB_PASSWORD=changeme', path: '.env' },
  { why: 'example word', text: 'secret_key = "example-secret-key-for-docs-1234"' },
  { why: 'dummy word', text: 'token = "dummy_token_value_0000"' },
  { why: 'fake word', text: 'STRIPE_KEY = "sk_live_fake0000000000000000000000"' },
  { why: 'redacted', text: 'password: "[REDACTED]"', path: 'log.yml' },
  { why: 'mask', text: 'password = "********"' },
  { why: 'repeated characters', text: 'secret = "aaaaaaaaaaaaaaaaaaaaaaaa"' },
  { why: 'sequential characters', text: 'api_key = "abcdefghijklmnopqrstuvwxyz012345"' },
  { why: 'sequential digits', text: 'password = "1234567890"' },
  { why: 'process.env read', text: 'const apiKey = process.env.API_KEY', path: 'src/a.js' },
  { why: 'os.environ read', text: 'SECRET_KEY = os.environ["SECRET_KEY"]' },
  { why: 'getenv with empty default', text: 'token = os.getenv("TOKEN", "")' },
  { why: 'Java getenv', text: 'String password = System.getenv("DB_PASSWORD");', path: 'src/Db.java' },
  { why: 'variable, not literal', text: 'password = user_supplied_password' },
  { why: 'function call', text: 'api_key = load_key_from_vault()' },
  { why: 'secret manager reference', text: 'password: "arn:aws:secretsmanager:us-east-1:123456789012:secret:db-AbCdEf"', path: 'task.yml' },
  { why: '1Password reference', text: 'DB_PASSWORD=op://vault/db/password', path: '.env' },
  { why: 'UUID under a token name', text: 'request_token = "3f2b8c1e-9d4a-4e7b-8a6c-2d1e0f9b7c5a"' },
  { why: 'password hash', text: 'password_hash = "$2b$12$KIXQJb3bW5m3x1Y8Z0wK9uN7v6t5r4q3p2o1n0m9l8k7j6i5h4g3f"' },
  { why: 'bcrypt value under password', text: 'password = "$2b$12$KIXQJb3bW5m3x1Y8Z0wK9uN7v6t5r4q3p2o1n0m9l8k7j6i5h4g3f"' },
  { why: 'short value', text: 'token = "abc123"' },
  { why: 'low-entropy words', text: 'secret = "my-application-secret"' },
  { why: 'field name', text: 'PASSWORD_FIELD = "password"' },
  { why: 'i18n label', text: 'password: "Mot de passe"', path: 'config/app.yml' },
  { why: 'locale catalog', text: 'password: "Passwort123"', path: 'config/locales/de.yml' },
  { why: 'token endpoint URL', text: 'token_url = "https://oauth2.googleapis.com/token"' },
  { why: 'path to key file', text: 'private_key = "certs/server.key"' },
  { why: 'absolute path', text: 'SECRET_FILE=/run/secrets/db_password', path: '.env' },
  { why: 'env var name as value', text: 'token_env = "GITHUB_TOKEN"' },
  { why: 'public key name', text: 'public_key = "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"' },
  { why: 'publishable Stripe key', text: `STRIPE_PUBLISHABLE_KEY = "${join('pk', '_live_', rand(ALNUM, 24))}"` },
  { why: 'pagination token', text: 'next_page_token = "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA0bXc"' },
  { why: 'git SHA on a commit line', text: 'commit_token = "9fceb02d0ae598e95dc970b74767f19372d61af8"  # commit sha' },
  { why: 'SRI integrity hash', text: '<script src="app.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>', path: 'public/index.html' },
  { why: 'lockfile integrity', text: '      "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXGGN6EF4e6mFtP6DJhbEvA6eR4hw==",', path: 'package-lock.json' },
  { why: 'yarn lock checksum', text: '  checksum: 8c1f2e3d4b5a69788796a5b4c3d2e1f0aabbccddeeff00112233445566778899aabbccddeeff0011223344', path: 'yarn.lock' },
  { why: 'go.sum hash', text: 'github.com/acme/lib v1.2.3 h1:Xk9pLm2QrT4u7Wv0yZ3bC6dF9gJ2kM5nQ8rS1tV4wX0=', path: 'go.sum' },
  { why: 'jwt.io sample token', text: `token = "${['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'].join('.')}"` },
  { why: 'Supabase anon key is public', text: `SUPABASE_ANON_KEY = "${makeJwt({ iss: 'supabase', role: 'anon', ref: 'x' })}"` },
  { why: 'eyJ string that is not a JWT', text: `blob = "${join('eyJ', rand(ALNUM, 30), '.eyJ', rand(ALNUM, 30), '.', rand(ALNUM, 30))}"` },
  { why: 'Discord-like string without a snowflake', text: `x = "${join('MZ', rand(ALNUM, 22), '.', rand(ALNUM, 6), '.', rand(ALNUM, 30))}"` },
  { why: 'Square-like EAAA token without Square context', text: `fb_token = "${join('EA', 'AA', rand(BASE64URL, 60))}"`, path: 'src/meta.py', rule: 'secrets.square-access-token' },
  { why: 'connection string with placeholder password', text: 'DATABASE_URL=postgres://user:password@localhost:5432/app', path: '.env' },
  { why: 'connection string with variable password', text: 'url = f"postgresql://{user}:{password}@{host}/db"' },
  { why: 'connection string with env interpolation', text: 'DATABASE_URL: postgres://app:${DB_PASSWORD}@db:5432/app', path: 'docker-compose.yml' },
  { why: 'local default credentials', text: 'AMQP_URL=amqp://guest:guest@localhost:5672/', path: '.env' },
  { why: 'user equals password on local host', text: 'postgres://postgres:postgres@localhost/test' },
  { why: 'documentation host', text: 'see https://alice:s3cr3tpw@example.com/path for the syntax' },
  { why: 'URL without password', text: 'git clone https://github.com/acme/app.git' },
  { why: 'Braintree sandbox token', text: `token = "${join('access_token', '$sandbox$', rand('abcdefghijklmnopqrstuvwxyz0123456789', 16), '$', rand(HEX, 32))}"`, rule: 'secrets.braintree-access-token' },
  { why: 'short GitHub-like prefix', text: 'prefix = "ghp_abc"' },
  { why: 'tokenizer config, not a token', text: 'pad_token = "<pad>"\neos_token = "</s>"\ntokenizer = "bert-base-uncased"' },
  { why: 'primary key column', text: 'primary_key = "id_user_account_2024_x9"' },
  { why: 'Go struct tag', text: 'Password string `json:"password,omitempty" yaml:"password"`', path: 'model.go' },
  { why: 'HTML password input', text: '<input type="password" name="password" placeholder="Password">', path: 'login.html' },
  { why: 'YAML alias', text: 'password: *default_password', path: 'config.yml' },
  { why: 'hex colour', text: 'token_color = "#a1b2c3"' },
  { why: 'version string', text: 'auth_version = "2.14.1-beta.3"' },
]

describe('secrets: look-alikes are not reported', () => {
  for (const { why, text, path, rule } of NEGATIVES) {
    it(why, () => {
      const matches = scan(text, path).filter((m) => rule === undefined || m.ruleId === rule)
      expect(matches.map((m) => `${m.ruleId}: ${redact(m.secret)}`)).toEqual([])
    })
  }
})

// ---------------------------------------------------------------------------------------
// Path policy

describe('secrets: test, fixture, example and lockfile paths', () => {
  const genericLine = 'client_secret = "q8Zr3Lm5Xv1Tb7Nk2Wp9Hs4Jd6Fg0Ya"'
  const tokenLine = `GITHUB_TOKEN = "${ghp}"`

  it('skips generic matches in tests, fixtures, examples and templates', () => {
    expect(scan(genericLine, 'src/config.py')).toHaveLength(1)
    for (const path of [
      'tests/test_client.py',
      'test/unit/client.py',
      'src/__tests__/client.test.ts',
      'spec/models/user_spec.rb',
      'fixtures/secrets.py',
      'examples/quickstart.py',
      'pkg/client/client_test.go',
      'src/test/java/acme/ClientTest.java',
      '.env.example',
      'config/settings.sample',
    ]) {
      expect(scan(genericLine, path), path).toEqual([])
    }
  })

  it('still reports real provider formats in tests, with lower confidence and a test-path tag', () => {
    const inSource = scan(tokenLine, 'src/config.py')[0]
    const inTest = scan(tokenLine, 'tests/test_client.py')[0]
    expect(inTest?.ruleId).toBe('secrets.github-token')
    expect(inTest?.tags).toContain('test-path')
    expect(inTest?.confidence).toBeLessThan(inSource?.confidence ?? 0)
  })

  it('skips JWTs in tests (fabricated test tokens are routine there)', () => {
    expect(scan(`TOKEN = "${jwt}"`, 'tests/test_auth.py')).toEqual([])
  })

  it('skips generic assignments in lockfiles but keeps provider tokens there', () => {
    expect(scan('  "password": "Summer2024!x"', 'package-lock.json')).toEqual([])
    const resolved = `  resolved "https://ci:${npmToken}@registry.acme.io/pkg/-/pkg-1.0.0.tgz"`
    expect(ruleIds(scan(resolved, 'yarn.lock'))).toEqual(['secrets.npm-token'])
  })

  it('lowers generic confidence in documentation', () => {
    const inCode = scan(genericLine, 'src/config.py')[0]
    const inDocs = scan(genericLine, 'README.md')[0]
    expect(inDocs?.confidence).toBeLessThan(inCode?.confidence ?? 0)
  })
})

// ---------------------------------------------------------------------------------------
// Positions

describe('secrets: positions', () => {
  it('reports 1-based line and columns with an exclusive end, across CRLF line breaks', () => {
    const secret = join('sk', '_live_', rand(ALNUM, 24))
    const text = `# payments\r\n\r\nSTRIPE = {"key": "${secret}"}\r\n`
    const [match] = scan(text)
    expect(match?.line).toBe(3)
    expect(match?.columnStart).toBe(19)
    expect(match?.columnEnd).toBe(19 + secret.length)
    expect(pointedText(text, match as SecretMatch)).toBe(secret)
  })

  it('reports several secrets on one line in order', () => {
    const key = join('AK', 'IA', rand(BASE32, 16))
    const token = join('xo', 'xb-', rand(DIGITS, 12), '-', rand(DIGITS, 12), '-', rand(ALNUM, 24))
    const matches = scan(`creds = ["${key}", "${token}"]`)
    expect(ruleIds(matches)).toEqual(['secrets.aws-access-key-id', 'secrets.slack-token'])
    expect(matches[0]?.columnStart).toBeLessThan(matches[1]?.columnStart ?? 0)
  })

  it('returns nothing for empty or secret-free text', () => {
    expect(scan('')).toEqual([])
    expect(scan('def add(a, b):\n    return a + b\n')).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------
// Redaction

describe('secrets: redact', () => {
  it('keeps at most 4 leading characters and a bounded run of stars', () => {
    expect(redact(ghp)).toBe(`ghp_${'*'.repeat(12)}`)
    expect(redact(privateKeyPkcs8)).toBe(`----${'*'.repeat(12)}`)
    expect(redact('abcdefghijklmnop')).toBe('abc' + '*'.repeat(12))
    expect(redact('abcdefghij')).toBe('ab' + '*'.repeat(8))
  })

  it('shows nothing of secrets shorter than 8 and hides their length', () => {
    expect(redact('hunter2')).toBe('********')
    expect(redact('abc')).toBe('********')
    expect(redact('')).toBe('********')
  })

  it('never contains the secret or more than 16 characters', () => {
    for (const positive of POSITIVES) {
      const masked = redact(positive.secret)
      expect(masked.length).toBeLessThanOrEqual(16)
      expect(masked).not.toContain(positive.secret.slice(4, 10))
    }
  })

  it('does not split surrogate pairs', () => {
    expect(redact('🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑')).toBe(`🔑🔑🔑🔑${'*'.repeat(12)}`)
  })
})

// ---------------------------------------------------------------------------------------
// Performance: linear time, no catastrophic backtracking

describe('secrets: performance', () => {
  it('scans 100k lines of ordinary code quickly', () => {
    const block = [
      'import os',
      'def handler(event, context):',
      '    token = event["headers"].get("Authorization", "")',
      '    key = cache_key(event["path"], token)',
      '    password = os.environ["DB_PASSWORD"]',
      '    url = f"https://api.acme.io/v1/items/{key}?page_token={event.get(\'next\')}"',
      '    return {"statusCode": 200, "body": json.dumps({"ok": True, "id": "3f2b8c1e-9d4a-4e7b-8a6c-2d1e0f9b7c5a"})}',
      '# sha256: 9fceb02d0ae598e95dc970b74767f19372d61af89fceb02d0ae598e95dc970b7',
      '',
      '',
    ].join('\n')
    const text = Array.from({ length: 10_000 }, () => block).join('\n')
    const started = performance.now()
    const matches = scan(text, 'src/handlers/big.py')
    const elapsed = performance.now() - started
    expect(matches).toEqual([])
    expect(elapsed).toBeLessThan(5_000)
  })

  it('stays fast on adversarial input', () => {
    const inputs = [
      'A'.repeat(200_000),
      'AKIA'.repeat(50_000),
      'eyJ'.repeat(60_000) + '.',
      'eyJ' + 'a'.repeat(100_000) + '.eyJ' + 'b'.repeat(100_000),
      'sk-' + 'a'.repeat(200_000),
      'password = ' + '"'.repeat(100_000),
      'token: ' + 'x'.repeat(200_000),
      `${join('-----BEGIN ', 'PRIVATE', ' KEY-----')}\n`.repeat(2_000),
      'postgres://' + 'a:'.repeat(50_000) + '@',
      'key=key=key='.repeat(30_000),
      'M' + 'a'.repeat(30) + '.'.repeat(100_000),
      'x-api-key-'.repeat(40_000),
    ]
    for (const input of inputs) {
      const started = performance.now()
      scan(input, 'src/x.ts')
      expect(performance.now() - started, input.slice(0, 20)).toBeLessThan(1_500)
    }
  })
})
