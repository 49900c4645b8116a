import type { APIRequestContext } from '@playwright/test'
import { expect, test } from '../support/test'
import { getCollection, type WordPressError } from '../support/http'
import { createPost, save, saveButton, signIn, uniqueTitle } from '../support/ui-admin'
import { uiUser } from '../support/users'

// Who may do what in the admin: the pages show only what lib/auth/capabilities.ts allows, and the server refuses
// the rest even when the browser is made to ask.

/** A published demo post, written by the server's e2e administrator (scripts/e2e-server.mts imports the demo as them). */
async function demoPost(request: APIRequestContext): Promise<{ id: number; title: string }> {
  const [feature] = (await getCollection(request, '?posts_per_page=1')).features
  return { id: feature!.properties.id, title: feature!.properties.title }
}

test('signed-out visitors of any admin page are sent to sign in, and come back after', async ({ page, request }) => {
  for (const path of ['/admin', '/admin?q=harbour&page=2', '/admin/posts/new', '/admin/posts/1', '/admin/app-passwords', '/admin/users']) {
    const response = await request.get(path, { maxRedirects: 0 })
    expect(response.status(), path).toBe(307)
    expect(response.headers().location, path).toBe(`/signin?callbackUrl=${encodeURIComponent(path)}`)
  }
  await page.goto('/admin/app-passwords')
  await expect(page).toHaveURL('/signin?callbackUrl=%2Fadmin%2Fapp-passwords')
  const { email, password } = uiUser('author')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL('/admin/app-passwords')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Application passwords')
})

test('an author sees and opens only their own posts', async ({ page, request }) => {
  const other = await demoPost(request)
  await signIn(page, 'author')
  const response = await page.goto(`/admin/posts/${other.id}`)
  expect(response?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Not found')
  await expect(page.getByLabel('Title')).toHaveCount(0)

  await page.goto(`/admin?q=${encodeURIComponent(other.title)}`)
  await expect(page.getByText('No posts you may edit match.')).toBeVisible()
  await expect(page.getByRole('link', { name: other.title, exact: true })).toHaveCount(0)

  // Their own post: listed, opened, and an author may publish it.
  const title = uniqueTitle('Author’s own')
  const id = await createPost(page, title)
  await expect(page.getByLabel('Status').getByRole('option')).toHaveText(['Published', 'Scheduled', 'Draft', 'Pending review', 'Private'])
  await page.goto('/admin')
  await expect(page.getByRole('link', { name: title, exact: true })).toHaveAttribute('href', `/admin/posts/${id}`)
  // Every post listed is the author's own: the demo's hundreds of posts are not there.
  const authors = await page.locator('tbody tr td.col-author').allTextContents()
  expect(new Set(authors)).toEqual(new Set(['E2E author']))
})

test('a contributor cannot publish: no such choice, and a forged one is refused by the server', async ({ page, request }) => {
  await signIn(page, 'contributor')
  const title = uniqueTitle('Contributor draft')
  const id = await createPost(page, title)
  const status = page.getByLabel('Status')
  await expect(status.getByRole('option')).toHaveText(['Draft', 'Pending review'])
  await page.getByLabel('Latitude').fill('51.5')
  await page.getByLabel('Longitude').fill('-0.12')

  // Make the browser ask anyway: add the option the page does not offer, and save with it.
  await status.evaluate((select: HTMLSelectElement) => select.add(new Option('Published', 'publish')))
  await status.selectOption('publish')
  await saveButton(page).click()
  await expect(page.locator('.form-error')).toContainText('not allowed to publish')
  await expect(page.locator('#post-status-error')).toHaveText('you may not make a post publish')
  const feature = await request.get(`/places/v1/geojson/${id}`)
  expect(feature.status()).toBe(404)
  expect(((await feature.json()) as WordPressError).code).toBe('rest_post_invalid_id')
  await page.reload()
  await expect(status).toHaveValue('draft')
  await expect(page.getByLabel('Latitude'), 'the refused save changed nothing').toHaveValue('')

  // What a contributor may do: submit for review, which leaves it theirs to edit.
  await status.selectOption('pending')
  await save(page)
  await page.reload()
  await expect(status).toHaveValue('pending')

  // …and not open a published post.
  const published = await demoPost(request)
  expect((await page.goto(`/admin/posts/${published.id}`))?.status()).toBe(404)
})

test('a subscriber has nothing to edit and cannot write posts', async ({ page }) => {
  await signIn(page, 'subscriber')
  await expect(page.getByText('No posts you may edit match.')).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'New post' })).toHaveCount(0)
  await page.goto('/admin/posts/new')
  await expect(page.getByText('Your role (subscriber) cannot write posts.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Create draft' })).toHaveCount(0)
})

