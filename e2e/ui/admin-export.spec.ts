import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { xml } from '../support/feeds'
import { expect, test } from '../support/test'
import { createPost, signIn, uniqueTitle } from '../support/ui-admin'

// Tools → Export at /admin/export (lib/admin/export.ts): the whole site, drafts and all, for administrators only.

async function download(page: Page): Promise<{ name: string; text: string }> {
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download export file' }).click()])
  return { name: saved.suggestedFilename(), text: readFileSync(await saved.path(), 'utf8') }
}

test('an administrator downloads the whole site, a draft too, as a WordPress export and as GeoJSON', async ({ page }, testInfo) => {
  await signIn(page, 'administrator')
  const title = uniqueTitle('Exported draft')
  const id = await createPost(page, title)
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Export' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Export' })).toBeVisible()
  await expect(page.getByLabel('WordPress (WXR)')).toBeChecked()
  await page.screenshot({ path: testInfo.outputPath('admin-export.png'), fullPage: true })
  expect(await axeViolations(page)).toEqual([])

  const wxr = await download(page)
  expect(wxr.name).toMatch(/^places\.WordPress\.\d{4}-\d{2}-\d{2}\.xml$/)
  const document = xml(wxr.text)
  const items = Array.from(document.getElementsByTagName('item'))
  const draft = items.find((item) => item.getElementsByTagName('wp:post_id')[0]?.textContent === String(id))
  expect(draft?.getElementsByTagName('title')[0]?.textContent).toBe(title)
  expect(draft?.getElementsByTagName('wp:status')[0]?.textContent).toBe('draft')
  expect(document.getElementsByTagName('title')[0]?.textContent, "the channel: the site's name").toBe('Places')
  expect(document.getElementsByTagName('wp:category').length).toBeGreaterThan(5)

  await page.getByLabel('GeoJSON').check()
  const geojson = await download(page)
  expect(geojson.name).toMatch(/^places\.places\.\d{4}-\d{2}-\d{2}\.geojson$/)
  const features = (JSON.parse(geojson.text) as { features: { properties: { id: number; status: string; location_precision?: string } }[] }).features
  expect(features.find((f) => f.properties.id === id)?.properties.status).toBe('draft')
  expect(
    features.every((f) => f.properties.location_precision !== undefined),
    'levels are named: the full copy',
  ).toBe(true)
})

test('the export is for administrators: an editor has no menu item, and neither the page nor the file is found; signed out, the file asks to sign in', async ({
  page,
  browser,
}) => {
  await signIn(page, 'editor')
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Posts' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Export' })).toHaveCount(0)
  expect((await page.goto('/admin/export'))!.status()).toBe(404)
  for (const format of ['wxr', 'geojson']) {
    const response = await page.request.get(`/admin/export/file?format=${format}`)
    expect(response.status(), format).toBe(404)
    expect(await response.text()).not.toContain('<rss')
  }

  const signedOut = await browser.newContext()
  try {
    const response = await signedOut.request.get(`${new URL(page.url()).origin}/admin/export/file?format=wxr`, { maxRedirects: 0 })
    expect(response.status()).toBe(303)
    expect(response.headers().location).toMatch(/\/signin\?callbackUrl=%2Fadmin%2Fexport$/)
  } finally {
    await signedOut.close()
  }
})
