import { waitFor } from '../../test/support/wait'
import { queryRows } from '../../test/support/sql'
import { importPosts, places, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { save, signIn, uniqueTitle } from '../support/ui-admin'
import { uiUser } from '../support/users'

// A post's life in the admin, in real Chromium: Trash with Undo, restore and permanent deletion, old slugs that
// redirect, the status a date implies and a scheduled post going live by itself, and the posts list (counts,
// accent-insensitive search, a phone's width).

let server: ServerEnv

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

test.beforeEach(async ({ page }) => {
  await signIn(page, 'editor')
})

async function statusOf(id: number): Promise<string | undefined> {
  return (await queryRows<{ status: string }>(server.databaseUrl, 'SELECT status FROM posts WHERE id = ?', [id]))[0]?.status
}

/** The number in a status link, "Trash (3)" → 3. */
async function countOf(link: import('@playwright/test').Locator): Promise<number> {
  return Number((await link.textContent())!.match(/\((\d+)\)/)![1])
}

test('Move to Trash, Undo; from the Trash view Restore, and Delete permanently after a confirmation', async ({ page }, testInfo) => {
  test.slow() // five runs of the command line, each a few seconds on a loaded machine (timed out once in CI at 30 s)
  const title = uniqueTitle('Trash me')
  const [id] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, status: 'publish' } }], uiUser('editor').email)
  await places(server, 'post', 'delete', String(id)) // what the editor's "Move to Trash" does, then it opens:
  await page.goto(`/admin?trashed=${id}`)
  const notice = page.getByRole('status').filter({ hasText: 'Moved to Trash.' })
  await expect(notice).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('trashed-notice.png') })
  await notice.getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'restored' })).toBeVisible()
  expect(await statusOf(id!)).toBe('publish')

  await places(server, 'post', 'delete', String(id))
  await page.goto('/admin')
  const trashLink = page.getByRole('navigation', { name: 'Posts by status' }).getByRole('link', { name: /^Trash/ })
  const inTrash = await countOf(trashLink)
  expect(inTrash).toBeGreaterThan(0)
  await trashLink.click()
  await expect(page).toHaveURL(/status=trash/)
  await expect(page.getByRole('table').getByRole('link', { name: title, exact: true })).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('trash-view.png'), fullPage: true })
  await page.getByRole('button', { name: `Restore “${title}”` }).click()
  await expect(page.getByRole('table').getByRole('link', { name: title, exact: true })).toHaveCount(0)
  expect(await statusOf(id!)).toBe('publish')

  await places(server, 'post', 'delete', String(id))
  await page.reload()
  await page.getByRole('button', { name: `Delete “${title}” permanently` }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText('cannot be undone')
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused() // Enter does not delete
  await page.screenshot({ path: testInfo.outputPath('delete-confirmation.png') })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect(await statusOf(id!)).toBe('trash')
  await page.getByRole('button', { name: `Delete “${title}” permanently` }).click()
  await dialog.getByRole('button', { name: 'Delete permanently' }).click()
  await expect(page.getByRole('table').getByRole('link', { name: title, exact: true })).toHaveCount(0)
  expect(await statusOf(id!)).toBeUndefined()
})

test("each row's actions: Edit, Preview for a draft and View once published, Move to Trash with Undo", async ({ page }, testInfo) => {
  // Four runs of the command line, a few seconds each on a busy machine, beside the browser's steps.
  test.slow()
  const title = uniqueTitle('Row actions')
  const [id] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, status: 'draft' } }], uiUser('editor').email)
  await page.goto(`/admin?q=${encodeURIComponent(title)}`)
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: title, exact: true }) })
  await expect(row.getByRole('link', { name: `Edit “${title}”`, exact: true })).toHaveAttribute('href', `/admin/posts/${id}`)
  await expect(row.getByRole('link', { name: `View “${title}”`, exact: true })).toHaveCount(0)
  await page.screenshot({ path: testInfo.outputPath('row-actions.png') })
  await row.getByRole('link', { name: `Preview “${title}”`, exact: true }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Preview: the post as its editor now has it.' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)

  await page.goto(`/admin?q=${encodeURIComponent(title)}`)
  await row.getByRole('button', { name: `Move “${title}” to the Trash` }).click()
  await page.waitForURL(new RegExp(`/admin\\?trashed=${id}$`))
  expect(await statusOf(id!)).toBe('trash')
  await page.getByRole('status').filter({ hasText: 'Moved to Trash.' }).getByRole('button', { name: 'Undo' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'restored' })).toBeVisible()
  expect(await statusOf(id!)).toBe('draft')

  await places(server, 'post', 'delete', '--force', String(id))
  const [published] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, status: 'publish' } }], uiUser('editor').email)
  await page.goto(`/admin?q=${encodeURIComponent(title)}`)
  await expect(row.getByRole('link', { name: `Preview “${title}”`, exact: true })).toHaveCount(0)
  await row.getByRole('link', { name: `View “${title}”`, exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/post/row-actions-[^?]+$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await places(server, 'post', 'delete', '--force', String(published))
})

