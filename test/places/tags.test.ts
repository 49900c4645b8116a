import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { transaction, disconnectDb, getDb, readDataVersion } from '../../lib/db'
import { migrate } from '../../lib/migrate'
import { exportPlaces } from '../../lib/places/export'
import { featuresOfCollection, importPlaces } from '../../lib/places/import'
import { getPlaceIndex } from '../../lib/places/map-index'
import { getPlacesCollection } from '../../lib/places/public'
import { parseCollectionQuery } from '../../lib/places/schemas'
import { findPublicTags, resolveTagNames, setPostTags } from '../../lib/places/tags'
import { publicColumnsOf } from '../../lib/places/visibility'
import { createTestDatabase, databaseOfThisRun, type TestDatabase } from '../support/databases'

// Tags against a real database: matched by name ignoring case, the `tag` filter of GET /geojson on each of its paths
// (a page, a box, clusters, a search, with a category), the map's index of a tag after a write (the post_tags
// triggers of migration 0015), what the public may learn of a tag, and the import format's `tags` both ways. Runs on
// SQLite, and again in a child process for PostgreSQL when TEST_DATABASE_URL is set.

const kind = databaseOfThisRun(import.meta.url)
let database: TestDatabase
let authorId: number
let museumsCategory: number
const posts = new Map<string, number>()

async function addPost(
  title: string,
  { tags = [] as string[], latitude = 38.7, status = 'publish', locationPrecision = 'exact', categoryId = null as number | null } = {},
) {
  const db = getDb()
  const location = { latitude, longitude: -9.1, address: 'Lisbon', locationPrecision }
  const { id } = await db.post.create({
    data: {
      title,
      slug: title.toLowerCase().replace(/\W+/g, '-'),
      status,
      publishedAt: new Date(Date.UTC(2024, 0, posts.size + 1)),
      authorId,
      ...location,
      ...(await publicColumnsOf(db, location)),
      ...(categoryId === null ? {} : { categories: { create: [{ categoryId }] } }),
    },
    select: { id: true },
  })
  await transaction((tx) => setPostTags(tx, id, tags), { maxWait: 5000 })
  posts.set(title, id)
  return id
}

const tagId = async (name: string) => (await getDb().tag.findFirstOrThrow({ where: { name } })).id

async function titles(qs: string): Promise<string[]> {
  const answer = await getPlacesCollection(parseCollectionQuery(new URLSearchParams(qs)))
  const body = JSON.parse(Buffer.from(await answer.body()).toString()) as { features: { properties: { title?: string; point_count?: number } }[] }
  return body.features.map((f) => f.properties.title ?? `cluster of ${f.properties.point_count}`).sort()
}

before(async () => {
  database = await createTestDatabase(kind)
  process.env.DATABASE_URL = database.url
  await migrate()
  const db = getDb()
  authorId = (await db.user.create({ data: { email: 'tags@example.org', role: 'editor' }, select: { id: true } })).id
  museumsCategory = (await db.category.create({ data: { name: 'Museums', slug: 'museums' }, select: { id: true } })).id
  await addPost('Belém Tower', { tags: ['UNESCO', 'Rainy day'] })
  await addPost('Tile Museum', { tags: ['rainy DAY', 'Tiles'], categoryId: museumsCategory, latitude: 38.72 })
  await addPost('Coach Museum', { tags: ['Rainy day'], categoryId: museumsCategory, latitude: 38.69 })
  await addPost('Secret garden', { tags: ['Rainy day', 'Only drafts'], status: 'draft' })
  await addPost('Home', { tags: ['Rainy day', 'Only private'], locationPrecision: 'hidden' })
  await addPost('Miradouro', {})
})

after(async () => {
  await disconnectDb()
  await database.drop()
})

test('tags are matched by name ignoring case; a new one gets a free slug', async () => {
  const db = getDb()
  assert.deepEqual((await db.tag.findMany({ orderBy: { id: 'asc' }, select: { name: true, slug: true } })).slice(0, 3), [
    { name: 'UNESCO', slug: 'unesco' },
    { name: 'Rainy day', slug: 'rainy-day' },
    { name: 'Tiles', slug: 'tiles' },
  ])
  const ids = await transaction((tx) => resolveTagNames(tx, ['unesco', 'Rainy day!']), { maxWait: 5000 })
  assert.equal(ids.get('unesco'), await tagId('UNESCO'))
  assert.equal((await db.tag.findUniqueOrThrow({ where: { id: ids.get('rainy day!')! } })).slug, 'rainy-day-2', 'another name, the same slug base')
})

