import { expectCors, expectFeatureShape, expectWordPressError, getCollection, type Collection } from '../support/http'
import { expectedFeature, expectedIds, fixturePost, isInCategory, publicPlaces, type FixturePost } from '../support/places'
import { categoryIdsByPath, readCategories } from '../support/db'
import { expect, test } from '../support/test'

// The parameters the map adds to GET /geojson (README, The API): bbox, page, cluster and zoom. Each takes effect only
// when present; without them the route answers as the other specs say.

type BBox = [number, number, number, number]
type ClusterFeature = {
  type: 'Feature'
  geometry: { type: 'Point'; coordinates: [number, number] }
  properties: { cluster: true; cluster_id: number; point_count: number; expansion_zoom: number }
}
type MapCollection = Collection & { total: number; extent: BBox | null }
type ClusterCollection = { type: 'FeatureCollection'; total: number; extent: BBox | null; features: (ClusterFeature | Collection['features'][number])[] }

const posts = (postType = 'post') => publicPlaces.filter((p) => p.type === postType)

function isInBox(post: FixturePost, [west, south, east, north]: BBox): boolean {
  const [longitude, latitude] = post.coordinates!
  const inLongitude = west <= east ? longitude >= west && longitude <= east : longitude >= west || longitude <= east
  return inLongitude && latitude >= south && latitude <= north
}

/** The ids GET /geojson?bbox= must list: the places in the box, in the collection's order. */
function expectedInBox(bbox: BBox, { limit = 50, page = 1, postType = 'post' } = {}): number[] {
  const inBox = new Set(
    posts(postType)
      .filter((p) => isInBox(p, bbox))
      .map((p) => p.id),
  )
  return expectedIds({ limit: 100_000, postType })
    .filter((id) => inBox.has(id))
    .slice((page - 1) * limit, page * limit)
}

async function getMap(request: Parameters<typeof getCollection>[0], query: string): Promise<MapCollection> {
  return (await getCollection(request, query)) as MapCollection
}

const isCluster = (feature: ClusterCollection['features'][number]): feature is ClusterFeature => 'cluster' in feature.properties
const countOf = (collection: ClusterCollection) => collection.features.reduce((sum, f) => sum + (isCluster(f) ? f.properties.point_count : 1), 0)

