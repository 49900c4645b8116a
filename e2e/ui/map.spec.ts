import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type { Locator, Page, TestInfo } from '@playwright/test'
import sharp from 'sharp'
import { axeViolations } from '../support/axe'
import { importMedia, importPosts } from '../support/places-cli'
import { CORPUS_DIR, PHOTOS } from '../support/media'
import { uiUser } from '../support/users'
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

/**
 * The centre of the first marker matching `selector` that lies wholly inside the map, and is not under what floats
 * over it (the legend, a notice), for a real mouse click.
 */
async function markerInView(page: Page, selector: string): Promise<{ x: number; y: number } | null> {
  return page.evaluate((selector) => {
    const map = document.querySelector('.places-map')!.getBoundingClientRect()
    for (const marker of document.querySelectorAll(selector)) {
      const box = marker.getBoundingClientRect()
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2]
      const inside = box.width > 0 && box.left >= map.left + 4 && box.right <= map.right - 4 && box.top >= map.top + 4 && box.bottom <= map.bottom - 4
      if (inside && marker.contains(document.elementFromPoint(x, y))) return { x, y }
    }
    return null
  }, selector)
}

/** Clicks clusters (each lists its places and offers to zoom in) until a single place's marker is in view, and returns where it is. */
async function zoomToAPlace(page: Page): Promise<{ x: number; y: number }> {
  for (let clicks = 0; clicks < 12; clicks++) {
    const place = await markerInView(page, '.place-marker')
    if (place) return place
    const cluster = await markerInView(page, '.cluster-marker')
    if (!cluster) break
    const before = page.url()
    await page.mouse.click(cluster.x, cluster.y)
    await page.locator('.group-popup').getByRole('button', { name: 'Zoom in' }).click()
    await expect.poll(() => page.url(), { message: "the cluster's Zoom in zooms in" }).not.toBe(before)
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
  // By its name: a place inside a cluster is gone to, and the list then follows the new view.
  const item = page
    .locator('.place-list > li')
    .filter({ has: page.getByRole('link', { name: title, exact: true }) })
    .first()
  const show = item.getByRole('button', { name: `Show on map: ${title}` })

  // From the search (the kinds of places before it are a Tab stop each, and other specs add kinds), Tab reaches the
  // filter, the skip link past the list, the timeline (its bars, one stop, and two days of three fields each), then the
  // first place's link and its button.
  await page.getByRole('searchbox', { name: 'Search titles and addresses' }).focus()
  for (let tabs = 0; tabs < 16 && !(await show.evaluate((el) => el === document.activeElement)); tabs++) await page.keyboard.press('Tab')
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
  await expect(item.getByRole('link', { name: title })).toBeFocused()
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

/** `#rrggbb` as the browser computes a colour, `rgb(r, g, b)`. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`

/** The paints of the markers drawn (`--paint`: a colour, or a conic gradient of several), by kind. */
async function markerPaints(page: Page): Promise<{ places: string[]; clusters: string[] }> {
  const paints = (selector: string) =>
    page.locator(selector).evaluateAll((spans) => spans.map((span) => (span as HTMLElement).style.getPropertyValue('--paint').trim()))
  return { places: await paints('.place-marker span'), clusters: await paints('.cluster-marker span, .stack-marker span') }
}

/** Each colour a paint is made of, as the browser computes it. */
const colorsOfPaint = (paint: string) => (paint.match(/#[0-9a-f]{6}/g) ?? []).map(rgb)

test("places in their category's colour, clusters ringed with their mix; the legend names the colours and filters the map", async ({ page }, testInfo) => {
  await openMap(page, '?zoom=4&lat=48&lng=5')
  const legend = page.getByRole('list', { name: 'Categories: show one' })
  await expect(legend).toBeVisible()
  // Its entries: the top-level categories of the demo's posts (and of other tests' places), by name, each with its colour.
  const tops = [...new Set(demoPlaces.flatMap((f) => (f.properties.categories ?? []).map((path) => path.split(' > ')[0]!)))]
  const entries = legend.getByRole('button')
  const names = await entries.allTextContents()
  expect(names).toEqual(expect.arrayContaining(tops))
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })))
  const swatches = new Map(
    await entries.evaluateAll((buttons) =>
      buttons.map((button) => [button.textContent.trim(), getComputedStyle(button.querySelector('.map-legend-swatch')!).backgroundColor] as const),
    ),
  )
  const legendColors = new Set(swatches.values())
  // The demo's, the first made, take the palette's first colours: each its own.
  expect(new Set(tops.map((top) => swatches.get(top))).size, "the demo's top-level categories apart by colour").toBe(tops.length)

  const { places, clusters } = await markerPaints(page)
  expect(places.length).toBeGreaterThan(0)
  expect(
    clusters.some((paint) => paint.startsWith('conic-gradient(')),
    'a cluster of places of several categories shows its mix',
  ).toBe(true)
  for (const paint of [...places, ...clusters]) {
    for (const color of colorsOfPaint(paint)) expect([...legendColors, rgb('#2271b1')], paint).toContain(color)
  }
  expect(new Set(places).size, 'places of different categories apart').toBeGreaterThan(1)
  await keep(page, testInfo, 'map-colours')

  // The legend is the category filter: one press shows that category alone, in its colour; a second, all again.
  const landmarks = legend.getByRole('button', { name: 'Landmarks' })
  await landmarks.click()
  await expect(landmarks).toHaveAttribute('aria-pressed', 'true')
  const id = await page.getByLabel('Category').locator('option', { hasText: 'Landmarks' }).getAttribute('value')
  await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe(id)
  await expect(page.getByLabel('Category')).toHaveValue(id!)
  await expectReady(page)
  await expect
    .poll(async () => {
      const { places, clusters } = await markerPaints(page)
      return [...new Set([...places, ...clusters].flatMap(colorsOfPaint))]
    })
    .toEqual([swatches.get('Landmarks')])
  for (const title of await page.locator('.place-list li a.place-title').allTextContents()) {
    const feature = demo.find((f) => f.properties.title === title)
    if (feature) expect(feature.properties.categories, title).toContain('Landmarks')
  }
  await keep(page, testInfo, 'map-legend-filter')
  await landmarks.click()
  await expect(landmarks).toHaveAttribute('aria-pressed', 'false')
  await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBeNull()
  await expect(page.getByLabel('Category')).toHaveValue('')
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
  await expect(page.locator('.leaflet-popup-content .place-address')).toHaveText(address)
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
  // (The places may be drawn before the tiles' failures come in: a busy machine saw them after.)
  await expect.poll(() => failed.some((url) => /tile\.openstreetmap\.org/.test(url)), { message: 'tiles were asked for, and failed' }).toBe(true)
  await expect(page.getByText('The detailed background map could not be loaded')).toBeVisible()
  // The world layer stays under the failed tiles: the map is never a grey field, and credited alone.
  await expect(page.locator('.places-map')).toHaveAttribute('data-world', 'ready')
  await expect(page.locator('.leaflet-control-attribution')).toContainText('Natural Earth')
  await expect(page.locator('.leaflet-control-attribution')).not.toContainText('OpenStreetMap')
  // The map's own town names and finer outlines stand in for the tiles (README, The map).
  await expect(page.locator('.town-labels > span').filter({ hasText: /^London$/ })).toBeVisible()
  await expect(page.locator('.leaflet-control-attribution')).toContainText('GeoNames')
  await expect(page.locator('.places-map')).toHaveAttribute('data-world-scale', '2')
  const marker = await zoomToAPlace(page)
  await page.mouse.click(marker.x, marker.y)
  await expect(popupLink(page)).toBeVisible()
  await expect(page.locator('.place-list li').first()).toBeVisible()
  await keep(page, testInfo, 'map-no-tiles')
  await page.getByRole('button', { name: 'Close the notice' }).click()
  await expect(page.getByText('The detailed background map could not be loaded')).toHaveCount(0)
})

