import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { axeViolations } from '../support/axe'
import { expect, test } from '../support/test'

// The map's Download menu (app/_components/download-menu.tsx) in real Chromium against the ui server's demo places:
// the file it gives holds the places the map shows in view, with its filter and search.

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
})

async function openMap(page: Page, query: string): Promise<void> {
  await page.goto(`/${query}`)
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
}

type Collection = { features: { geometry: { coordinates: number[] } | null; properties: { id: number; title: string } }[] }

/** The file a Download link gives, saved as the browser saves it. */
async function download(page: Page, name: string): Promise<{ file: string; text: string }> {
  const [saved] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name, exact: true }).click()])
  return { file: saved.suggestedFilename(), text: readFileSync(await saved.path(), 'utf8') }
}

test('Download gives the places in view, with the search, as GeoJSON, KML, GPX and CSV; keyboard and axe', async ({ page, request }, testInfo) => {
  await openMap(page, '?zoom=11&lat=48.8566&lng=2.3429&search=paris')
  const inView = Number((await page.locator('.place-count').textContent())!.match(/^(\d+) places? in view/)![1])
  expect(inView).toBeGreaterThan(1)
  const listed = await page.locator('.place-list > li .place-title').allTextContents()

  // With the keyboard: Tab to Download, Enter opens the formats, Tab reaches them, Escape closes and comes back.
  const button = page.getByRole('button', { name: 'Download' })
  // From the map (the skip link's target): the panel before it has a Tab stop per kind of place, which other specs add.
  await page.locator('.places-map').focus()
  for (let tabs = 0; tabs < 10 && !(await button.evaluate((el) => el === document.activeElement)); tabs++) await page.keyboard.press('Tab')
  await expect(button).toBeFocused()
  await expect(button).toHaveAttribute('aria-expanded', 'false')
  await page.keyboard.press('Enter')
  await expect(button).toHaveAttribute('aria-expanded', 'true')
  await page.keyboard.press('Tab')
  await expect(page.getByRole('link', { name: 'GeoJSON', exact: true })).toBeFocused()
  await page.screenshot({ path: testInfo.outputPath('download-menu.png') })
  expect(await axeViolations(page)).toEqual([])
  await page.keyboard.press('Escape')
  await expect(page.getByRole('link', { name: 'GeoJSON', exact: true })).toBeHidden()
  await expect(button).toBeFocused()

  await button.click()
  const geojson = await download(page, 'GeoJSON')
  expect(geojson.file).toBe('places-post.geojson')
  await expect(page.getByRole('link', { name: 'GeoJSON', exact: true }), 'a format chosen closes the list').toBeHidden()
  const features = (JSON.parse(geojson.text) as Collection).features
  // The places of the map's list, all of them (the list shows a page), and what /geojson gives for the same view.
  expect(features.length).toBe(inView)
  const titles = features.map((f) => f.properties.title)
  for (const title of listed) expect(titles).toContain(title)
  const href = (await page.getByRole('link', { name: 'GeoJSON', exact: true, includeHidden: true }).getAttribute('href'))!
  const params = new URL(href, 'http://x').searchParams
  expect(params.get('search')).toBe('paris')
  const map = (await (await request.get(`/places/v1/geojson?search=paris&bbox=${params.get('bbox')}&posts_per_page=500`)).json()) as Collection & {
    total: number
  }
  expect(map.total).toBe(inView)
  expect(features.map((f) => [f.properties.id, f.geometry?.coordinates])).toEqual(map.features.map((f) => [f.properties.id, f.geometry?.coordinates]))

  await button.click()
  const kml = await download(page, 'KML')
  expect(kml.file).toBe('places-post.kml')
  expect(kml.text.match(/<Placemark /g)).toHaveLength(inView)
  await button.click()
  const gpx = await download(page, 'GPX')
  expect(gpx.text.match(/<wpt /g)).toHaveLength(inView)
  await button.click()
  const csv = await download(page, 'CSV')
  expect(csv.text.split('\n')[0]).toBe('id,title,latitude,longitude,address,content,excerpt,date,categories,tags,slug,post_type,url')
  for (const title of listed) expect(csv.text).toContain(title.includes(',') ? `"${title}"` : title)

  // A click elsewhere closes the list.
  await button.click()
  await expect(page.getByRole('link', { name: 'CSV', exact: true })).toBeVisible()
  await page.locator('.place-count').click()
  await expect(page.getByRole('link', { name: 'CSV', exact: true })).toBeHidden()
})
