/**
 * Organization scoping by construction: through an org-bound EntityManager, another
 * organization's rows do not exist for find, findOne, count, populate or native updates; an
 * EntityManager without an organization cannot query at all.
 */
import { describe, expect, it } from 'vitest'
import { ENTITIES, UNSCOPED_ENTITIES } from '../../src/db/entities.ts'
import { existsInOtherOrg, forkForOrg, scopedEntityNames } from '../../src/db/org-scope.ts'
import { wrap } from '@mikro-orm/core'
import { Issue, IssueNote } from '../../src/modules/issues/issue.entity.ts'
import { Repository } from '../../src/modules/repositories/repository.entity.ts'
import { Scan } from '../../src/modules/scans/scan.entity.ts'
import { RepositorySummary } from '../../src/modules/summaries/summary.entity.ts'
import { useTestDatabase } from '../support/database.ts'
import { makeOrgId, makeRepository, makeSummary } from '../support/factories.ts'

const db = useTestDatabase()

describe('the organization filter', () => {
  it('covers every entity that has an org_id, except the documented unscoped ones', () => {
    const withOrg = ENTITIES.filter((schema) => 'orgId' in schema.meta.properties).map((schema) => schema.meta.className)
    expect(withOrg.sort()).toEqual([...scopedEntityNames(), ...UNSCOPED_ENTITIES].sort())
    expect(UNSCOPED_ENTITIES).toEqual(['ApiKey'])
    expect(db.orm.config.get('filters')['org']?.entity).toEqual(scopedEntityNames())
  })

  it("hides another organization's rows from find, findOne and count", async () => {
    const theirs = await makeRepository(db.orm)
    await makeSummary(db.orm, theirs)
    const mine = forkForOrg(db.orm.em, makeOrgId())

    expect(await mine.find(Repository, {})).toEqual([])
    expect(await mine.findOne(Repository, { id: theirs.id })).toBeNull()
    expect(await mine.count(Repository, { id: theirs.id })).toBe(0)
    expect(await mine.find(RepositorySummary, { repoId: theirs.id })).toEqual([])
    expect(await forkForOrg(db.orm.em, theirs.orgId).count(Repository, { id: theirs.id })).toBe(1)
  })

  it("populates nothing of another organization's rows", async () => {
    const orgId = makeOrgId()
    const otherOrgId = makeOrgId()
    const em = forkForOrg(db.orm.em, orgId)
    const repository = await makeRepository(db.orm, { orgId })
    const scan = em.create(Scan, { orgId, repository, createdBy: 'u' })
    await em.flush()
    // a note of this org pointing at an issue of another org: corrupt data the filter must contain
    const foreignIssue = em.create(Issue, {
      orgId: otherOrgId, repository, scan, fingerprint: 'f', ruleId: 'r', filePath: 'a.py',
      lineNumber: 1, category: 'xss', severity: 'high', title: 'planted',
    })
    em.create(IssueNote, { orgId, issue: foreignIssue, text: 'note', author: 'u' })
    await em.flush()

    const fresh = forkForOrg(db.orm.em, orgId)
    expect(await fresh.find(Issue, { scan: scan.id })).toEqual([])
    const notes = await fresh.find(IssueNote, {}, { populate: ['issue'] })
    expect(notes.every((note) => note.issue === null || !wrap(note.issue).isInitialized() || note.issue.orgId === orgId)).toBe(true)
    expect(JSON.stringify(notes)).not.toContain('planted')
    // the filter is per row: the row's own organization still reads it
    expect(await forkForOrg(db.orm.em, otherOrgId).count(Issue, { id: foreignIssue.id })).toBe(1)
  })

  it("cannot update or delete another organization's rows natively", async () => {
    const theirs = await makeRepository(db.orm, { repoName: 'kept' })
    const mine = forkForOrg(db.orm.em, makeOrgId())
    expect(await mine.nativeUpdate(Repository, { id: theirs.id }, { repoName: 'stolen' })).toBe(0)
    expect(await mine.nativeDelete(Repository, { id: theirs.id })).toBe(0)
    const reread = await forkForOrg(db.orm.em, theirs.orgId).findOneOrFail(Repository, { id: theirs.id })
    expect(reread.repoName).toBe('kept')
  })

  it('fails closed: an EntityManager without an organization cannot query scoped entities', async () => {
    await expect(db.orm.em.fork().find(Repository, {})).rejects.toThrow(/filter 'org'|organization scope/)
    await expect(db.orm.em.fork().count(Scan, {})).rejects.toThrow()
    expect(() => forkForOrg(db.orm.em, '')).toThrow()
  })

  it('applies to QueryBuilder only after applyFilters(), which the rule in docs/org-scoping.md requires', async () => {
    const theirs = await makeRepository(db.orm)
    const mine = forkForOrg(db.orm.em, makeOrgId())
    const qb = mine.createQueryBuilder(Repository).select('*').where({ id: theirs.id })
    await qb.applyFilters()
    expect(await qb.getResultList()).toEqual([])
  })

  it('answers only a boolean about existence in another organization', async () => {
    const theirs = await makeRepository(db.orm)
    const mine = forkForOrg(db.orm.em, makeOrgId())
    expect(await existsInOtherOrg(mine, 'Repository', theirs.id)).toBe(true)
    expect(await existsInOtherOrg(forkForOrg(db.orm.em, theirs.orgId), 'Repository', theirs.id)).toBe(false)
  })
})