test('tiles that load are credited, and no notice is shown', async ({ page }) => {
  // A tile server of our own making: every tile the same grey square.
  const tile = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#dddddd' } })
    .png()
    .toBuffer()
  await page.route(/tile\.openstreetmap\.org/, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: tile }))
  await openMap(page, '?zoom=13&lat=51.5072&lng=-0.1276')
  await expect(page.locator('.leaflet-tile-loaded').first()).toBeAttached()
  await expect(page.locator('.leaflet-control-attribution')).toContainText('OpenStreetMap contributors')
  await expect(page.getByText('The detailed background map could not be loaded')).toHaveCount(0)
  // The tiles name the towns and draw the coasts: the site's own names and finer outlines are not asked for.
  await expect(page.locator('.leaflet-control-attribution')).not.toContainText('GeoNames')
  await expect(page.locator('.town-labels > span')).toHaveCount(0)
  await expect(page.locator('.places-map')).not.toHaveAttribute('data-world-scale', /./)
})

test('more places than a page: "Show more places" adds the next ones, each place once', async ({ page, databaseUrl }) => {
  // A post type of its own: places other tests publish meanwhile would move the pages. Dates tie in fives, so that
  // the pages also hold when the order rests on the tie-break.
  const postType = `more-${Date.now().toString(36)}`
  const titles = Array.from({ length: 120 }, (_, i) => `Place ${i + 1}`)
  await importPlaces(
    databaseUrl,
    titles.map((title, i) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-60 + i, (i % 20) * 2 - 20] },
      properties: { title, type: postType, slug: `more-${i + 1}`, date: new Date(Date.UTC(2024, 0, 1 + Math.floor(i / 5))).toISOString() },
    })),
  )
  await openMap(page, `?post_type=${postType}`)
  const items: Locator = page.locator('.place-list li')
  await expect(items).toHaveCount(50)
  // A newer place published meanwhile moves the pages by one: the second begins with the last place listed.
  await importPlaces(databaseUrl, [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [0, 0] },
      properties: { title: 'Newer', type: postType, slug: 'more-newer', date: '2025-01-01T00:00:00Z' },
    },
  ])
  const more = page.getByRole('button', { name: 'Show more places' })
  await more.focus()
  await page.keyboard.press('Enter')
  await expect(page.locator('.show-more')).toHaveText('Show more places')
  await expect(items).toHaveCount(99)
  await more.click()
  await expect(items).toHaveCount(120)
  await expect(more).toHaveCount(0)
  const listed = await items.locator('a').allTextContents()
  expect([...listed].sort(), 'every place once').toEqual([...titles].sort())
})

