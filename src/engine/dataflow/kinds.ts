/**
 * The vocabulary shared by every language spec: kinds of sinks (what untrusted data must not
 * reach, each with its category, CWE, severity and advice) and kinds of sources (where untrusted
 * data enters). Language specs only point at these; findings take their metadata from here.
 */
import type { Category, Severity } from '../core/types.ts'

export const SINK_KINDS = [
  'sql',
  'nosql',
  'command',
  'code',
  'template',
  'path',
  'url',
  'redirect',
  'html',
  'ldap',
  'xpath',
  'deserialization',
  'xml',
  'header',
  'session',
  'log',
  'randomness',
  'weak-hash',
  'regex',
  'prototype',
  'backtracking',
] as const
export type SinkKind = (typeof SINK_KINDS)[number]

export interface SinkKindInfo {
  category: Category
  cwe: string
  /** what the sink is, as used in sentences: "a SQL query" */
  noun: string
  title: string
  severity: Severity
  cvss: number
  owasp: string
  remediation: string
  /**
   * The finding stands at the source, not at the sink: for predictable random values the fix is
   * the generator, and one generator reaching several decisions is one problem.
   */
  reportAtSource?: boolean
}

const INJECTION = 'A03:2021 - Injection'

export const SINK_KIND_INFO: Record<SinkKind, SinkKindInfo> = {
  sql: {
    category: 'sql-injection',
    cwe: 'CWE-89',
    noun: 'a SQL query',
    title: 'SQL injection: untrusted data in query text',
    severity: 'critical',
    cvss: 9.8,
    owasp: INJECTION,
    remediation: 'Pass untrusted values as bound query parameters (placeholders), never inside the SQL text.',
  },
  nosql: {
    category: 'nosql-injection',
    cwe: 'CWE-943',
    noun: 'a NoSQL query',
    title: 'NoSQL injection: untrusted data used as a query filter',
    severity: 'high',
    cvss: 8.1,
    owasp: INJECTION,
    remediation: 'Build query filters from typed, validated values (e.g. String(value)) and never pass request objects or $where code to the database.',
  },
  command: {
    category: 'command-injection',
    cwe: 'CWE-78',
    noun: 'an OS command',
    title: 'Command injection: untrusted data in an OS command',
    severity: 'critical',
    cvss: 9.8,
    owasp: INJECTION,
    remediation: 'Run a fixed program with an argument list and no shell; validate arguments against an allowlist, or quote them for the shell.',
  },
  code: {
    category: 'code-injection',
    cwe: 'CWE-95',
    noun: 'evaluated code',
    title: 'Code injection: untrusted data evaluated as code',
    severity: 'critical',
    cvss: 9.8,
    owasp: INJECTION,
    remediation: 'Never evaluate untrusted text; parse data with a data parser (JSON, literal_eval) or map inputs to a fixed set of operations.',
  },
  template: {
    category: 'template-injection',
    cwe: 'CWE-1336',
    noun: 'a template source',
    title: 'Template injection: untrusted data compiled as a template',
    severity: 'critical',
    cvss: 9.8,
    owasp: INJECTION,
    remediation: 'Load templates from trusted files and pass untrusted values as template variables, never as template text.',
  },
  path: {
    category: 'path-traversal',
    cwe: 'CWE-22',
    noun: 'a file path',
    title: 'Path traversal: untrusted data in a file path',
    severity: 'high',
    cvss: 7.5,
    owasp: 'A01:2021 - Broken Access Control',
    remediation: 'Keep only the base name of untrusted file names, or resolve the path and check that it stays inside the intended directory.',
  },
  url: {
    category: 'ssrf',
    cwe: 'CWE-918',
    noun: 'an outbound request URL',
    title: 'Server-side request forgery: untrusted data chooses a request URL',
    severity: 'high',
    cvss: 8.6,
    owasp: 'A10:2021 - Server-Side Request Forgery (SSRF)',
    remediation: 'Only request URLs whose host is on an allowlist; never let callers choose the full URL.',
  },
  redirect: {
    category: 'open-redirect',
    cwe: 'CWE-601',
    noun: 'a redirect target',
    title: 'Open redirect: untrusted data chooses a redirect target',
    severity: 'medium',
    cvss: 6.1,
    owasp: 'A01:2021 - Broken Access Control',
    remediation: 'Redirect only to relative paths or to hosts on an allowlist.',
  },
  html: {
    category: 'xss',
    cwe: 'CWE-79',
    noun: 'an HTML response',
    title: 'Cross-site scripting: untrusted data in an HTML response',
    severity: 'high',
    cvss: 6.1,
    owasp: INJECTION,
    remediation: 'Escape untrusted values for HTML (or render them through an auto-escaping template) before writing them into a response.',
  },
  ldap: {
    category: 'ldap-injection',
    cwe: 'CWE-90',
    noun: 'an LDAP filter',
    title: 'LDAP injection: untrusted data in an LDAP filter',
    severity: 'high',
    cvss: 8.1,
    owasp: INJECTION,
    remediation: 'Escape untrusted values with the LDAP library\'s filter escaping before building the filter.',
  },
  xpath: {
    category: 'xpath-injection',
    cwe: 'CWE-643',
    noun: 'an XPath expression',
    title: 'XPath injection: untrusted data in an XPath expression',
    severity: 'high',
    cvss: 7.5,
    owasp: INJECTION,
    remediation: 'Use XPath variables (parameterized expressions) instead of building the expression from untrusted text.',
  },
  deserialization: {
    category: 'insecure-deserialization',
    cwe: 'CWE-502',
    noun: 'a deserializer',
    title: 'Insecure deserialization of untrusted data',
    severity: 'critical',
    cvss: 9.8,
    owasp: 'A08:2021 - Software and Data Integrity Failures',
    remediation: 'Deserialize untrusted data only with data-only formats (JSON, safe YAML loaders) or with an allowlist of types.',
  },
  xml: {
    category: 'xxe',
    cwe: 'CWE-611',
    noun: 'an XML parser that resolves external entities',
    title: 'XML external entities: untrusted XML parsed with entity resolution',
    severity: 'high',
    cvss: 8.2,
    owasp: 'A05:2021 - Security Misconfiguration',
    remediation: 'Disable DTDs and external entity resolution on the parser (or use defusedxml) before parsing untrusted XML.',
  },
  header: {
    category: 'header-injection',
    cwe: 'CWE-113',
    noun: 'a response header or cookie',
    title: 'Header injection: untrusted data in a response header or cookie',
    severity: 'medium',
    cvss: 5.4,
    owasp: INJECTION,
    remediation: 'Strip CR and LF (or URL-encode the value) before putting untrusted data into headers or cookies.',
  },
  session: {
    category: 'trust-boundary',
    cwe: 'CWE-501',
    noun: 'the session',
    title: 'Trust boundary violation: untrusted data stored in the session',
    severity: 'medium',
    cvss: 5.3,
    owasp: 'A04:2021 - Insecure Design',
    remediation: 'Validate untrusted values (type, format, allowlist) before storing them in the session, where other code will trust them.',
  },
  log: {
    category: 'log-injection',
    cwe: 'CWE-117',
    noun: 'a log line',
    title: 'Log injection: untrusted data written to a log',
    severity: 'low',
    cvss: 4.3,
    owasp: 'A09:2021 - Security Logging and Monitoring Failures',
    remediation: 'Strip CR and LF from untrusted values (or log them as structured fields) before logging.',
  },
  randomness: {
    category: 'insecure-randomness',
    cwe: 'CWE-330',
    noun: 'a security decision',
    title: 'Insecure randomness: a predictable random value used as a secret',
    severity: 'medium',
    cvss: 5.9,
    owasp: 'A02:2021 - Cryptographic Failures',
    remediation: 'Draw secrets (tokens, session ids, passwords, codes, salts) from a cryptographic generator: SecureRandom (Java), the secrets module (Python), crypto.randomBytes / randomInt / randomUUID (Node).',
    reportAtSource: true,
  },
  'weak-hash': {
    category: 'weak-hash',
    cwe: 'CWE-916',
    noun: 'a fast or broken hash function',
    title: 'Password hashed with a broken, fast hash function',
    severity: 'high',
    cvss: 7.5,
    owasp: 'A02:2021 - Cryptographic Failures',
    remediation: 'Hash passwords with a slow, salted password hash (bcrypt, scrypt, Argon2 or PBKDF2 with many iterations); never with MD5 or SHA-1.',
  },
  regex: {
    category: 'redos',
    cwe: 'CWE-1333',
    noun: 'a regular expression pattern',
    title: 'Regular expression injection: untrusted data used as a regex pattern (ReDoS)',
    severity: 'medium',
    cvss: 5.3,
    owasp: 'A05:2021 - Security Misconfiguration',
    remediation: 'Never compile untrusted text as a pattern: escape it (re.escape, Pattern.quote, escape-string-regexp) to match it literally, or use plain string search (includes, indexOf, in).',
  },
  prototype: {
    category: 'prototype-pollution',
    cwe: 'CWE-1321',
    noun: 'the name of a property written into an object',
    title: 'Prototype pollution: untrusted data chooses the property written into an object',
    severity: 'high',
    cvss: 8.1,
    owasp: 'A08:2021 - Software and Data Integrity Failures',
    remediation: "Skip the keys __proto__, constructor and prototype (or copy own properties only), write into Object.create(null) or a Map, or validate the input against a schema first.",
  },
  backtracking: {
    category: 'redos',
    cwe: 'CWE-1333',
    noun: 'a regular expression with catastrophic backtracking',
    title: 'ReDoS: a regular expression with super-linear backtracking runs on untrusted text',
    severity: 'medium',
    cvss: 5.3,
    owasp: 'A05:2021 - Security Misconfiguration',
    remediation: 'Rewrite the pattern so each character can be matched in only one way (no nested or adjacent overlapping quantifiers), bound the input length before matching, or use a linear-time engine such as re2.',
  },
}

