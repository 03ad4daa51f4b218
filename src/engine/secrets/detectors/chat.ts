/**
 * Chat platform credentials: Slack tokens and webhooks, Discord bot tokens and webhooks,
 * Telegram bot tokens.
 */
import type { Detector } from '../types.ts'
import { regexDetector, rotateAdvice } from './define.ts'

export const chatDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.slack-token',
    title: 'Slack token',
    description: 'A Slack API token (xoxb/xoxp/xoxa/xoxe/xapp...) is hard-coded; it reads and posts in the workspace with the token\'s scopes.',
    severity: 'high',
    confidence: 0.9,
    tags: ['slack', 'chat'],
    remediation: rotateAdvice('in the Slack app settings (OAuth & Permissions > Revoke / reinstall)'),
    keywords: ['xox', 'xapp-'],
    pattern: /(?<![\w-])(xox[abposre](?:\.xox[bp])?-[A-Za-z0-9-]{10,250}|xapp-\d-[A-Za-z0-9-]{20,250})(?![\w-])/g,
    body: (secret) => secret.slice(secret.lastIndexOf('-') + 1),
    verify: ({ secret }) => {
      const segments = secret.split('-')
      const last = segments[segments.length - 1] ?? ''
      const numeric = segments.filter((segment) => /^\d+$/.test(segment)).length
      if (segments.length < 3 || last.length < 10) return null
      // Bot/user tokens: xoxb-<team>-<bot>-<24 chars>, xoxp-<team>-<user>-<id>-<32 hex>.
      return numeric >= 2 && last.length >= 24 ? { confidence: 0.97 } : {}
    },
  }),
  regexDetector({
    id: 'secrets.slack-webhook-url',
    title: 'Slack incoming webhook URL',
    description: 'A Slack incoming-webhook or workflow URL is hard-coded; anyone holding it can post messages to the channel.',
    severity: 'high',
    confidence: 0.95,
    tags: ['slack', 'chat', 'webhook'],
    remediation: rotateAdvice('in the Slack app settings (Incoming Webhooks > remove the webhook)'),
    keywords: ['hooks.slack.com'],
    pattern: /(https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_-]{6,20}\/[A-Za-z0-9_-]{6,20}\/(?<body>[A-Za-z0-9_-]{20,64}))(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.discord-bot-token',
    title: 'Discord bot token',
    description: 'A Discord bot token is hard-coded; it logs in as the bot with all of its permissions.',
    severity: 'high',
    confidence: 0.9,
    tags: ['discord', 'chat'],
    remediation: rotateAdvice('in the Discord developer portal (Bot > Reset Token)'),
    keywords: ['.'],
    // First segment: base64 of the bot's numeric snowflake id (starts with M/N/O).
    pattern: /(?<![\w.-])([MNO][A-Za-z0-9_-]{22,27}\.[A-Za-z0-9_-]{6}\.(?<body>[A-Za-z0-9_-]{27,40}))(?![\w.-])/g,
    verify: ({ secret }) => (isBase64Snowflake(secret.slice(0, secret.indexOf('.'))) ? {} : null),
  }),
  regexDetector({
    id: 'secrets.discord-webhook-url',
    title: 'Discord webhook URL',
    description: 'A Discord webhook URL with its token is hard-coded; anyone holding it can post to the channel.',
    severity: 'high',
    confidence: 0.95,
    tags: ['discord', 'chat', 'webhook'],
    remediation: rotateAdvice('in the Discord channel settings (Integrations > Webhooks > delete)'),
    keywords: ['/api/webhooks/'],
    pattern: /(https:\/\/(?:(?:ptb|canary)\.)?discord(?:app)?\.com\/api\/webhooks\/\d{17,20}\/(?<body>[A-Za-z0-9_-]{60,68}))(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.telegram-bot-token',
    title: 'Telegram bot token',
    description: 'A Telegram bot token (<bot id>:AA...) is hard-coded; it controls the bot through the Bot API.',
    severity: 'high',
    confidence: 0.85,
    tags: ['telegram', 'chat'],
    remediation: rotateAdvice('with @BotFather (/revoke)'),
    keywords: [':AA'],
    pattern: /(?<![\w:])(\d{8,10}:AA(?<body>[A-Za-z0-9_-]{33}))(?![\w-])/g,
    verify: ({ text, start }) =>
      /telegram|bot/i.test(text.lineAt(start)) ? { confidence: 0.95 } : {},
  }),
]

function isBase64Snowflake(segment: string): boolean {
  const decoded = Buffer.from(segment.replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1')
  return /^\d{17,20}$/.test(decoded)
}