/** Imports places through the command line, under a post type of the test's own (no other test sees them). */
async function importPlaces(databaseUrl: string, features: object[]): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-map-'))
  try {
    const file = path.join(dir, 'places.geojson')
    await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features }))
    await promisify(execFile)(process.execPath, [path.join(ROOT, 'bin', 'places.mjs'), 'import', file], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: '1' },
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

test('search: the results in the list, the map fitted to them, the query in the address', async ({ page }, testInfo) => {
  await openMap(page, '?zoom=3&lat=0&lng=0')
  const search = page.getByRole('searchbox', { name: 'Search titles and addresses' })
  await search.fill('london')
  await search.press('Enter')
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('london')
  await expectReady(page)
  // Fitted to the London places: a city's zoom, centred there.
  await expect.poll(() => Number(new URL(page.url()).searchParams.get('zoom'))).toBeGreaterThanOrEqual(9)
  await expectReady(page)
  const expected = demoPlaces.filter((f) => /london/i.test(`${f.properties.title}\n${(f.properties as { address?: string }).address ?? ''}`))
  await expect(count(page)).toHaveText(new RegExp(`^${expected.length} places in view match “london”`))
  const titles = await page.locator('.place-list > li .place-title').allTextContents()
  expect(titles.sort()).toEqual(expected.map((f) => f.properties.title).sort())
  await keep(page, testInfo, 'map-search')

  // The address reopens the search.
  const link = page.url()
  await page.goto(link)
  await expectReady(page)
  await expect(page.getByRole('searchbox', { name: 'Search titles and addresses' })).toHaveValue('london')
  await expect(page.locator('.place-list > li')).toHaveCount(expected.length)
  await page.getByRole('button', { name: 'Clear the search' }).click()
  await expect.poll(() => new URL(page.url()).searchParams.has('search')).toBe(false)
})

test('Show on map at world zoom goes to the place, not to the cluster it is in', async ({ page }, testInfo) => {
  await openMap(page, '?zoom=2&lat=30&lng=0')
  // A demo place of the list that has no marker of its own at this zoom: it is inside a cluster. (Other specs add
  // posts to this server, which may come first in the list.)
  const drawn = await page.locator('.place-marker').evaluateAll((markers) => markers.map((marker) => marker.getAttribute('title')))
  const isDemo = (listed: string) => demoPlaces.some((f) => f.properties.title === listed)
  const title = (await page.locator('.place-list > li .place-title').allTextContents()).find((listed) => !drawn.includes(listed) && isDemo(listed))
  expect(title, 'a listed place inside a cluster').toBeTruthy()
  const place = demoPlaces.find((f) => f.properties.title === title)!
  await page
    .locator('.place-list')
    .getByRole('button', { name: `Show on map: ${title}` })
    .first() // other tests may add a post of the same title
    .click()
  await expect(popupLink(page)).toHaveText(title!)
  await expect.poll(() => Number(new URL(page.url()).searchParams.get('zoom'))).toBeGreaterThanOrEqual(15)
  const [longitude, latitude] = place.geometry!.coordinates
  const url = new URL(page.url())
  expect(Math.abs(Number(url.searchParams.get('lat')) - latitude)).toBeLessThan(0.01)
  expect(Math.abs(Number(url.searchParams.get('lng')) - longitude)).toBeLessThan(0.01)
  await expectReady(page)
  // Its own marker is drawn under the popup now, not a cluster's (other tests may add a post of the same title).
  await expect
    .poll(() =>
      page.locator('.place-marker').evaluateAll((markers, wanted) => markers.filter((marker) => marker.getAttribute('title') === wanted).length, title),
    )
    .toBeGreaterThanOrEqual(1)
  await keep(page, testInfo, 'map-show-on-map-from-world')
})

