import { expect, test } from '../support/test'
import { expectCors, expectFeatureShape, expectGeoJsonContentType, expectWordPressError, PREFIXES } from '../support/http'
import {
  bulkPosts,
  expectedFeature,
  fixtureFeatures,
  fixturePost,
  fixturePosts,
  hiddenPosts,
  isPublicPlace,
  normaliseFeature,
  type Feature,
} from '../support/places'

// GET /places/v1/geojson/{id}: docs/api.md, The Feature, Storage of geodata, Errors, URLs.

const publicFixturePosts = fixturePosts.filter(isPublicPlace)
const fixtureFeatureById = (id: number) => fixtureFeatures.find((f) => f.properties.id === id)!

test.describe('GET /geojson/{id}', () => {
  for (const prefix of PREFIXES) {
    test(`${prefix}: every published post with public geodata is its Feature, exactly`, async ({ request, baseURL }) => {
      for (const post of [...publicFixturePosts, bulkPosts[0]!, bulkPosts.at(-1)!]) {
        const response = await request.get(`${prefix}/geojson/${post.id}`)
        expect(response.status(), `post ${post.id}`).toBe(200)
        expectGeoJsonContentType(response)
        const feature = (await response.json()) as Feature
        expect(normaliseFeature(feature), `post ${post.id}`).toEqual(expectedFeature(baseURL!, post))
      }
    })
  }

  test('a Feature has exactly type, geometry and properties; properties exactly id, title, url, address; JSON types', async ({ request }) => {
    for (const title of ['Eiffel Tower', 'Null Island', 'Statue of Liberty']) {
      const response = await request.get(`/places/v1/geojson/${fixturePost(title).id}`)
      expectFeatureShape(await response.json())
    }
  })

  test('coordinates are [longitude, latitude], not the other way round', async ({ request }) => {
    // Berlin: longitude 13.38 (east), latitude 52.52 (north).
    const post = fixturePost('Brandenburg Gate')
    const feature = await (await request.get(`/places/v1/geojson/${post.id}`)).json()
    expect(feature.geometry.coordinates).toEqual([13.377704, 52.516275])
  })

  test('negative coordinates and the extremes (-180, -90, 180, 90, 0) come back exactly', async ({ request }) => {
    const cases: [string, [number, number]][] = [
      ['North Pole', [180, 90]],
      ['South Pole', [-180, -90]],
      ['Null Island', [0, 0]],
      [fixturePosts.find((p) => p.id === 1006)!.title, [-58.381592, -34.603722]],
      ['Christ the Redeemer', [-43.210487, -22.951916]],
    ]
    for (const [title, coordinates] of cases) {
      const feature = await (await request.get(`/places/v1/geojson/${fixturePost(title).id}`)).json()
      expect(feature.geometry.coordinates, title).toEqual(coordinates)
    }
  })

  test('a title with markup, quotes and non-ASCII text round-trips exactly in the JSON', async ({ request }) => {
    const post = fixturePosts.find((p) => p.id === 1006)!
    expect(post.title).toContain('<script>alert(1)</script>')
    const response = await request.get(`/places/v1/geojson/${post.id}`)
    const feature = await response.json()
    expect(feature.properties.title).toBe(post.title)
    expect(feature.properties.address).toBe(post.address)
    // Not normalised (NFC) either: the combining accent of "Café" is kept as sent.
    expect(feature.properties.title.endsWith('Cafe\u0301')).toBe(true)
  })

  test('a post without an address carries "" (empty, or the property missing at import)', async ({ request }) => {
    for (const title of ['Null Island', 'Tower Bridge', 'Christ the Redeemer']) {
      const feature = await (await request.get(`/places/v1/geojson/${fixturePost(title).id}`)).json()
      expect(feature.properties.address, title).toBe('')
    }
  })

  test('properties.url is the absolute URL of the post page: SITE_URL/type/slug', async ({ request, baseURL }) => {
    for (const title of ['Eiffel Tower', 'Eiffel Tower (landmark)', 'Tokyo Tower']) {
      const post = fixturePost(title)
      const feature = await (await request.get(`/places/v1/geojson/${post.id}`)).json()
      expect(feature.properties.url.startsWith(`${baseURL}/${post.type}/`), title).toBe(true)
      expect(new URL(feature.properties.url).href).toBe(new URL(`${baseURL}/${post.type}/${post.slug}`).href)
    }
  })

  test('geo_public missing or true means the location is public', async ({ request }) => {
    const explicit = fixturePost('Brandenburg Gate')
    const missing = fixturePost('Eiffel Tower')
    expect(fixtureFeatureById(explicit.id).properties.geo_public).toBe(true)
    expect(fixtureFeatureById(missing.id).properties).not.toHaveProperty('geo_public')
    for (const post of [explicit, missing]) expect((await request.get(`/places/v1/geojson/${post.id}`)).status(), post.title).toBe(200)
  })

  test('a custom post type (landmark) is served by id too', async ({ request, baseURL }) => {
    const post = fixturePost('Statue of Liberty')
    expect(post.type).toBe('landmark')
    const feature = await (await request.get(`/places/v1/geojson/${post.id}`)).json()
    expect(normaliseFeature(feature)).toEqual(expectedFeature(baseURL!, post))
  })

  test('leading zeros in the id name the same post', async ({ request }) => {
    const plain = await request.get('/places/v1/geojson/1001')
    const padded = await request.get('/places/v1/geojson/0001001')
    expect(padded.status()).toBe(200)
    expect(await padded.json()).toEqual(await plain.json())
  })

  for (const prefix of PREFIXES) {
    test(`${prefix}: a post that is not published (draft, pending, private, future, trash) is 404 rest_post_invalid_id`, async ({ request }) => {
      const unpublished = hiddenPosts.filter((p) => p.status !== 'publish')
      expect(new Set(unpublished.map((p) => p.status))).toEqual(new Set(['draft', 'pending', 'private', 'future', 'trash']))
      for (const post of unpublished) {
        expect(post.coordinates, `${post.title} has geodata: only its status hides it`).not.toBeNull()
        await expectWordPressError(await request.get(`${prefix}/geojson/${post.id}`), 404, 'rest_post_invalid_id')
      }
    })

    test(`${prefix}: a post that does not exist is 404 rest_post_invalid_id`, async ({ request }) => {
      for (const id of ['999999', '0', '1500', '2147483647', '2147483648']) {
        await expectWordPressError(await request.get(`${prefix}/geojson/${id}`), 404, 'rest_post_invalid_id')
      }
    })

    test(`${prefix}: a published post without geometry is 404 rest_no_geodata`, async ({ request }) => {
      const post = fixturePost('No Geometry Place')
      expect(post.status).toBe('publish')
      expect(post.coordinates).toBeNull()
      await expectWordPressError(await request.get(`${prefix}/geojson/${post.id}`), 404, 'rest_no_geodata')
    })

    test(`${prefix}: a published post whose location is not public (geo_public false) is 404 rest_no_geodata`, async ({ request }) => {
      const post = fixturePost('Hidden Location Place')
      expect(post.status).toBe('publish')
      expect(post.coordinates).not.toBeNull()
      expect(post.geoPublic).toBe(false)
      await expectWordPressError(await request.get(`${prefix}/geojson/${post.id}`), 404, 'rest_no_geodata')
    })

    test(`${prefix}: a non-numeric id does not match the route: 404 rest_no_route`, async ({ request }) => {
      for (const id of ['abc', '12abc', 'abc12', '-1', '1.5', '1e3', '%201001', '0x10']) {
        await expectWordPressError(await request.get(`${prefix}/geojson/${id}`), 404, 'rest_no_route')
      }
    })
  }

  test('a huge id (past any integer column) is a 404, not a 500', async ({ request }) => {
    for (const id of ['99999999999999999999', '9223372036854775808', '1'.repeat(400)]) {
      await expectWordPressError(await request.get(`/places/v1/geojson/${id}`), 404, 'rest_post_invalid_id')
    }
  })

  test('a successful Feature is public: CORS allowed, no credentials needed', async ({ request }) => {
    const response = await request.get(`/places/v1/geojson/${fixturePost('Eiffel Tower').id}`)
    expect(response.status()).toBe(200)
    expectCors(response)
  })
})