test.describe('GET /geojson?bbox=west,south,east,north', () => {
  // The eastern hemisphere: more than a page of the fixtures' places.
  const EAST: BBox = [0, -90, 180, 90]

  test('the places in the box, newest first, 50 a page, with total and extent', async ({ request }) => {
    const collection = await getMap(request, `?bbox=${EAST.join()}`)
    const inBox = posts().filter((p) => isInBox(p, EAST)).length
    expect(inBox, 'the fixtures have more than a page of places there').toBeGreaterThan(50)
    expect(collection.features.map((f) => f.properties.id)).toEqual(expectedInBox(EAST))
    for (const feature of collection.features) expectFeatureShape(feature)
    expect(collection.total).toBe(inBox)
    const all = posts()
    const longitudes = all.map((p) => p.coordinates![0])
    const latitudes = all.map((p) => p.coordinates![1])
    // The fixtures have places at both -180 and 180: no box across the antimeridian is smaller.
    expect(collection.extent).toEqual([Math.min(...longitudes), Math.min(...latitudes), Math.max(...longitudes), Math.max(...latitudes)])
  })

  test('posts_per_page and page walk through the box', async ({ request }) => {
    const first = await getMap(request, `?bbox=${EAST.join()}&posts_per_page=20`)
    const second = await getMap(request, `?bbox=${EAST.join()}&posts_per_page=20&page=2`)
    expect(first.features.map((f) => f.properties.id)).toEqual(expectedInBox(EAST, { limit: 20 }))
    expect(second.features.map((f) => f.properties.id)).toEqual(expectedInBox(EAST, { limit: 20, page: 2 }))
    const past = await getMap(request, `?bbox=${EAST.join()}&page=1000`)
    expect(past.features).toEqual([])
    expect(past.total).toBe(first.total)
  })

  test("page works without a box too: the collection's next page", async ({ request }) => {
    const page = await getCollection(request, '?posts_per_page=7&page=3')
    expect(page.features.map((f) => f.properties.id)).toEqual(expectedIds({ limit: 21 }).slice(14))
    expect(Object.keys(page)).toEqual(['type', 'features'])
  })

  test('west > east: the box crosses the antimeridian', async ({ request }) => {
    const box: BBox = [170, -60, -170, 60]
    const expected = expectedInBox(box, { limit: 500 })
    expect(expected.length, 'the fixtures have places near the antimeridian').toBeGreaterThan(0)
    const collection = await getMap(request, `?bbox=${box.join()}&posts_per_page=500`)
    expect(collection.features.map((f) => f.properties.id)).toEqual(expected)
  })

  test('with category and post_type', async ({ request, databaseUrl }) => {
    const paris = categoryIdsByPath(await readCategories(databaseUrl)).get('Europe > France > Paris')!
    const box: BBox = [-180, -90, 180, 90]
    const collection = await getMap(request, `?bbox=${box.join()}&category=${paris}&posts_per_page=500`)
    const inParis = new Set(
      posts()
        .filter((p) => isInCategory(p, 'Europe > France > Paris'))
        .map((p) => p.id),
    )
    expect(collection.features.map((f) => f.properties.id)).toEqual(expectedIds({ limit: 100_000 }).filter((id) => inParis.has(id)))
    expect(collection.total).toBe(inParis.size)
    const landmarks = await getMap(request, `?bbox=${box.join()}&post_type=landmark&posts_per_page=500`)
    expect(landmarks.features.map((f) => f.properties.id)).toEqual(expectedInBox(box, { postType: 'landmark', limit: 500 }))
  })

  test('a box with nothing in it: an empty collection, total 0', async ({ request }) => {
    const collection = await getMap(request, '?bbox=-150,-80,-149,-79')
    expect(collection.features).toEqual([])
    expect(collection.total).toBe(0)
  })
})

test.describe('GET /geojson?cluster=true&zoom=Z', () => {
  test('at zoom 0 without a box: clusters and places that stand for every place, once', async ({ request }) => {
    const collection = (await getCollection(request, '?cluster=true&zoom=0')) as unknown as ClusterCollection
    expect(collection.total).toBe(posts().length)
    expect(countOf(collection)).toBe(posts().length)
    expect(collection.features.some(isCluster)).toBe(true)
    for (const feature of collection.features) {
      if (isCluster(feature)) {
        expect(Object.keys(feature.properties).sort()).toEqual(['cluster', 'cluster_id', 'expansion_zoom', 'point_count'])
        expect(feature.properties.point_count).toBeGreaterThan(1)
        expect(feature.properties.expansion_zoom).toBeGreaterThan(0)
      } else {
        expectFeatureShape(feature)
      }
    }
  })

  test('zoomed in on one place: the place itself, as its Feature', async ({ request, baseURL }) => {
    const tower = fixturePost('Tokyo Tower')
    const [longitude, latitude] = tower.coordinates!
    const box: BBox = [longitude - 0.001, latitude - 0.001, longitude + 0.001, latitude + 0.001]
    const collection = (await getCollection(request, `?cluster=true&zoom=17&bbox=${box.join()}`)) as unknown as ClusterCollection
    expect(collection.features).toContainEqual(expectedFeature(baseURL!, tower))
    expect(collection.total).toBe(collection.features.length)
  })

  test('a cluster splits at its expansion zoom', async ({ request }) => {
    const world = (await getCollection(request, '?cluster=true&zoom=1')) as unknown as ClusterCollection
    const cluster = world.features.filter(isCluster).sort((a, b) => b.properties.point_count - a.properties.point_count)[0]!
    const [longitude, latitude] = cluster.geometry.coordinates
    const zoom = cluster.properties.expansion_zoom
    // A box a few hundred pixels across at that zoom, around the cluster.
    const half = 200 * (360 / (256 * 2 ** zoom))
    const box: BBox = [Math.max(-180, longitude - half), Math.max(-90, latitude - half / 2), Math.min(180, longitude + half), Math.min(90, latitude + half / 2)]
    const after = (await getCollection(request, `?cluster=true&zoom=${zoom}&bbox=${box.join()}`)) as unknown as ClusterCollection
    expect(after.features.length).toBeGreaterThan(1)
  })

  test('with a category: only its places are counted', async ({ request, databaseUrl }) => {
    const europe = categoryIdsByPath(await readCategories(databaseUrl)).get('Europe')!
    const collection = (await getCollection(request, `?cluster=true&zoom=2&category=${europe}`)) as unknown as ClusterCollection
    const expected = posts().filter((p) => isInCategory(p, 'Europe')).length
    expect(collection.total).toBe(expected)
    expect(countOf(collection)).toBe(expected)
  })

  test('zoom is read only with cluster=true; cluster=false is the plain collection', async ({ request }) => {
    const plain = await getCollection(request)
    expect(await getCollection(request, '?zoom=5')).toEqual(plain)
    expect(await getCollection(request, '?cluster=false&zoom=abc')).toEqual(plain)
  })
})

