/**
 * JSON Web Tokens: three base64url segments whose first two decode to JSON objects, the
 * header naming an algorithm. Decoding rules out random `eyJ...` strings; the well-known
 * jwt.io sample and Supabase "anon" keys (public by design) are allowed.
 */
import type { Detector } from '../types.ts'
import { PRIORITY, regexDetector } from './define.ts'

type JsonObject = Record<string, unknown>

function decodeSegment(segment: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null
  } catch {
    return null
  }
}

export const jwtDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.jwt',
    title: 'JSON Web Token',
    description: 'A signed JSON Web Token is hard-coded; until it expires it authenticates whoever presents it.',
    severity: 'high',
    confidence: 0.75,
    tags: ['jwt', 'token'],
    remediation:
      'Remove the token from the code and history, revoke the session or rotate the signing key if the token does not expire soon, and obtain tokens at runtime.',
    keywords: ['eyJ'],
    testPaths: 'skip',
    priority: PRIORITY.structural,
    pattern: /(?<![\w.-])(eyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,8000}\.(?<body>[A-Za-z0-9_-]{0,2000}))(?![\w-])/g,
    skipFakeCheck: true,
    verify: ({ secret }) => {
      const [headerPart = '', payloadPart = '', signature = ''] = secret.split('.')
      const header = decodeSegment(headerPart)
      const payload = decodeSegment(payloadPart)
      if (!header || !payload || typeof header.alg !== 'string') return null
      if (payload.sub === '1234567890' && payload.name === 'John Doe') return null
      if (payload.role === 'anon') return null
      if (header.alg.toLowerCase() === 'none') {
        return { confidence: 0.55, severity: 'medium', note: 'The token is unsigned (alg "none").' }
      }
      if (signature.length < 16) return null
      if (payload.role === 'service_role') {
        return { severity: 'critical', confidence: 0.9, note: 'It carries the "service_role" role, which bypasses row-level security.' }
      }
      return {}
    },
  }),
]
