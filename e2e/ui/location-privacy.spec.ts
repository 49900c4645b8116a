import type { Browser, Page } from '@playwright/test'
import { expect, test } from '../support/test'
import { createPost, save, signIn, uniqueTitle, uploadPhotos } from '../support/ui-admin'

// Location privacy levels and zones (docs/privacy.md) as an editor sets them and a visitor then meets them, in real
// Chromium: the editor's preview, and, signed out, the GeoJSON API, the post page, the home map and the embed.

const TOWER = { latitude: 48.8583701, longitude: 2.2944813 }
const STREET = '5 Avenue Anatole France, 75007 Paris'

type Feature = { geometry: { coordinates: [number, number] }; properties: { id: number; address: string; url: string } }

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true })
}

/** Types coordinates as an editor does, leaving each field: moves count when the field is left. */
async function typeLocation(page: Page, latitude: number, longitude: number): Promise<void> {
  await page.getByLabel('Latitude').fill(String(latitude))
  await page.getByLabel('Longitude').fill(String(longitude))
  await page.getByLabel('Longitude').blur()
}

/**
 * A post type of this spec's own: its places are on no other spec's map (which count on places only being added),
 * and its levels change nothing they see.
 */
const TYPE = 'privacytest'

/** Gives the open editor's post this spec's type. */
async function ownType(page: Page): Promise<void> {
  await page.getByLabel('Type').selectOption({ label: 'New type…' })
  await page.getByLabel('New type’s name').fill(TYPE)
}

/** A signed-out visitor's browser. */
async function visitor(browser: Browser, baseURL: string | undefined): Promise<Page> {
  const context = await browser.newContext({ baseURL })
  return context.newPage()
}

/**
 * The features the home map (or the embed) at `path` asks for with this search: the request the page makes, asked
 * again as the same visitor (the page may replace its own answer's body before it can be read).
 */
async function mapFeatures(page: Page, path: string, search: string): Promise<Feature[]> {
  const request = page.waitForRequest((r) => r.url().includes('/places/v1/geojson?') && new URL(r.url()).searchParams.get('search') === search)
  await page.goto(`${path}?post_type=${TYPE}&search=${encodeURIComponent(search)}`)
  const answer = await page.request.get((await request).url())
  expect(answer.ok()).toBe(true)
  return ((await answer.json()) as { features: Feature[] }).features
}

const metres = (a: { latitude: number; longitude: number }, [longitude, latitude]: [number, number]) =>
  Math.hypot((a.latitude - latitude) * 111_200, (a.longitude - longitude) * 111_320 * Math.cos((latitude * Math.PI) / 180))

test('an editor sets each level; signed out, the API, the post page, the map and the embed show only that much', async ({ page, browser, baseURL }) => {
  test.slow()
  await signIn(page, 'editor')
  const title = uniqueTitle('Privacy levels')
  const id = await createPost(page, title)
  await ownType(page)
  await page.getByLabel('Address').fill(STREET)
  await typeLocation(page, TOWER.latitude, TOWER.longitude)
  await page.getByLabel('Status').selectOption('publish')
  const levels = page.getByRole('group', { name: 'Who sees the location' })
  const preview = levels.getByRole('status')
  await expect(levels.getByRole('radio', { name: 'Exact' })).toBeChecked()
  await expect(preview).toHaveText(`Once published, the public sees the point ${TOWER.latitude}, ${TOWER.longitude} and the address “${STREET}”.`)
  await save(page)
  const guest = await visitor(browser, baseURL)
  const exact = (await (await guest.request.get(`/places/v1/geojson/${id}`)).json()) as Feature
  expect(exact.geometry.coordinates).toEqual([TOWER.longitude, TOWER.latitude])
  expect(exact.properties.address).toBe(STREET)
  const postUrl = exact.properties.url

  // Approximate: a point within a kilometre, the town as address, the street nowhere.
  await levels.getByRole('radio', { name: 'Approximate (about 1 km)' }).check()
  await expect(preview).toContainText('and the address “Paris, Île-de-France, France”')
  await shot(page, 'editor-approximate')
  await save(page)
  const approximate = (await (await guest.request.get(`/places/v1/geojson/${id}`)).json()) as Feature
  expect(approximate.properties.address).toBe('Paris, Île-de-France, France')
  const off = metres(TOWER, approximate.geometry.coordinates)
  expect(off).toBeGreaterThan(10)
  expect(off).toBeLessThan(750)
  await guest.goto(postUrl)
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(guest.getByText('Paris, Île-de-France, France').first()).toBeVisible()
  expect(await guest.content(), 'the street is nowhere in the page, its metadata included').not.toContain('Anatole')
  expect(await guest.content()).not.toContain(String(TOWER.latitude))
  await shot(guest, 'post-page-approximate')
  for (const path of ['/', '/embed']) {
    const [shown] = await mapFeatures(guest, path, title)
    expect(shown?.geometry.coordinates, path).toEqual(approximate.geometry.coordinates)
  }
  await shot(guest, 'embed-approximate')
  const byStreet = (await (await guest.request.get(`/places/v1/geojson?post_type=${TYPE}&search=${encodeURIComponent('Anatole France')}`)).json()) as {
    features: Feature[]
  }
  expect(byStreet.features.map((f) => f.properties.id)).not.toContain(id)

  // City: the town's centre and name.
  await levels.getByRole('radio', { name: 'City' }).check()
  await save(page)
  const city = (await (await guest.request.get(`/places/v1/geojson/${id}`)).json()) as Feature
  expect(city.properties.address).toBe('Paris, Île-de-France, France')
  expect(metres(TOWER, city.geometry.coordinates)).toBeGreaterThan(2000)

  // Hidden: no geodata at all, and a page with no map and no address.
  await levels.getByRole('radio', { name: 'Hidden' }).check()
  await expect(preview).toHaveText('Once published, the public sees no location.')
  await save(page)
  const hidden = await guest.request.get(`/places/v1/geojson/${id}`)
  expect(hidden.status()).toBe(404)
  expect(((await hidden.json()) as { code: string }).code).toBe('rest_no_geodata')
  await guest.goto(postUrl)
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(guest.locator('.post-map-frame')).toHaveCount(0)
  expect(await guest.content()).not.toContain('Paris, Île-de-France')
  expect(await mapFeatures(guest, '/', title)).toEqual([])
  await shot(guest, 'post-page-hidden')
  await guest.context().close()
})

