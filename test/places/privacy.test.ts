import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { previewPublicLocation, PREVIEWS_PER_MINUTE } from '../../lib/admin/places'
import { OPERATOR } from '../../lib/auth/callers'
import { createDb, dialectOf, disconnectDb, driverOf, getDb, readDataVersion } from '../../lib/db'
import { cellCentre } from '../../lib/geo/cell'
import { formatPlace, getGazetteer } from '../../lib/geo/gazetteer'
import { distanceKm } from '../../lib/geo/precision'
import { ApiError } from '../../lib/http/errors'
import { migrate, readMigrations } from '../../lib/migrate'
import { getCollection, getItem, getItems } from '../../lib/ogc/features'
import { exportPlaces } from '../../lib/places/export'
import { exportResponse, parseExportQuery } from '../../lib/places/formats/public'
import { featuresOfCollection, importPlaces } from '../../lib/places/import'
import { findPostPage } from '../../lib/places/post-page'
import { getPlaceFeature, getPlacesCollection } from '../../lib/places/public'
import type { CollectionQuery } from '../../lib/places/schemas'
import { publicColumnsOf } from '../../lib/places/visibility'
import { addZone, removeZone } from '../../lib/places/zones'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// Location privacy levels and zones (docs/privacy.md) on every public surface the library serves, against a real
// database and the real gazetteer: the GeoJSON routes (one place, a page, a bbox, clusters, a search), OGC API, the
// post page and the anonymous export. lib/ reads its configuration once per process, so this file runs on SQLite,
// and again in a child process for PostgreSQL when TEST_DATABASE_URL is set.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let authorId: number

/** The Eiffel Tower, with its street address: what only editors may see of a coarsened post. */
const EXACT = { latitude: 48.8583701, longitude: 2.2944813, address: '5 Avenue Anatole France, 75007 Paris, France' }
/** The middle of the Pacific, 2,000 km from any town. */
const AT_SEA = { latitude: -30, longitude: -140, address: 'Somewhere at sea' }
const ids = new Map<string, number>()

async function addPost(slug: string, location: { latitude: number | null; longitude: number | null; address: string }, locationPrecision: string) {
  const db = getDb()
  const data = { ...location, locationPrecision }
  const post = await db.post.create({
    data: { title: slug, slug, publishedAt: new Date(), authorId, ...data, ...(await publicColumnsOf(db, data)) },
    select: { id: true },
  })
  ids.set(slug, post.id)
}

const id = (slug: string) => ids.get(slug)!

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  authorId = (await getDb().user.create({ data: { email: 'privacy@example.org', role: 'administrator' }, select: { id: true } })).id
  for (const level of ['exact', 'approximate', 'city', 'hidden']) await addPost(level, EXACT, level)
  await addPost('city-at-sea', AT_SEA, 'city')
  await addPost('approximate-no-point', { latitude: null, longitude: null, address: EXACT.address }, 'approximate')
  // A category the map shows (an exact post is in it) and one only the hidden post is in.
  for (const [slug, posts] of [
    ['shown', ['exact', 'hidden']],
    ['only-hidden', ['hidden']],
  ] as const) {
    const category = await getDb().category.create({ data: { name: slug, slug }, select: { id: true } })
    ids.set(`category:${slug}`, category.id)
    await getDb().postCategory.createMany({ data: posts.map((post) => ({ postId: id(post), categoryId: category.id })) })
  }
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

type Feature = { geometry: { coordinates: [number, number] }; properties: { id: number; address: string; cluster?: boolean; point_count?: number } }

async function feature(slug: string): Promise<Feature | { code: string }> {
  try {
    return JSON.parse(Buffer.from(await (await getPlaceFeature(id(slug))).body()).toString()) as Feature
  } catch (error) {
    return { code: (error as { code: string }).code }
  }
}

async function collection(query: Partial<CollectionQuery>): Promise<Feature[]> {
  const answer = await getPlacesCollection({ postType: 'post', limit: 100, categoryId: null, ...query })
  return (JSON.parse(Buffer.from(await answer.body()).toString()) as { features: Feature[] }).features
}

const point = (f: Feature) => ({ longitude: f.geometry.coordinates[0], latitude: f.geometry.coordinates[1] })

