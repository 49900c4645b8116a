import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { createDraft, parsePostForm, updatePost } from '../../lib/admin/posts'
import { addUser } from '../../lib/admin/users'
import { tripCollectionSchema, tripFeatureSchema, type TripFeature } from '../../lib/api/contract'
import { OPERATOR } from '../../lib/auth/callers'
import type { Actor } from '../../lib/auth/capabilities'
import { disconnectDb, getDb, readDataVersion, transaction } from '../../lib/db'
import { distanceKm } from '../../lib/geo/precision'
import { ApiError } from '../../lib/http/errors'
import { migrate } from '../../lib/migrate'
import { getCollection, getCollections, getTripItem, getTripItems, type ItemsQuery } from '../../lib/ogc/features'
import { tripItemHtml } from '../../lib/ogc/html'
import { TRIPS_COLLECTION } from '../../lib/ogc/trips'
import { readImportFile } from '../../lib/places/formats/read'
import { exportPlaces } from '../../lib/places/export'
import { importPlaces } from '../../lib/places/import'
import { findPostPage } from '../../lib/places/post-page'
import { addZone, removeZone } from '../../lib/places/zones'
import { listTripOptions, updateTrip } from '../../lib/trips/manage'
import { getTripCollection, getTripFeature } from '../../lib/trips/answers'
import { TrackBuilder, trackStats } from '../../lib/trips/track'
import { createTrip, readTripTracks } from '../../lib/trips/trips'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// Trips against a real database: a GPX file's tracks imported as a trip beside its waypoints, and what the public
// then sees of the route through GET /places/v1/trips[/{id}]'s answers: cut by a privacy zone and mended when it goes,
// cut at the antimeridian, none at the hidden level, nothing of a draft. This file runs on SQLite and again in a child
// process for PostgreSQL.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
const fixture = (name: string) => path.join('test', 'fixtures', 'tracks', name)

let admin: Actor

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  admin = {
    id: await addUser({ id: 0, role: 'administrator' }, { email: 'admin@trips.test', password: 'long enough', role: 'administrator' }),
    role: 'administrator',
  }
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

/** Imports a track file as `places import` does; returns the new posts' ids and the trip's slug. */
async function importFile(name: string): Promise<{ ids: number[]; slug: string }> {
  const read = await readImportFile(fixture(name))
  let slug = ''
  const ids = await importPlaces(read.source, { trip: read.trip, onTrip: (trip) => (slug = trip.slug) })
  return { ids, slug }
}

async function feature(id: number): Promise<TripFeature> {
  return tripFeatureSchema.parse(JSON.parse(new TextDecoder().decode(await (await getTripFeature(id)).body())))
}

const tripId = async (slug: string) => (await getDb().trip.findUniqueOrThrow({ where: { slug } })).id

test('a GPX file imports as a trip: its tracks kept whole, its waypoints its posts, its route and figures public', async () => {
  const { ids, slug } = await importFile('korita-zbevnica.gpx')
  assert.equal(ids.length, 2)
  const id = await tripId(slug)
  const posts = await getDb().post.findMany({ where: { id: { in: ids } }, select: { tripId: true } })
  assert.deepEqual(
    posts.map((post) => post.tripId),
    [id, id],
  )
  const tracks = await transaction((tx) => readTripTracks(tx, id))
  assert.equal(
    tracks.reduce((sum, track) => sum + track.latitudes.length, 0),
    871,
    'every point kept',
  )
  const answer = await feature(id)
  assert.equal(answer.properties.distance_m, Math.round(tracks.reduce((sum, track) => sum + trackStats(track).distanceM, 0)))
  assert.ok(answer.properties.distance_m > 5_000, String(answer.properties.distance_m))
  assert.equal(answer.properties.url, `${process.env.SITE_URL ?? 'http://localhost:3000'}/trip/${slug}`)
  assert.deepEqual(answer.properties.posts.toSorted(), ids.toSorted())
  assert.ok(answer.properties.started_at! < answer.properties.ended_at!)
  const route = answer.geometry!.coordinates
  assert.equal(route.length, 3, 'a line per track')
  const drawn = route.reduce((sum, line) => sum + line.length, 0)
  assert.ok(drawn < 871 && drawn > 50, `simplified to within 5 m: ${drawn} points`)
  // The list's route is simplified further, for a small map.
  const list = tripCollectionSchema.parse(JSON.parse(new TextDecoder().decode(await (await getTripCollection()).body())))
  const listed = list.features.find((trip) => trip.properties.id === id)!
  assert.ok(listed.geometry!.coordinates.reduce((sum, line) => sum + line.length, 0) < drawn)
})

