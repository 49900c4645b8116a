import { queryRows } from '../../test/support/sql'
import { axeViolations } from '../support/axe'
import { importPosts, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { signIn } from '../support/ui-admin'
import { uiUser } from '../support/users'

// The posts list's bulk actions in real Chromium (lib/admin/bulk.ts decides, post by post): Add tag, Add to category,
// Publish, Move to Trash, and Restore from the Trash view, each with its summary.

let server: ServerEnv

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

const statusOf = async (id: number) => (await queryRows<{ status: string }>(server.databaseUrl, 'SELECT status FROM posts WHERE id = ?', [id]))[0]?.status

test('an editor tags, categorises, publishes, trashes and restores several posts at once, with a summary each time', async ({ page }, testInfo) => {
  test.slow()
  const run = `Bulk edit ${runId()}`
  // Of a post type of this spec's own: published, they are on no other spec's map.
  const ids = await importPosts(
    server,
    ['one', 'two'].map((n) => ({ type: 'Feature' as const, geometry: null, properties: { title: `${run} ${n}`, type: 'bulkedit', status: 'draft' } })),
    uiUser('editor').email,
  )
  await signIn(page, 'editor', `/admin?q=${encodeURIComponent(run)}`)
  const bar = page.getByRole('form', { name: 'Bulk actions' })
  const summary = page.getByRole('status', { name: 'What the bulk action changed' })
  const apply = async (action: string, fill?: () => Promise<unknown>) => {
    await page.getByRole('checkbox', { name: 'Select all posts on this page' }).check()
    await bar.getByLabel('Bulk action').selectOption({ label: action })
    await fill?.()
    await bar.getByRole('button', { name: 'Apply' }).click()
    await expect(summary.locator('.notice')).toHaveText(new RegExp(`^${action}: 2 posts done, skipped 0\\.$`))
  }

  await apply('Add tag', () => bar.getByRole('textbox', { name: 'Tag', exact: true }).fill(`${run} tag`))
  const line = (n: string) => summary.getByRole('listitem').filter({ hasText: `“${run} ${n}”` })
  for (const n of ['one', 'two']) await expect(line(n)).toHaveText(`Done “${run} ${n}”: tagged`)
  await apply('Add to category', () => bar.getByRole('combobox', { name: 'Category', exact: true }).selectOption({ label: 'Asia' }))
  await apply('Publish')
  await expect(line('one')).toHaveText(`Done “${run} one”: published`)
  // The list is drawn anew after an action, its title with it: audited once it is back.
  await expect(page).toHaveTitle(/^Posts · /)
  expect(await axeViolations(page)).toEqual([])
  await page.screenshot({ path: testInfo.outputPath('bulk-summary.png'), fullPage: true })
  for (const id of ids) expect(await statusOf(id)).toBe('publish')
  const tags = await queryRows<{ n: number }>(
    server.databaseUrl,
    `SELECT COUNT(*) AS n FROM post_tags JOIN tags ON tags.id = post_tags.tag_id WHERE tags.name = ? AND post_tags.post_id IN (${ids.join(',')})`,
    [`${run} tag`],
  )
  expect(Number(tags[0]!.n)).toBe(2)

  await apply('Move to Trash')
  await expect(page.getByText('No posts you may edit match.')).toBeVisible()
  await page.goto(`/admin?status=trash&q=${encodeURIComponent(run)}`)
  await expect(bar.getByLabel('Bulk action').getByRole('option')).toHaveText(['Choose…', 'Restore'])
  await apply('Restore')
  for (const id of ids) expect(await statusOf(id)).toBe('publish')
})

test('a contributor is not offered Publish', async ({ page }) => {
  const title = `Contributed ${runId()}`
  await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, type: 'bulkedit', status: 'draft' } }], uiUser('contributor').email)
  await signIn(page, 'contributor', `/admin?q=${encodeURIComponent(title)}`)
  const options = page.getByRole('form', { name: 'Bulk actions' }).getByLabel('Bulk action').getByRole('option')
  await expect(options).toHaveText(['Choose…', 'Move to Trash', 'Set to draft', 'Add to category', 'Add tag', 'Import locations from media'])
})
