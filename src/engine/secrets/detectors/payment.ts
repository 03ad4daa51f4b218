/**
 * Payment provider credentials: Stripe, Square, PayPal/Braintree.
 */
import type { Detector } from '../types.ts'
import { regexDetector, rotateAdvice } from './define.ts'

export const paymentDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.stripe-secret-key',
    title: 'Stripe secret key',
    description: 'A Stripe secret or restricted key is hard-coded; a live key can move money and read customer data.',
    severity: 'critical',
    confidence: 0.95,
    tags: ['stripe', 'payment'],
    remediation: rotateAdvice('in the Stripe dashboard (Developers > API keys > Roll key)'),
    keywords: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'],
    pattern: /(?<![\w])((?:sk|rk)_(live|test)_(?<body>[A-Za-z0-9]{24,247}))(?![\w])/g,
    secretGroup: 1,
    verify: ({ match }) =>
      match[2] === 'test'
        ? { severity: 'low', confidence: 0.9, note: 'This is a test-mode key: it cannot touch live data, but it still exposes the test account.' }
        : {},
  }),
  regexDetector({
    id: 'secrets.stripe-webhook-secret',
    title: 'Stripe webhook signing secret',
    description: 'A Stripe webhook signing secret (whsec_...) is hard-coded; with it anyone can forge webhook events your endpoint will trust.',
    severity: 'high',
    confidence: 0.9,
    tags: ['stripe', 'payment', 'webhook'],
    remediation: rotateAdvice('in the Stripe dashboard (Developers > Webhooks > Roll secret)'),
    keywords: ['whsec_'],
    pattern: /(?<![\w])(whsec_(?<body>[A-Za-z0-9+/=]{32,88}))(?![\w+/=])/g,
  }),
  regexDetector({
    id: 'secrets.square-access-token',
    title: 'Square access token',
    description: 'A Square access token is hard-coded; it can take payments and read merchant data.',
    severity: 'critical',
    confidence: 0.9,
    tags: ['square', 'payment'],
    remediation: rotateAdvice('in the Square developer dashboard (Credentials > Replace)'),
    keywords: ['sq0atp-', 'EAAA'],
    pattern: /(?<![\w-])(sq0atp-(?<body>[0-9A-Za-z_-]{22})|EAAA[A-Za-z0-9_-]{60})(?![\w-])/g,
    // EAAA... is also how Meta tokens start: require Square to be mentioned.
    verify: ({ secret, text }) =>
      secret.startsWith('EAAA') && !text.lower.includes('square') ? null : {},
  }),
  regexDetector({
    id: 'secrets.square-oauth-secret',
    title: 'Square OAuth application secret',
    description: 'A Square OAuth application secret (sq0csp-...) is hard-coded.',
    severity: 'critical',
    confidence: 0.95,
    tags: ['square', 'payment', 'oauth'],
    remediation: rotateAdvice('in the Square developer dashboard (OAuth > Replace secret)'),
    keywords: ['sq0csp-'],
    pattern: /(?<![\w-])(sq0csp-(?<body>[0-9A-Za-z_-]{43}))(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.braintree-access-token',
    title: 'PayPal Braintree access token',
    description: 'A PayPal/Braintree production access token is hard-coded; it can create transactions on the merchant account.',
    severity: 'critical',
    confidence: 0.95,
    tags: ['paypal', 'braintree', 'payment'],
    remediation: rotateAdvice('in the PayPal developer dashboard / Braintree control panel'),
    keywords: ['access_token$production$'],
    pattern: /(access_token\$production\$[0-9a-z]{16}\$(?<body>[0-9a-f]{32}))(?![\w])/g,
  }),
]
