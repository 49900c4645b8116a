import assert from 'node:assert/strict'
import { test } from 'node:test'
import { OPERATOR } from '../../lib/auth/callers'
import { getDb } from '../../lib/db'
import { publicPlacesOfView, parseExportQuery } from '../../lib/places/formats/public'
import { getPlacesCollection } from '../../lib/places/public'
import { parseCollectionQuery } from '../../lib/places/schemas'
import { publicColumnsOf } from '../../lib/places/visibility'
import { updateSiteSettings } from '../../lib/site'
import type { Timeline } from '../../lib/api/contract'
import { getTimeline, parseTimelineQuery } from '../../lib/places/timeline'
import { migratedDatabaseOfThisRun } from '../support/databases'

// `after` and `before` on GET /geojson and /export (docs/api.md, after and before) against a real database: the
// site's time zone, the day included and the instant excluded, with the map's parameters, and after a write. This
// file runs on SQLite, and again in a child process for PostgreSQL when TEST_DATABASE_URL is set.

migratedDatabaseOfThisRun(import.meta.url)

type Answer = { total?: number; features: { properties: { id?: number; title?: string; cluster?: true; cluster_id?: number; point_count?: number } }[] }

/** GET /geojson with this query string. */
async function collection(query: string): Promise<Answer> {
  const answer = await getPlacesCollection(parseCollectionQuery(new URLSearchParams(query)))
  return JSON.parse(new TextDecoder().decode(await answer.body())) as Answer
}
const titles = async (query: string) => (await collection(query)).features.map((f) => f.properties.title)

let authorId: number
/** A place in Paris (two streets apart), published at `date`: public, unless `status` or `geoPublic` say otherwise. */
async function place(title: string, date: string, longitude = 2.35, { status = 'publish', geoPublic = true } = {}): Promise<number> {
  const db = getDb()
  authorId ??= (await db.user.create({ data: { email: 'published@example.org', role: 'editor' }, select: { id: true } })).id
  const location = { latitude: 48.85, longitude, address: title, locationPrecision: geoPublic ? 'exact' : 'hidden' }
  const data = { title, slug: title.toLowerCase().replaceAll(' ', '-'), status, publishedAt: new Date(date), authorId, ...location }
  return (await db.post.create({ data: { ...data, ...(await publicColumnsOf(db, location)) }, select: { id: true } })).id
}

// Newest first, as every answer.
const PLACES = [
  ['New Year', '2025-01-01T00:00:00Z'],
  ['Tokyo May Day', '2024-04-30T16:00:00Z'],
  ['Ten o’clock', '2024-04-30T10:00:00Z'],
  ['April', '2024-04-15T12:00:00Z'],
  ['Last year', '2023-06-01T12:00:00Z'],
] as const

test('places of an interval, newest first: a date includes its day, a date-time excludes its instant (UTC site)', async () => {
  for (const [title, date] of [...PLACES].reverse()) await place(title, date)
  // Within every interval below, none of them the public may see.
  await place('Draft', '2024-04-20T00:00:00Z', 2.35, { status: 'draft' })
  await place('Private', '2024-04-21T00:00:00Z', 2.35, { status: 'private' })
  await place('Hidden', '2024-04-22T00:00:00Z', 2.35, { geoPublic: false })
  assert.deepEqual(await titles('after=2024-01-01&before=2024-12-31'), ['Tokyo May Day', 'Ten o’clock', 'April'])
  assert.deepEqual(await titles('after=2024-04-30&before=2024-04-30'), ['Tokyo May Day', 'Ten o’clock'])
  assert.deepEqual(await titles('before=2024-04-15'), ['April', 'Last year'])
  assert.deepEqual(await titles('after=2024-04-30T10:00:00Z'), ['New Year', 'Tokyo May Day'])
  assert.deepEqual(await titles('after=2024-04-30T09:59:59.999Z&before=2024-04-30T10:00:00.001Z'), ['Ten o’clock'])
  assert.deepEqual(await titles('before=2024-04-30T10:00:00Z&after=2024-04-15T12:00:00'), [])
  assert.deepEqual(await titles('after=2025-01-02'), [])
  // With the other parameters: a page, a box, a search, clusters.
  assert.deepEqual(await titles('after=2024-01-01&posts_per_page=2&page=2'), ['Ten o’clock', 'April'])
  const boxed = await collection('after=2024-01-01&before=2024-12-31&bbox=2,48,3,49&posts_per_page=2')
  assert.deepEqual([boxed.total, boxed.features.length], [3, 2])
  assert.deepEqual(await titles('after=2024-01-01&search=o'), ['Tokyo May Day', 'Ten o’clock'])
  const clustered = await collection('after=2024-01-01&before=2024-12-31&cluster=true&zoom=3')
  assert.deepEqual(
    clustered.features.map((f) => f.properties.point_count),
    [3],
  )
  const clusterId = clustered.features[0]!.properties.cluster_id!
  assert.deepEqual(await titles(`after=2024-01-01&before=2024-12-31&cluster_id=${clusterId}`), ['Tokyo May Day', 'Ten o’clock', 'April'])
})