/** Where a point is drawn at `zoom`, in Web Mercator pixels (Leaflet's EPSG:3857, 256-pixel tiles). */
function pixelAt(longitude: number, latitude: number, zoom: number): { x: number; y: number } {
  const scale = 256 * 2 ** zoom
  const sin = Math.sin((latitude * Math.PI) / 180)
  return { x: ((longitude + 180) / 360) * scale, y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale }
}

test("a cluster's Zoom in goes where it splits, centred on its places, closer only while they all fit", async ({ page, request }, testInfo) => {
  await openMap(page, '?zoom=2&lat=30&lng=0')
  // The largest cluster wholly in view, and not under the legend.
  const largest = await page.evaluate(() => {
    const map = document.querySelector('.places-map')!.getBoundingClientRect()
    let best: { x: number; y: number; count: number } | null = null
    for (const marker of document.querySelectorAll('.cluster-marker')) {
      const box = marker.getBoundingClientRect()
      const [x, y] = [box.left + box.width / 2, box.top + box.height / 2]
      const count = Number(marker.textContent)
      if (box.left < map.left || box.right > map.right || box.top < map.top || box.bottom > map.bottom || !(count > (best?.count ?? 0))) continue
      if (marker.contains(document.elementFromPoint(x, y))) best = { x, y, count }
    }
    return best
  })
  expect(largest, 'a cluster in view at world zoom').not.toBeNull()
  // The same cluster as the API gives it at this zoom: where it splits, and the box of its places.
  type Cluster = { properties: { cluster?: boolean; point_count: number; expansion_zoom: number }; bbox: [number, number, number, number] }
  const clusters = ((await (await request.get('/places/v1/geojson?cluster=true&zoom=2')).json()) as { features: Cluster[] }).features.filter(
    (f) => f.properties.cluster && f.properties.point_count === largest!.count,
  )
  expect(clusters, 'one cluster of that count').toHaveLength(1)
  const { bbox, properties } = clusters[0]!
  await page.mouse.click(largest!.x, largest!.y)
  await expect(page.locator('.group-popup-title')).toHaveText(`${largest!.count} places`)
  await page.locator('.group-popup').getByRole('button', { name: 'Zoom in' }).click()
  await expect.poll(() => Number(new URL(page.url()).searchParams.get('zoom'))).toBeGreaterThan(2)
  await expectReady(page)
  await keep(page, testInfo, 'map-cluster-zoomed')

  const url = new URL(page.url())
  const [zoom, latitude, longitude] = ['zoom', 'lat', 'lng'].map((name) => Number(url.searchParams.get(name))) as [number, number, number]
  const [west, south, east, north] = bbox
  expect(zoom).toBeGreaterThanOrEqual(properties.expansion_zoom)
  expect(Math.abs(longitude - (west + east) / 2), 'centred on its places').toBeLessThan(0.01)
  expect(Math.abs(latitude - (south + north) / 2), 'centred on its places').toBeLessThan(0.01)
  const map = (await page.locator('.places-map').boundingBox())!
  const centre = pixelAt(longitude, latitude, zoom)
  const fits = [pixelAt(west, south, zoom), pixelAt(east, north, zoom)].every(
    (corner) => Math.abs(corner.x - centre.x) <= map.width / 2 && Math.abs(corner.y - centre.y) <= map.height / 2,
  )
  // Past the zoom where it splits only because all its places still fit.
  if (zoom > properties.expansion_zoom) expect(fits, 'every place of the cluster in view').toBe(true)
})