/** What each level should show, from the real gazetteer and grid. */
async function expected() {
  const gazetteer = await getGazetteer()
  const cell = cellCentre(EXACT.latitude, EXACT.longitude)
  const paris = gazetteer.reverseGeocode(EXACT.latitude, EXACT.longitude)!
  return {
    cell,
    cellAddress: formatPlace(gazetteer.reverseGeocode(cell.latitude, cell.longitude)!),
    paris,
    parisAddress: formatPlace(paris),
  }
}

describe('each level on the GeoJSON routes', () => {
  test('exact shows the point and address; approximate the cell and a town; city the town; hidden and city at sea nothing', async () => {
    const { cell, cellAddress, paris, parisAddress } = await expected()
    assert.equal(parisAddress, 'Paris, Île-de-France, France')

    const exact = (await feature('exact')) as Feature
    assert.deepEqual(point(exact), { latitude: EXACT.latitude, longitude: EXACT.longitude })
    assert.equal(exact.properties.address, EXACT.address)

    const approximate = (await feature('approximate')) as Feature
    assert.deepEqual(point(approximate), cell)
    assert.equal(approximate.properties.address, cellAddress)
    assert.ok(!approximate.properties.address.includes('Anatole'), 'no street address')
    const km = distanceKm(point(approximate), EXACT)
    assert.ok(km > 0.01 && km < 0.75, `the cell centre is ${km} km from the point`)

    const city = (await feature('city')) as Feature
    assert.ok(Math.abs(point(city).latitude - paris.latitude) < 1e-6 && Math.abs(point(city).longitude - paris.longitude) < 1e-6)
    assert.equal(city.properties.address, parisAddress)

    assert.deepEqual(await feature('hidden'), { code: 'rest_no_geodata' })
    assert.deepEqual(await feature('city-at-sea'), { code: 'rest_no_geodata' })
    assert.deepEqual(await feature('approximate-no-point'), { code: 'rest_no_geodata' })
  })

  test('the collection lists the same, and no answer holds the exact point of a coarsened post', async () => {
    const features = await collection({})
    const byId = new Map(features.map((f) => [f.properties.id, f]))
    assert.deepEqual([...byId.keys()].sort(), [id('exact'), id('approximate'), id('city')].sort())
    for (const slug of ['approximate', 'city']) {
      const shown = byId.get(id(slug))!
      assert.notDeepEqual(point(shown), { latitude: EXACT.latitude, longitude: EXACT.longitude }, slug)
    }
  })

  test('a bbox around the exact point finds only the exact post; one around the public point finds the coarse one', async () => {
    const { cell } = await expected()
    assert.ok(distanceKm(cell, EXACT) > 0.1, 'the cell centre is not within the small box (else this test proves nothing)')
    const around = ({ latitude, longitude }: { latitude: number; longitude: number }, d = 0.0005) =>
      [longitude - d, latitude - d, longitude + d, latitude + d] as [number, number, number, number]
    assert.deepEqual(
      (await collection({ bbox: around(EXACT) })).map((f) => f.properties.id),
      [id('exact')],
    )
    assert.deepEqual(
      (await collection({ bbox: around(cell) })).map((f) => f.properties.id),
      [id('approximate')],
    )
  })

  test('clusters count a coarsened post where the public sees it, never at its exact point', async () => {
    const { cell } = await expected()
    // At the deepest zoom each public point is its own item: three, at three places, none of them twice at the tower.
    const items = await collection({ clusterZoom: 22, bbox: [2.2, 48.8, 2.4, 48.9] })
    const places = items.filter((f) => !f.properties.cluster)
    assert.equal(places.length, 3)
    const atTower = items.filter((f) => distanceKm(point(f), EXACT) < 0.01)
    assert.equal(atTower.length, 1)
    assert.equal(atTower[0]!.properties.id, id('exact'))
    assert.ok(items.some((f) => distanceKm(point(f), cell) < 0.001))
    const everything = await collection({ clusterZoom: 0 })
    assert.equal(
      everything.reduce((sum, f) => sum + (f.properties.cluster ? f.properties.point_count! : 1), 0),
      3,
    )
  })

  test('a search by the street address finds only the post that shows it', async () => {
    assert.deepEqual(
      (await collection({ search: 'Anatole' })).map((f) => f.properties.id),
      [id('exact')],
    )
    assert.deepEqual((await collection({ search: 'Île-de-France' })).map((f) => f.properties.id).sort(), [id('approximate'), id('city')].sort())
  })
})

