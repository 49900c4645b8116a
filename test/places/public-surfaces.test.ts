import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { disconnectDb, getDb, readDataVersion } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { firstPictures } from '../../lib/media/pictures'
import { listPublicCategoryTree } from '../../lib/places/categories'
import { getPlaceIndex, keptIndexKeys } from '../../lib/places/map-index'
import { findPlaceDetails, findPublicPlacesByIds } from '../../lib/places/query'
import { publicColumnsOf } from '../../lib/places/visibility'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// What the public surfaces keep in memory, against a real database: the map's indexes (the home map's cannot be
// pushed out, a type or category with no public places gets none) and the map's category filter (only categories
// with public places). lib/ reads its configuration once per process, so this file runs on SQLite, and again in a
// child process for PostgreSQL when TEST_DATABASE_URL is set.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let authorId: number
const categories = new Map<string, number>()

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  const db = getDb()
  authorId = (await db.user.create({ data: { email: 'surfaces@example.org', role: 'editor' }, select: { id: true } })).id
  const category = async (name: string, parentId: number | null = null) => {
    const id = (await db.category.create({ data: { name, slug: name.toLowerCase().replace(/\W+/g, '-'), parentId }, select: { id: true } })).id
    categories.set(name, id)
    return id
  }
  const post = async (
    title: string,
    categoryIds: number[],
    { locationPrecision = 'exact', ...data }: { status?: string; locationPrecision?: string; type?: string } = {},
  ) => {
    const location = { latitude: 46.9, longitude: 7.4, address: '', locationPrecision }
    return db.post.create({
      data: {
        title,
        slug: title.toLowerCase().replace(/\W+/g, '-'),
        publishedAt: new Date(),
        authorId,
        ...location,
        ...(await publicColumnsOf(db, location)),
        ...data,
        categories: { create: categoryIds.map((categoryId) => ({ categoryId })) },
      },
    })
  }
  await post('Home place', [])
  const europe = await category('Europe')
  const swiss = await category('Switzerland', europe)
  await post('Bern', [swiss])
  for (let i = 0; i < 10; i++) await post(`Region ${i}`, [await category(`Region ${i}`)])
  await post('Draft only', [await category('Draft category')], { status: 'draft' })
  await post('Hidden only', [await category('Hidden category')], { locationPrecision: 'hidden' })
  await post('Another type', [await category('Landmarks')], { type: 'landmark' })
  await category('Empty')
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

const cachedKeys = keptIndexKeys

test("the home map's index stays however many other maps are asked for", async () => {
  const version = await readDataVersion()
  const home = getPlaceIndex({ postType: 'post', categoryId: null }, version)
  assert.equal((await home).size, 12)
  for (let i = 0; i < 10; i++) assert.equal((await getPlaceIndex({ postType: 'post', categoryId: categories.get(`Region ${i}`)! }, version)).size, 1)
  assert.equal(getPlaceIndex({ postType: 'post', categoryId: null }, version), home, 'the same index, not one built again')
})

test("searches have a cache of their own: seventy of them push out no category's index; case does not make another", async () => {
  const version = await readDataVersion()
  const region = { postType: 'post', categoryId: categories.get('Region 0')! }
  const kept = getPlaceIndex(region, version)
  assert.equal((await kept).size, 1)
  // More than the other maps' cache holds (64): every piece of three letters or more of "Region 0" … "Region 9".
  const titles = Array.from({ length: 10 }, (_, i) => `Region ${i}`)
  const searches = [
    ...new Set(titles.flatMap((title) => [...title].flatMap((_, from) => [...title.slice(from)].map((_, n) => title.slice(from, from + n + 1))))),
  ]
    .filter((piece) => piece.trim().length >= 3)
    .slice(0, 70)
  assert.equal(searches.length, 70)
  for (const search of searches) assert.ok((await getPlaceIndex({ postType: 'post', categoryId: null, search }, version)).size >= 1, search)
  assert.equal(getPlaceIndex(region, version), kept, "the category's index is the same, not built again")
  const searchKeys = () => cachedKeys().filter((key) => key.split('\n').length > 3)
  assert.ok(searchKeys().length <= 16, `at most 16 searches kept: ${searchKeys().length}`)
  const lower = getPlaceIndex({ postType: 'post', categoryId: null, search: 'region 1' }, version)
  assert.equal(getPlaceIndex({ postType: 'post', categoryId: null, search: 'REGION 1' }, version), lower, 'one index for both cases')
  assert.equal((await lower).size, 1)
})

test('no index is kept for a type or category without public places', async () => {
  const version = await readDataVersion()
  for (const query of [
    { postType: 'post', categoryId: categories.get('Draft category')! },
    { postType: 'post', categoryId: categories.get('Hidden category')! },
    { postType: 'post', categoryId: categories.get('Empty')! },
    { postType: 'post', categoryId: 987_654 },
    { postType: 'nosuchtype', categoryId: null },
  ]) {
    assert.equal((await getPlaceIndex(query, version)).size, 0)
    assert.ok(!cachedKeys().includes(`${query.postType}\n${query.categoryId ?? ''}\n`), JSON.stringify(query))
  }
  assert.equal((await getPlaceIndex({ postType: 'landmark', categoryId: null }, version)).size, 1)
})

test("_embed's reads take a map's worth of ids, more than Prisma binds in one query on SQLite (999)", async () => {
  const ids = Array.from({ length: 3000 }, (_, i) => i + 1)
  const places = await findPublicPlacesByIds(ids)
  assert.equal(places.length, 13, 'the public places of every type')
  const details = await findPlaceDetails(ids)
  for (const place of places) assert.ok(details.has(place.id), `the details of ${place.title}`)
  assert.equal((await firstPictures(ids)).size, 0, 'no post has a photo')
})

test("the map's category filter lists the categories with public places of the type, and their parents", async () => {
  const names = async (type: string) => (await listPublicCategoryTree(type)).map((c) => `${'  '.repeat(c.depth)}${c.name}`)
  assert.deepEqual(await names('post'), ['Europe', '  Switzerland', ...Array.from({ length: 10 }, (_, i) => `Region ${i}`)])
  assert.deepEqual(await names('landmark'), ['Landmarks'])
  assert.deepEqual(await names('nosuchtype'), [])
  // Published and made public, a category shows at once: the filter is read again after a write.
  const draft = await getDb().post.findFirstOrThrow({ where: { title: 'Draft only' } })
  await getDb().post.update({ where: { id: draft.id }, data: { status: 'publish' } })
  assert.ok((await names('post')).includes('Draft category'))
})
