import { expectFeatureShape, expectWordPressError, getCollection, type Collection } from '../support/http'
import { byDateThenIdDesc, fixturePost, hiddenPosts, isInCategory, postById, publicPlaces, type FixturePost } from '../support/places'
import { categoryIdsByPath, readCategories } from '../support/db'
import { expect, test } from '../support/test'

// `search` and `_embed` of GET /places/v1/geojson (docs/api.md, search and _embed), against both databases: the
// expected answers are computed from the fixtures, never from the server.

type BBox = [number, number, number, number]
type Embedded = { date: string; categories: { id: number; name: string; slug: string }[]; picture: unknown }
type AnyFeature = {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] }
  properties: Record<string, unknown> & { id?: number; cluster?: true; cluster_id?: number; point_count?: number }
  bbox?: BBox
  _embedded?: Embedded
}
type MapCollection = { type: 'FeatureCollection'; total: number; extent: BBox | null; features: AnyFeature[] }

/** docs/api.md, search: the title or the address contains the text, ignoring case. */
const matches = (post: FixturePost, text: string) => `${post.title}\n${post.address}`.toLowerCase().includes(text.toLowerCase())

function expectedSearch(text: string, { categoryPath = null as string | null, limit = 50 } = {}): number[] {
  return publicPlaces
    .filter((p) => p.type === 'post' && matches(p, text) && (categoryPath === null || isInCategory(p, categoryPath)))
    .sort(byDateThenIdDesc)
    .slice(0, limit)
    .map((p) => p.id)
}

const ids = (collection: { features: AnyFeature[] } | Collection) => collection.features.map((f) => f.properties.id)

async function getMap(request: Parameters<typeof getCollection>[0], query: string): Promise<MapCollection> {
  return (await getCollection(request, query)) as unknown as MapCollection
}

test.describe('GET /geojson?search=', () => {
  test('titles and addresses that contain the text, whatever its case, newest first', async ({ request }) => {
    for (const text of ['PARIS', 'tower', 'Bulk Street', 'bulk 01']) {
      const expected = expectedSearch(text)
      expect(expected.length, `the fixtures have places matching ${text}`).toBeGreaterThan(0)
      const collection = await getCollection(request, `?search=${encodeURIComponent(text)}`)
      expect(ids(collection), text).toEqual(expected)
      for (const feature of collection.features) expectFeatureShape(feature)
    }
  })

  test('by address alone: a place whose title does not hold the text', async ({ request }) => {
    const louvre = fixturePost('Louvre Museum')
    const collection = await getCollection(request, `?search=rue%20de%20rivoli`)
    expect(ids(collection)).toContain(louvre.id)
  })

  test('never a post the public may not see, whatever matches', async ({ request }) => {
    for (const post of hiddenPosts.filter((p) => p.type === 'post')) {
      const collection = await getCollection(request, `?search=${encodeURIComponent(post.title)}`)
      expect(ids(collection), post.title).not.toContain(post.id)
    }
  })

  test('LIKE wildcards are plain characters', async ({ request }) => {
    for (const text of ['%', '_', 'Bulk%Street', 'Bulk_0']) {
      expect(ids(await getCollection(request, `?search=${encodeURIComponent(text)}`)), text).toEqual(expectedSearch(text))
    }
  })

  test('an empty search is as none; over 200 characters is a 400 naming search', async ({ request }) => {
    expect(ids(await getCollection(request, '?search='))).toEqual(ids(await getCollection(request, '')))
    const response = await request.get(`/places/v1/geojson?search=${'a'.repeat(201)}`)
    const body = await expectWordPressError(response, 400, 'rest_invalid_param')
    expect(Object.keys(body.data.params as object)).toEqual(['search'])
    expect(ids(await getCollection(request, `?search=${'a'.repeat(200)}`))).toEqual([])
  })

  test('spaces around the text are ignored; a NUL is a 400 naming search (PostgreSQL would refuse it)', async ({ request }) => {
    expect(ids(await getCollection(request, `?search=${encodeURIComponent('  tower ')}`))).toEqual(expectedSearch('tower'))
    expect(ids(await getCollection(request, `?search=${encodeURIComponent('   ')}`))).toEqual(ids(await getCollection(request, '')))
    const body = await expectWordPressError(await request.get('/places/v1/geojson?search=a%00b'), 400, 'rest_invalid_param')
    expect(Object.keys(body.data.params as object)).toEqual(['search'])
    expect((await request.get('/?search=a%00b')).status()).toBe(200)
  })

  test('with category, posts_per_page and page', async ({ request, databaseUrl }) => {
    const france = categoryIdsByPath(await readCategories(databaseUrl)).get('Europe > France')!
    expect(ids(await getCollection(request, `?search=paris&category=${france}`))).toEqual(expectedSearch('paris', { categoryPath: 'Europe > France' }))
    const all = expectedSearch('bulk', { limit: 100_000 })
    const page2 = await getMap(request, `?search=bulk&bbox=-180,-90,180,90&posts_per_page=20&page=2`)
    expect(ids(page2)).toEqual(all.slice(20, 40))
    expect(page2.total).toBe(all.length)
  })

  test('with bbox and cluster: the clusters count the matching places only', async ({ request }) => {
    const box: BBox = [-180, -85, 180, 85]
    const expected = publicPlaces.filter((p) => p.type === 'post' && matches(p, 'tower') && Math.abs(p.coordinates![1]) <= 85)
    const inBox = await getMap(request, `?search=tower&bbox=${box.join()}&posts_per_page=100`)
    expect(inBox.total).toBe(expected.length)
    expect(new Set(ids(inBox))).toEqual(new Set(expected.map((p) => p.id)))
    const clustered = await getMap(request, `?search=tower&cluster=true&zoom=1&bbox=${box.join()}`)
    const count = clustered.features.reduce((sum, f) => sum + (f.properties.cluster ? f.properties.point_count! : 1), 0)
    expect(count).toBe(expected.length)
    // Without the search, the same view holds far more: the answer is the search's, not a cached other one.
    const unsearched = await getMap(request, `?cluster=true&zoom=1&bbox=${box.join()}`)
    expect(unsearched.total).toBeGreaterThan(clustered.total)
  })
})