test('a search that nothing matches anywhere says so, not "in view"', async ({ page }) => {
  await openMap(page, '?zoom=12&lat=48.8566&lng=2.3429')
  const search = page.getByRole('searchbox', { name: 'Search titles and addresses' })
  await search.fill('no-such-place-anywhere')
  await search.press('Enter')
  await expectReady(page)
  // The demo has two kinds of places (posts and landmarks): the count names the one searched.
  await expect(count(page)).toHaveText('No posts match “no-such-place-anywhere”.')
  // One that matches elsewhere only: the map goes there, and the count is of the places in view.
  await search.fill('london')
  await search.press('Enter')
  await expect(count(page)).toHaveText(/^\d+ places in view match “london”/)
})

test('a skip link takes the keyboard past the list, to the map and its buttons', async ({ page }, testInfo) => {
  await openMap(page, '?zoom=4&lat=48&lng=5')
  await page.getByRole('searchbox', { name: 'Search titles and addresses' }).focus()
  const tabTo = async (target: Locator) => {
    for (let tabs = 0; tabs < 10 && !(await target.evaluate((el) => el === document.activeElement)); tabs++) await page.keyboard.press('Tab')
    await expect(target).toBeFocused()
  }
  const skip = page.getByRole('link', { name: 'Skip the list, to the map' })
  await tabTo(skip)
  await expect(skip).toBeVisible()
  await keep(page, testInfo, 'map-skip-link')
  await page.keyboard.press('Enter')
  await expect(page.locator('.places-map')).toBeFocused()
  await tabTo(page.getByRole('button', { name: 'Share' }))
})

test('the map and its list with the keyboard alone: filter, search, list, Show on map, popup, Escape back', async ({ page }, testInfo) => {
  await openMap(page, '?zoom=4&lat=48&lng=5')
  const tabTo = async (target: Locator) => {
    for (let tabs = 0; tabs < 20 && !(await target.evaluate((el) => el === document.activeElement)); tabs++) await page.keyboard.press('Tab')
    await expect(target).toBeFocused()
  }
  await page.locator('body').focus()
  const search = page.getByRole('searchbox', { name: 'Search titles and addresses' })
  await tabTo(search)
  await page.keyboard.type('paris')
  await page.keyboard.press('Enter')
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe('paris')
  await expectReady(page)

  const filter = page.getByLabel('Category')
  await tabTo(filter)
  const landmarks = await filter.locator('option', { hasText: 'Landmarks' }).getAttribute('value')
  await filter.selectOption(landmarks) // what arrow keys on a focused <select> do
  await expect.poll(() => new URL(page.url()).searchParams.get('category')).toBe(landmarks)
  await expectReady(page)

  const title = (await page.locator('.place-list > li .place-title').first().textContent())!
  const show = page
    .locator('.place-list')
    .getByRole('button', { name: `Show on map: ${title}` })
    .first()
  await tabTo(show)
  await page.keyboard.press('Enter')
  await expect(popupLink(page)).toBeFocused()
  await expect(popupLink(page)).toHaveText(title)
  await expect(page.locator('.leaflet-popup-content .place-date')).toBeVisible()
  await expect(page.locator('.leaflet-popup-content .place-categories')).toContainText('Landmarks')
  await keep(page, testInfo, 'map-keyboard-walk')
  await page.keyboard.press('Escape')
  await expect(popupLink(page)).toHaveCount(0)
  await expect(show).toBeFocused()
})

test('/embed, which has no list, with the keyboard alone: Tab to a marker, Enter opens it, Escape comes back', async ({ page }, testInfo) => {
  await page.goto('/embed?zoom=5&lat=48&lng=5')
  await expectReady(page)
  const focused = () => page.evaluate(() => document.activeElement?.className ?? '')
  const tabToMarker = async (kind: 'cluster' | 'place') => {
    for (let tabs = 0; tabs < 60 && !(await focused()).includes(`${kind}-marker`); tabs++) await page.keyboard.press('Tab')
    expect(await focused()).toContain(`${kind}-marker`)
  }
  await page.locator('body').focus()
  // A cluster: Enter lists its places, the first focused; Enter on one opens its popup, its link focused.
  await tabToMarker('cluster')
  const clusterTitle = await page.evaluate(() => document.activeElement!.getAttribute('title'))
  expect(clusterTitle).toMatch(/^\d+ places: list them$/)
  await page.keyboard.press('Enter')
  const firstListed = page.locator('.group-popup .group-list button').first()
  await expect(firstListed).toBeFocused()
  const title = (await firstListed.textContent())!
  await keep(page, testInfo, 'embed-keyboard-cluster')
  await page.keyboard.press('Enter')
  await expect(popupLink(page)).toBeFocused()
  await expect(popupLink(page)).toHaveText(title)
  // Escape closes it and gives the focus back to the cluster's marker.
  await page.keyboard.press('Escape')
  await expect(popupLink(page)).toHaveCount(0)
  await expect.poll(focused).toContain('cluster-marker')
  expect(await page.evaluate(() => document.activeElement!.getAttribute('title'))).toBe(clusterTitle)

  // A single place, nearer: Enter opens its popup; Escape comes back to it.
  await page.goto('/embed?zoom=13&lat=48.8566&lng=2.3429')
  await expectReady(page)
  await page.locator('body').focus()
  await tabToMarker('place')
  const placeTitle = await page.evaluate(() => document.activeElement!.getAttribute('title'))
  await page.keyboard.press('Enter')
  await expect(popupLink(page)).toBeFocused()
  await expect(popupLink(page)).toHaveText(placeTitle!)
  await keep(page, testInfo, 'embed-keyboard-place')
  await page.keyboard.press('Escape')
  await expect.poll(focused).toContain('place-marker')
})

