/**
 * Triage in the browser: the issue list sorted and filtered, one issue's page (its code with the
 * matched line, the data-flow trace, CWE links) triaged with a note that joins its history, a
 * bulk selection triaged with each row's result, a rule text with an error shown on its line,
 * and a repository's summary and severity chart over two scans.
 */
import { captureView, expect, test } from './support/fixtures.ts'
import { completeScan, triageProject, triageProjectLater, uploadRepository } from './support/seed.ts'

test('opens an issue from the sorted list and triages it; the note joins its history', async ({ signedIn: page, organization, request }) => {
  const repoId = await uploadRepository(request, organization.apiKey, 'flask-shop', triageProject())
  await completeScan(request, organization.apiKey, repoId)

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Issues' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Issues' })).toBeVisible()
  const table = page.getByRole('table', { name: 'Issues' })
  await expect(table.getByRole('link', { name: /Command injection/ })).toBeVisible()

  // sorted by the server: most severe first after two clicks (ascending, then descending)
  const severityHeader = table.getByRole('columnheader', { name: /Severity/ })
  await severityHeader.getByRole('button').click()
  await expect(severityHeader).toHaveAttribute('aria-sort', 'ascending')
  await severityHeader.getByRole('button').click()
  await expect(severityHeader).toHaveAttribute('aria-sort', 'descending')
  await expect(table.getByRole('row').nth(1)).toContainText('critical')
  await captureView(page, 'issues')

  await table.getByRole('link', { name: /Command injection/ }).click()
  await expect(page.getByRole('heading', { level: 1, name: /Command injection/ })).toBeVisible()
  await expect(page.locator('.code-line.in-match')).toContainText('os.system')
  await expect(page.locator('.code-line.in-match')).toHaveAttribute('data-line', '9')
  const trace = page.getByRole('list', { name: 'Data-flow steps' })
  await expect(trace.getByRole('listitem').first()).toContainText('request.args')
  await expect(trace.getByRole('listitem').last()).toContainText('os.system')
  await expect(page.getByRole('link', { name: /CWE-78/ })).toHaveAttribute('href', 'https://cwe.mitre.org/data/definitions/78.html')

  await page.getByRole('combobox', { name: 'False positive', exact: true }).selectOption('yes')
  await page.getByLabel('Note', { exact: true }).fill('Only the health check calls it, with a fixed host.')
  await page.getByRole('button', { name: 'Save triage' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Triage saved.' })).toBeVisible()
  await expect(page.getByTestId('false-positive')).toHaveText('yes')
  const history = page.getByRole('list', { name: 'Triage history' })
  await expect(history).toContainText('Only the health check calls it, with a fixed host.')
  await expect(history).toContainText(`${organization.userId} marked false positive`)
  await captureView(page, 'issue')

  // the same issue, read again: the triage was stored
  await page.reload()
  await expect(page.getByTestId('false-positive')).toHaveText('yes')
})

test('triages a bulk selection and shows what happened to each row', async ({ signedIn: page, organization, request }) => {
  const repoId = await uploadRepository(request, organization.apiKey, 'bulk-shop', triageProject())
  await completeScan(request, organization.apiKey, repoId)

  await page.goto(`/issues?repoId=${repoId}`)
  const table = page.getByRole('table', { name: 'Issues' })
  await expect(table.getByRole('link', { name: /Command injection/ })).toBeVisible()
  const rows = await table.getByRole('row').count()
  const shown = rows - 1
  expect(shown).toBeGreaterThanOrEqual(2)

  await table.getByRole('checkbox', { name: 'Select all shown' }).check()
  const bulk = page.getByRole('region', { name: /Triage \d+ selected issues/ })
  await expect(bulk).toBeVisible()
  await bulk.getByRole('combobox', { name: 'Exploitable', exact: true }).selectOption('yes')
  await bulk.getByRole('combobox', { name: 'Severity', exact: true }).selectOption('HIGH')
  await bulk.getByLabel('Note', { exact: true }).fill('Reachable from the internet.')
  await bulk.getByRole('button', { name: `Apply to ${shown} issues` }).click()
  await expect(bulk.getByRole('status')).toHaveText(`${shown} updated.`)
  await expect(table.getByRole('cell', { name: 'updated', exact: true })).toHaveCount(shown)
  await expect(table.getByText(/exploitable/)).toHaveCount(shown)
  await captureView(page, 'issues-bulk-triage')

  // triaged now: none is left to review, all are still new in their scan
  await page.getByRole('combobox', { name: 'Triage', exact: true }).selectOption('REVIEW')
  await expect(table.getByText('No issues match these filters.')).toBeVisible()
  await expect(page).toHaveURL(/falsePositive=REVIEW/)
  await page.getByRole('combobox', { name: 'Triage', exact: true }).selectOption('')
  await page.getByRole('combobox', { name: 'Since the previous scan', exact: true }).selectOption('NEW')
  await expect(table.getByRole('link', { name: /Command injection/ })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: `${shown} issues` })).toBeVisible()
})