test('a privacy zone cuts every route that passes through it, at once, and its removal mends them', async () => {
  const { slug } = await importFile('korita-zbevnica.gpx')
  const id = await tripId(slug)
  const [track] = await transaction((tx) => readTripTracks(tx, id))
  const middle = track!.latitudes.length >> 1
  const centre = { latitude: Math.round(track!.latitudes[middle]! * 1e5) / 1e5, longitude: Math.round(track!.longitudes[middle]! * 1e5) / 1e5 }
  const before = await feature(id)
  const nearest = (answer: TripFeature) =>
    Math.min(...answer.geometry!.coordinates.flat().map(([longitude, latitude]) => distanceKm(centre, { latitude, longitude }) * 1000))
  assert.ok(nearest(before) < 50, 'the route passes the zone-to-be')

  const { zone } = await addZone(OPERATOR, { name: 'Home', ...centre, radiusMetres: 300, level: 'approximate' })
  const cut = await feature(id)
  assert.ok(nearest(cut) > 300, `no point drawn within the zone: the nearest is ${nearest(cut).toFixed(0)} m away`)
  assert.ok(cut.geometry!.coordinates.length > before.geometry!.coordinates.length, 'cut into more lines')
  assert.ok(cut.properties.distance_m < before.properties.distance_m - 500, 'the distance is of what is left: the walk through the zone is not told')

  await removeZone(OPERATOR, zone.id)
  assert.deepEqual(await feature(id), before)
})

test('a route across the antimeridian is cut on it, as RFC 7946 asks', async () => {
  const { ids, slug } = await importFile('taveuni-antimeridian.gpx')
  assert.equal(ids.length, 2)
  const lines = (await feature(await tripId(slug))).geometry!.coordinates
  assert.equal(lines.length, 2)
  const [east, west] = lines
  assert.equal(east!.at(-1)![0], 180)
  assert.equal(west![0]![0], -180)
  assert.equal(east!.at(-1)![1], west![0]![1], 'both sides meet at one latitude')
  assert.ok(east!.every(([longitude]) => longitude > 179) && west!.every(([longitude]) => longitude < -179), 'no line spans the world')
})

test('a hidden route is no geometry; a draft trip is no trip to the public', async () => {
  const read = await readImportFile(fixture('taveuni-antimeridian.gpx'))
  const [hidden, draft] = await transaction(async (tx) => [
    await createTrip(tx, { title: 'Hidden', tracks: read.trip!.tracks, routePrecision: 'hidden' }),
    await createTrip(tx, { title: 'Draft', tracks: read.trip!.tracks, status: 'draft' }),
  ])
  const answer = await feature(hidden.id)
  assert.equal(answer.geometry, null)
  assert.equal(answer.properties.title, 'Hidden')
  await assert.rejects(getTripFeature(draft.id), (error) => error instanceof ApiError && error.code === 'rest_trip_invalid_id')
  await assert.rejects(getTripFeature(999_999), (error) => error instanceof ApiError && error.code === 'rest_trip_invalid_id')
  const list = tripCollectionSchema.parse(JSON.parse(new TextDecoder().decode(await (await getTripCollection()).body())))
  assert.ok(!list.features.some((trip) => trip.properties.id === draft.id))
  assert.ok(list.features.some((trip) => trip.properties.id === hidden.id))
})

