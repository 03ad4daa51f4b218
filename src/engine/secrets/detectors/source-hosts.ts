/**
 * Source-hosting credentials: GitHub, GitLab, Bitbucket and Atlassian tokens.
 */
import { hasValidBase62Crc32 } from '../checksum.ts'
import type { Detector } from '../types.ts'
import { regexDetector, rotateAdvice } from './define.ts'

const GITHUB_KINDS: Record<string, string> = {
  ghp: 'personal access token',
  gho: 'OAuth access token',
  ghu: 'GitHub App user-to-server token',
  ghs: 'GitHub App installation (server-to-server) token',
  ghr: 'GitHub App refresh token',
}

export const sourceHostDetectors: Detector[] = [
  regexDetector({
    id: 'secrets.github-token',
    title: 'GitHub token',
    description: 'A GitHub token is hard-coded; it acts on GitHub with the scopes of the user or app that created it.',
    severity: 'high',
    confidence: 0.95,
    tags: ['github', 'scm'],
    remediation: rotateAdvice('on GitHub (Settings > Developer settings > tokens, or the app\'s settings)'),
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(?<![A-Za-z0-9_])((gh[pousr])_(?<body>[A-Za-z0-9]{36}))(?![A-Za-z0-9_])/g,
    secretGroup: 1,
    verify: ({ match }) => {
      const kind = GITHUB_KINDS[match[2] ?? ''] ?? 'token'
      // The last 6 characters are a CRC-32 of the 30 random ones: a match means GitHub minted it.
      return hasValidBase62Crc32(match.groups?.body ?? '')
        ? { confidence: 0.99, note: `(${kind}, checksum verified)`, tags: ['checksum-verified'] }
        : { confidence: 0.8, note: `(${kind}; its checksum does not verify, it may be a fabricated test value)` }
    },
  }),
  regexDetector({
    id: 'secrets.github-fine-grained-token',
    title: 'GitHub fine-grained personal access token',
    description: 'A GitHub fine-grained personal access token (github_pat_...) is hard-coded.',
    severity: 'high',
    confidence: 0.95,
    tags: ['github', 'scm'],
    remediation: rotateAdvice('on GitHub (Settings > Developer settings > Fine-grained tokens)'),
    keywords: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_])(github_pat_(?<body>[A-Za-z0-9]{22}_[A-Za-z0-9]{59}))(?![A-Za-z0-9_])/g,
  }),
  regexDetector({
    id: 'secrets.gitlab-token',
    title: 'GitLab token',
    description: 'A GitLab token (personal/project/group access, deploy, runner, trigger, OAuth, feed or agent token) is hard-coded.',
    severity: 'high',
    confidence: 0.95,
    tags: ['gitlab', 'scm'],
    remediation: rotateAdvice('in GitLab (the token\'s settings page, or the runner/deploy token list)'),
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glsoat-', 'gloas-', 'glcbt-', 'glffct-', 'glimt-', 'glagent-', 'GR1348941'],
    pattern:
      /(?<![\w-])((?:glpat|gldt|glrt|glptt|glsoat|gloas|glcbt|glffct|glimt|glagent)-(?<body>[A-Za-z0-9_-]{20,64})(?:\.[A-Za-z0-9]{2}\.[A-Za-z0-9]{6,12})?|GR1348941[A-Za-z0-9_-]{20})(?![\w-])/g,
  }),
  regexDetector({
    id: 'secrets.bitbucket-token',
    title: 'Bitbucket app password or access token',
    description: 'A Bitbucket app password (ATBB...) or repository/project access token (ATCTT...) is hard-coded.',
    severity: 'high',
    confidence: 0.9,
    tags: ['bitbucket', 'atlassian', 'scm'],
    remediation: rotateAdvice('in Bitbucket (Personal settings > App passwords, or the repository\'s Access tokens)'),
    keywords: ['ATBB', 'ATCTT3'],
    pattern: /(?<![A-Za-z0-9_-])(ATBB(?<body>[A-Za-z0-9]{32})|ATCTT3[A-Za-z0-9_-]{20,250}=[0-9A-F]{8})(?![A-Za-z0-9_=-])/g,
  }),
  regexDetector({
    id: 'secrets.atlassian-api-token',
    title: 'Atlassian API token',
    description: 'An Atlassian Cloud API token (ATATT...) is hard-coded; it gives API access to Jira, Confluence and Bitbucket as its owner.',
    severity: 'high',
    confidence: 0.95,
    tags: ['atlassian', 'scm'],
    remediation: rotateAdvice('in the Atlassian account settings (Security > API tokens)'),
    keywords: ['ATATT3'],
    pattern: /(?<![A-Za-z0-9_-])(ATATT3(?<body>[A-Za-z0-9_-]{20,250})=[0-9A-F]{8})(?![A-Za-z0-9_=-])/g,
  }),
]
