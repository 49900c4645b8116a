import { namedFlavor } from '@protomaps/basemaps'
import { TEST_BASEMAP } from '../../test/support/pmtiles'
import { expect, test } from '../support/test'

// The ui-own-basemap server: MAP_TILE_URL=none, MAP_PMTILES a small region's archive, and EMBED_ALLOWED_ORIGINS set
// (playwright.config.ts). Away from that region the map draws its own world layer alone, and the browser asks nothing
// of anyone but the site: visitors' addresses stay private.

test('MAP_TILE_URL=none: the world layer alone, Natural Earth credited, no request outside the site', async ({ page, baseURL }, testInfo) => {
  const requests: string[] = []
  page.on('request', (request) => requests.push(request.url()))
  await page.goto('/?zoom=4&lat=48&lng=5')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await expect(page.locator('.places-map')).toHaveAttribute('data-world', 'ready')
  await expect(page.locator('img.leaflet-tile')).toHaveCount(0) // the world layer's tiles are drawn, not fetched
  await expect(page.locator('.leaflet-control-attribution')).toContainText('Natural Earth')
  await expect(page.locator('.leaflet-control-attribution')).not.toContainText('OpenStreetMap')
  // Zoom in and open a popup: more requests, all of them the site's.
  await page.locator('.places-map').focus()
  await page.keyboard.press('+')
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await page.locator('.place-list > li').first().getByRole('button').click()
  await expect(page.locator('.leaflet-popup-content a')).toBeVisible()
  const file = testInfo.outputPath('own-basemap.png')
  await page.screenshot({ path: file })
  await testInfo.attach('own-basemap', { path: file, contentType: 'image/png' })
  const origin = new URL(baseURL!).origin
  const outside = requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'))
  expect(outside).toEqual([])
  expect(requests.length).toBeGreaterThan(5)

  const csp = (await page.request.get('/')).headers()['content-security-policy']!
  expect(csp).toMatch(/img-src 'self' data: blob:;/)

  // A post page's small map too.
  requests.length = 0
  await page.locator('.place-list > li').first().locator('.place-title').click()
  await page.locator('.post-map-frame').scrollIntoViewIfNeeded()
  await expect(page.locator('.post-map path.post-map-place')).toHaveCount(1)
  await expect(page.locator('.post-map')).toHaveAttribute('data-world', 'ready')
  await expect(page.locator('.post-map .leaflet-control-attribution')).toContainText('Natural Earth')
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([])
  expect(requests.length).toBeGreaterThan(3)
})

test("the map's own town names: where they are, larger towns first, never overlapping", async ({ page }, testInfo) => {
  const names = page.locator('.town-labels > span')
  // Drawn names as the browser laid them out, in the browser's own font: no two boxes may meet.
  const overlapping = () =>
    names.evaluateAll((spans) => {
      const boxes = spans.map((span) => [span.textContent, span.getBoundingClientRect()] as const)
      return boxes.flatMap(([name, a], i) =>
        boxes
          .slice(i + 1)
          .flatMap(([other, b]) => (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom ? [`${name} / ${other}`] : [])),
      )
    })
  for (const [zoom, lat, lng, expected] of [
    [4, 48, 5, ['Paris', 'London', 'Berlin']],
    [7, 48.5, 2.5, ['Paris', 'Orléans', 'Rouen']],
    [10, 48.8566, 2.3522, ['Paris', 'Versailles', 'Saint-Denis']],
  ] as const) {
    await page.goto(`/?zoom=${zoom}&lat=${lat}&lng=${lng}`)
    await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
    for (const name of expected) await expect(names.filter({ hasText: new RegExp(`^${name}$`) }), `${name} at zoom ${zoom}`).toBeVisible()
    expect(await overlapping(), `names overlapping at zoom ${zoom}`).toEqual([])
    const file = testInfo.outputPath(`town-names-${zoom}.png`)
    await page.screenshot({ path: file })
    await testInfo.attach(`town-names-${zoom}`, { path: file, contentType: 'image/png' })
  }
  await expect(page.locator('.leaflet-control-attribution')).toContainText('GeoNames')
  // At zoom 10 the coasts and borders are Natural Earth's 1:10 million (the third scale, world-layer.tsx).
  await expect(page.locator('.places-map')).toHaveAttribute('data-world-scale', '2')
  // Names of the basemap, for the eye: screen readers have the places' list, and no name takes a click.
  await expect(page.locator('.leaflet-town-labels-pane')).toHaveAttribute('aria-hidden', 'true')
  await expect(page.locator('.leaflet-town-labels-pane')).toHaveCSS('pointer-events', 'none')

  // Zooming in draws the closer zoom's names: more of them, the great ones kept.
  const before = await names.count()
  await page.locator('.places-map').focus()
  await page.keyboard.press('+')
  await expect(page).toHaveURL(/zoom=11/)
  await expect.poll(() => names.count()).toBeGreaterThan(before)
  await expect(names.filter({ hasText: /^Saint-Denis$/ })).toBeVisible()
  expect(await overlapping()).toEqual([])
})

