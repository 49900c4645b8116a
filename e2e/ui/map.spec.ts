import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Locator, Page, TestInfo } from '@playwright/test'
import { expect, test } from '../support/test'

// The public map (app/page.tsx) in real Chromium against the ui server's demo places. Map tiles cannot load on
// these machines (no internet); the tests block them anyway, so that they mean the same everywhere.

const ROOT = path.resolve(__dirname, '..', '..')

type DemoFeature = {
  geometry: { coordinates: [number, number] } | null
  properties: { title: string; type?: string; status?: string; geo_public?: boolean; categories?: string[] }
}
const demo: DemoFeature[] = JSON.parse(readFileSync(path.join(ROOT, 'prisma', 'demo', 'places.geojson'), 'utf8')).features
const demoPlaces = demo.filter(
  (f) => f.geometry && (f.properties.type ?? 'post') === 'post' && (f.properties.status ?? 'publish') === 'publish' && f.properties.geo_public !== false,
)

test.beforeEach(async ({ page }) => {
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'))
})

async function openMap(page: Page, query = ''): Promise<void> {
  await page.goto(`/${query}`)
  await expectReady(page)
}

async function expectReady(page: Page): Promise<void> {
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
}

const count = (page: Page) => page.locator('.place-count')
const popupLink = (page: Page) => page.locator('.leaflet-popup-content a')

async function keep(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = testInfo.outputPath(`${name}.png`)
  await page.screenshot({ path: file })
  await testInfo.attach(name, { path: file, contentType: 'image/png' })
}

/** The centre of the first marker matching `selector` that lies wholly inside the map, for a real mouse click. */
async function markerInView(page: Page, selector: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate((selector) => {
    const map = document.querySelector('.places-map')!.getBoundingClientRect()
    for (const marker of document.querySelectorAll(selector)) {
      const box = marker.getBoundingClientRect()
      if (box.width > 0 && box.left >= map.left + 4 && box.right <= map.right - 4 && box.top >= map.top + 4 && box.bottom <= map.bottom - 4) {
        return { x: box.left + box.width / 2, y: box.top + box.height / 2 }
      }
    }
    return null
  }, selector)
}

/** Clicks clusters (each zooms in) until a single place's marker is in view, and returns where it is. */
async function zoomToAPlace(page: Page): Promise<{ x: number; y: number }> {
  for (let clicks = 0; clicks < 12; clicks++) {
    const place = await markerInView(page, 'path.place-marker')
    if (place) return place
    const cluster = await markerInView(page, '.cluster-marker')
    if (!cluster) break
    const before = page.url()
    await page.mouse.click(cluster.x, cluster.y)
    await expect.poll(() => page.url(), { message: 'a click on a cluster zooms in' }).not.toBe(before)
    await expectReady(page)
  }
  throw new Error('no single place came into view')
}

test('a visitor opens the map, sees every demo place, opens a popup and follows it to the post', async ({ page, request }, testInfo) => {
  await openMap(page)
  // The first view fits every place: all of them are counted in view, and drawn as clusters and markers.
  await expect(page.locator('.cluster-marker').first()).toBeVisible()
  const inView = Number((await count(page).textContent())!.match(/^([\d,]+) places in view/)![1]!.replace(/,/g, ''))
  const all = (await (await request.get('/places/v1/geojson?cluster=true&zoom=0')).json()) as { total: number }
  // (Other specs of this server may add places meanwhile: the map saw at least the demo's, at most all there are now.)
  expect(inView).toBeGreaterThanOrEqual(demoPlaces.length)
  expect(inView).toBeLessThanOrEqual(all.total)
  await expect(page.locator('.place-list li')).toHaveCount(50)
  await expect(page.getByRole('button', { name: 'Show more places' })).toBeVisible()
  await keep(page, testInfo, 'map')

  // Clusters zoom in on a click, down to single places; a place's marker opens its popup.
  const marker = await zoomToAPlace(page)
  await page.mouse.click(marker.x, marker.y)
  await expect(popupLink(page)).toBeVisible()
  const title = (await popupLink(page).textContent())!
  expect(demoPlaces.map((f) => f.properties.title)).toContain(title)
  await keep(page, testInfo, 'map-popup')

  await popupLink(page).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
})

