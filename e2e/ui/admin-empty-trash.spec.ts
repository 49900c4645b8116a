import { existsSync } from 'node:fs'
import path from 'node:path'
import { queryRows } from '../../test/support/sql'
import { importMedia, importPosts, places, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { photo, signIn } from '../support/ui-admin'
import { uiUser } from '../support/users'

// "Empty Trash" in the Trash view, in real Chromium: after a confirmation it deletes for good every post in the Trash
// that the user may delete, with its photos' files, and says what went. An author empties only their own; an editor
// everyone's. The posts are of a type of this run's own, and the view is of that type, as WordPress's Trash is per
// post type: the other specs' posts in the Trash are left alone.

const type = `trash${runId()}`
let server: ServerEnv

// The command line makes the posts and imports their photos first (ExifTool): room for that on a busy machine.
test.describe.configure({ timeout: 120_000 })

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

async function statusOf(id: number): Promise<string | undefined> {
  return (await queryRows<{ status: string }>(server.databaseUrl, 'SELECT status FROM posts WHERE id = ?', [id]))[0]?.status
}

/** The files on disk of a post's attachments: each original and public copy. */
async function filesOf(postId: number): Promise<string[]> {
  const rows = await queryRows<{ file_path: string }>(server.databaseUrl, 'SELECT file_path FROM attachments WHERE post_id = ?', [postId])
  return rows.flatMap((row) => ['originals', 'public'].map((tree) => path.resolve(server.uploadsDir, tree, row.file_path)))
}

test('an author empties only their own posts from the Trash; an editor the rest, with their photos', async ({ page, browser }, testInfo) => {
  test.slow() // three runs of the command line and two sign-ins in two browsers: 28 s of its 30 in a quiet CI run
  const post = (title: string, author: 'author' | 'editor', status: string) => ({
    type: 'Feature' as const,
    geometry: null,
    properties: { title: `${title} ${type}`, type, status, author: uiUser(author).email },
  })
  const [ownPublished, ownDraft, editors] = (await importPosts(
    server,
    [post('Author published', 'author', 'publish'), post('Author draft', 'author', 'draft'), post('Editor published', 'editor', 'publish')],
    uiUser('author').email,
  )) as [number, number, number]
  await importMedia(server, ownDraft, [photo('gox_gps.jpg')])
  await importMedia(server, editors, [photo('exr_noexif.jpg')])
  const [ownFiles, editorsFiles] = [await filesOf(ownDraft), await filesOf(editors)]
  expect([...ownFiles, ...editorsFiles].every((file) => existsSync(file))).toBe(true)
  await places(server, 'post', 'delete', String(ownPublished), String(ownDraft), String(editors))

  await signIn(page, 'author', `/admin?status=trash&type=${type}`)
  const rows = page.getByRole('table').locator('tbody').getByRole('link')
  await expect(rows).toHaveCount(2) // the editor's post is not the author's to edit: not listed
  await expect(rows.filter({ hasText: 'Author published' })).toBeVisible()
  await expect(rows.filter({ hasText: 'Author draft' })).toBeVisible()
  await page.getByRole('button', { name: 'Empty Trash' }).click()
  const dialog = page.getByRole('dialog')
  await expect(dialog).toContainText(`Delete all 2 posts in the Trash of type “${type}” that you may delete, and their photos, permanently?`)
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused() // Enter does not delete
  await page.screenshot({ path: testInfo.outputPath('empty-trash-confirmation.png') })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  expect(await statusOf(ownDraft)).toBe('trash')

  await page.getByRole('button', { name: 'Empty Trash' }).click()
  await dialog.getByRole('button', { name: 'Empty Trash' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'deleted permanently' })).toHaveText('2 posts and 1 photo deleted permanently.')
  await expect(page.getByText('The Trash is empty.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Empty Trash' })).toHaveCount(0)
  await page.screenshot({ path: testInfo.outputPath('empty-trash-summary.png'), fullPage: true })
  expect(await statusOf(ownPublished)).toBeUndefined()
  expect(await statusOf(ownDraft)).toBeUndefined()
  expect(ownFiles.filter((file) => existsSync(file))).toEqual([])
  // Not the author's to delete: in the Trash still, its photo on disk
  expect(await statusOf(editors)).toBe('trash')
  expect(editorsFiles.every((file) => existsSync(file))).toBe(true)

  const editor = await (await browser.newContext()).newPage()
  await signIn(editor, 'editor', `/admin?status=trash&type=${type}`)
  await editor.getByRole('button', { name: 'Empty Trash' }).click()
  await expect(editor.getByRole('dialog')).toContainText(`Delete the post in the Trash of type “${type}”`)
  await editor.getByRole('dialog').getByRole('button', { name: 'Empty Trash' }).click()
  await expect(editor.getByRole('status').filter({ hasText: 'deleted permanently' })).toHaveText('1 post and 1 photo deleted permanently.')
  expect(await statusOf(editors)).toBeUndefined()
  expect(editorsFiles.filter((file) => existsSync(file))).toEqual([])
  await editor.context().close()
})
