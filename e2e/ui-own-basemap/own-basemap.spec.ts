import { expect, test } from '../support/test'

// The ui-own-basemap server: MAP_TILE_URL=none and EMBED_ALLOWED_ORIGINS set (playwright.config.ts). The map draws
// its own world layer alone, and the browser asks nothing of anyone but the site: visitors' addresses stay private.

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