test('a trip starting at home does not tell when its owner left; a file of drafts makes a draft trip', async () => {
  const read = await readImportFile(fixture('taveuni-antimeridian.gpx'), undefined, 'ferry.gpx')
  const [track] = read.trip!.tracks
  await addZone(OPERATOR, { name: 'Home', latitude: track!.latitudes[0]!, longitude: track!.longitudes[0]!, radiusMetres: 200, level: 'hidden' })
  const { id } = await transaction((tx) => createTrip(tx, { title: 'From home', tracks: read.trip!.tracks }))
  const answer = await feature(id)
  assert.ok(Date.parse(answer.properties.started_at!) > track!.times[0]!, `started ${answer.properties.started_at}, not when the track did`)
  assert.equal(answer.properties.ended_at, new Date(track!.times.at(-1)!).toISOString())

  // An upload is kept under a name of the server's: a trip whose lines have none takes the name its user knows.
  const dir = mkdtempSync(path.join(tmpdir(), 'places-trips-'))
  const upload = path.join(dir, 'import-7-2f1c')
  writeFileSync(upload, '<gpx version="1.1"><trk><trkseg><trkpt lat="1" lon="2"/><trkpt lat="1" lon="3"/></trkseg></trk></gpx>')
  assert.equal((await readImportFile(upload, undefined, 'My ferry.gpx')).trip!.title, 'My ferry')
  rmSync(dir, { recursive: true })
  let slug = ''
  const features = () => [{ type: 'Feature', geometry: null, properties: { title: 'Not yet', status: 'draft' } }]
  await importPlaces(features, { trip: { title: 'Drafts only', tracks: read.trip!.tracks }, onTrip: (trip) => (slug = trip.slug) })
  assert.equal((await getDb().trip.findUniqueOrThrow({ where: { slug } })).status, 'draft')
})

test('a zone added later over a trip’s start takes its start time away, though the route it draws is the same', async () => {
  const builder = new TrackBuilder()
  const at = (hour: number) => Date.parse(`2024-03-01T${String(hour).padStart(2, '0')}:00:00Z`)
  // Two hours logged at home, standing still (no line to draw), then the journey from 5 km away.
  for (const hour of [6, 7, 8]) builder.add(-33.9, 18.4, at(hour))
  builder.segment()
  for (let i = 0; i < 10; i++) builder.add(-33.9, 18.46 + i * 0.01, at(9) + i * 60_000)
  const { id } = await transaction((tx) => createTrip(tx, { title: 'From Cape Town', tracks: [builder.build('')] }))
  const before = await feature(id)
  assert.equal(before.properties.started_at, '2024-03-01T06:00:00.000Z')
  const { zone } = await addZone(OPERATOR, { name: 'Home', latitude: -33.9, longitude: 18.4, radiusMetres: 100, level: 'city' })
  const after = await feature(id)
  assert.deepEqual(after.geometry, before.geometry, 'the same route')
  assert.equal(after.properties.started_at, '2024-03-01T09:00:00.000Z')
  await removeZone(OPERATOR, zone.id)
})

test('an editor puts a post on a trip; its page names the trip while the trip is published', async () => {
  const read = await readImportFile(fixture('taveuni-antimeridian.gpx'))
  const { id: tripId, slug } = await transaction((tx) => createTrip(tx, { title: 'Ferry', tracks: read.trip!.tracks }))
  const id = await createDraft(admin, { title: 'On deck', type: 'post' })
  const form = (overrides: Record<string, unknown>) =>
    parsePostForm({
      ...{ title: 'On deck', content: '', excerpt: '', status: 'publish', type: 'post', slug: '', date: '2024-07-14T22:10:00' },
      ...{ categoryIds: [], newCategories: [], tags: [], address: '', locationPrecision: 'exact', latitude: '', longitude: '' },
      ...overrides,
    })
  await updatePost(admin, id, await form({ tripId }))
  const page = async () => (await findPostPage('post', 'on-deck'))!.trip
  assert.deepEqual(await page(), { title: 'Ferry', url: `${process.env.SITE_URL ?? 'http://localhost:3000'}/trip/${slug}` })
  await updatePost(admin, id, await form({}))
  assert.ok(await page(), 'a form without tripId leaves the trip as it is')
  await updateTrip(OPERATOR, tripId, { status: 'draft' })
  assert.equal(await page(), null, 'a draft trip is named nowhere public')
  await assert.rejects(updatePost(admin, id, await form({ tripId: 999_999 })), (error) => error instanceof ApiError && error.code === 'rest_invalid_param')
  await updatePost(admin, id, await form({ tripId: null }))
  assert.equal((await getDb().post.findUniqueOrThrow({ where: { id } })).tripId, null)

  // An author sees and chooses published trips only: a draft trip's title reaches no one who does not keep trips.
  const author: Actor = { id: await addUser(admin, { email: 'author@trips.test', password: 'long enough', role: 'author' }), role: 'author' }
  const { id: published } = await transaction((tx) => createTrip(tx, { title: 'Published ferry', tracks: read.trip!.tracks }))
  const own = await createDraft(author, { title: 'Author on deck', type: 'post' })
  const authorForm = async (overrides: Record<string, unknown>) => form({ title: 'Author on deck', status: 'draft', ...overrides })
  const offered = (await listTripOptions(author, null)).map((trip) => trip.id)
  assert.ok(offered.includes(published) && !offered.includes(tripId), 'the draft trip is not offered')
  assert.ok(
    (await listTripOptions(admin, null)).some((trip) => trip.id === tripId),
    'who keeps trips sees the drafts',
  )
  await assert.rejects(updatePost(author, own, await authorForm({ tripId })), (error) => error instanceof ApiError && error.code === 'rest_invalid_param')
  await updatePost(author, own, await authorForm({ tripId: published }))
  assert.equal((await getDb().post.findUniqueOrThrow({ where: { id: own } })).tripId, published)
})

