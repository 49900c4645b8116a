import { readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, request, test, type BrowserContext, type Page } from '@playwright/test'
import { signInOrThrow } from './auth'
import { uiUser, type Role } from './users'

// Helpers of the admin's browser tests (e2e/ui/admin*.spec.ts), against the `ui` project's server.

/** A photo of the EXIF corpus (test/fixtures/exif/README.md). */
export function photo(name: string): string {
  return path.join(__dirname, '..', '..', 'test', 'fixtures', 'exif', name)
}

/** gox_gps.jpg's GPS, as ExifTool reads it (test/fixtures/exif/truth.json). */
export const GOX_GPS = { latitude: 26.5866667, longitude: -80.0536111 }

/** A title no other test (of this run or the map's) uses. */
export function uniqueTitle(label: string): string {
  return `${label} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
}

type Cookies = Parameters<BrowserContext['addCookies']>[0]
/** The sessions of the `ui` server's users, by server and email: each signed in once per worker. */
const sessions = new Map<string, Promise<Cookies>>()

/**
 * Signs in as the `ui` server's user of this role and opens `to`: through next-auth's sign-in endpoint once per
 * worker, its session's cookies then given to each test's browser (a session is a signed token that only a password
 * change or "Sign out everywhere" ends, which no test does to these users). A user given by email and password signs in
 * through the sign-in page, as sign-in-out.spec.ts tests it.
 */
export async function signIn(page: Page, who: Role | { email: string; password: string }, to = '/admin'): Promise<void> {
  const pathname = to.split('?')[0]
  if (typeof who === 'string') {
    const baseURL = test.info().project.use.baseURL!
    const { email, password } = uiUser(who)
    const key = `${baseURL} ${email}`
    let cookies = sessions.get(key)
    if (!cookies) {
      cookies = signInOrThrow(request, baseURL, email, password).then(async (context) => {
        const { cookies } = await context.storageState()
        await context.dispose()
        return cookies
      })
      sessions.set(key, cookies)
    }
    await page.context().addCookies(await cookies)
    await page.goto(to)
    expect(new URL(page.url()).pathname, `${email} opens ${to}`).toBe(pathname)
    return
  }
  await page.goto(`/signin?callbackUrl=${encodeURIComponent(to)}`)
  await page.getByLabel('Email').fill(who.email)
  await page.getByLabel('Password').fill(who.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname === pathname)
}

/** Creates a draft through "New post"; returns its id, with the editor open. */
export async function createPost(page: Page, title: string): Promise<number> {
  await page.goto('/admin/posts/new')
  await page.getByLabel('Title').fill(title)
  await page.getByRole('button', { name: 'Create draft' }).click()
  await page.waitForURL(/\/admin\/posts\/\d+$/)
  await expect(page.getByLabel('Title')).toHaveValue(title)
  return Number(new URL(page.url()).pathname.split('/').at(-1))
}

/** Uploads photos through the file input and waits until each has finished. */
export async function uploadPhotos(page: Page, ...names: string[]): Promise<void> {
  await page.locator('.drop-zone input[type=file]').setInputFiles(names.map(photo))
  const uploads = page.getByRole('list', { name: 'Uploads' })
  for (const name of names) await expect(uploads.getByRole('listitem').filter({ hasText: name })).toContainText('Uploaded')
}

/** Drops photos on the drop zone, as a file manager does, and waits until each has finished. */
export async function dropPhotos(page: Page, ...names: string[]): Promise<void> {
  const files = names.map((name) => ({ name, base64: readFileSync(photo(name)).toString('base64') }))
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const { name, base64 } of list) transfer.items.add(new File([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], name, { type: 'image/jpeg' }))
    return transfer
  }, files)
  const zone = page.locator('.drop-zone')
  await zone.dispatchEvent('dragover', { dataTransfer })
  await expect(zone).toHaveClass(/\bover\b/)
  await zone.dispatchEvent('drop', { dataTransfer })
  const uploads = page.getByRole('list', { name: 'Uploads' })
  for (const name of names) await expect(uploads.getByRole('listitem').filter({ hasText: name })).toContainText('Uploaded')
}

/** The editor's main button, whose label says what saving does ("Publish", "Schedule", "Update", "Save draft"…). */
export function saveButton(page: Page) {
  return page.getByRole('button', { name: /^(Save draft|Save as pending|Submit for review|Publish|Schedule|Update)$/ })
}

/** Saves the editor and waits for "Saved.". */
export async function save(page: Page): Promise<void> {
  await saveButton(page).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
}
