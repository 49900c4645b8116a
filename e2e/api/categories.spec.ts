import { categoryIdsByPath, readCategories } from '../support/db'
import { expectWordPressError, getCollection, PREFIXES } from '../support/http'
import {
  categoryPathsInOrderOfAppearance,
  expectedCollectionFeatures,
  expectedIds,
  fixturePost,
  hiddenPosts,
  isInCategory,
  normaliseFeature,
  type Feature,
} from '../support/places'
import { expect, test } from '../support/test'

// GET /geojson?category=ID: docs/api.md, Query parameters (descendants, unknown id, non-integer).
// There is no category route: the ids the CLI gave the fixture's categories are read from the database.

const getFeatures = async (...args: Parameters<typeof getCollection>) => (await getCollection(...args)).features

const ids = (features: Feature[]) => features.map((f) => f.properties.id)

test.describe('GET /geojson?category=', () => {
  let categoryId: Map<string, number>

  test.beforeAll(async ({ databaseUrl }) => {
    categoryId = categoryIdsByPath(await readCategories(databaseUrl))
  })

  const idOf = (path: string): number => {
    const id = categoryId.get(path)
    if (id === undefined) throw new Error(`category ${path} is not in the database`)
    return id
  }

  test('the import made one category per path segment, numbered 1, 2, 3… in order of first appearance', () => {
    const expected = categoryPathsInOrderOfAppearance()
    expect(expected.slice(0, 6)).toEqual(['Europe', 'Europe > France', 'Europe > France > Paris', 'Europe > Germany', 'Asia', 'Asia > Japan'])
    expect([...categoryId.entries()].sort((a, b) => a[1] - b[1])).toEqual(expected.map((path, i) => [path, i + 1]))
  })

  for (const path of ['Europe', 'Europe > France', 'Europe > France > Paris', 'Europe > Germany', 'Asia', 'Asia > Japan', 'South America']) {
    test(`category "${path}" lists its posts and its descendants' posts, newest first`, async ({ request, baseURL }) => {
      const features = await getFeatures(request, `?category=${idOf(path)}`)
      expect(ids(features)).toEqual(expectedIds({ categoryPath: path }))
      expect(features.map(normaliseFeature)).toEqual(expectedCollectionFeatures(baseURL!, { categoryPath: path }))
      expect(features.length).toBeGreaterThan(0)
    })
  }

  test('a parent category includes its grandchildren: Europe has the Paris posts', async ({ request }) => {
    const eiffel = fixturePost('Eiffel Tower')
    expect(eiffel.categories).toEqual(['Europe > France > Paris'])
    expect(ids(await getFeatures(request, `?category=${idOf('Europe')}`))).toContain(eiffel.id)
    expect(ids(await getFeatures(request, `?category=${idOf('Europe > France')}`))).toContain(eiffel.id)
  })

  test('a child category does not include its parent or siblings', async ({ request }) => {
    const paris = ids(await getFeatures(request, `?category=${idOf('Europe > France > Paris')}`))
    expect(paris).not.toContain(fixturePost('Louvre Museum').id) // in France, not in Paris
    expect(paris).not.toContain(fixturePost('Tower Bridge').id) // in Europe only
    expect(paris).not.toContain(fixturePost('Brandenburg Gate').id) // in Germany
  })

  test('a post in several matching categories (Paris and France) appears once', async ({ request }) => {
    const orsay = fixturePost("Musée d'Orsay")
    expect(orsay.categories.length).toBeGreaterThan(1)
    for (const path of ['Europe', 'Europe > France']) {
      const found = ids(await getFeatures(request, `?category=${idOf(path)}`))
      expect(
        found.filter((id) => id === orsay.id),
        path,
      ).toHaveLength(1)
    }
    const istanbul = fixturePost('Istanbul')
    expect(ids(await getFeatures(request, `?category=${idOf('Europe')}`)).filter((id) => id === istanbul.id)).toHaveLength(1)
  })

  test('hidden posts (unpublished, no geodata, private location) in the category never appear', async ({ request }) => {
    const inParis = hiddenPosts.filter((p) => isInCategory(p, 'Europe > France > Paris')).map((p) => p.id)
    expect(inParis.length).toBeGreaterThanOrEqual(7)
    const found = ids(await getFeatures(request, `?category=${idOf('Europe')}&posts_per_page=500&post_status=any`))
    expect(found.filter((id) => inParis.includes(id))).toEqual([])
  })

  test('the category filter applies within the post type: landmark + Asia, landmark + Paris', async ({ request }) => {
    for (const path of ['Asia', 'Europe > France > Paris', 'Europe']) {
      const found = ids(await getFeatures(request, `?post_type=landmark&category=${idOf(path)}`))
      expect(found, path).toEqual(expectedIds({ postType: 'landmark', categoryPath: path }))
    }
    // Kyoto holds only a landmark: as a post category it is empty.
    expect(await getFeatures(request, `?category=${idOf('Asia > Japan > Kyoto')}`)).toEqual([])
    expect(ids(await getFeatures(request, `?post_type=landmark&category=${idOf('Asia > Japan > Kyoto')}`))).toEqual([fixturePost('Kinkaku-ji').id])
  })

  test('category combines with posts_per_page: the first N of the filtered list', async ({ request }) => {
    const found = ids(await getFeatures(request, `?category=${idOf('Europe')}&posts_per_page=2`))
    expect(found).toEqual(expectedIds({ categoryPath: 'Europe', limit: 2 }))
  })

  for (const prefix of PREFIXES) {
    test(`${prefix}: a category that does not exist yields an empty collection (200), not an error`, async ({ request }) => {
      for (const id of ['999999', '0', '-1', '2147483648', '99999999999999999999']) {
        expect(await getFeatures(request, `?category=${id}`, prefix), `category=${id}`).toEqual([])
      }
    })

    test(`${prefix}: a category that is not an integer is 400 rest_invalid_param`, async ({ request }) => {
      for (const value of ['abc', '1.5', '', '1abc', 'Europe']) {
        const response = await request.get(`${prefix}/geojson?category=${encodeURIComponent(value)}`)
        await expectWordPressError(response, 400, 'rest_invalid_param')
      }
    })
  }

  test('a repeated category: the last value wins', async ({ request }) => {
    const found = ids(await getFeatures(request, `?category=${idOf('Asia')}&category=${idOf('Europe > Germany')}`))
    expect(found).toEqual(expectedIds({ categoryPath: 'Europe > Germany' }))
  })
})