test('a GeoJSON file’s lines make a trip, with togeojson’s times; problems name features by their place in the file', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'places-trips-'))
  try {
    const walk = {
      type: 'Feature',
      geometry: {
        type: 'LineString',
        coordinates: [
          [14.35, 45.77, 500],
          [14.36, 45.78, 510],
          [14.37, 45.78, 530],
        ],
      },
      properties: { name: 'GeoJSON walk', coordinateProperties: { times: ['2024-05-01T08:00:00Z', '2024-05-01T08:10:00Z', '2024-05-01T08:20:00Z'] } },
    }
    const back = {
      type: 'Feature',
      geometry: {
        type: 'MultiLineString',
        coordinates: [
          [
            [14.37, 45.78],
            [14.36, 45.77],
          ],
          [
            [14.36, 45.77],
            [14.35, 45.77],
          ],
        ],
      },
      properties: {},
    }
    const place = (title: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [14.36, 45.78] }, properties: { title } })
    const file = (features: unknown[]) => {
      const at = path.join(dir, `walk-${features.length}-${Math.random()}.geojson`)
      writeFileSync(at, JSON.stringify({ type: 'FeatureCollection', features }))
      return at
    }
    const refused = await readImportFile(file([walk, place('Lake'), back, place('')]))
    await assert.rejects(importPlaces(refused.source, { labelOf: refused.labelOf, trip: refused.trip }), (error) => {
      assert.ok(error instanceof ApiError && /^feature 3: properties\.title: is required$/m.test(error.message), String(error))
      return true
    })
    const read = await readImportFile(file([walk, place('Lake'), back, place('Hill')]))
    assert.deepEqual(read.lines, ['feature 0 (“GeoJSON walk”)', 'feature 2'])
    let slug = ''
    const ids = await importPlaces(read.source, { labelOf: read.labelOf, trip: read.trip, onTrip: (trip) => (slug = trip.slug) })
    assert.equal(ids.length, 2)
    const answer = await feature(await tripId(slug))
    assert.equal(answer.properties.title, 'GeoJSON walk')
    assert.deepEqual([answer.properties.started_at, answer.properties.ended_at], ['2024-05-01T08:00:00.000Z', '2024-05-01T08:20:00.000Z'])
    assert.equal(answer.properties.climb_m, 30)
    assert.equal(answer.geometry!.coordinates.length, 3, 'the walk, and the way back in two segments')
  } finally {
    rmSync(dir, { recursive: true })
  }
})

test('a dry run writes no trip', async () => {
  const read = await readImportFile(fixture('korita-zbevnica.gpx'))
  const count = await getDb().trip.count()
  let slug = ''
  await importPlaces(read.source, { trip: read.trip, dryRun: true, onTrip: (trip) => (slug = trip.slug) })
  assert.ok(slug, 'the trip was written in the rolled-back transaction')
  assert.equal(await getDb().trip.count(), count)
})