test('axe finds nothing on the map, its list, a popup and the share dialog', async ({ page }) => {
  const violations = () => axeViolations(page)
  await openMap(page, '?zoom=12&lat=48.8566&lng=2.3429')
  expect(await violations()).toEqual([])
  await page.locator('.place-list > li').first().getByRole('button').click()
  await expect(popupLink(page)).toBeVisible()
  // Leaflet fades a popup in (opacity over 0.2 s): its contrast is measured once it is opaque, as a visitor reads it.
  await expect(page.locator('.leaflet-popup')).toHaveCSS('opacity', '1')
  expect(await violations()).toEqual([])
  await page.getByRole('button', { name: 'Share' }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  expect(await violations()).toEqual([])
})

test('a cluster lists its places; each opens its popup', async ({ page }, testInfo) => {
  await openMap(page, '?zoom=5&lat=48&lng=5')
  const cluster = await markerInView(page, '.cluster-marker')
  expect(cluster).not.toBeNull()
  await page.mouse.click(cluster!.x, cluster!.y)
  const popup = page.locator('.group-popup')
  await expect(popup.locator('.group-list li').first()).toBeVisible()
  const listed = popup.locator('.group-list li')
  const n = await listed.count()
  expect(n).toBeGreaterThan(1)
  expect(n).toBeLessThanOrEqual(10)
  // Exactly the cluster's places: those listed and the rest add up to its count.
  const count = Number((await popup.locator('.group-popup-title').textContent())!.replace(/\D/g, ''))
  // (Rendered with the list, which is shown by now.)
  const more = await popup.getByText(/^and [\d,]+ more\.$/).allTextContents()
  expect(n + Number(more.join('').replace(/\D/g, ''))).toBe(count)
  const title = (await listed.first().getByRole('button').textContent())!
  expect(demoPlaces.map((f) => f.properties.title)).toContain(title)
  await keep(page, testInfo, 'map-cluster-list')
  await listed.first().getByRole('button').click()
  await expect(popupLink(page)).toHaveText(title)
})

test('places at the same spot are one marker that lists them: each can be opened', async ({ page, databaseUrl }, testInfo) => {
  const postType = `stack-${Date.now().toString(36)}`
  const at = [7.4474, 46.9479] // Bern: the same point for both, and a third 1 m away
  await importPlaces(databaseUrl, [
    { type: 'Feature', geometry: { type: 'Point', coordinates: at }, properties: { title: 'Upstairs Café', type: postType, slug: 'upstairs' } },
    { type: 'Feature', geometry: { type: 'Point', coordinates: at }, properties: { title: 'Downstairs Bookshop', type: postType, slug: 'downstairs' } },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [at[0]! + 0.00001, at[1]!] },
      properties: { title: 'Next Door Bakery', type: postType, slug: 'next-door' },
    },
  ])
  await openMap(page, `?post_type=${postType}&zoom=19&lat=${at[1]}&lng=${at[0]}`)
  const stack = await markerInView(page, '.stack-marker')
  expect(stack, 'one marker for the three').not.toBeNull()
  await expect(page.locator('.stack-marker')).toHaveText('3')
  await page.mouse.click(stack!.x, stack!.y)
  const listed = page.locator('.group-popup .group-list li')
  await expect(listed).toHaveCount(3)
  await keep(page, testInfo, 'map-same-spot')
  for (const title of ['Upstairs Café', 'Downstairs Bookshop', 'Next Door Bakery']) {
    await page.mouse.click(stack!.x, stack!.y)
    await page.locator('.group-popup').getByRole('button', { name: title }).click()
    await expect(popupLink(page)).toHaveText(title)
  }
})

