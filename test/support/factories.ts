/**
 * Factories: each creates what it needs, including a fresh organization unless given one, so no
 * test depends on another's data and every test can ask "what does another org see?".
 */
import { randomUUID } from 'node:crypto'
import type { MikroORM } from '@mikro-orm/postgresql'
import { SCOPES, type Scope } from '../../src/auth/caller.ts'
import { mintToken } from '../../src/auth/jwt.ts'
import { forkForOrg } from '../../src/db/org-scope.ts'
import { createApiKey } from '../../src/modules/api-keys/api-key.service.ts'
import { Issue } from '../../src/modules/issues/issue.entity.ts'
import { Repository } from '../../src/modules/repositories/repository.entity.ts'
import { Scan } from '../../src/modules/scans/scan.entity.ts'
import { RepositorySummary } from '../../src/modules/summaries/summary.entity.ts'
import { TEST_JWT_SECRET } from './app.ts'

export function makeOrgId(): string {
  return `org-${randomUUID()}`
}

export interface Principal {
  orgId: string
  userId: string
  scopes: Scope[]
  /** headers that authenticate as this principal */
  headers: Record<string, string>
}

export async function makeApiKeyPrincipal(orm: MikroORM, options: Partial<Omit<Principal, 'headers'>> = {}): Promise<Principal> {
  const orgId = options.orgId ?? makeOrgId()
  const userId = options.userId ?? `user-${randomUUID().slice(0, 8)}`
  const scopes = options.scopes ?? [...SCOPES]
  const { key } = await createApiKey(orm.em.fork(), { orgId, userId, scopes })
  return { orgId, userId, scopes, headers: { 'X-API-Key': key } }
}

export async function makeTokenPrincipal(options: Partial<Omit<Principal, 'headers'>> & { secret?: string; expiresIn?: number } = {}): Promise<Principal> {
  const orgId = options.orgId ?? makeOrgId()
  const userId = options.userId ?? `user-${randomUUID().slice(0, 8)}`
  const scopes = options.scopes ?? [...SCOPES]
  const token = await mintToken({ secret: options.secret ?? TEST_JWT_SECRET, orgId, userId, scopes, expiresIn: options.expiresIn ?? 600 })
  return { orgId, userId, scopes, headers: { Authorization: `Bearer ${token}` } }
}

export async function makeRepository(orm: MikroORM, options: Partial<Repository> & { orgId?: string } = {}): Promise<Repository> {
  const orgId = options.orgId ?? makeOrgId()
  const em = forkForOrg(orm.em, orgId)
  const repository = em.create(Repository, {
    repoName: `repo-${randomUUID().slice(0, 8)}`,
    branchName: 'main',
    createdBy: 'factory',
    sizeBytes: 1234,
    fileCount: 3,
    languages: { Python: 120, JavaScript: 40 },
    ...options,
    orgId,
  })
  await em.flush()
  return repository
}

export async function makeSummary(orm: MikroORM, repository: Repository, options: Partial<RepositorySummary> = {}): Promise<RepositorySummary> {
  const em = forkForOrg(orm.em, repository.orgId)
  const summary = em.create(RepositorySummary, {
    repoId: repository.id,
    architecturePattern: 'Flask REST API over PostgreSQL',
    authLogicSummary: 'JWT bearer tokens checked by a decorator',
    trustBoundaries: { entry_points: [{ method: 'GET', path: '/items', file: 'app.py', line: 10 }] },
    businessLogicFlows: { flows: [] },
    crossFileDependencies: { files: 2, edges: [] },
    ragContext: 'A small item service.',
    securityContext: 'No CSRF protection.',
    dataFlowAnalysis: { flows: [] },
    ...options,
    orgId: repository.orgId,
  })
  await em.flush()
  return summary
}

export async function makeScan(orm: MikroORM, repository: Repository, options: Partial<Scan> = {}): Promise<Scan> {
  const em = forkForOrg(orm.em, repository.orgId)
  const scan = em.create(Scan, { createdBy: 'factory', status: 'completed', scanType: 'full', activeModels: ['sast', 'secrets'], ...options, orgId: repository.orgId, repository: repository.id })
  await em.flush()
  return scan
}

let issueSequence = 0

export async function makeIssue(orm: MikroORM, scan: Scan, options: Partial<Issue> = {}): Promise<Issue> {
  const em = forkForOrg(orm.em, scan.orgId)
  issueSequence += 1
  const issue = em.create(Issue, {
    fingerprint: `fp-${issueSequence}-${randomUUID().slice(0, 8)}`,
    ruleId: 'python.sql-injection.string-format',
    filePath: `src/app/module_${issueSequence}.py`,
    lineNumber: 10 + issueSequence,
    columnStart: 5,
    columnEnd: 40,
    category: 'sql-injection',
    severity: 'high',
    confidence: 0.8,
    title: 'SQL query built from a string',
    description: 'cursor.execute() runs a query built with an f-string',
    explanation: 'User input reaches the query text',
    codeSnippet: 'cursor.execute(f"select * from t where id = {uid}")',
    contextBefore: 'def load(uid):',
    contextAfter: '    return cursor.fetchall()',
    remediation: 'Use query parameters',
    remediationCode: 'cursor.execute("select * from t where id = %s", (uid,))',
    cweIds: ['CWE-89'],
    owaspCategory: 'A03:2021 - Injection',
    cvssScore: 8.6,
    tags: ['injection'],
    modelUsed: 'parapet-sast/1.0',
    ...options,
    orgId: scan.orgId,
    repository: scan.repository.id,
    scan: scan.id,
  })
  await em.flush()
  return issue
}