test("dates and date-times without an offset are the site's time zone", async () => {
  await updateSiteSettings(OPERATOR, { timezone: 'Asia/Tokyo' })
  try {
    // 2024-04-30T16:00Z is 1 May, 01:00 in Tokyo.
    assert.deepEqual(await titles('after=2024-05-01&before=2024-05-31'), ['Tokyo May Day'])
    assert.deepEqual(await titles('after=2024-04-30T19:00:00&before=2024-05-01T01:00:00.001'), ['Tokyo May Day'])
    assert.deepEqual(await titles('after=2024-04-30T19:00:00Z'), ['New Year'])
  } finally {
    await updateSiteSettings(OPERATOR, { timezone: 'UTC' })
  }
  assert.deepEqual(await titles('after=2024-05-01&before=2024-05-31'), [])
})

test('an interval follows writes: a place published in it, one moved out of it', async () => {
  assert.deepEqual(await titles('after=2024-04-01&before=2024-04-30'), ['Tokyo May Day', 'Ten o’clock', 'April'])
  const id = await place('Late April', '2024-04-29T08:00:00Z', 2.36)
  assert.deepEqual(await titles('after=2024-04-01&before=2024-04-30'), ['Tokyo May Day', 'Ten o’clock', 'Late April', 'April'])
  await getDb().post.update({ where: { id }, data: { publishedAt: new Date('2023-01-01T00:00:00Z') } })
  assert.deepEqual(await titles('after=2024-04-01&before=2024-04-30'), ['Tokyo May Day', 'Ten o’clock', 'April'])
})

test('the export of an interval holds what GET /geojson lists for it, with a box or without', async () => {
  for (const query of ['after=2024-01-01&before=2024-12-31', 'after=2024-04-30&bbox=2,48,3,49', 'before=2024-04-15T12:00:00.001Z']) {
    const exported: string[] = []
    for await (const feature of publicPlacesOfView(parseExportQuery(new URLSearchParams(query)))) exported.push(feature.properties.title)
    assert.deepEqual(exported, await titles(`${query}&posts_per_page=100`), query)
    assert.ok(exported.length > 0, query)
  }
})

test("the timeline counts the public places by period, in the site's zone, with a box or without", async () => {
  const counts = async (query: string) => {
    const answer = await getTimeline(parseTimelineQuery(new URLSearchParams(query)))
    return JSON.parse(new TextDecoder().decode(await answer.body())) as Timeline
  }
  // After the writes above: Last year (2023-06), Late April moved to 2023-01, April, Ten o'clock, Tokyo May Day
  // (2024-04), New Year (2025-01); no draft, private or hidden place.
  assert.deepEqual(await counts(''), {
    unit: 'month',
    total: 6,
    periods: [
      { start: '2023-01-01', end: '2023-01-31', count: 1 },
      { start: '2023-06-01', end: '2023-06-30', count: 1 },
      { start: '2024-04-01', end: '2024-04-30', count: 3 },
      { start: '2025-01-01', end: '2025-01-31', count: 1 },
    ],
  })
  assert.deepEqual((await counts('unit=year&bbox=2.355,48,3,49')).periods, [{ start: '2023-01-01', end: '2023-12-31', count: 1 }])
  await updateSiteSettings(OPERATOR, { timezone: 'Asia/Tokyo' })
  try {
    const tokyo = (await counts('')).periods.map((p) => [p.start, p.count])
    assert.deepEqual(tokyo, [
      ['2023-01-01', 1],
      ['2023-06-01', 1],
      ['2024-04-01', 2],
      ['2024-05-01', 1],
      ['2025-01-01', 1],
    ])
  } finally {
    await updateSiteSettings(OPERATOR, { timezone: 'UTC' })
  }
})
