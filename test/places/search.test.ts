import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { disconnectDb, getDb } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { publicPlacesOfView } from '../../lib/places/formats/public'
import { featuresOfCollection, importPlaces } from '../../lib/places/import'
import { getPlacesCollection } from '../../lib/places/public'
import { IS_PUBLIC_PLACE_SQL, publicColumnsOf } from '../../lib/places/visibility'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// The public search (docs/api.md, search) against a real database: what the text index finds is what a plain
// "contains, ignoring case" finds, and it follows every write (the triggers on SQLite's FTS5 table and on PostgreSQL's
// table of the public places' text). This file runs on SQLite, and again in a child process for PostgreSQL when
// TEST_DATABASE_URL is set.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let authorId: number

const TITLES = [
  'Tokyo Tower',
  'Zócalo',
  'ÉCOLE de musique',
  'A "quoted" place',
  'Stars * and NEAR(brackets)',
  'Percent 100% sure',
  'Under_score',
  '東京タワー',
  'To',
]
const ADDRESSES = ['4 Chome-2-8 Shibakoen, Minato', 'Plaza de la Constitución', 'Rue de Rivoli', '', 'AND OR NOT', '', '', '', '']

async function createPlace(title: string, address: string, status = 'publish') {
  const location = { latitude: 35.6586, longitude: 139.7454, address, locationPrecision: 'exact' }
  const db = getDb()
  return db.post.create({
    data: {
      title,
      slug: `p-${Math.random().toString(36).slice(2)}`,
      status,
      publishedAt: new Date(),
      authorId,
      ...location,
      ...(await publicColumnsOf(db, location)),
    },
    select: { id: true },
  })
}

/** GET /geojson?search=…&posts_per_page=…: the titles of the places found. */
async function found(text: string, limit = 100): Promise<string[]> {
  const body = JSON.parse(new TextDecoder().decode(await (await getPlacesCollection({ postType: 'post', limit, categoryId: null, search: text })).body())) as {
    features: { properties: { title: string } }[]
  }
  return body.features.map((f) => f.properties.title)
}
const search = async (text: string) => (await found(text)).sort()

/** What the search means: the title or the public address contains the text, ignoring case. */
function expected(text: string, places: { title: string; address: string }[]): string[] {
  const lower = text.toLowerCase()
  return places
    .filter((p) => p.title.toLowerCase().includes(lower) || p.address.toLowerCase().includes(lower))
    .map((p) => p.title)
    .sort()
}

const places = TITLES.map((title, i) => ({ title, address: ADDRESSES[i]! }))

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  authorId = (await getDb().user.create({ data: { email: 'search@example.org', role: 'editor' }, select: { id: true } })).id
  for (const place of places) await createPlace(place.title, place.address)
  await createPlace('Tokyo draft', 'Minato', 'draft')
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

test('finds what "contains, ignoring case" finds: short and long texts, Unicode case, the query languages’ own characters', async () => {
  for (const text of [
    'tokyo',
    'TOWER',
    'kyo tow',
    'to',
    'o',
    'zócalo',
    'école',
    'constitución',
    '"quoted"',
    '"',
    'NEAR(',
    '* and',
    '100%',
    '%',
    'r_s',
    '_',
    'タワー',
    'and or',
    'minato',
  ]) {
    assert.deepEqual(await search(text), expected(text, places), text)
  }
})

test('an export of a search holds what the search finds, without a box too', async () => {
  const titles: string[] = []
  for await (const feature of publicPlacesOfView({ postType: 'post', categoryId: null, search: 'tokyo', format: 'geojson' }))
    titles.push(feature.properties.title)
  assert.deepEqual(titles.sort(), expected('tokyo', places))
})

test('never a post the public may not see', async () => {
  assert.deepEqual(await search('tokyo draft'), [])
})

