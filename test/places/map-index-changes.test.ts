import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { prng } from '../../bench/prng.ts'
import { OPERATOR } from '../../lib/auth/callers'
import { disconnectDb, getDb, readDataVersion } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { featuresOfCollection, importPlaces } from '../../lib/places/import'
import { PlaceIndexes } from '../../lib/places/map-index/cache'
import { readPlaceIndex, type PlaceIndexQuery } from '../../lib/places/map-index/read'
import { readPlaceChanges } from '../../lib/places/query'
import { publicColumnsOf } from '../../lib/places/visibility'
import { addZone, removeZone } from '../../lib/places/zones'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'
import { valuesOf } from '../support/index-values'

// The map's index after a write (README.md, "The map's index after a write"): an instance updates the index it holds
// from the change log the database's triggers keep, and the result is the index read whole from the database, after
// every kind of write, for instances that follow every write and for one that falls behind. This file runs on SQLite,
// and again in a child process for PostgreSQL when TEST_DATABASE_URL is set.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let authorId: number
const categories: number[] = []

// The same writes on every run.
const next = prng(2026)
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!

const CITIES = [
  [48.8566, 2.3522],
  [35.6586, 139.7454],
  [-17.8, 179.95],
  [40.7128, -74.006],
] as const
const LEVELS = ['exact', 'exact', 'exact', 'approximate', 'city', 'hidden']

function location(locationPrecision = pick(LEVELS)) {
  const [latitude, longitude] = pick(CITIES)
  return {
    latitude: latitude + (next() - 0.5) / 10,
    longitude: longitude + (next() - 0.5) / 10,
    address: `Street ${Math.floor(next() * 100)}`,
    locationPrecision,
  }
}

async function createPost(): Promise<number> {
  const db = getDb()
  const where = location()
  const post = await db.post.create({
    data: {
      title: `Place ${Math.floor(next() * 1e6)}`,
      slug: `p-${Math.floor(next() * 1e9)}`,
      status: next() < 0.85 ? 'publish' : 'draft',
      // Whole hours of a few days: places tie on their date.
      publishedAt: new Date(Date.UTC(2025, 0, 1 + Math.floor(next() * 3), Math.floor(next() * 24))),
      authorId,
      ...where,
      ...(await publicColumnsOf(db, where)),
      categories: { create: next() < 0.7 ? [{ categoryId: pick(categories) }] : [] },
    },
    select: { id: true },
  })
  return post.id
}

