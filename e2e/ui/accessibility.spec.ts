import type { Page, TestInfo } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { getCollection } from '../support/http'
import { expect, test } from '../support/test'
import { signIn } from '../support/ui-admin'

// axe-core, in real Chromium, on every kind of page: the public ones a visitor opens and the admin's (e2e/support/axe.ts
// says which rules); a violation fails the test with what and where.

async function expectNoViolations(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const found = await axeViolations(page)
  const file = testInfo.outputPath(`${name}.png`)
  // The whole of a long page; the map's pages are the screen's height, their list scrolling inside it: a full-page
  // capture would lay them out again as tall as that list, a map no visitor sees.
  await page.screenshot({ path: file, fullPage: (await page.locator('.map-page').count()) === 0 })
  await testInfo.attach(name, { path: file, contentType: 'image/png' })
  expect(found, `axe found on ${page.url()}`).toEqual([])
}

// axe reads every node of each page, six or more pages a test: on a machine busy with other tests that passes 30 s.
test.slow()

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
})

test('the public pages have no accessibility violations', async ({ page, request }, testInfo) => {
  await page.goto('/')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await expectNoViolations(page, testInfo, 'map')

  // With a popup open, as a visitor leaves it.
  await page
    .getByRole('button', { name: /^Show on map: / })
    .first()
    .click()
  await expect(page.locator('.leaflet-popup-content a')).toBeVisible()
  // Leaflet fades a popup in (opacity over 0.2 s): its contrast is measured once it is opaque, as a visitor reads it.
  await expect(page.locator('.leaflet-popup')).toHaveCSS('opacity', '1')
  await expectNoViolations(page, testInfo, 'map-popup')

  await page.goto('/embed')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await expectNoViolations(page, testInfo, 'embed')

  const feature = (await getCollection(request, '?posts_per_page=20')).features.find((candidate) => candidate.geometry)
  await page.goto(feature!.properties.url)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(feature!.properties.title)
  // Its map is made when it comes near the screen: checked with the rest.
  await page.locator('.post-map-frame').scrollIntoViewIfNeeded()
  await expect(page.locator('.post-map')).toHaveCount(1)
  await expectNoViolations(page, testInfo, 'post')

  await page.goto('/signin')
  await expectNoViolations(page, testInfo, 'signin')

  const missing = await page.goto('/post/no-such-post-anywhere')
  expect(missing?.status()).toBe(404)
  await expectNoViolations(page, testInfo, 'not-found')
})

test('the OGC API as a person browses it: from its landing page to a place, in HTML, styled, without violations', async ({ page }, testInfo) => {
  const blocked: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') blocked.push(message.text())
  })
  // A browser asks for text/html first: it gets the pages, without ?f=html.
  await page.goto('/ogc')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Places')
  // The inline style is allowed by the CSP's hash: the header has its border.
  await expect(page.locator('header')).toHaveCSS('border-bottom-style', 'solid')
  await expectNoViolations(page, testInfo, 'ogc-landing')
  await page.getByRole('link', { name: 'The collections' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Collections')
  await expectNoViolations(page, testInfo, 'ogc-collections')
  await page.getByRole('link', { name: 'Posts', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Posts')
  await expectNoViolations(page, testInfo, 'ogc-collection')
  await page.getByRole('link', { name: 'Browse its places' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Places of Posts')
  await expect(page.getByText(/^Places 1–10 of \d+, newest first\.$/)).toBeVisible()
  await page.getByRole('link', { name: 'Next →' }).click()
  await expect(page.getByText(/^Places 11–20 of \d+, newest first\.$/)).toBeVisible()
  await expectNoViolations(page, testInfo, 'ogc-items')
  const first = page.locator('tbody tr').first()
  const title = (await first.locator('td').nth(1).textContent())!
  await first.locator('td').first().getByRole('link').click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link')).toHaveText(['OGC API', 'Collections', 'Posts', 'Places'])
  await expectNoViolations(page, testInfo, 'ogc-item')
  // Its JSON link is the GeoJSON feature.
  await page.getByRole('link', { name: 'GeoJSON' }).click()
  await expect(page.locator('body')).toContainText('"type":"Feature"')
  expect(blocked).toEqual([])
})

test('the admin pages have no accessibility violations', async ({ page, request }, testInfo) => {
  await signIn(page, 'administrator')
  await expectNoViolations(page, testInfo, 'admin-posts')

  const [feature] = (await getCollection(request, '?posts_per_page=1')).features
  await page.goto(`/admin/posts/${feature!.properties.id}`)
  await expect(page.getByLabel('Title')).toHaveValue(feature!.properties.title)
  await expectNoViolations(page, testInfo, 'admin-editor')

  for (const [path, name] of [
    ['/admin/posts/new', 'admin-new-post'],
    ['/admin/users', 'admin-users'],
    ['/admin/app-passwords', 'admin-app-passwords'],
    ['/admin/zones', 'admin-zones'],
    ['/admin/export', 'admin-export'],
    ['/admin/import', 'admin-import'],
  ] as const) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expectNoViolations(page, testInfo, name)
  }
})