test('shows a rule problem on its line in the editor, then saves the fixed ruleset linked to a repository', async ({ signedIn: page, organization, request }) => {
  await uploadRepository(request, organization.apiKey, 'rules-target', triageProject())
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rulesets' }).click()
  await page.getByRole('link', { name: 'New ruleset' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'New ruleset' })).toBeVisible()
  await page.getByLabel('Name', { exact: true }).fill('team rules')

  const editor = page.getByRole('textbox', { name: 'Rules (ast-grep or Semgrep YAML)' })
  await editor.click()
  await page.keyboard.press('ControlOrMeta+a')
  await page.keyboard.insertText(['id: no-eval', 'language: cobol', 'severity: high', 'message: eval() runs text as code', 'rule:', '  pattern: eval($CODE)', ''].join('\n'))
  await page.getByRole('button', { name: 'Create ruleset' }).click()

  const problems = page.getByRole('list', { name: 'Rule problems' })
  await expect(problems).toContainText('Line 2')
  await expect(problems).toContainText('cobol')
  // the editor marks line 2 itself: underlined, with a marker in the gutter
  await expect(page.locator('.cm-line').nth(1).locator('.cm-lintRange-error')).toHaveCount(1)
  await expect(page.locator('.cm-line').nth(0).locator('.cm-lintRange-error')).toHaveCount(0)
  await expect(page.locator('.cm-lint-marker-error')).toHaveCount(1)
  await captureView(page, 'ruleset-error')

  await problems.getByRole('button', { name: 'Line 2' }).click()
  await page.keyboard.press('End')
  for (let index = 0; index < 'cobol'.length; index++) await page.keyboard.press('Backspace')
  await page.keyboard.insertText('javascript')
  await page.getByRole('checkbox', { name: /rules-target/ }).check()
  await page.getByRole('button', { name: 'Create ruleset' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'team rules' })).toBeVisible()
  await expect(page.getByRole('checkbox', { name: /rules-target/ })).toBeChecked()
  await expect(page.getByRole('list', { name: 'Rule problems' })).toHaveCount(0)

  await page.getByRole('link', { name: 'All rulesets' }).click()
  const row = page.getByRole('table', { name: 'Rulesets' }).getByRole('row', { name: /team rules/ })
  await expect(row).toContainText('rules-target')
  await captureView(page, 'rulesets')
})

test("shows a repository's summary and its issues by severity over two scans, with new and fixed counts", async ({ signedIn: page, organization, request }) => {
  const repoId = await uploadRepository(request, organization.apiKey, 'charted', triageProject())
  await completeScan(request, organization.apiKey, repoId)
  await uploadRepository(request, organization.apiKey, 'charted', triageProjectLater())
  await completeScan(request, organization.apiKey, repoId)

  await page.goto(`/repositories/${repoId}/summary`)
  await expect(page.getByRole('heading', { level: 1, name: 'Summary of charted' })).toBeVisible()
  for (const part of ['Architecture', 'Authentication', 'Trust boundaries', 'Business logic flows', 'Dependencies', 'Security controls', 'Data flows']) {
    await expect(page.getByRole('heading', { level: 2, name: part })).toBeVisible()
  }
  await expect(page.getByRole('region', { name: 'Architecture' })).toContainText('Flask')
  await expect(page.getByRole('region', { name: 'Trust boundaries' })).toContainText('/ping')
  await captureView(page, 'repository-summary')

  await page.goto(`/repositories/${repoId}`)
  const chart = page.getByRole('region', { name: 'Issues by severity over scans' })
  await expect(chart.getByRole('img')).toBeVisible()
  await expect(chart.locator('svg.chart g[data-scan]')).toHaveCount(2)
  const scans = chart.getByRole('table', { name: 'Issues of each completed scan' })
  // newest first: the second scan fixed the eval and found the MD5 hash
  await expect(scans.getByRole('row').nth(1).getByRole('cell').last()).toHaveText(/^[1-9]\d*$/)
  await expect(scans.getByRole('row').nth(1).getByRole('cell').nth(-2)).toHaveText(/^[1-9]\d*$/)
  await expect(scans.getByRole('row').nth(2).getByRole('cell').last()).toHaveText('0')
  await captureView(page, 'repository-chart')
})