test('two saves naming the same new tag at once make it once, and both keep it', async () => {
  const [a, b] = [posts.get('Belém Tower')!, posts.get('Tile Museum')!]
  const before = await getDb().tag.count()
  await Promise.all([
    transaction((tx) => setPostTags(tx, a, ['UNESCO', 'Rainy day', 'Brand new']), { maxWait: 5000 }),
    transaction((tx) => setPostTags(tx, b, ['rainy DAY', 'Tiles', 'brand NEW']), { maxWait: 5000 }),
  ])
  assert.equal(await getDb().tag.count(), before + 1)
  const brandNew = await tagId('Brand new').catch(async () => tagId('brand NEW'))
  assert.equal(await getDb().postTag.count({ where: { tagId: brandNew } }), 2)
  for (const id of [a, b]) await getDb().postTag.deleteMany({ where: { postId: id, tagId: brandNew } })
})

test('the tag filter of GET /geojson: a page, a box, clusters, a search, with a category', async () => {
  const rainy = await tagId('Rainy day')
  assert.deepEqual(await titles(`tag=${rainy}`), ['Belém Tower', 'Coach Museum', 'Tile Museum'], 'public places only')
  assert.deepEqual(await titles(`tag=${rainy}&bbox=-10,38.695,-9,39`), ['Belém Tower', 'Tile Museum'])
  assert.deepEqual(await titles(`tag=${rainy}&search=museum`), ['Coach Museum', 'Tile Museum'])
  assert.deepEqual(await titles(`tag=${await tagId('UNESCO')}&search=museum`), [])
  assert.deepEqual(await titles(`tag=${await tagId('Tiles')}&category=${museumsCategory}`), ['Tile Museum'])
  assert.deepEqual(await titles(`tag=${await tagId('UNESCO')}&category=${museumsCategory}`), [], 'both, not either')
  assert.deepEqual(await titles(`tag=${rainy}&cluster=true&zoom=0`), ['cluster of 3'])
  for (const name of ['Only drafts', 'Only private']) assert.deepEqual(await titles(`tag=${await tagId(name)}`), [], name)
  assert.deepEqual(await titles('tag=987654'), [])
  assert.equal((await titles('')).length, 4, 'no tag: every public place')
})

test('the public learns the name of a tag only from its public places', async () => {
  const ids = await Promise.all(['UNESCO', 'Only drafts', 'Only private', 'Tiles'].map(tagId))
  assert.deepEqual(
    (await findPublicTags(ids, 'post')).map((tag) => tag.name),
    ['Tiles', 'UNESCO'],
  )
  assert.deepEqual(await findPublicTags(ids, 'landmark'), [])
})

test("a tag's map index follows its posts' tags (the post_tags triggers), and a deleted tag's", async () => {
  const unesco = await tagId('UNESCO')
  const index = async () => {
    const { ids, size } = await getPlaceIndex({ postType: 'post', categoryId: null, tagId: unesco }, await readDataVersion())
    return ids.slice(0, size).sort()
  }
  assert.deepEqual(await index(), [posts.get('Belém Tower')])
  await transaction((tx) => setPostTags(tx, posts.get('Miradouro')!, ['unesco']), { maxWait: 5000 })
  assert.deepEqual(await index(), [posts.get('Belém Tower'), posts.get('Miradouro')].sort())
  await transaction((tx) => setPostTags(tx, posts.get('Belém Tower')!, ['Rainy day']), { maxWait: 5000 })
  assert.deepEqual(await index(), [posts.get('Miradouro')])
  await getDb().tag.delete({ where: { id: unesco } })
  assert.deepEqual(await index(), [])
})

test('places import and export carry tags by name', async () => {
  const [id] = await importPlaces(
    featuresOfCollection({
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: null, properties: { title: 'Imported', slug: 'imported', tags: ['tiles', 'New & shiny', 'NEW & SHINY'] } }],
    }),
    { defaultAuthor: 'tags@example.org' },
  )
  const links = await getDb().postTag.findMany({ where: { postId: id }, select: { tag: { select: { name: true } } } })
  assert.deepEqual(links.map((link) => link.tag.name).sort(), ['New & shiny', 'Tiles'], 'an existing tag kept, a new one made once')
  const exported = new Map<string, unknown>()
  for await (const feature of exportPlaces({ allStatuses: true })) exported.set(feature.properties.title, feature.properties.tags)
  assert.deepEqual(exported.get('Imported'), ['New & shiny', 'Tiles'])
  assert.equal(exported.get('Miradouro'), undefined, 'none: no property')
})
