import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { axeViolations } from '../support/axe'
import { places, runId, type ServerEnv } from '../support/places-cli'
import { expect, test } from '../support/test'
import { signIn } from '../support/ui-admin'

// A trip as a visitor finds it (docs/trips.md): a KML file's track imported with its placemarks, then the list of
// trips, the trip's page (its figures, its route on the map, its posts numbered in time order) and its GeoJSON.

let server: ServerEnv

test.beforeAll(({ databaseUrl, uploadsDir }, testInfo) => {
  server = { databaseUrl, uploadsDir, baseURL: String(testInfo.project.use.baseURL) }
})

/** A walk round Lake Bled, a point a minute, and three stops along it: a post type of the spec's own keeps them off other specs' maps. */
function walkKml(title: string): string {
  const start = Date.parse('2024-06-01T08:00:00Z')
  const steps = 48
  const track = Array.from({ length: steps + 1 }, (_, i) => {
    const angle = (2 * Math.PI * i) / steps
    return {
      when: new Date(start + i * 60_000).toISOString(),
      coord: `${(14.0937 + 0.011 * Math.sin(angle)).toFixed(6)} ${(46.3625 - 0.006 * Math.cos(angle)).toFixed(6)} ${475 + Math.round(10 * Math.sin(angle))}`,
    }
  })
  const stop = (name: string, i: number) => {
    const { when, coord } = track[i]!
    const [longitude, latitude] = coord.split(' ')
    return `<Placemark><name>${name}</name><TimeStamp><when>${when}</when></TimeStamp><ExtendedData><Data name="post_type"><value>tripstop</value></Data></ExtendedData><Point><coordinates>${longitude},${latitude}</coordinates></Point></Placemark>`
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
${stop('The castle below', 30)}${stop('Start at the lake', 2)}${stop('The church on the island', 14)}
<Placemark><name>${title}</name><gx:Track>${track.map(({ when }) => `<when>${when}</when>`).join('')}${track.map(({ coord }) => `<gx:coord>${coord}</gx:coord>`).join('')}</gx:Track></Placemark>
</Document></kml>`
}

/** Imports the walk, its stops and its track, as a trip named `title`. */
async function importWalk(title: string): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'places-e2e-trip-'))
  try {
    const file = path.join(dir, 'bled.kml')
    await writeFile(file, walkKml(title))
    await places(server, 'import', file)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

test('a trip imported from KML: the list, its page with the route and its stops in time order, its GeoJSON', async ({ page, request }, testInfo) => {
  const title = `Round Lake Bled ${runId()}`
  await importWalk(title)

  await page.goto('/trips')
  await page.getByRole('link', { name: title }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  await expect(page.locator('.post-header time')).toHaveText('June 1, 2024')
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    /^A trip: distance [34](\.\d)? km, time 48 min, climb 20 m, 3 posts along the way\.$/,
  )
  const figures = page.locator('.trip-figures')
  await expect(figures.getByText('Time')).toBeVisible()
  await expect(figures.getByText('48 min')).toBeVisible()
  await expect(figures.getByText(/^[34](\.\d)? km$/)).toBeVisible()
  // The route drawn, and a numbered marker per stop; the list in the order they were made, not the file's.
  await expect(page.locator('path.trip-route')).toHaveCount(1)
  await expect(page.locator('path.trip-map-stop')).toHaveCount(3)
  const stops = page.getByRole('region', { name: 'Along the way' }).getByRole('link')
  await expect(stops).toHaveText(['Start at the lake', 'The church on the island', 'The castle below'])
  expect(await axeViolations(page), 'axe, a trip page').toEqual([])
  await page.screenshot({ path: testInfo.outputPath('trip-page.png'), fullPage: true })

  const slug = new URL(page.url()).pathname.split('/').at(-1)!
  // The embed: the route and its stops fill the frame; the title opens the trip's page in the page that frames it.
  await page.setViewportSize({ width: 600, height: 400 })
  await page.goto(`/embed?trip=${slug}`)
  await expect(page.locator('path.trip-route')).toHaveCount(1)
  await expect(page.locator('path.trip-map-stop')).toHaveCount(3)
  await expect(page.getByRole('link', { name: title })).toHaveAttribute('target', '_top')
  expect(await axeViolations(page), 'axe, a trip embedded').toEqual([])
  await page.screenshot({ path: testInfo.outputPath('trip-embed.png') })
  expect((await page.goto('/embed?trip=no-such-trip'))!.status()).toBe(404)

  const list = await (await request.get('/places/v1/trips')).json()
  const listed = list.features.find((trip: { properties: { slug: string } }) => trip.properties.slug === slug)
  for (const base of ['/places/v1', '/wp-json/places/v1']) {
    const answer = await request.get(`${base}/trips/${listed.properties.id}`)
    expect(answer.status()).toBe(200)
    expect(answer.headers()['content-type']).toBe('application/geo+json')
    const trip = await answer.json()
    expect(trip.properties).toMatchObject({ title, slug, started_at: '2024-06-01T08:00:00.000Z', ended_at: '2024-06-01T08:48:00.000Z' })
    expect(trip.properties.posts).toHaveLength(3)
    expect(trip.geometry.type).toBe('MultiLineString')
    expect(trip.geometry.coordinates[0].length).toBeGreaterThan(20)
  }
  expect(await (await request.get('/sitemap.xml?page=1')).text()).toContain(`/trip/${slug}</loc><lastmod>`)
  const missing = await request.get('/places/v1/trips/999999999')
  expect(missing.status()).toBe(404)
  expect((await missing.json()).code).toBe('rest_trip_invalid_id')
})

test('an editor keeps a trip: its route hidden from the public, then the trip made a draft', async ({ page, browser }, testInfo) => {
  const title = `Kept walk ${runId()}`
  await importWalk(title)
  await signIn(page, 'editor', '/admin/trips')
  const trip = page.getByRole('region', { name: title })
  await expect(trip.getByText(/4\.\d km · 1 track of 49 points · 3 posts/)).toBeVisible()
  expect(await axeViolations(page), 'axe, the admin’s trips').toEqual([])
  await page.screenshot({ path: testInfo.outputPath('admin-trips.png'), fullPage: true })

  await trip.getByLabel('The public sees the route').selectOption('hidden')
  await trip.getByLabel('Description (plain text)').fill('Once round the lake <b>before breakfast</b>.')
  await trip.getByRole('button', { name: 'Save trip' }).click()
  await expect(page.getByRole('status')).toHaveText(`Trip “${title}” saved.`)

  // A visitor: no route, the stops still listed, the description as text.
  const visitor = await browser.newPage()
  await visitor.goto('/trips')
  await visitor.getByRole('link', { name: title }).click()
  await expect(visitor.getByText('Once round the lake <b>before breakfast</b>.')).toBeVisible()
  await expect(visitor.getByRole('region', { name: 'Along the way' }).getByRole('link')).toHaveCount(3)
  await expect(visitor.locator('path.trip-map-stop')).toHaveCount(3)
  await expect(visitor.locator('path.trip-route')).toHaveCount(0)
  const tripPath = new URL(visitor.url()).pathname
  // Each stop's editor says which trip it is on.
  const trips = await (await visitor.request.get('/places/v1/trips')).json()
  const [stop] = trips.features.find((trip: { properties: { title: string } }) => trip.properties.title === title).properties.posts
  await page.goto(`/admin/posts/${stop}`)
  await expect(page.getByLabel('Trip', { exact: true })).toHaveValue(/^\d+$/)
  await expect(page.getByLabel('Trip', { exact: true }).locator('option:checked')).toHaveText(title)
  await page.goto('/admin/trips')

  await trip.getByLabel('Status').selectOption('draft')
  await trip.getByRole('button', { name: 'Save trip' }).click()
  await expect(page.getByRole('status')).toHaveText(`Trip “${title}” saved.`)
  expect((await visitor.goto(tripPath))!.status()).toBe(404)
  await visitor.close()
})
