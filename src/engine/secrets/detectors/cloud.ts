/**
 * Cloud provider credentials: AWS, Google Cloud, Azure, DigitalOcean, Heroku, Alibaba Cloud.
 */
import { charClasses, shannonEntropy } from '../entropy.ts'
import type { Detector } from '../types.ts'
import { validatePemBody } from './pem.ts'
import { assignedTo, CWE_HARDCODED_CREDENTIALS, CWE_HARDCODED_CRYPTO_KEY, PRIORITY, regexDetector, rotateAdvice, UUID_PATTERN } from './define.ts'

export const cloudDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.aws-access-key-id',
    title: 'AWS access key ID',
    description: 'An AWS access key ID (AKIA/ASIA...) is hard-coded; it is half of a credential pair that signs AWS API requests.',
    severity: 'critical',
    confidence: 0.9,
    tags: ['aws', 'cloud'],
    remediation: rotateAdvice('in AWS IAM (deactivate and delete the access key)'),
    keywords: ['AKIA', 'ASIA', 'ABIA', 'ACCA'],
    // AWS key IDs use the base32 alphabet after the 4-letter type prefix.
    pattern: /(?<![A-Za-z0-9])((?:AKIA|ASIA|ABIA|ACCA)(?<body>[A-Z2-7]{16}))(?![A-Za-z0-9])/g,
    verify: ({ secret }) =>
      secret.startsWith('ASIA')
        ? { severity: 'high', note: 'ASIA keys are temporary STS credentials.' }
        : {},
  }),
  regexDetector({
    id: 'secrets.aws-secret-access-key',
    title: 'AWS secret access key',
    description: 'An AWS secret access key is hard-coded; with its key ID it grants the permissions of the IAM user or role.',
    severity: 'critical',
    confidence: 0.85,
    tags: ['aws', 'cloud'],
    remediation: rotateAdvice('in AWS IAM (deactivate and delete the access key)'),
    keywords: ['secret'],
    keywordsIgnoreCase: true,
    pattern: new RegExp(
      `${assignedTo('aws[\\w.-]{0,20}?secret|secret[_.-]?access[_.-]?key', 20)}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      'gi',
    ),
    verify: ({ secret }) => {
      const classes = charClasses(secret)
      if (!classes.lower || !classes.upper || !classes.digit) return null
      return shannonEntropy(secret) >= 4.0 ? {} : null
    },
  }),
  regexDetector({
    id: 'secrets.gcp-service-account-key',
    title: 'Google Cloud service account key',
    description: 'The private key of a Google Cloud service account (JSON key file) is embedded in the code.',
    severity: 'critical',
    confidence: 0.95,
    cwe: [CWE_HARDCODED_CREDENTIALS, CWE_HARDCODED_CRYPTO_KEY],
    tags: ['gcp', 'cloud', 'private-key'],
    remediation: rotateAdvice('in Google Cloud IAM (delete the service account key)'),
    keywords: ['private_key'],
    priority: PRIORITY.specific,
    pattern:
      /(["'])private_key\1[ \t]*:[ \t]*(["'])(-----BEGIN (?:RSA )?PRIVATE KEY-----(?:\\n|\\r\\n)[A-Za-z0-9+/=\\rn]{64,12000}?-----END (?:RSA )?PRIVATE KEY-----(?:\\n)?)\2/g,
    secretGroup: 3,
    skipFakeCheck: true,
    verify: ({ secret, text }) => {
      const serviceAccount = /["']type["'][ \t]*:[ \t]*["']service_account["']|gserviceaccount\.com/.test(text.text)
      if (!serviceAccount) return null
      return validatePemBody(secret) ? {} : null
    },
  }),
  regexDetector({
    id: 'secrets.gcp-api-key',
    title: 'Google API key',
    description: 'A Google Cloud / Firebase API key (AIza...) is hard-coded; unrestricted keys can be used to bill and query Google APIs.',
    severity: 'high',
    confidence: 0.9,
    tags: ['gcp', 'cloud'],
    remediation: rotateAdvice('in the Google Cloud console (APIs & Services > Credentials) and restrict the new key'),
    keywords: ['AIza'],
    pattern: /(?<![\w-])(AIza(?<body>[0-9A-Za-z_-]{35}))(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.gcp-oauth-client-secret',
    title: 'Google OAuth client secret',
    description: 'A Google OAuth 2.0 client secret (GOCSPX-...) is hard-coded.',
    severity: 'high',
    confidence: 0.95,
    tags: ['gcp', 'oauth'],
    remediation: rotateAdvice('in the Google Cloud console (reset the OAuth client secret)'),
    keywords: ['GOCSPX-'],
    pattern: /(?<![\w-])(GOCSPX-(?<body>[0-9A-Za-z_-]{28}))(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.google-oauth-access-token',
    title: 'Google OAuth access token',
    description: 'A Google OAuth access token (ya29....) is hard-coded; it is short-lived but grants the scopes it was issued for.',
    severity: 'medium',
    confidence: 0.85,
    tags: ['gcp', 'oauth'],
    remediation: rotateAdvice('by revoking the token (https://oauth2.googleapis.com/revoke)'),
    keywords: ['ya29.'],
    pattern: /(?<![\w.-])(ya29\.(?<body>[0-9A-Za-z_-]{30,1024}))(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.azure-storage-account-key',
    title: 'Azure storage account key',
    description: 'An Azure storage account key (AccountKey=...) is hard-coded; it grants full access to the storage account.',
    severity: 'critical',
    confidence: 0.95,
    tags: ['azure', 'cloud'],
    remediation: rotateAdvice('in the Azure portal (storage account > Access keys > Rotate key)'),
    keywords: ['accountkey', 'azure', 'storage'],
    keywordsIgnoreCase: true,
    pattern: new RegExp(
      `(?:accountkey[ \\t]*=[ \\t]*|${assignedTo('azure|storage', 30)})([A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])`,
      'gi',
    ),
  }),
  regexDetector({
    id: 'secrets.azure-shared-access-key',
    title: 'Azure shared access key',
    description: 'A Service Bus / Event Hubs / IoT Hub shared access key (SharedAccessKey=...) is hard-coded.',
    severity: 'critical',
    confidence: 0.9,
    tags: ['azure', 'cloud'],
    remediation: rotateAdvice('in the Azure portal (Shared access policies > Regenerate key)'),
    keywords: ['sharedaccesskey'],
    keywordsIgnoreCase: true,
    pattern: /SharedAccessKey[ \t]*=[ \t]*([A-Za-z0-9+/]{42,43}=)(?![A-Za-z0-9+/=])/gi,
  }),
  regexDetector({
    id: 'secrets.azure-sas-token',
    title: 'Azure shared access signature',
    description: 'An Azure SAS token (sv=...&sig=...) is hard-coded; anyone holding it gets the permissions it was signed for until it expires.',
    severity: 'high',
    confidence: 0.85,
    tags: ['azure', 'cloud'],
    remediation: rotateAdvice('by rotating the storage key that signed it (or revoking its stored access policy)'),
    keywords: ['sig='],
    pattern: /[?&;]sig=([A-Za-z0-9%+/]{40,120}(?:%3[Dd]|=){0,2})(?![A-Za-z0-9%+/=])/g,
    verify: ({ text, start, secret }) => {
      const line = text.lineAt(start)
      if (!/\bsv=\d{4}-\d{2}-\d{2}/.test(line) || !/\b(?:se|sp|spr|srt|ss)=/.test(line)) return null
      return decodeURIComponentSafe(secret).length >= 43 ? {} : null
    },
  }),
  regexDetector({
    id: 'secrets.azure-ad-client-secret',
    title: 'Microsoft Entra ID (Azure AD) client secret',
    description: 'An Entra ID application client secret (xxx8Q~...) is hard-coded; it authenticates as the application.',
    severity: 'high',
    confidence: 0.9,
    tags: ['azure', 'oauth'],
    remediation: rotateAdvice('in Entra ID (App registrations > Certificates & secrets)'),
    keywords: ['Q~'],
    pattern: /(?<![\w~.-])([A-Za-z0-9_~.]{3}\dQ~(?<body>[A-Za-z0-9_~.-]{31,34}))(?![\w~.-])/g,
  }),
  regexDetector({
    id: 'secrets.digitalocean-token',
    title: 'DigitalOcean token',
    description: 'A DigitalOcean personal access, OAuth or refresh token (dop_v1_/doo_v1_/dor_v1_) is hard-coded.',
    severity: 'critical',
    confidence: 0.95,
    tags: ['digitalocean', 'cloud'],
    remediation: rotateAdvice('in the DigitalOcean control panel (API > Tokens)'),
    keywords: ['_v1_'],
    pattern: /(?<![\w])(do[por]_v1_(?<body>[a-f0-9]{64}))(?![\w])/g,
  }),
  regexDetector({
    id: 'secrets.heroku-api-key',
    title: 'Heroku API key',
    description: 'A Heroku API key is hard-coded; it has the full rights of the Heroku account that owns it.',
    severity: 'critical',
    confidence: 0.85,
    tags: ['heroku', 'cloud'],
    remediation: rotateAdvice('in the Heroku dashboard (Account settings > API key > Regenerate)'),
    keywords: ['heroku', 'hrku-'],
    keywordsIgnoreCase: true,
    pattern: new RegExp(
      `(?<![\\w-])(HRKU-(?:${UUID_PATTERN}|AA[A-Za-z0-9_-]{58}))(?![\\w-])|${assignedTo('heroku', 30)}(${UUID_PATTERN})(?![\\w-])`,
      'gi',
    ),
    verify: ({ secret }) => (secret.toUpperCase().startsWith('HRKU-') ? { confidence: 0.95 } : {}),
  }),
  regexDetector({
    id: 'secrets.alibaba-access-key-id',
    title: 'Alibaba Cloud AccessKey ID',
    description: 'An Alibaba Cloud AccessKey ID (LTAI...) is hard-coded; it is half of a credential pair for the Alibaba Cloud API.',
    severity: 'critical',
    confidence: 0.85,
    tags: ['alibaba', 'cloud'],
    remediation: rotateAdvice('in the Alibaba Cloud RAM console'),
    keywords: ['LTAI'],
    pattern: /(?<![A-Za-z0-9])(LTAI(?<body>[A-Za-z0-9]{12,20}))(?![A-Za-z0-9])/g,
    verify: ({ secret }) => (charClasses(secret.slice(4)).digit ? {} : null),
  }),
]

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