test('the town names answer as tiles, kept for good; a tile outside them is a 404', async ({ request }) => {
  // Paris's tile of names at zoom 10: 1024 pixels square, 256 of them each way.
  const tile = await request.get('/basemap/labels/v1/10/129/88')
  expect(tile.status()).toBe(200)
  expect(tile.headers()['cache-control']).toBe('public, max-age=31536000, immutable')
  expect(tile.headers()['content-security-policy']).toBeUndefined() // an answer, not a page
  const names = (await tile.json()) as [string, number, number, number, string][]
  const paris = names.find(([name]) => name === 'Paris')
  expect(paris).toEqual(['Paris', 2.3488, 48.85341, 14, expect.stringMatching(/^(right|left|above|below)$/)])
  for (const path of ['1/0/0', '14/0/0', '2/1/0', '3/0/2', '3/a/0', '3/-1/0', '02.5/0/0', '10/256/0']) {
    expect((await request.get(`/basemap/labels/v1/${path}`)).status(), path).toBe(404)
  }
  // Only the names' route is outside the pages: any other path under /basemap is a page, with its CSP.
  expect((await request.get('/basemap/some-post')).headers()['content-security-policy']).toContain("default-src 'self'")
})

test('MAP_PMTILES: the archive is served in parts, as range requests ask', async ({ request }) => {
  const whole = await request.get('/basemap.pmtiles')
  expect(whole.status()).toBe(200)
  expect(whole.headers()['accept-ranges']).toBe('bytes')
  expect(whole.headers()['content-security-policy']).toBeUndefined() // a file, not a page
  const archive = await whole.body()
  expect(archive.subarray(0, 7).toString('latin1')).toBe('PMTiles')
  const size = archive.length
  const etag = whole.headers().etag!

  const header = await request.get('/basemap.pmtiles', { headers: { Range: 'bytes=0-126' } })
  expect(header.status()).toBe(206)
  expect(header.headers()['content-range']).toBe(`bytes 0-126/${size}`)
  expect(Buffer.compare(await header.body(), archive.subarray(0, 127))).toBe(0)
  const tail = await request.get('/basemap.pmtiles', { headers: { Range: 'bytes=-10' } })
  expect(tail.status()).toBe(206)
  expect(Buffer.compare(await tail.body(), archive.subarray(size - 10))).toBe(0)
  const past = await request.get('/basemap.pmtiles', { headers: { Range: `bytes=${size}-` } })
  expect(past.status()).toBe(416)
  expect(past.headers()['content-range']).toBe(`bytes */${size}`)
  // Parts of another version of the file: the client gets this one whole.
  const changed = await request.get('/basemap.pmtiles', { headers: { Range: 'bytes=0-126', 'If-Range': '"another"' } })
  expect(changed.status()).toBe(200)
  expect((await changed.body()).length).toBe(size)
  expect((await request.get('/basemap.pmtiles', { headers: { Range: 'bytes=0-126', 'If-Range': etag } })).status()).toBe(206)
  expect((await request.get('/basemap.pmtiles', { headers: { 'If-None-Match': etag } })).status()).toBe(304)
  const head = await request.head('/basemap.pmtiles', { headers: { Range: 'bytes=0-126' } })
  expect(head.status()).toBe(206)
  expect(head.headers()['content-range']).toBe(`bytes 0-126/${size}`)
  expect((await head.body()).length).toBe(0)
})