test.describe('GET /geojson?_embed', () => {
  function expectEmbedded(feature: AnyFeature) {
    const post = postById(feature.properties.id!)
    const embedded = feature._embedded!
    expect(Object.keys(embedded).sort()).toEqual(['categories', 'date', 'picture'])
    expect(Date.parse(embedded.date)).toBe(post.date)
    expect(embedded.date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    // Each category of the post is the last of its path.
    expect(embedded.categories.map((c) => c.name).sort()).toEqual(post.categories.map((path) => path.split('>').at(-1)!.trim()).sort())
    for (const category of embedded.categories) {
      expect(typeof category.id).toBe('number')
      expect(typeof category.slug).toBe('string')
    }
    // The properties stay the contract's four.
    expect(Object.keys(feature.properties).sort()).toEqual(['address', 'id', 'title', 'url'])
  }

  test('each place carries _embedded (any value of _embed, even empty); without it, none', async ({ request }) => {
    for (const query of ['?_embed', '?_embed=1', '?_embed=false&posts_per_page=100']) {
      const collection = (await getCollection(request, query)) as unknown as MapCollection
      expect(collection.features.length).toBeGreaterThan(0)
      for (const feature of collection.features) expectEmbedded(feature)
    }
    for (const feature of (await getCollection(request, '')).features) expectFeatureShape(feature)
  })

  test('with bbox, cluster and search; and on GET /geojson/{id}', async ({ request }) => {
    for (const query of ['?_embed&bbox=0,0,180,90', '?_embed&cluster=true&zoom=3&bbox=-10,35,30,60', '?_embed&search=paris']) {
      const collection = await getMap(request, query)
      const places = collection.features.filter((f) => !f.properties.cluster)
      expect(places.length, query).toBeGreaterThan(0)
      for (const feature of places) expectEmbedded(feature)
    }
    const eiffel = fixturePost('Eiffel Tower')
    const response = await request.get(`/places/v1/geojson/${eiffel.id}?_embed`)
    expect(response.status()).toBe(200)
    const feature = (await response.json()) as AnyFeature
    expectEmbedded(feature)
    expect(feature._embedded!.categories.map((c) => c.name)).toEqual(['Paris'])
    const plain = (await (await request.get(`/places/v1/geojson/${eiffel.id}`)).json()) as AnyFeature
    expect(plain._embedded).toBeUndefined()
  })
})

test.describe("clusters' places", () => {
  test('each cluster carries the box of its places and its cluster_id, which lists exactly them, newest first', async ({ request }) => {
    for (const [query, text] of [
      ['?cluster=true&zoom=2', null],
      ['?cluster=true&zoom=4&bbox=-30,20,40,70', null],
      ['?search=bulk&cluster=true&zoom=1', 'bulk'],
    ] as const) {
      const clustered = await getMap(request, query)
      const clusters = clustered.features.filter((f) => f.properties.cluster)
      expect(clusters.length, query).toBeGreaterThan(0)
      const drawn = clustered.features.flatMap((f) => (f.properties.cluster ? [] : [f.properties.id!]))
      for (const cluster of clusters) {
        const [west, south, east, north] = cluster.bbox!
        expect(west).toBeLessThanOrEqual(east)
        expect(south).toBeLessThanOrEqual(north)
        const [longitude, latitude] = cluster.geometry.coordinates
        expect(longitude).toBeGreaterThanOrEqual(west - 1e-9)
        expect(latitude).toBeLessThanOrEqual(north + 1e-9)
        const search = text ? `&search=${text}` : ''
        const listed = await getMap(request, `?cluster_id=${String(cluster.properties.cluster_id)}${search}&posts_per_page=500`)
        expect(listed.total).toBe(cluster.properties.point_count)
        const places = listed.features.map((f) => postById(f.properties.id!))
        expect(places.map((p) => p.id)).toEqual([...places].sort(byDateThenIdDesc).map((p) => p.id))
        for (const [i, place] of places.entries()) {
          expect(place.type).toBe('post')
          if (text) expect(matches(place, text)).toBe(true)
          const [placeLongitude, placeLatitude] = listed.features[i]!.geometry.coordinates
          expect(placeLongitude >= west && placeLongitude <= east && placeLatitude >= south && placeLatitude <= north).toBe(true)
        }
        drawn.push(...places.map((p) => p.id))
        // A page of them, as the map's popup asks for it.
        const page = await getMap(request, `?cluster_id=${String(cluster.properties.cluster_id)}${search}&posts_per_page=2&page=2`)
        expect(ids(page)).toEqual(places.slice(2, 4).map((p) => p.id))
        expect(page.total).toBe(places.length)
      }
      expect(new Set(drawn).size, `${query}: no place listed twice`).toBe(drawn.length)
      // Over the whole world: every place, alone or in one cluster's list.
      if (!query.includes('bbox')) {
        const every = publicPlaces.filter((p) => p.type === 'post' && (!text || matches(p, text)))
        expect(new Set(drawn)).toEqual(new Set(every.map((p) => p.id)))
      }
    }
  })

  test("with _embed, each cluster carries its places' top-level categories and how many each has", async ({ request, databaseUrl }) => {
    const rows = await readCategories(databaseUrl)
    const idOf = categoryIdsByPath(rows)
    const byId = new Map(rows.map((row) => [row.id, row]))
    const topOf = (id: number): number => {
      const parent = byId.get(id)!.parentId
      return parent === null ? id : topOf(parent)
    }
    // docs/api.md, _embed: a place counts once, in the top-level category of its category of lowest id.
    const expectedMix = (placeIds: number[]) => {
      const counts = new Map<number, number>()
      for (const post of placeIds.map(postById)) {
        const ids = post.categories.map((path) => idOf.get(path)!)
        if (ids.length === 0) continue
        const top = topOf(Math.min(...ids))
        counts.set(top, (counts.get(top) ?? 0) + 1)
      }
      return [...counts].map(([id, count]) => ({ id, name: byId.get(id)!.name, count })).sort((a, b) => b.count - a.count || a.id - b.id)
    }
    // The fixtures' clusters are each of one top-level category, some with places of none (Rio's, beside Buenos Aires'):
    // those count for nothing. Clusters of several categories: the map's index tests and e2e/ui/map.spec.ts.
    let partial = 0
    for (const query of ['?_embed&cluster=true&zoom=1', '?_embed&cluster=true&zoom=4&bbox=-30,20,40,70', '?_embed&search=bulk&cluster=true&zoom=1']) {
      const clusters = (await getMap(request, query)).features.filter((f) => f.properties.cluster)
      expect(clusters.length, query).toBeGreaterThan(0)
      for (const cluster of clusters) {
        const search = query.includes('search') ? '&search=bulk' : ''
        const listed = await getMap(request, `?cluster_id=${String(cluster.properties.cluster_id)}${search}&posts_per_page=500`)
        const mix = (cluster._embedded as unknown as { categories: { id: number; name: string; slug: string; count: number }[] }).categories
        expect(
          mix.map(({ id, name, count }) => ({ id, name, count })),
          query,
        ).toEqual(expectedMix(listed.features.map((f) => f.properties.id!)))
        if (mix.length > 0 && mix.reduce((sum, { count }) => sum + count, 0) < cluster.properties.point_count!) partial++
      }
    }
    expect(partial, 'a cluster of places with and without a category').toBeGreaterThan(0)
    // Without _embed, a cluster carries none.
    for (const feature of (await getMap(request, '?cluster=true&zoom=1')).features) expect(feature._embedded).toBeUndefined()
  })

  test('a cluster_id that names no cluster, or with cluster=true or bbox, is a 400', async ({ request }) => {
    for (const value of ['abc', '-1', '0', '1.5', '99999999999999999999']) {
      const error = await expectWordPressError(await request.get(`/places/v1/geojson?cluster_id=${value}`), 400, 'rest_invalid_param')
      expect(Object.keys(error.data.params as object)).toEqual(['cluster_id'])
    }
    const clustered = await getMap(request, '?cluster=true&zoom=2')
    const id = String(clustered.features.find((f) => f.properties.cluster)!.properties.cluster_id)
    for (const other of ['cluster=true&zoom=2', 'bbox=-180,-90,180,90']) {
      const error = await expectWordPressError(await request.get(`/places/v1/geojson?${other}&cluster_id=${id}`), 400, 'rest_invalid_param')
      expect(Object.keys(error.data.params as object)).toEqual(['cluster_id'])
    }
  })
})
