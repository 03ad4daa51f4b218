/** One test that passes or fails as RUNNER_CHECK_OUTCOME says, after touching the database. */
import { expect, it } from 'vitest'
import { useTestDatabase } from '../database.ts'

const database = useTestDatabase()

it('ends as it was told to', async () => {
  await database.orm.em.getConnection().execute('select 1')
  expect(process.env['RUNNER_CHECK_OUTCOME']).toBe('pass')
})
