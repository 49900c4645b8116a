import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { expect, test } from '../support/test'
import { createPost, photo, signIn, uniqueTitle } from '../support/ui-admin'

// The browser side of security: a nonce-based Content-Security-Policy that no page of ours breaks, the usual
// headers on every answer, and a session cookie that counts for nothing in a request another site makes.

function watchViolations(page: Page): string[] {
  const violations: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text())) violations.push(message.text())
  })
  return violations
}

test('pages send a nonce-based CSP, and the map, sign-in, a post page and the admin run under it', async ({ page }) => {
  const violations = watchViolations(page)
  const response = await page.goto('/')
  const policy = response!.headers()['content-security-policy']!
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/)
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/)
  expect(policy).toContain("frame-ancestors 'none'")
  expect(policy).toContain("object-src 'none'")
  const nonce = /'nonce-([^']+)'/.exec(policy)![1]
  expect((await page.goto('/'))!.headers()['content-security-policy']).not.toContain(nonce!)
  await expect(page.locator('[data-ready="true"], .leaflet-container').first()).toBeVisible()
  const link = page.locator('ul a[href*="/post/"]').first()
  await page.goto((await link.getAttribute('href'))!)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await signIn(page, 'editor')
  await expect(page).toHaveURL(/\/admin/)
  expect(violations).toEqual([])
})

test('the usual security headers on pages, API answers and images', async ({ request }) => {
  for (const path of ['/', '/signin', '/places/v1/geojson', '/places/v1/geojson/999999', '/ogc', '/healthz']) {
    const headers = (await request.get(path)).headers()
    expect(headers['x-content-type-options'], path).toBe('nosniff')
    expect(headers['x-frame-options'], path).toBe('DENY')
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin')
    expect(headers['x-powered-by'], path).toBeUndefined()
  }
})

test('a signed-in session counts for nothing in an upload another site sends', async ({ page, baseURL }) => {
  await signIn(page, 'editor')
  const postId = await createPost(page, uniqueTitle('CSRF target'))
  const cookies = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join('; ')
  const upload = (origin: string) =>
    page.request.post(`/places/v1/media?post=${postId}`, {
      data: readFileSync(photo('exr_noexif.jpg')),
      headers: { Cookie: cookies, Origin: origin, 'Content-Type': 'image/jpeg', 'Content-Disposition': 'attachment; filename="csrf.jpg"' },
    })
  expect((await upload('https://evil.example')).status()).toBe(401)
  expect((await upload(baseURL!)).status()).toBe(201)
})