test('OGC API: items, a bbox and one item show the public location only', async () => {
  const { cell } = await expected()
  const version = await readDataVersion()
  const items = await getItems('post', { bbox: null, datetime: null, limit: 100, offset: 0 }, version)
  assert.equal(items.numberMatched, 3)
  const approximate = items.features.find((f) => f.id === id('approximate'))!
  assert.deepEqual(approximate.geometry.coordinates, [cell.longitude, cell.latitude])
  const d = 0.0005
  const box = await getItems(
    'post',
    { bbox: [EXACT.longitude - d, EXACT.latitude - d, EXACT.longitude + d, EXACT.latitude + d], datetime: null, limit: 100, offset: 0 },
    version,
  )
  assert.deepEqual(
    box.features.map((f) => f.id),
    [id('exact')],
  )
  await assert.rejects(getItem('post', String(id('hidden')), version), { code: 'ogc_no_feature' })
  assert.equal((await getItem('post', String(id('city')), version)).properties.address, 'Paris, Île-de-France, France')
  // The collection's extent is of the public points.
  const extent = (await getCollection('post', version)).extent.spatial.bbox[0]!
  assert.ok(extent[1] >= AT_SEA.latitude + 1, 'the post at sea shows nowhere, so it does not stretch the extent')
})

test('the post page and the anonymous export show the level; the full export keeps the exact location and level', async () => {
  const { cell } = await expected()
  assert.deepEqual((await findPostPage('post', 'approximate'))!.location, { address: (await expected()).cellAddress, point: cell })
  assert.equal((await findPostPage('post', 'hidden'))!.location, null)
  // A category links to the map filtered by it only where the map has a place in it to show.
  assert.deepEqual((await findPostPage('post', 'hidden'))!.categories, [
    { id: id('category:only-hidden'), name: 'only-hidden', mapUrl: null },
    { id: id('category:shown'), name: 'shown', mapUrl: `/?category=${id('category:shown')}` },
  ])
  assert.equal((await findPostPage('post', 'approximate-no-point'))!.location, null)

  const anonymous = new Map<number, { geometry: unknown; properties: Record<string, unknown> }>()
  for await (const f of exportPlaces()) anonymous.set(f.properties.id, f)
  assert.equal(anonymous.get(id('hidden'))!.geometry, null)
  assert.equal(anonymous.get(id('hidden'))!.properties.address, '')
  assert.deepEqual(anonymous.get(id('approximate'))!.geometry, { type: 'Point', coordinates: [cell.longitude, cell.latitude] })
  for (const f of anonymous.values()) assert.equal(f.properties.location_precision, undefined, 'the public copy names no level')

  const full = new Map<number, { geometry: unknown; properties: Record<string, unknown> }>()
  for await (const f of exportPlaces({ allStatuses: true })) full.set(f.properties.id, f)
  assert.deepEqual(full.get(id('approximate'))!.geometry, { type: 'Point', coordinates: [EXACT.longitude, EXACT.latitude] })
  assert.equal(full.get(id('approximate'))!.properties.location_precision, 'approximate')
  assert.equal(full.get(id('approximate'))!.properties.address, EXACT.address)
  assert.equal(full.get(id('hidden'))!.properties.location_precision, 'hidden')
  assert.equal(full.get(id('hidden'))!.properties.geo_public, false)
})

test('the export route, in every format, holds the public location only: the map view, not the exact one', async () => {
  const { cell } = await expected()
  const file = async (query: string) => await (await exportResponse(parseExportQuery(new URLSearchParams(query)))).text()
  const exported = JSON.parse(await file('format=geojson')) as { features: Feature[] }
  const byId = new Map(exported.features.map((f) => [f.properties.id, f]))
  assert.deepEqual([...byId.keys()].sort(), [id('exact'), id('approximate'), id('city')].sort())
  assert.deepEqual(point(byId.get(id('approximate'))!), cell)
  for (const format of ['geojson', 'kml', 'gpx', 'csv']) {
    const text = await file(`format=${format}`)
    // The exact point and street address are the exact post's alone; no other post shows them in any form.
    assert.equal(text.split(String(EXACT.latitude)).length - 1, 1, `${format}: the exact latitude once`)
    assert.equal(text.split('Anatole').length - 1, format === 'gpx' ? 0 : 1, `${format}: the street address once at most`)
    for (const slug of ['hidden', 'city-at-sea', 'approximate-no-point'])
      assert.ok(!text.includes(`/post/${slug}"`) && !text.includes(`/post/${slug}\n`), `${format}: ${slug}`)
  }
  // A box around the exact point: the exact post alone, as GET /geojson?bbox= finds it.
  const box = [EXACT.longitude - 0.0005, EXACT.latitude - 0.0005, EXACT.longitude + 0.0005, EXACT.latitude + 0.0005].join(',')
  const inBox = JSON.parse(await file(`bbox=${box}`)) as { features: Feature[] }
  assert.deepEqual(
    inBox.features.map((f) => f.properties.id),
    [id('exact')],
  )
})

