import { expect, test } from '../support/test'
import { expectCors, expectFeatureShape, expectWordPressError, getCollection, PREFIXES, type Collection } from '../support/http'
import { allPosts, bulkPosts, expectedCollectionFeatures, expectedIds, fixturePost, hiddenPosts, normaliseFeature, publicPlaces } from '../support/places'

// GET /places/v1/geojson: docs/api.md, Routes, Ordering, Query parameters, Errors.

const idsOf = (collection: Collection) => collection.features.map((f) => f.properties.id)

test.describe('GET /geojson', () => {
  test('the data set is big enough to test the default (50) and the cap (500)', () => {
    expect(expectedIds({ limit: 10_000 }).length).toBeGreaterThan(500)
    expect(bulkPosts.length).toBeGreaterThan(500)
  })

  for (const prefix of PREFIXES) {
    test(`${prefix}: without parameters, the 50 newest published posts of type post, as Features`, async ({ request, baseURL }) => {
      const collection = await getCollection(request, '', prefix)
      expect(idsOf(collection)).toEqual(expectedIds())
      expect(collection.features.map(normaliseFeature)).toEqual(expectedCollectionFeatures(baseURL!))
    })
  }

  test('every feature of the collection has the Feature shape: exact keys, [lng, lat] numbers', async ({ request }) => {
    const collection = await getCollection(request, '?posts_per_page=500')
    expect(collection.features).toHaveLength(500)
    for (const feature of collection.features) expectFeatureShape(feature)
  })

  test('order: newest publish date first, ties broken by the higher id first, over the whole first 500', async ({ request, baseURL }) => {
    const collection = await getCollection(request, '?posts_per_page=500')
    expect(idsOf(collection)).toEqual(expectedIds({ limit: 500 }))
    expect(collection.features.map(normaliseFeature)).toEqual(expectedCollectionFeatures(baseURL!, { limit: 500 }))
  })

  test('two posts with the same date: the higher id comes first', async ({ request }) => {
    const louvre = fixturePost('Louvre Museum')
    const orsay = fixturePost("Musée d'Orsay")
    expect(louvre.date).toBe(orsay.date)
    expect(orsay.id).toBeGreaterThan(louvre.id)
    const ids = idsOf(await getCollection(request))
    expect(ids.indexOf(orsay.id)).toBeGreaterThanOrEqual(0)
    expect(ids.indexOf(orsay.id) + 1).toBe(ids.indexOf(louvre.id))
  })

  test('ordering is by date, not by id: the fixtures tell the two apart', async ({ request }) => {
    const expected = expectedIds({ limit: 500 })
    expect(expected, 'the fixtures must not be in id order already').not.toEqual([...expected].sort((a, b) => b - a))
    expect(idsOf(await getCollection(request, '?posts_per_page=500'))).toEqual(expected)
  })

  test('only published posts with public geodata appear, whatever the page size or type', async ({ request }) => {
    const hidden = new Set(hiddenPosts.map((p) => p.id))
    for (const query of ['?posts_per_page=500', '?post_type=landmark&posts_per_page=500', '?posts_per_page=-1']) {
      const ids = idsOf(await getCollection(request, query))
      expect(
        ids.filter((id) => hidden.has(id)),
        query,
      ).toEqual([])
    }
  })

  test('the newest hidden posts (dated after every public one) are really left out, not just sorted away', async ({ request }) => {
    const newestPublic = Math.max(...publicPlaces.map((p) => p.date))
    const newerHidden = hiddenPosts.filter((p) => p.type === 'post' && p.date > newestPublic)
    expect(newerHidden.length).toBeGreaterThanOrEqual(5)
    const ids = idsOf(await getCollection(request, '?posts_per_page=5'))
    expect(ids).toEqual(expectedIds({ limit: 5 }))
  })

  test('the features come out exactly once each', async ({ request }) => {
    const ids = idsOf(await getCollection(request, '?posts_per_page=500'))
    expect(new Set(ids).size).toBe(ids.length)
  })

  test.describe('posts_per_page', () => {
    test('an explicit value is the page size: 10 → 10, 1 → 1, 500 → 500', async ({ request }) => {
      for (const n of [10, 1, 500]) {
        expect(idsOf(await getCollection(request, `?posts_per_page=${n}`)), `posts_per_page=${n}`).toEqual(expectedIds({ limit: n }))
      }
    })

    test('a value above 500 is capped at 500 silently: 501, 1000, 99999999999999999999', async ({ request }) => {
      for (const n of ['501', '1000', '99999999999999999999']) {
        const ids = idsOf(await getCollection(request, `?posts_per_page=${n}`))
        expect(ids, `posts_per_page=${n}`).toHaveLength(500)
        expect(ids).toEqual(expectedIds({ limit: 500 }))
      }
    })

    test('-1 (WordPress "all") means 500', async ({ request }) => {
      expect(idsOf(await getCollection(request, '?posts_per_page=-1'))).toEqual(expectedIds({ limit: 500 }))
    })

    for (const prefix of PREFIXES) {
      test(`${prefix}: anything else that is not a positive integer is 400 rest_invalid_param`, async ({ request }) => {
        for (const value of ['0', '-2', 'abc', '1.5', '', '10abc', '-0']) {
          const response = await request.get(`${prefix}/geojson?posts_per_page=${encodeURIComponent(value)}`)
          await expectWordPressError(response, 400, 'rest_invalid_param')
        }
      })
    }

    test('the 400 message says which parameter is wrong', async ({ request }) => {
      const error = await expectWordPressError(await request.get('/places/v1/geojson?posts_per_page=abc'), 400, 'rest_invalid_param')
      expect(error.message).toContain('posts_per_page')
    })
  })

  test.describe('post_type', () => {
    test('defaults to post: no landmark appears without post_type', async ({ request }) => {
      const ids = idsOf(await getCollection(request, '?posts_per_page=500'))
      const landmarks = allPosts.filter((p) => p.type === 'landmark').map((p) => p.id)
      expect(ids.filter((id) => landmarks.includes(id))).toEqual([])
      expect(idsOf(await getCollection(request, '?post_type=post'))).toEqual(idsOf(await getCollection(request)))
    })

    test('post_type=landmark lists the published landmarks with geodata, newest first, ties by id', async ({ request, baseURL }) => {
      const collection = await getCollection(request, '?post_type=landmark')
      expect(idsOf(collection)).toEqual(expectedIds({ postType: 'landmark' }))
      expect(collection.features.map(normaliseFeature)).toEqual(expectedCollectionFeatures(baseURL!, { postType: 'landmark' }))
      expect(collection.features.length).toBeGreaterThanOrEqual(3)
    })

    test('an unknown post type yields an empty collection (200), not an error', async ({ request }) => {
      for (const type of ['nosuchtype', 'page', 'attachment', 'Post', 'x'.repeat(300)]) {
        const collection = await getCollection(request, `?post_type=${encodeURIComponent(type)}`)
        expect(collection.type).toBe('FeatureCollection')
        expect(collection.features, `post_type=${type}`).toEqual([])
      }
    })

    test('a post_type with a NUL byte or other control characters is just an unknown type: empty, not a 500', async ({ request }) => {
      for (const type of ['\u0000', 'post\u0000', 'post\u0001', 'p\u007fost']) {
        const collection = await getCollection(request, `?post_type=${encodeURIComponent(type)}`)
        expect(collection.features, `post_type=${JSON.stringify(type)}`).toEqual([])
      }
    })
  })

  test.describe('post_status is accepted and ignored', () => {
    for (const prefix of PREFIXES) {
      test(`${prefix}: draft, any, trash, publish, garbage and empty give the same as no post_status`, async ({ request }) => {
        const plain = await getCollection(request, '?posts_per_page=100', prefix)
        for (const status of ['draft', 'any', 'trash', 'private', 'future', 'publish', 'garbage', '', 'publish,draft']) {
          const collection = await getCollection(request, `?posts_per_page=100&post_status=${encodeURIComponent(status)}`, prefix)
          expect(collection, `post_status=${status}`).toEqual(plain)
        }
      })
    }

    test('with post_type=landmark too: a draft landmark never shows', async ({ request }) => {
      const plain = await getCollection(request, '?post_type=landmark')
      expect(await getCollection(request, '?post_type=landmark&post_status=draft')).toEqual(plain)
      expect(await getCollection(request, '?post_type=landmark&post_status=any')).toEqual(plain)
    })
  })

  test('unknown parameters are ignored (including WordPress ones the route does not take)', async ({ request }) => {
    const plain = await getCollection(request)
    for (const query of ['?foo=bar', '?orderby=title&order=asc', '?paged=2&offset=10', '?per_page=3', '?s=Eiffel&p=1001']) {
      expect(await getCollection(request, query), query).toEqual(plain)
    }
  })

  test('a repeated parameter: the last value wins (as PHP reads a query string)', async ({ request }) => {
    expect(idsOf(await getCollection(request, '?posts_per_page=5&posts_per_page=3'))).toEqual(expectedIds({ limit: 3 }))
    expect(idsOf(await getCollection(request, '?posts_per_page=abc&posts_per_page=7'))).toEqual(expectedIds({ limit: 7 }))
    expect(idsOf(await getCollection(request, '?post_type=post&post_type=landmark'))).toEqual(expectedIds({ postType: 'landmark' }))
    await expectWordPressError(await request.get('/places/v1/geojson?posts_per_page=7&posts_per_page=abc'), 400, 'rest_invalid_param')
  })

  test('parameters combine: post_type, posts_per_page and post_status together', async ({ request }) => {
    const ids = idsOf(await getCollection(request, '?post_type=landmark&posts_per_page=2&post_status=draft'))
    expect(ids).toEqual(expectedIds({ postType: 'landmark', limit: 2 }))
  })

  test('the collection is public: CORS allowed', async ({ request }) => {
    const response = await request.get('/places/v1/geojson')
    expect(response.status()).toBe(200)
    expectCors(response)
  })
})