test('follows every write: a new title, a new address, a place made hidden, a deletion', async () => {
  const db = getDb()
  const { id } = await createPlace('Lighthouse of Alexandria', 'Pharos island')
  assert.deepEqual(await search('lighthouse'), ['Lighthouse of Alexandria'])
  await db.post.update({ where: { id }, data: { title: 'Pharos' } })
  assert.deepEqual(await search('lighthouse'), [])
  assert.deepEqual(await search('pharos'), ['Pharos'])
  const moved = { latitude: 31.2, longitude: 29.9, address: 'Qaitbay Citadel', locationPrecision: 'exact' }
  await db.post.update({ where: { id }, data: { ...moved, ...(await publicColumnsOf(db, moved)) } })
  assert.deepEqual(await search('citadel'), ['Pharos'])
  assert.deepEqual(await search('island'), [])
  // Still a public place, shown at its city: found by the city's name, no longer by its own address.
  const city = { ...moved, locationPrecision: 'city' }
  await db.post.update({ where: { id }, data: { ...city, ...(await publicColumnsOf(db, city)) } })
  assert.deepEqual(await search('citadel'), [], 'the exact address of a coarsened place is not searchable')
  assert.deepEqual(await search('alexandria'), ['Pharos'])
  await db.post.update({ where: { id }, data: { status: 'draft' } })
  assert.deepEqual(await search('alexandria'), [])
  await assertTextIndexIntact()
  await db.post.update({ where: { id }, data: { status: 'publish' } })
  assert.deepEqual(await search('alexandria'), ['Pharos'])
  // A new id (no write of the app's does that, but the index must not keep the old one).
  const renumbered = id + 1_000
  await db.$executeRawUnsafe(`UPDATE "posts" SET "id" = ${renumbered} WHERE "id" = ${id}`)
  assert.deepEqual(await search('alexandria'), ['Pharos'])
  await assertTextIndexIntact()
  await db.post.delete({ where: { id: renumbered } })
  assert.deepEqual(await search('pharos'), [])
  await assertTextIndexIntact()
})

/**
 * The text index agrees with the posts it indexes. SQLite: FTS5's own check (a 'delete' with wrong old values would
 * break it unseen). PostgreSQL: the search's table holds the public places' text in lower case, nothing more nor less.
 */
async function assertTextIndexIntact(): Promise<void> {
  const db = getDb()
  if (kind === 'postgresql') {
    type Row = { id: number; title: string; public_address: string | null }
    assert.deepEqual(
      await db.$queryRaw<Row[]>`SELECT "id", "title", "public_address" FROM "posts_search" ORDER BY "id"`,
      await db.$queryRaw<Row[]>`SELECT p."id", lower(p."title") AS "title", lower(p."public_address") AS "public_address"
        FROM "posts" p WHERE ${IS_PUBLIC_PLACE_SQL} ORDER BY p."id"`,
    )
    return
  }
  await db.$executeRawUnsafe(`INSERT INTO "posts_search"("posts_search", "rank") VALUES ('integrity-check', 1)`)
  const triggers = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT "name" FROM "sqlite_master" WHERE "type" = 'trigger' AND "name" GLOB 'posts_search_*' ORDER BY "name"`,
  )
  assert.deepEqual(
    triggers.map((t) => t.name),
    ['posts_search_delete', 'posts_search_insert', 'posts_search_update'],
  )
}

test('an import, which writes in bulk, indexes what it writes; a dry run leaves nothing behind', async () => {
  const feature = (title: string, address: string) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [2.35, 48.85] },
    properties: { title, address },
  })
  const features = Array.from({ length: 1500 }, (_, i) => feature(`Imported ${i}`, i % 2 ? 'Quai Branly' : 'Rue du Bac'))
  // Posts of the file's own ids, out of order among the others: ids that do not follow one another are indexed too.
  const explicit = [9_000_005, 9_000_003, 9_000_004].map((id) => ({
    ...feature(`Numbered ${id}`, 'Rue Cler'),
    properties: { id, title: `Numbered ${id}`, address: 'Rue Cler' },
  }))
  features.splice(700, 0, explicit[0]!, explicit[1]!)
  features.push(explicit[2]!)
  const dry = await importPlaces(featuresOfCollection({ type: 'FeatureCollection', features: [feature('Dry run only', 'Nowhere')] }), {
    defaultAuthor: 'search@example.org',
    dryRun: true,
  })
  assert.equal(dry.length, 1)
  assert.deepEqual(await search('dry run'), [])
  await importPlaces(featuresOfCollection({ type: 'FeatureCollection', features }), { defaultAuthor: 'search@example.org' })
  assert.equal((await found('quai branly', 100)).length, 100)
  assert.equal((await found('quai branly', 1000)).length, 750)
  assert.deepEqual(await search('imported 1499'), ['Imported 1499'])
  assert.deepEqual(await search('numbered'), ['Numbered 9000003', 'Numbered 9000004', 'Numbered 9000005'])
  // The triggers the import set aside are back: a post written after it is indexed too.
  await createPlace('After the import', 'Quai Branly')
  assert.equal((await found('quai branly', 1000)).length, 751)
  await assertTextIndexIntact()
})