test('a privacy zone coarsens the posts inside it at once, and removing it restores them', async () => {
  const before = await readDataVersion()
  const { zone, changed } = await addZone(OPERATOR, { latitude: 48.858, longitude: 2.294, radiusMetres: 300, level: 'city', name: 'Home' })
  // exact and approximate become city; city stays city; hidden stays hidden.
  assert.equal(changed, 2)
  assert.ok((await readDataVersion()) > before, 'the public answers change with the data version')
  const exact = (await feature('exact')) as Feature
  assert.equal(exact.properties.address, 'Paris, Île-de-France, France')
  assert.ok(distanceKm(point(exact), EXACT) > 1)
  assert.deepEqual(
    (await collection({ search: 'Anatole' })).map((f) => f.properties.id),
    [],
  )

  // A zone never makes a post more precise than its own level: a coarser post stays as it was.
  const hiddenZone = await addZone(OPERATOR, { latitude: 48.858, longitude: 2.294, radiusMetres: 300, level: 'hidden' })
  assert.deepEqual(await feature('exact'), { code: 'rest_no_geodata' })
  await removeZone(OPERATOR, hiddenZone.zone.id)
  assert.equal(((await feature('exact')) as Feature).properties.address, 'Paris, Île-de-France, France')

  // The full copy does not carry zones: the level it writes is at least the zone's, so a move keeps the post private.
  const full = new Map<number, { properties: Record<string, unknown> }>()
  for await (const f of exportPlaces({ allStatuses: true })) full.set(f.properties.id, f)
  assert.equal(full.get(id('exact'))!.properties.location_precision, 'city')
  assert.equal(full.get(id('hidden'))!.properties.location_precision, 'hidden')

  // The editor's preview says a point is inside a zone, to those who may publish; a contributor gets none.
  const editor = { id: authorId, role: 'editor' as const }
  const preview = await previewPublicLocation(editor, { ...EXACT, locationPrecision: 'exact' })
  assert.deepEqual([preview.level, preview.raisedByZone, preview.address], ['city', true, 'Paris, Île-de-France, France'])
  await assert.rejects(previewPublicLocation({ id: authorId, role: 'contributor' }, { ...EXACT, locationPrecision: 'exact' }), { code: 'rest_forbidden' })
  // Not a binary search's worth (93 asks found a zone's centre and radius): 60 a minute a user, then 429.
  const author = { id: authorId + 1_000_000, role: 'author' as const }
  for (let i = 0; i < PREVIEWS_PER_MINUTE; i++) await previewPublicLocation(author, { ...EXACT, locationPrecision: 'exact' })
  await assert.rejects(previewPublicLocation(author, { ...EXACT, locationPrecision: 'exact' }), (error: unknown) => {
    assert.ok(error instanceof ApiError)
    assert.deepEqual([error.status, error.code], [429, 'too_many_previews'])
    assert.ok(Number(error.data.retryAfter) >= 1)
    return true
  })
  assert.equal((await previewPublicLocation(editor, { ...EXACT, locationPrecision: 'exact' })).level, 'city', "another user's budget is their own")

  assert.deepEqual(await removeZone(OPERATOR, zone.id), { changed: 2 })
  assert.equal(((await feature('exact')) as Feature).properties.address, EXACT.address)
  await assert.rejects(removeZone(OPERATOR, zone.id), { code: 'rest_zone_invalid_id' })
  // A zone far away changes nothing.
  const far = await addZone(OPERATOR, { latitude: -33.8568, longitude: 151.2153, radiusMetres: 1000, level: 'hidden' })
  assert.equal(far.changed, 0)
  await removeZone(OPERATOR, far.zone.id)
})