test.describe('the map parameters: errors, caching, CORS', () => {
  const bad: [string, string][] = [
    ['?bbox=1,2,3', 'bbox'],
    ['?bbox=a,b,c,d', 'bbox'],
    ['?bbox=-181,0,0,1', 'bbox'],
    ['?bbox=0,-91,1,1', 'bbox'],
    ['?bbox=0,10,1,5', 'bbox'],
    ['?page=0', 'page'],
    ['?page=x', 'page'],
    ['?cluster=yes&zoom=1', 'cluster'],
    ['?cluster=true', 'zoom'],
    ['?cluster=true&zoom=25', 'zoom'],
    ['?cluster=true&zoom=18&bbox=-10,35,30,60', 'bbox'],
    // Without bbox the view is the whole world, bounded as a box is (zoom 5 at most): no answer grows with the places.
    ['?cluster=true&zoom=6', 'zoom'],
    ['?cluster=1&zoom=24&_embed', 'zoom'],
  ]
  for (const [query, param] of bad) {
    test(`${query}: 400 rest_invalid_param naming ${param}`, async ({ request }) => {
      const error = await expectWordPressError(await request.get(`/places/v1/geojson${query}`), 400, 'rest_invalid_param')
      expect(Object.keys(error.data.params as object)).toEqual([param])
    })
  }

  test("the ETag is the data version's: the same as the plain collection's, and answered with 304", async ({ request }) => {
    for (const query of ['?bbox=-10,35,30,60', '?cluster=true&zoom=3', '?cluster=true&zoom=12&bbox=2.2,48.8,2.4,48.9']) {
      // Other spec files import posts meanwhile (two workers): retried until no write fell between the requests.
      await expect(async () => {
        const etag = (await request.get('/places/v1/geojson')).headers().etag!
        const response = await request.get(`/places/v1/geojson${query}`)
        expect(response.headers().etag).toBe(etag)
        expect(response.headers()['cache-control']).toBe('public, max-age=0, s-maxage=1')
        expectCors(response)
        const again = await request.get(`/places/v1/geojson${query}`, { headers: { 'If-None-Match': etag } })
        expect(again.status()).toBe(304)
      }).toPass({ timeout: 30_000 })
    }
  })

  test('through /wp-json too', async ({ request }) => {
    expect(await getCollection(request, '?cluster=true&zoom=3', '/wp-json/places/v1')).toEqual(await getCollection(request, '?cluster=true&zoom=3'))
  })
})
