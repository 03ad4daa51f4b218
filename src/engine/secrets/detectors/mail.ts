/**
 * E-mail service credentials: SendGrid, Mailgun, Mailchimp, Postmark.
 */
import type { Detector } from '../types.ts'
import { assignedTo, regexDetector, rotateAdvice, UUID_PATTERN } from './define.ts'

export const mailDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.sendgrid-api-key',
    title: 'SendGrid API key',
    description: 'A SendGrid API key (SG.xxx.yyy) is hard-coded; it can send e-mail as your domain.',
    severity: 'high',
    confidence: 0.95,
    tags: ['sendgrid', 'mail'],
    remediation: rotateAdvice('in SendGrid (Settings > API Keys)'),
    keywords: ['SG.'],
    pattern: /(?<![\w.-])(SG\.[A-Za-z0-9_-]{22}\.(?<body>[A-Za-z0-9_-]{43}))(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.mailgun-api-key',
    title: 'Mailgun API key',
    description: 'A Mailgun API key is hard-coded; it can send e-mail and read logs for your domains.',
    severity: 'high',
    confidence: 0.8,
    tags: ['mailgun', 'mail'],
    remediation: rotateAdvice('in Mailgun (API Security > API keys)'),
    keywords: ['key-', 'mailgun'],
    keywordsIgnoreCase: true,
    pattern: new RegExp(
      `(?<![\\w-])(key-[0-9a-f]{32})(?![\\w-])|${assignedTo('mailgun', 30)}([0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?![\\w-])`,
      'gi',
    ),
    body: (secret) => secret.replace(/^key-/, ''),
    verify: ({ text }) => (text.lower.includes('mailgun') ? { confidence: 0.92 } : {}),
  }),
  regexDetector({
    id: 'secrets.mailchimp-api-key',
    title: 'Mailchimp API key',
    description: 'A Mailchimp API key (<32 hex>-usN) is hard-coded; it manages audiences and campaigns.',
    severity: 'high',
    confidence: 0.9,
    tags: ['mailchimp', 'mail'],
    remediation: rotateAdvice('in Mailchimp (Account > Extras > API keys)'),
    keywords: ['-us'],
    pattern: /(?<![\w-])((?<body>[0-9a-f]{32})-us\d{1,2})(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.postmark-server-token',
    title: 'Postmark server or account token',
    description: 'A Postmark server/account API token is hard-coded; it can send e-mail through your Postmark servers.',
    severity: 'high',
    confidence: 0.85,
    tags: ['postmark', 'mail'],
    remediation: rotateAdvice('in Postmark (Server > API Tokens > Regenerate)'),
    keywords: ['postmark'],
    keywordsIgnoreCase: true,
    pattern: new RegExp(`${assignedTo('postmark', 40)}(${UUID_PATTERN})(?![\\w-])`, 'gi'),
  }),
]