test('a large zone reaches every post inside it, to its very edge', async () => {
  // 99.9 km east of a zone's centre on the equator, inside its 100 km: a box measured with a different Earth missed it.
  await addPost('equator-edge', { latitude: 0, longitude: 0.8985, address: 'Gulf of Guinea' }, 'exact')
  const { zone, changed } = await addZone(OPERATOR, { latitude: 0, longitude: 0, radiusMetres: 100_000, level: 'hidden' })
  assert.equal(changed, 1)
  assert.deepEqual(await feature('equator-edge'), { code: 'rest_no_geodata' })
  await removeZone(OPERATOR, zone.id)
  assert.equal(((await feature('equator-edge')) as Feature).properties.address, 'Gulf of Guinea')
  await getDb().post.delete({ where: { id: id('equator-edge') } })
})

test('a zone is for administrators, and its input is checked', async () => {
  const editor = { id: authorId, role: 'editor' as const, email: 'e@example.org', name: '' }
  await assert.rejects(addZone(editor, { latitude: 1, longitude: 1, radiusMetres: 10, level: 'city' }), { code: 'rest_forbidden' })
  await assert.rejects(
    addZone(OPERATOR, { latitude: 91, longitude: 1, radiusMetres: 0, level: 'exact' }),
    (error: { data: { params: Record<string, string> } }) => {
      assert.deepEqual(Object.keys(error.data.params).sort(), ['latitude', 'level', 'radiusMetres'])
      return true
    },
  )
})

test('an import keeps location_precision, reads geo_public false as hidden, and derives what the public sees', async () => {
  const feature = (slug: string, properties: Record<string, unknown>) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [EXACT.longitude, EXACT.latitude] },
    properties: { title: slug, slug, address: EXACT.address, ...properties },
  })
  const imported = await importPlaces(
    featuresOfCollection({
      type: 'FeatureCollection',
      features: [
        feature('imported-approximate', { location_precision: 'approximate' }),
        feature('imported-private', { geo_public: false, location_precision: 'exact' }),
        feature('imported-public', { geo_public: true }),
        feature('imported-unstated', {}),
      ],
    }),
    { defaultAuthor: 'privacy@example.org' },
  )
  const rows = await getDb().post.findMany({
    where: { id: { in: imported } },
    orderBy: { id: 'asc' },
    select: { locationPrecision: true, publicAddress: true },
  })
  assert.deepEqual(
    rows.map((r) => r.locationPrecision),
    ['approximate', 'hidden', 'exact', 'exact'],
  )
  assert.equal(rows[0]!.publicAddress, (await expected()).cellAddress)
  assert.equal(rows[1]!.publicAddress, '')
  await assert.rejects(
    importPlaces(featuresOfCollection({ type: 'FeatureCollection', features: [feature('bad-level', { location_precision: 'fuzzy' })] })),
    /location_precision/,
  )
})

test('migration 0006: a public location stays exact and a private one becomes hidden, with nothing public', async () => {
  const fresh = await createTestDatabase(kind)
  try {
    const first = readMigrations(dialectOf(fresh.url)).filter((m) => m.name < '0006')
    await driverOf(fresh.url).migrate(fresh.url, () => first)
    const db = createDb(fresh.url)
    await db.$executeRawUnsafe(`INSERT INTO users (id, email, role) VALUES (1, 'old@example.org', 'administrator')`)
    for (const [n, isPublic] of [
      [1, true],
      [2, false],
    ] as const) {
      await db.$executeRawUnsafe(
        `INSERT INTO posts (id, title, slug, published_at, author_id, latitude, longitude, address, location_public)
         VALUES (${n}, 'Old ${n}', 'old-${n}', CURRENT_TIMESTAMP, 1, 48.85, 2.29, 'Street ${n}', ${isPublic ? 'TRUE' : 'FALSE'})`,
      )
    }
    await db.$disconnect()
    assert.deepEqual(
      await migrate(fresh.url),
      readMigrations(dialectOf(fresh.url))
        .filter((m) => m.name >= '0006')
        .map((m) => m.name),
    )
    const after = createDb(fresh.url)
    const rows = await after.post.findMany({
      orderBy: { id: 'asc' },
      select: { locationPrecision: true, latitude: true, publicLatitude: true, publicLongitude: true, publicAddress: true, address: true },
    })
    await after.$disconnect()
    assert.deepEqual(rows, [
      { locationPrecision: 'exact', latitude: 48.85, publicLatitude: 48.85, publicLongitude: 2.29, publicAddress: 'Street 1', address: 'Street 1' },
      { locationPrecision: 'hidden', latitude: 48.85, publicLatitude: null, publicLongitude: null, publicAddress: '', address: 'Street 2' },
    ])
  } finally {
    await fresh.drop()
  }
})