test('a post’s trip travels in the import format by its slug: a draft trip’s in the full copy alone; a trip the site has not puts the post on none', async () => {
  const read = await readImportFile(fixture('taveuni-antimeridian.gpx'))
  const [walk, secret] = await transaction(async (tx) => [
    await createTrip(tx, { title: 'Exported walk', tracks: read.trip!.tracks }),
    await createTrip(tx, { title: 'Secret walk', tracks: read.trip!.tracks, status: 'draft' }),
  ])
  const post = (title: string, trip: string) => ({ type: 'Feature', geometry: null, properties: { title, type: 'tripexport', trip } })
  let missing: string[] = []
  const ids = await importPlaces(() => [post('On the walk', walk.slug), post('On the secret', secret.slug), post('On no trip here', 'nowhere')], {
    onMissingTrips: (slugs) => (missing = slugs),
  })
  assert.deepEqual(missing, ['nowhere'])
  const trips = await getDb().post.findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' }, select: { tripId: true } })
  assert.deepEqual(
    trips.map((row) => row.tripId),
    [walk.id, secret.id, null],
  )
  const exported = async (allStatuses: boolean) => {
    const features = []
    for await (const feature of exportPlaces({ postType: 'tripexport', allStatuses })) features.push(feature.properties.trip)
    return features
  }
  assert.deepEqual(await exported(false), [walk.slug, undefined, undefined])
  assert.deepEqual(await exported(true), [walk.slug, secret.slug, undefined])
  // A file's own lines make a trip published only by the published posts it gets: not by those naming another.
  let own = ''
  await importPlaces(() => [post('Elsewhere', walk.slug)], { trip: { title: 'Own lines', tracks: read.trip!.tracks }, onTrip: (trip) => (own = trip.slug) })
  assert.equal((await getDb().trip.findUniqueOrThrow({ where: { slug: own } })).status, 'draft')
})

test('the OGC API’s collection of lines: a feature a published trip, its route the REST route’s, found by bbox (across the antimeridian) and datetime', async () => {
  const read = await readImportFile(fixture('taveuni-antimeridian.gpx'))
  const [ogc, draft] = await transaction(async (tx) => [
    await createTrip(tx, { title: 'OGC <crossing>', tracks: read.trip!.tracks }),
    await createTrip(tx, { title: 'OGC draft', tracks: read.trip!.tracks, status: 'draft' }),
  ])
  const version = await readDataVersion()
  const collection = await getCollection(TRIPS_COLLECTION, version)
  assert.equal(collection.title, 'Trips')
  assert.ok((await getCollections(version)).collections.some((c) => c.id === TRIPS_COLLECTION))
  const query = (q: Partial<ItemsQuery>): ItemsQuery => ({ bbox: null, datetime: null, limit: 100, offset: 0, ...q })
  const ids = async (q: Partial<ItemsQuery>) => (await getTripItems(query(q), version)).features.map((f) => f.id)
  assert.ok((await ids({})).includes(ogc.id))
  assert.ok(!(await ids({})).includes(draft.id), 'a draft trip is no feature')
  await assert.rejects(getTripItem(String(draft.id), version), { code: 'ogc_no_feature' })
  // The feature's route is the REST route's, in detail; the REST answer's properties but its id and posts.
  const item = await getTripItem(String(ogc.id), version)
  const rest = await feature(ogc.id)
  assert.deepEqual(item.geometry, rest.geometry)
  const { id: _, posts: __, ...properties } = rest.properties
  assert.deepEqual(item.properties, properties)
  // A box across the antimeridian around Taveuni's east coast meets it; one in the Atlantic does not.
  assert.ok((await ids({ bbox: [179.5, -17.5, -179.5, -16.5] })).includes(ogc.id))
  assert.ok(!(await ids({ bbox: [-30, 0, -20, 10] })).includes(ogc.id))
  const day = (text: string) => ({ start: Date.parse(`${text}T00:00:00Z`), end: Date.parse(`${text}T23:59:59.999Z`), text })
  assert.ok((await ids({ datetime: day('2024-07-14') })).includes(ogc.id))
  assert.ok(!(await ids({ datetime: day('2024-07-16') })).includes(ogc.id))
  // Its page escapes the title.
  const page = tripItemHtml(item, collection)
  assert.ok(page.includes('OGC &#60;crossing&#62;') && !page.includes('<crossing>'))
})
