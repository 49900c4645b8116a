import type { Page } from '@playwright/test'
import { createUser, runId } from '../support/places-cli'
import { expect, test } from '../support/test'
import { createPost, signIn, uniqueTitle } from '../support/ui-admin'

// Signing in and out in a real browser: where sign-in sends the browser afterwards, that signing out ends the
// session (on this browser, or everywhere), and that no page of the app has its scripts blocked by its own CSP.
// Each test signs in a user of its own: ending sessions everywhere must not touch the other tests' users.

async function newUser(server: { databaseUrl: string; uploadsDir: string; baseURL: string }, role: 'administrator' | 'editor' = 'editor') {
  const run = runId()
  const user = { email: `sign-${role}-${run}@e2e.test`, password: `sign-${role}-password-${run}` }
  await createUser(server, user.email, user.password, role)
  return user
}

/** The session this page's browser holds, as next-auth tells it: `{}` when signed out. */
async function sessionOf(page: Page): Promise<{ user?: { email?: string } }> {
  return (await page.request.get('/api/auth/session')).json()
}

function watchViolations(page: Page): string[] {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`)
  })
  return violations
}

test('sign-in sends the browser back only to this site, whatever the callbackUrl says', async ({ page, baseURL, databaseUrl, uploadsDir }) => {
  const user = await newUser({ databaseUrl, uploadsDir, baseURL: baseURL! })
  const origin = new URL(baseURL!).origin
  for (const callbackUrl of ['/\t/evil.example', '//evil.example', '/\\evil.example', 'https://evil.example/admin', '%2F%2Fevil.example']) {
    await page.context().clearCookies()
    await page.goto(`/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Password').fill(user.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    // Wherever it lands, it is this site, past the sign-in: the admin, or a page of ours that does not exist.
    await page.waitForURL((url) => url.pathname !== '/signin', { timeout: 10_000 })
    expect(new URL(page.url()).origin, callbackUrl).toBe(origin)
  }
})

test('the sign-in page shows only the errors it knows, never the text of ?error=', async ({ page }) => {
  await page.goto('/signin?error=Your%20account%20is%20locked.%20Call%20%2B1%20555%200100')
  const error = page.locator('#sign-in-error')
  await expect(error).toHaveText('Sign-in failed. Please try again.')
  await expect(page.getByText('555 0100')).toHaveCount(0)
  await page.goto('/signin?error=CredentialsSignin')
  await expect(error).toHaveText('The email address or password is incorrect.')
  await page.goto('/signin?error=__proto__')
  await expect(error).toHaveText('Sign-in failed. Please try again.')
})

test('signing out ends the session: the button on /signout works', async ({ page, baseURL, databaseUrl, uploadsDir }) => {
  const violations = watchViolations(page)
  const user = await newUser({ databaseUrl, uploadsDir, baseURL: baseURL! })
  await signIn(page, user)
  expect((await sessionOf(page)).user?.email).toBe(user.email)
  await page.getByRole('link', { name: 'Sign out', exact: true }).click()
  await page.waitForURL('**/signout')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL((url) => url.pathname === '/')
  expect(await sessionOf(page)).toEqual({})
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin/)
  expect(violations).toEqual([])
})

test('"Sign out everywhere" ends the sessions of every browser at once', async ({ browser, page, baseURL, databaseUrl, uploadsDir }) => {
  const user = await newUser({ databaseUrl, uploadsDir, baseURL: baseURL! })
  const elsewhere = await browser.newPage({ baseURL })
  try {
    await signIn(elsewhere, user)
    await signIn(page, user)
    expect((await sessionOf(elsewhere)).user?.email).toBe(user.email)
    await page.getByRole('button', { name: 'Sign out everywhere' }).click()
    await page.waitForURL((url) => url.pathname === '/signin')
    expect(await sessionOf(page)).toEqual({})
    expect(await sessionOf(elsewhere), 'the other browser is signed out too').toEqual({})
    await elsewhere.goto('/admin')
    await expect(elsewhere).toHaveURL(/\/signin/)
    // Signing in again works, and starts a session the earlier "everywhere" does not touch.
    await signIn(elsewhere, user)
    expect((await sessionOf(elsewhere)).user?.email).toBe(user.email)
  } finally {
    await elsewhere.close()
  }
})

test('no page of the app has its scripts blocked by its CSP', async ({ page, baseURL, databaseUrl, uploadsDir }) => {
  test.setTimeout(60_000)
  const violations = watchViolations(page)
  const admin = await newUser({ databaseUrl, uploadsDir, baseURL: baseURL! }, 'administrator')
  const pages = ['/', '/signin', '/signout', '/no-such-type/no-such-page']
  await page.goto('/')
  pages.push((await page.locator('ul a[href*="/post/"]').first().getAttribute('href'))!)
  for (const path of pages) {
    await page.goto(path, { waitUntil: 'networkidle' })
    await page.screenshot({ path: test.info().outputPath(`${path.replace(/\W+/g, '-')}.png`) })
  }
  await signIn(page, admin)
  const id = await createPost(page, uniqueTitle('CSP check'))
  for (const path of ['/admin', '/admin/posts/new', `/admin/posts/${id}`, '/admin/users', '/admin/app-passwords', '/signout']) {
    await page.goto(path, { waitUntil: 'networkidle' })
  }
  expect(violations).toEqual([])
})