test('Share gives the link and the <iframe> code; /embed is the map alone, which other sites may frame', async ({ page, request }, testInfo) => {
  await openMap(page, '?zoom=11&lat=51.5072&lng=-0.1276')
  await page.getByRole('button', { name: 'Share' }).click()
  const dialog = page.getByRole('dialog', { name: 'Share this map' })
  await expect(dialog).toBeVisible()
  const link = await dialog.getByLabel('Link').inputValue()
  const origin = new URL(page.url()).origin
  // The map as it is: its view (numbers as the map writes them), nothing else.
  const asNumbers = (url: string) => Object.fromEntries([...new URL(url).searchParams].map(([name, value]) => [name, Number(value)]))
  expect(link.startsWith(`${origin}/?`)).toBe(true)
  expect(asNumbers(link)).toEqual({ zoom: 11, lat: 51.5072, lng: -0.1276 })
  const code = await dialog.getByLabel('Embed on your site').inputValue()
  const src = code.match(/<iframe src="([^"]+)"/)![1]!.replaceAll('&amp;', '&')
  expect(src).toBe(link.replace(`${origin}/?`, `${origin}/embed?`))
  await keep(page, testInfo, 'map-share')
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()

  // The embed: no site header, no list; a link to the larger map with the same parameters, in a new tab.
  await page.goto(src)
  await expectReady(page)
  await expect(page.locator('.site-header')).toBeHidden()
  await expect(page.locator('.place-panel')).toHaveCount(0)
  const larger = page.getByRole('link', { name: 'View larger map' })
  await expect(larger).toHaveAttribute('target', '_blank')
  await expect(larger).toHaveAttribute('rel', 'noopener')
  const params = new URL(src).searchParams
  const href = new URL((await larger.getAttribute('href'))!, origin)
  expect(href.pathname).toBe('/')
  for (const name of ['zoom', 'lat', 'lng']) expect(href.searchParams.get(name)).toBe(params.get(name))
  await keep(page, testInfo, 'embed')

  // Framed by another site: /embed only (default: any origin); every other page refuses.
  const embed = await request.get(src)
  expect(embed.headers()['content-security-policy']).toContain('frame-ancestors *')
  expect(embed.headers()['x-frame-options']).toBeUndefined()
  const home = await request.get('/')
  expect(home.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  expect(home.headers()['x-frame-options']).toBe('DENY')
  await page.setContent(`<iframe src="${src}" width="600" height="400" title="map"></iframe>`)
  await expect(page.frameLocator('iframe').locator('.map-app')).toHaveAttribute('data-ready', 'true')
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true })

  test('the map fills the screen, the list is a panel the visitor opens, every control is at least 44 px', async ({ page }, testInfo) => {
    await openMap(page, '?zoom=12&lat=48.8566&lng=2.3429')
    const map = (await page.locator('.places-map').boundingBox())!
    const header = (await page.locator('.site-header').boundingBox())!
    expect(map.width).toBe(390)
    expect(map.height).toBeGreaterThanOrEqual(844 - header.height - 1)
    await expect(page.locator('.place-panel')).toBeHidden()
    await keep(page, testInfo, 'phone-map')

    const sizes = async (selector: string) =>
      page.locator(selector).evaluateAll((elements) =>
        elements
          .filter((el) => el.getClientRects().length > 0)
          .map((el) => {
            const box = el.getBoundingClientRect()
            return { what: el.outerHTML.slice(0, 80), width: box.width, height: box.height }
          }),
      )
    const tooSmall = (list: { width: number; height: number }[]) => list.filter((box) => box.width < 44 || box.height < 44)
    // The controls an open popup lies over (the zoom buttons, the toolbar): a tap on its × would reach them.
    const underPopup = () =>
      page.evaluate(() => {
        const popup = document.querySelector('.leaflet-popup-content-wrapper')!.getBoundingClientRect()
        return [...document.querySelectorAll('.map-toolbar :is(a, button), .map-legend button, .leaflet-control-zoom a')]
          .filter((el) => {
            const box = el.getBoundingClientRect()
            return box.width > 0 && box.left < popup.right && box.right > popup.left && box.top < popup.bottom && box.bottom > popup.top
          })
          .map((el) => el.getAttribute('aria-label') ?? el.textContent)
      })
    const mapControls = await sizes('.map-toolbar :is(a, button), .map-legend button, .leaflet-control-zoom a')
    expect(mapControls.length).toBeGreaterThanOrEqual(5)
    expect(tooSmall(mapControls)).toEqual([])
    // The markers too: each is a target 44 px wide around its circle (a place's dot is 18 px).
    const markers = await sizes('.cluster-marker, .stack-marker, .place-marker')
    expect(markers.length).toBeGreaterThan(1)
    expect(tooSmall(markers)).toEqual([])
    const target = page.locator('.place-marker').first()
    const box = (await target.boundingBox())!
    // Near the target's edge, well off the dot: it opens the place.
    await page.touchscreen.tap(box.x + box.width / 2 + 17, box.y + box.height / 2)
    await expect(popupLink(page)).toBeVisible()
    await expect.poll(underPopup, { message: 'the popup is clear of the controls' }).toEqual([])
    await page.locator('.leaflet-popup-close-button').tap()
    await expect(popupLink(page)).toBeHidden()

    await page.getByRole('button', { name: 'Share' }).tap()
    const shareControls = await sizes('.share-dialog :is(button, input, textarea)')
    expect(shareControls.length).toBeGreaterThanOrEqual(5)
    expect(tooSmall(shareControls)).toEqual([])
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).tap()

    // The legend is a button on a phone: open, its categories are targets 44 px tall.
    const legend = page.getByRole('list', { name: 'Categories: show one' })
    await expect(legend).toBeHidden()
    await page.getByRole('button', { name: 'Categories' }).tap()
    await expect(legend).toBeVisible()
    const legendControls = await sizes('.map-legend li button')
    expect(legendControls.length).toBeGreaterThan(3)
    expect(tooSmall(legendControls)).toEqual([])
    await keep(page, testInfo, 'phone-legend')
    await page.getByRole('button', { name: 'Categories' }).tap()
    await expect(legend).toBeHidden()

    await page.getByRole('button', { name: 'List' }).tap()
    await expect(page.locator('.place-panel')).toBeVisible()
    // (The skip link past the list shows only when it has the keyboard's focus.)
    const panelControls = await sizes('.place-panel :is(a:not(.skip-link), button, input, select)')
    expect(panelControls.length).toBeGreaterThan(5)
    expect(tooSmall(panelControls.map((box) => ({ ...box, width: Math.max(box.width, 44) }))), 'tall enough').toEqual([])
    await keep(page, testInfo, 'phone-list')

    // Show on map closes the panel and opens the popup, whose close button is 44 px too.
    const first = page.locator('.place-list > li').first()
    await first.getByRole('button').tap()
    await expect(page.locator('.place-panel')).toBeHidden()
    await expect(popupLink(page)).toBeVisible()
    expect(tooSmall(await sizes('.leaflet-popup-close-button, .leaflet-popup-content a'))).toEqual([])
    await expect.poll(underPopup, { message: 'the popup is clear of the controls' }).toEqual([])
    await keep(page, testInfo, 'phone-popup')
  })
})