test('the list of places in view works with the keyboard alone', async ({ page }, testInfo) => {
  // Paris: a few dozen places in view.
  await openMap(page, '?zoom=12&lat=48.8566&lng=2.3429')
  const first = page.locator('.place-list li').first()
  const title = (await first.locator('a').textContent())!
  const show = first.getByRole('button', { name: `Show on map: ${title}` })

  // From the top of the page, Tab reaches the filter, then the first place's link and its button.
  await page.locator('body').focus()
  for (let tabs = 0; tabs < 10 && !(await show.evaluate((el) => el === document.activeElement)); tabs++) await page.keyboard.press('Tab')
  await expect(show).toBeFocused()

  // Enter opens the place's popup and moves into it; Escape closes it and comes back.
  await page.keyboard.press('Enter')
  await expect(popupLink(page)).toBeFocused()
  await expect(popupLink(page)).toHaveText(title)
  await keep(page, testInfo, 'map-keyboard-popup')
  await page.keyboard.press('Escape')
  await expect(popupLink(page)).toHaveCount(0)
  await expect(show).toBeFocused()

  // Shift+Tab back to the place's link; Enter follows it.
  await page.keyboard.press('Shift+Tab')
  await expect(first.getByRole('link', { name: title })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
})

test('the list is announced: a live count of the places in view', async ({ page }) => {
  await openMap(page, '?zoom=12&lat=48.8566&lng=2.3429')
  const status = page.getByRole('status').filter({ hasText: 'in view' })
  await expect(status).toHaveAttribute('aria-live', 'polite')
  await expect(status).toHaveText(/^\d+ places? in view/)
  const before = await status.textContent()
  // Zoom out with the keyboard, on the map itself: the count follows the view.
  await page.locator('.places-map').focus()
  await page.keyboard.press('-')
  await page.keyboard.press('-')
  await expect(status).not.toHaveText(before!)
})

test('the address keeps the view and the category: a link reopens the same map', async ({ page }, testInfo) => {
  await openMap(page, '?zoom=5&lat=48&lng=5')
  await page.getByRole('button', { name: 'Zoom in' }).click()
  await expect.poll(() => new URL(page.url()).searchParams.get('zoom')).toBe('6')
  await expectReady(page)

  const landmarks = page.getByLabel('Category')
  const option = landmarks.locator('option', { hasText: 'Landmarks' })
  const id = await option.getAttribute('value')
  await landmarks.selectOption(id)
  await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe(id)
  await expectReady(page)
  // Let the view settle (choosing a category fits its places: a move, which writes the address and loads its view
  // again), then take the link: settled is loaded, not moving, and the same address at two polls in a row.
  let previous = ''
  await expect
    .poll(async () => {
      const url = page.url()
      const settled =
        url === previous &&
        (await page.locator('.map-app[data-ready="true"]').count()) === 1 &&
        (await page.locator('.leaflet-pan-anim, .leaflet-zoom-anim').count()) === 0
      previous = url
      return settled
    })
    .toBe(true)
  const link = page.url()
  const params = new URL(link).searchParams
  expect([...params.keys()].sort()).toEqual(['category', 'lat', 'lng', 'zoom'])
  const counted = await count(page).textContent()
  const listed = await page.locator('.place-list li a').allTextContents()
  expect(listed.length).toBeGreaterThan(0)
  const demoListed = listed.flatMap((title) => demo.filter((f) => f.properties.title === title))
  expect(demoListed.length).toBeGreaterThan(0)
  for (const feature of demoListed) expect(feature.properties.categories, feature.properties.title).toContain('Landmarks')

  await page.goto(link)
  await expectReady(page)
  expect(page.url()).toBe(link)
  await expect(landmarks).toHaveValue(id!)
  await expect(count(page)).toHaveText(counted!)
  await expect(page.locator('.place-list li a')).toHaveText(listed)
  await keep(page, testInfo, 'map-category')
})

test("titles and addresses are text, never markup: Ben & Jerry's, and a <script> title", async ({ page, databaseUrl }, testInfo) => {
  // A post type of this test's own, so that no other test of the shared server sees the post.
  const postType = `map-${Date.now().toString(36)}`
  const title = `<script>window.__mapXss = 1</script><img src=x onerror="window.__mapXss = 2"> & "Co"`
  const address = "<b>1 Rue de l'Église</b> & fils"
  const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-map-'))
  try {
    const file = path.join(dir, 'xss.geojson')
    await writeFile(
      file,
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [6.1432, 46.2044] },
            properties: { title, address, type: postType, slug: 'markup-title' },
          },
        ],
      }),
    )
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin', 'places.mjs'), 'import', file], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: '1' },
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }

  await openMap(page, `?post_type=${postType}`)
  const item = page.locator('.place-list li')
  await expect(item).toHaveCount(1)
  await expect(item.locator('a')).toHaveText(title)
  await expect(item.locator('.place-address')).toHaveText(address)
  await item.getByRole('button').click()
  await expect(popupLink(page)).toHaveText(title)
  await expect(page.locator('.place-popup-address')).toHaveText(address)
  await expect(page.locator('img[src="x"], .leaflet-popup-content b')).toHaveCount(0)
  expect(await page.evaluate(() => (window as { __mapXss?: number }).__mapXss)).toBeUndefined()
  await keep(page, testInfo, 'map-markup-title')

  await openMap(page, '?zoom=14&lat=44.3537&lng=-72.7397')
  const ben = page.locator('.place-list li').filter({ hasText: 'Ben & Jerry' })
  await expect(ben.locator('a')).toHaveText("Ben & Jerry's Factory")
  await ben.getByRole('button').click()
  await expect(popupLink(page)).toHaveText("Ben & Jerry's Factory")
})

test('without map tiles the map still works: markers, popups, the list, and a notice', async ({ page }, testInfo) => {
  const failed: string[] = []
  page.on('requestfailed', (request) => failed.push(request.url()))
  await openMap(page, '?zoom=13&lat=51.5072&lng=-0.1276')
  expect(
    failed.some((url) => /tile\.openstreetmap\.org/.test(url)),
    'tiles were asked for, and failed',
  ).toBe(true)
  await expect(page.getByText('The background map could not be loaded')).toBeVisible()
  const marker = await zoomToAPlace(page)
  await page.mouse.click(marker.x, marker.y)
  await expect(popupLink(page)).toBeVisible()
  await expect(page.locator('.place-list li').first()).toBeVisible()
  await keep(page, testInfo, 'map-no-tiles')
})

test('more places than a page: "Show more places" adds the next ones', async ({ page }) => {
  await openMap(page)
  const items: Locator = page.locator('.place-list li')
  await expect(items).toHaveCount(50)
  const more = page.getByRole('button', { name: 'Show more places' })
  await more.focus()
  await page.keyboard.press('Enter')
  await expect(items).toHaveCount(100)
  const titles = await items.locator('a').allTextContents()
  expect(new Set(titles).size, 'no place twice').toBe(100)
})