test('a published post whose slug changes: its old URL redirects permanently to the new one', async ({ page, request }) => {
  const title = uniqueTitle('Old slug')
  const slug = title.toLowerCase().replace(/\s+/g, '-')
  const [id] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, status: 'publish' } }], uiUser('editor').email)
  expect((await request.get(`/post/${slug}`)).status()).toBe(200)
  await page.goto(`/admin/posts/${id}`)
  await page.getByLabel('Slug').fill(`${slug}-renamed`)
  await save(page)
  const old = await request.get(`/post/${slug}`, { maxRedirects: 0 })
  expect(old.status()).toBe(301)
  expect(new URL(old.headers().location!, page.url()).pathname).toBe(`/post/${slug}-renamed`)
  const followed = await request.get(`/post/${slug}`)
  expect(followed.status()).toBe(200)
  expect(followed.url()).toMatch(new RegExp(`/post/${slug}-renamed$`))
  // Unpublished now: the old URL is as unknown as any other
  await page.getByLabel('Status').selectOption('draft')
  await save(page)
  expect((await request.get(`/post/${slug}`, { maxRedirects: 0 })).status()).toBe(404)
})

test('"Published" with a date to come is scheduled, and goes live at its time without anyone asking', async ({ page, request }) => {
  const title = uniqueTitle('Soon live')
  const [id] = await importPosts(server, [{ type: 'Feature', geometry: null, properties: { title, status: 'draft' } }], uiUser('editor').email)
  await page.goto(`/admin/posts/${id}`)
  const slug = await page.getByLabel('Slug').inputValue()
  await page.getByLabel('Status').selectOption('publish')
  await page.getByLabel('Date (UTC)').fill(new Date(Date.now() + 10_000).toISOString().slice(0, 19))
  await save(page)
  expect(await statusOf(id!)).toBe('future')
  expect((await request.get(`/post/${slug}`)).status()).toBe(404)
  // No request touches the post: the server's scheduler publishes it
  await waitFor('the scheduled post to go live', async () => ((await statusOf(id!)) === 'publish' ? true : undefined), 30_000)
  expect((await request.get(`/post/${slug}`)).status()).toBe(200)
})

test('the list: counts per status, search without accents or case, sorting, and a phone-sized screen', async ({ page }, testInfo) => {
  const suffix = uniqueTitle('').trim()
  await importPosts(
    server,
    [
      { type: 'Feature', geometry: null, properties: { title: `Sensō-ji ${suffix}`, status: 'publish' } },
      { type: 'Feature', geometry: null, properties: { title: `Café ${suffix}`, status: 'draft' } },
    ],
    uiUser('editor').email,
  )
  await page.goto('/admin')
  const statuses = page.getByRole('navigation', { name: 'Posts by status' })
  const all = await countOf(statuses.getByRole('link', { name: /^All/ }))
  await expect(page.getByText(`${all} posts you may edit; page 1 of`)).toBeVisible()
  await expect(statuses.getByRole('link', { name: /^All/ })).toHaveAttribute('aria-current', 'page')
  await page.screenshot({ path: testInfo.outputPath('list.png'), fullPage: true })

  await page.getByLabel('Search titles and addresses').fill(`senso-ji ${suffix.toUpperCase()}`)
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.locator('tbody .col-title > a')).toHaveText([`Sensō-ji ${suffix}`])
  await expect(statuses.getByRole('link', { name: /^All/ })).toHaveText(/All \(1\)/)
  await page.getByLabel('Search titles and addresses').fill(`CAFE ${suffix}`)
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page.locator('tbody .col-title > a').filter({ hasText: suffix })).toHaveText([`Café ${suffix}`])
  await expect(statuses.getByRole('link', { name: /^Drafts/ })).toHaveText(/Drafts \(1\)/)

  await page.getByLabel('Search titles and addresses').fill(suffix)
  await page.getByRole('button', { name: 'Filter' }).click()
  await page.getByRole('link', { name: 'Title' }).click()
  await expect(page).toHaveURL(/orderby=title&order=asc/)
  await expect(page.getByRole('table').locator('tbody').getByRole('link').filter({ hasText: suffix })).toHaveText([`Café ${suffix}`, `Sensō-ji ${suffix}`])
  await page.getByRole('link', { name: 'Title' }).click()
  await expect(page).toHaveURL(/order=desc/)
  await expect(page.getByRole('table').locator('tbody').getByRole('link').filter({ hasText: suffix })).toHaveText([`Sensō-ji ${suffix}`, `Café ${suffix}`])

  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/admin')
  await expect(page.getByRole('table')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('list-phone.png'), fullPage: true })
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  const pages = page.getByRole('navigation', { name: 'Pages' })
  // The demo's posts make many pages: numbered, the current one marked
  await expect(pages.getByRole('link', { name: 'Page 1', exact: true })).toHaveAttribute('aria-current', 'page')
  await pages.getByRole('link', { name: 'Page 2', exact: true }).click()
  await expect(pages.getByRole('link', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
})