test("a place's picture, date and categories in the list and its popup (_embed)", async ({ page, request, databaseUrl, uploadsDir, baseURL }, testInfo) => {
  const postType = `pic-${Date.now().toString(36)}`
  const server = { databaseUrl, uploadsDir, baseURL: baseURL! }
  const [id] = await importPosts(
    server,
    [
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [144.189, -38.405] },
        properties: { title: 'Point Lonsdale Lighthouse', type: postType, date: '2024-03-09T08:00:00Z', address: 'Point Lonsdale VIC', categories: ['Coast'] },
      },
    ],
    uiUser('administrator').email,
  )
  await importMedia(server, id!, [path.join(CORPUS_DIR, PHOTOS.scaled)], 'The lighthouse at dusk')
  const feature = await (await request.get(`/places/v1/geojson/${id}?_embed`)).json()
  expect(feature._embedded.picture.alt).toBe('The lighthouse at dusk')

  await openMap(page, `?post_type=${postType}&zoom=14&lat=-38.405&lng=144.189`)
  const item = page.locator('.place-list > li')
  await expect(item.locator('img')).toHaveAttribute('alt', 'The lighthouse at dusk')
  await expect(item.locator('.place-date')).toHaveText('Mar 9, 2024')
  await expect(item.locator('.place-categories')).toContainText('Coast')
  await item.getByRole('button', { name: /Show on map/ }).click()
  const popup = page.locator('.leaflet-popup-content')
  await expect(popup.locator('img')).toHaveAttribute('alt', 'The lighthouse at dusk')
  await expect.poll(() => popup.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  await expect(popup.locator('.place-date')).toHaveText('Mar 9, 2024')
  await keep(page, testInfo, 'map-popup-picture')
})