/** One bit per sink kind: which sink kinds a value has been cleaned for. */
export function sinkKindBit(kind: SinkKind): number {
  return 1 << SINK_KINDS.indexOf(kind)
}

export const ALL_SINK_KINDS_MASK = (1 << SINK_KINDS.length) - 1

/**
 * `cleans: 'all'` in a catalog means every injection kind: no conversion or check makes a
 * predictable random value unpredictable (`int(random.random() * 1e6)` is still guessable).
 */
export function sinkKindsMask(kinds: readonly SinkKind[] | 'all'): number {
  if (kinds === 'all') return ALL_SINK_KINDS_MASK & ~sinkKindBit('randomness')
  return kinds.reduce((mask, kind) => mask | sinkKindBit(kind), 0)
}

export const SOURCE_KINDS = [
  'http-query',
  'http-body',
  'http-path',
  'http-header',
  'http-cookie',
  'http-file',
  'http-request',
  'cli-args',
  'environment',
  'file-content',
  'weak-random',
  'password',
  'rule',
  'library-argument',
] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]

/**
 * Remote sources are attacker-controlled in every deployment; command-line arguments come from
 * whoever runs the program (they count for injection sinks, not for logs or response headers);
 * local ones (environment, file contents) only count where a sink says so, since they are
 * usually operator-controlled. Values of non-cryptographic random generators (`prng`) are not
 * attacker data at all: they only count at the sinks where predictability matters (randomness).
 * Passwords (passwords.ts) are not untrusted but secret: only sinks that must not receive a
 * password (a fast hash) count them.
 */