test('users: only administrators see them; they add users and change roles', async ({ page, browser }) => {
  await signIn(page, 'editor')
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Users' })).toHaveCount(0)
  expect((await page.goto('/admin/users'))?.status()).toBe(404)
  await page.context().clearCookies()

  await signIn(page, 'administrator', '/admin/users')
  await expect(page.getByRole('cell', { name: 'editor@e2e.test', exact: true })).toBeVisible()
  const email = `${uniqueTitle('new').replace(/\s/g, '-')}@e2e.test`
  const form = page.getByRole('form', { name: 'Add a user' })
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('Name').fill('New Writer')
  await form.getByLabel('Password').fill('short')
  await form.getByLabel('Role').selectOption('author')
  await form.getByRole('button', { name: 'Add user' }).click()
  await expect(page.locator('#user-password-error')).toHaveText('must be at least 8 characters')
  await expect(form.getByLabel('Password')).toHaveAttribute('aria-describedby', 'user-password-error')
  await form.getByLabel('Password').fill('a long enough password')
  await form.getByRole('button', { name: 'Add user' }).click()
  await expect(page.getByRole('status')).toHaveText(`${email} was added.`)
  const row = page.getByRole('row').filter({ hasText: email })
  await expect(row.getByLabel(`Role of ${email}`, { exact: true })).toHaveValue('author')

  // The same email again is refused beside the field.
  await form.getByLabel('Email').fill(email.toUpperCase())
  await form.getByLabel('Password').fill('a long enough password')
  await form.getByRole('button', { name: 'Add user' }).click()
  await expect(page.locator('#user-email-error')).toHaveText('is already the email of another user')

  await row.getByLabel(`Role of ${email}`, { exact: true }).selectOption('contributor')
  await row.getByRole('button', { name: `Change the role of ${email}` }).click()
  await expect(page.getByRole('status')).toHaveText(`${email} is now contributor.`)
  await page.reload()
  await expect(page.getByRole('row').filter({ hasText: email }).getByLabel(`Role of ${email}`, { exact: true })).toHaveValue('contributor')

  // The new user signs in with the role given.
  const context = await browser.newContext()
  const theirs = await context.newPage()
  await theirs.goto('/signin?callbackUrl=%2Fadmin')
  await theirs.getByLabel('Email').fill(email)
  await theirs.getByLabel('Password').fill('a long enough password')
  await theirs.getByRole('button', { name: 'Sign in' }).click()
  await expect(theirs.getByRole('navigation', { name: 'Admin' })).toContainText('New Writer (contributor)')
  await context.close()
})

test('application passwords: made and shown once, used by a program, listed, revoked', async ({ page, request }) => {
  await signIn(page, 'author')
  const postId = await createPost(page, uniqueTitle('For a program'))
  await page.goto('/admin/app-passwords')
  const name = uniqueTitle('Uploader')
  await page.getByLabel('New application password’s name').fill(name)
  await page.getByRole('button', { name: 'Create' }).click()
  const secret = page.getByTestId('new-app-password')
  await expect(secret).toHaveText(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/)
  await expect(page.getByText('Copy it now')).toBeVisible()
  const password = (await secret.textContent())!
  const row = page.getByRole('row').filter({ hasText: name })
  await expect(row.getByRole('cell').nth(2)).toHaveText('Never')

  // A program uses it, with the author's rights.
  const { email } = uiUser('author')
  const basic = { Authorization: `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}` }
  const allowed = await request.get(`/places/v1/attachment-exif-gps/${postId}`, { headers: basic })
  expect(((await allowed.json()) as WordPressError).code, 'signed in and allowed: the post has no photos').toBe('rest_no_exif_gps')
  const other = await demoPost(request)
  expect((await request.get(`/places/v1/attachment-exif-gps/${other.id}`, { headers: basic })).status(), 'another’s post').toBe(403)

  // Shown once: not after a reload; the list says when it was last used.
  await page.reload()
  await expect(page.getByTestId('new-app-password')).toHaveCount(0)
  await expect(page.getByText(password)).toHaveCount(0)
  await expect(row.getByRole('cell').nth(2)).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/)

  await row.getByRole('button', { name: `Revoke “${name}”…` }).click()
  await row.getByRole('button', { name: 'Revoke for good' }).click()
  await expect(page.getByRole('status')).toHaveText(`“${name}” was revoked.`)
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0)
  const revoked = await request.get(`/places/v1/attachment-exif-gps/${postId}`, { headers: basic })
  expect(revoked.status()).toBe(401)
  expect(((await revoked.json()) as WordPressError).code).toBe('rest_invalid_credentials')
})