test('a privacy zone coarsens the posts inside it; importing a photo taken there says so and fills the address', async ({ page, browser, baseURL }) => {
  test.slow()
  // The Nokia's photo was taken in Dublin (test/fixtures/exif/truth.json); no other test's place is near.
  const photoPoint = { latitude: 53.359465, longitude: -6.2582314 }
  await signIn(page, 'administrator')
  await page.goto('/admin/zones')
  const form = page.getByRole('form', { name: 'Add a zone' })
  const name = uniqueTitle('Home')
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('Latitude').fill('53.3594')
  await form.getByLabel('Longitude').fill('-6.2583')
  await form.getByLabel('Radius in metres').fill('300')
  await form.getByLabel('Show the posts inside at least as').selectOption('city')
  await form.getByRole('button', { name: 'Add zone' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Zone added' })).toBeVisible()
  const row = page.getByRole('row').filter({ hasText: name })
  await expect(row).toContainText('City')
  await expect(row).toContainText('300 m')
  await shot(page, 'zones')

  try {
    const id = await createPost(page, uniqueTitle('Garden'))
    await ownType(page)
    await uploadPhotos(page, 'mei_Nokia Lumia 800.jpg')
    await page.getByRole('button', { name: 'Import location from media' }).click()
    await expect(page.getByLabel('Latitude')).toHaveValue(String(photoPoint.latitude))
    await expect(page.getByLabel('Address')).toHaveValue(/Dublin/)
    const preview = page.getByRole('group', { name: 'Who sees the location' }).getByRole('status')
    await expect(preview).toContainText('This point is inside a privacy zone, so the public sees it as “City” at least.')
    await shot(page, 'editor-in-zone')
    await page.getByLabel('Status').selectOption('publish')
    await save(page)

    const guest = await visitor(browser, baseURL)
    const shown = (await (await guest.request.get(`/places/v1/geojson/${id}`)).json()) as Feature
    expect(shown.properties.address).toMatch(/^Dublin, /)
    expect(metres(photoPoint, shown.geometry.coordinates)).toBeGreaterThan(1000)
    await guest.context().close()

    // The zone removed, the post is shown at its own level (exact) again.
    await page.goto('/admin/zones')
    page.once('dialog', (dialog) => void dialog.accept())
    await page
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: /^Remove/ })
      .click()
    await expect(page.getByRole('status').filter({ hasText: 'Zone removed: 1 post shown at their own level again.' })).toBeVisible()
    const exact = (await (await page.request.get(`/places/v1/geojson/${id}`)).json()) as Feature
    expect(exact.geometry.coordinates).toEqual([photoPoint.longitude, photoPoint.latitude])
  } finally {
    // Leave no zone behind for other tests, whatever failed above.
    await page.goto('/admin/zones')
    const left = page.getByRole('row').filter({ hasText: name })
    if ((await left.count()) > 0) {
      page.once('dialog', (dialog) => void dialog.accept())
      await left.getByRole('button', { name: /^Remove/ }).click()
      await expect(left).toHaveCount(0)
    }
  }
})

test('an editor may not open the zones; the link is for administrators only', async ({ page }) => {
  await signIn(page, 'editor')
  await expect(page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Privacy zones' })).toHaveCount(0)
  const response = await page.goto('/admin/zones')
  expect(response?.status()).toBe(404)
})