export type SourceScope = 'remote' | 'cli' | 'local' | 'prng' | 'password'

/** Source scopes a sink counts unless it says otherwise. */
export const DEFAULT_SINK_SCOPES: readonly SourceScope[] = ['remote', 'cli']

export const SOURCE_KIND_INFO: Record<SourceKind, { label: string; scope: SourceScope }> = {
  'http-query': { label: 'HTTP query parameter', scope: 'remote' },
  'http-body': { label: 'HTTP request body', scope: 'remote' },
  'http-path': { label: 'HTTP path parameter', scope: 'remote' },
  'http-header': { label: 'HTTP request header', scope: 'remote' },
  'http-cookie': { label: 'HTTP cookie', scope: 'remote' },
  'http-file': { label: 'uploaded file', scope: 'remote' },
  'http-request': { label: 'HTTP request data', scope: 'remote' },
  'cli-args': { label: 'command-line argument', scope: 'cli' },
  environment: { label: 'environment variable', scope: 'local' },
  'file-content': { label: 'file contents', scope: 'local' },
  'weak-random': { label: 'non-cryptographic random generator', scope: 'prng' },
  password: { label: 'password', scope: 'password' },
  // a source of a user taint rule (dataflow/overlay.ts): the rule says it is untrusted
  rule: { label: 'taint rule source', scope: 'remote' },
  // what a caller passes to a library's exported API (library.ts): untrusted for the library's
  // own sinks, but less surely attacker data than a request: its findings have a lower confidence
  'library-argument': { label: 'input of a library API', scope: 'remote' },
}