test("MAP_PMTILES: the region's land, lake, roads and names drawn from the site's own archive, and beyond it the world layer and the site's town names", async ({
  page,
  baseURL,
}, testInfo) => {
  const requests: string[] = []
  const archiveAnswers: number[] = []
  page.on('request', (request) => requests.push(request.url()))
  page.on('response', (response) => void (new URL(response.url()).pathname === '/basemap.pmtiles' && archiveAnswers.push(response.status())))
  const { west, south, east, north } = TEST_BASEMAP
  await page.goto(`/?zoom=14&lat=${(south + north) / 2}&lng=${(west + east) / 2}`)
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  const tiles = page.locator('.leaflet-tile-pane canvas.leaflet-tile-loaded')
  await expect(tiles.first()).toBeAttached()
  await expect(page.locator('.leaflet-control-attribution')).toContainText('Protomaps')
  // The light flavor's colours (@protomaps/basemaps): the land, the lake, the roads (white), the names (dark grey,
  // anti-aliased: any pixel near it).
  const light = namedFlavor('light')
  const counted = () =>
    tiles.evaluateAll(
      (canvases, colours) => {
        const counts = { earth: 0, water: 0, roads: 0, names: 0 }
        const rgb = (hex: string) => [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16))
        const [earth, water, road, name] = [colours.earth, colours.water, colours.road, colours.name].map(rgb) as [number[], number[], number[], number[]]
        for (const canvas of canvases as HTMLCanvasElement[]) {
          const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height)
          for (let i = 0; i < data.length; i += 4) {
            const near = (colour: number[], by: number) =>
              Math.abs(data[i]! - colour[0]!) <= by && Math.abs(data[i + 1]! - colour[1]!) <= by && Math.abs(data[i + 2]! - colour[2]!) <= by
            if (near(earth, 2)) counts.earth++
            else if (near(water, 2)) counts.water++
            else if (near(road, 2)) counts.roads++
            else if (near(name, 24)) counts.names++
          }
        }
        return counts
      },
      { earth: light.earth, water: light.water, road: light.major, name: light.city_label },
    )
  await expect
    .poll(async () => Object.values(await counted()).every((count) => count > 50), {
      message: 'the land, the lake, the roads and the names drawn',
      timeout: 15_000,
    })
    .toBe(true)
  const file = testInfo.outputPath('own-vector-basemap.png')
  await page.screenshot({ path: file })
  await testInfo.attach('own-vector-basemap', { path: file, contentType: 'image/png' })
  expect(archiveAnswers.length).toBeGreaterThan(1)
  expect(archiveAnswers.every((status) => status === 206)).toBe(true)

  // Beyond the region, the site's own names: the towns of the plains around it.
  await page.goto(`/?zoom=8&lat=${south}&lng=${west}`)
  await expect(page.locator('.map-app')).toHaveAttribute('data-ready', 'true')
  await expect(page.locator('.town-labels > span').first()).toBeVisible()
  await expect(page.locator('.leaflet-control-attribution')).toContainText('GeoNames')
  const origin = new URL(baseURL!).origin
  expect(requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'))).toEqual([])
})

test('EMBED_ALLOWED_ORIGINS: those origins, and only they, may frame /embed', async ({ request }) => {
  const embed = await request.get('/embed?zoom=3&lat=0&lng=0')
  expect(embed.status()).toBe(200)
  expect(embed.headers()['content-security-policy']).toContain('frame-ancestors https://framing.example https://other.example')
  expect(embed.headers()['x-frame-options']).toBeUndefined()
  for (const path of ['/', '/signin']) {
    const page = await request.get(path)
    expect(page.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(page.headers()['x-frame-options']).toBe('DENY')
  }
})