const postIds = async () => (await getDb().post.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((p) => p.id)

/** One write of a kind a site sees, on a post (or a category) taken at random. */
async function randomWrite(step: number): Promise<string> {
  const db = getDb()
  const id = pick(await postIds())
  const writes: [string, () => Promise<unknown>][] = [
    ['a new title', () => db.post.update({ where: { id }, data: { title: `Renamed ${step}` } })],
    [
      'a new point',
      async () => {
        const where = location()
        await db.post.update({ where: { id }, data: { ...where, ...(await publicColumnsOf(db, where)) } })
      },
    ],
    ['a new post', createPost],
    ['a deletion', () => db.post.delete({ where: { id } })],
    [
      'a new privacy level',
      async () => {
        const post = await db.post.findUniqueOrThrow({ where: { id }, select: { latitude: true, longitude: true, address: true } })
        const where = { ...post, locationPrecision: pick(['exact', 'city', 'hidden']) }
        await db.post.update({ where: { id }, data: { locationPrecision: where.locationPrecision, ...(await publicColumnsOf(db, where)) } })
      },
    ],
    ['a draft published or a post unpublished', () => db.post.update({ where: { id }, data: { status: next() < 0.5 ? 'publish' : 'draft' } })],
    ['a new publication date', () => db.post.update({ where: { id }, data: { publishedAt: new Date(Date.UTC(2025, 0, 2, Math.floor(next() * 24))) } })],
    [
      'a category added or taken away',
      async () => {
        const categoryId = pick(categories)
        const linked = await db.postCategory.findUnique({ where: { postId_categoryId: { postId: id, categoryId } } })
        if (linked) await db.postCategory.delete({ where: { postId_categoryId: { postId: id, categoryId } } })
        else await db.postCategory.create({ data: { postId: id, categoryId } })
      },
    ],
    [
      'a privacy zone added or removed',
      async () => {
        const zones = await db.privacyZone.findMany({ select: { id: true } })
        if (zones.length) await removeZone(OPERATOR, zones[0]!.id)
        else await addZone(OPERATOR, { latitude: 48.8566, longitude: 2.3522, radiusMetres: 3000, level: 'hidden', name: 'Centre' })
      },
    ],
  ]
  const [name, write] = pick(writes)
  await write()
  return name
}

const QUERIES: PlaceIndexQuery[] = [{ postType: 'post', categoryId: null }]

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  const db = getDb()
  authorId = (await db.user.create({ data: { email: 'changes@example.org', role: 'editor' }, select: { id: true } })).id
  const root = await db.category.create({ data: { name: 'Root', slug: 'root' } })
  const child = await db.category.create({ data: { name: 'Child', slug: 'child', parentId: root.id } })
  const other = await db.category.create({ data: { name: 'Other', slug: 'other' } })
  categories.push(root.id, child.id, other.id)
  // The root's index holds its child's places too.
  QUERIES.push({ postType: 'post', categoryId: root.id }, { postType: 'post', categoryId: other.id })
  for (let i = 0; i < 300; i++) await createPost()
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

/** Each index of `instance` at the data version now is the index read whole from the database. */
async function assertAsRead(instance: PlaceIndexes, after: string): Promise<void> {
  const version = await readDataVersion()
  for (const query of QUERIES) {
    assert.deepEqual(valuesOf(await instance.get(query, version)), valuesOf(await readPlaceIndex(query)), `${after}, category ${query.categoryId}`)
  }
}

test('the change log names the posts a write touched, and nothing when nothing was written', async () => {
  const db = getDb()
  const home = QUERIES[0]!
  const since = await readDataVersion()
  assert.deepEqual(await readPlaceChanges(home, since), { ids: new Set(), places: [] })
  const [first, second] = await postIds()
  await db.post.update({ where: { id: first! }, data: { status: 'draft' } })
  await db.post.update({ where: { id: second! }, data: { title: 'Still a place' } })
  const changes = await readPlaceChanges(home, since)
  assert.deepEqual(changes?.ids, new Set([first, second]))
  // The draft is no place any more; the other one still is, with its point, date and first category (0: none).
  const post = await db.post.findUniqueOrThrow({ where: { id: second! }, include: { categories: true } })
  const lowest = Math.min(...post.categories.map((c) => c.categoryId), Infinity)
  const expected =
    post.publicLatitude === null || post.status !== 'publish'
      ? []
      : [[second, post.publicLatitude, post.publicLongitude, post.publishedAt.getTime(), lowest === Infinity ? 0 : lowest]]
  assert.deepEqual(changes?.places, expected)
})

test('the change log cannot tell after a category moves, an import of more than 500 posts, or more than 10,000 versions', async () => {
  const db = getDb()
  const home = QUERIES[0]!
  let since = await readDataVersion()
  assert.equal(await readPlaceChanges(home, since - 10_001), null, 'pruned')
  assert.ok(await readPlaceChanges(home, since - 10_000), 'kept')
  await db.category.update({ where: { id: categories[1]! }, data: { name: 'Renamed child' } })
  assert.deepEqual(await readPlaceChanges(home, since), { ids: new Set(), places: [] }, 'a new name changes no index')
  await db.category.update({ where: { id: categories[0]! }, data: { color: '#123456' } })
  assert.deepEqual(await readPlaceChanges(home, since), { ids: new Set(), places: [] }, 'nor does a colour')
  assert.ok((await readDataVersion()) > since, 'a colour is a new data version: the pages show it')
  // Saved with the parent it has (as the admin saves a new name), or a move that matches no category: nothing moved.
  await db.category.update({ where: { id: categories[1]! }, data: { name: 'Renamed again', parentId: categories[0]! } })
  await db.category.updateMany({ where: { id: -1 }, data: { parentId: categories[2]! } })
  assert.deepEqual(await readPlaceChanges(home, since), { ids: new Set(), places: [] }, 'its own parent, or no category, moves nothing')
  await db.category.update({ where: { id: categories[1]! }, data: { parentId: categories[2]! } })
  assert.equal(await readPlaceChanges(home, since), null, 'a category moved')
  await db.category.update({ where: { id: categories[1]! }, data: { parentId: categories[0]! } })
  // An import of a few posts is named post by post, as an edit is; of more than 500, anything may have changed.
  const place = (title: string) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [2.35, 48.85] }, properties: { title } })
  for (const count of [1, 500, 501]) {
    since = await readDataVersion()
    const ids = await importPlaces(
      featuresOfCollection({ type: 'FeatureCollection', features: Array.from({ length: count }, (_, i) => place(`Imported ${i}`)) }),
      {
        defaultAuthor: 'changes@example.org',
      },
    )
    const imported = await readPlaceChanges(home, since)
    if (count > 500) assert.equal(imported, null, `${count} imported`)
    else
      assert.deepEqual(
        [...imported!.ids].sort((a, b) => a - b),
        ids,
        `${count} imported`,
      )
  }
})

test('two instances, one following every write and one falling behind, hold the index read whole after random writes', async () => {
  const following = new PlaceIndexes()
  const behind = new PlaceIndexes()
  await assertAsRead(following, 'at first')
  await assertAsRead(behind, 'at first')
  const kinds = new Set<string>()
  for (let step = 1; step <= 120; step++) {
    const name = await randomWrite(step)
    kinds.add(name)
    await assertAsRead(following, `write ${step}, ${name}`)
    if (step % 7 === 0) await assertAsRead(behind, `write ${step}, after 7 writes`)
  }
  assert.equal(kinds.size, 9, `every kind of write was made: ${[...kinds].join(', ')}`)
})
