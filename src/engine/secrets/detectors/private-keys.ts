/**
 * Private keys: PEM blocks (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted PKCS#8, PGP) and age
 * secret keys. A PEM block is reported on its BEGIN line; `secret` holds the whole block so
 * that the core can redact every line of it.
 */
import type { Detector } from '../types.ts'
import { validatePemBody } from './pem.ts'
import { CWE_HARDCODED_CREDENTIALS, CWE_HARDCODED_CRYPTO_KEY, regexDetector } from './define.ts'

const KEY_REMEDIATION =
  'Treat the key as compromised: revoke it (and any certificate or authorized_keys entry using it), generate a new one, remove the old one from the code and git history, and mount keys at runtime from a secret store.'

export const privateKeyDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.private-key',
    title: 'Private key',
    description: 'A private key is embedded in the repository; anyone with read access can impersonate its owner or decrypt its traffic.',
    severity: 'critical',
    confidence: 0.95,
    cwe: [CWE_HARDCODED_CREDENTIALS, CWE_HARDCODED_CRYPTO_KEY],
    tags: ['private-key', 'crypto'],
    remediation: KEY_REMEDIATION,
    keywords: ['PRIVATE KEY'],
    // The lazy body is bounded, and the closing label must repeat the opening one.
    pattern:
      /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP |SSH2 ENCRYPTED )?PRIVATE KEY(?: BLOCK)?)-----[\s\S]{0,20000}?-----END \1-----/g,
    secretGroup: 0,
    skipFakeCheck: true,
    verify: ({ secret }) => {
      const body = validatePemBody(secret)
      if (!body) return null
      const label = /-----BEGIN ([A-Z0-9 ]*)-----/.exec(secret)?.[1] ?? 'PRIVATE KEY'
      return {
        confidence: body.structured ? 0.99 : 0.85,
        severity: body.encrypted ? 'high' : 'critical',
        note: body.encrypted ? `(${label}, passphrase-protected)` : `(${label})`,
      }
    },
  }),
  regexDetector({
    id: 'secrets.age-secret-key',
    title: 'age secret key',
    description: 'An age encryption secret key (AGE-SECRET-KEY-1...) is hard-coded; it decrypts every file encrypted to its recipient.',
    severity: 'critical',
    confidence: 0.95,
    cwe: [CWE_HARDCODED_CREDENTIALS, CWE_HARDCODED_CRYPTO_KEY],
    tags: ['private-key', 'crypto', 'age'],
    remediation: KEY_REMEDIATION,
    keywords: ['AGE-SECRET-KEY-1'],
    pattern: /(AGE-SECRET-KEY-1(?<body>[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}))(?![A-Za-z0-9])/g,
  }),
]
