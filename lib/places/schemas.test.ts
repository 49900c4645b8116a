import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ApiError } from '../http/errors'
import { isoDateSchema, parseCategoryPath, postTypeLabel, postTypeSchema } from './post-fields'
import { importFeatureSchema, parseBBox, parseCollectionQuery, parseMapState, parsePostId, publishedWithin, queryValues, type BBoxProblem } from './schemas'

const query = (qs: string) => parseCollectionQuery(new URLSearchParams(qs))
const invalidParams = (qs: string) => {
  try {
    query(qs)
  } catch (error) {
    assert.ok(error instanceof ApiError)
    assert.equal(error.code, 'rest_invalid_param')
    assert.equal(error.status, 400)
    return Object.keys(error.data.params as object)
  }
  assert.fail(`${qs} was accepted`)
}

describe('parseCollectionQuery', () => {
  test('defaults: post type post, 50 a page, no category', () => {
    assert.deepEqual(query(''), { postType: 'post', limit: 50, categoryId: null })
  })
  test('one meaning, one query, however spelt: the answers are cached under it (lib/places/public.ts)', () => {
    const first = query('')
    for (const spelling of ['page=1', 'post_type=post', 'posts_per_page=50', 'search=%20%20', 'page=1&posts_per_page=050&post_type=post']) {
      assert.deepEqual(query(spelling), first, spelling)
      assert.equal(JSON.stringify(query(spelling)), JSON.stringify(first), spelling)
    }
    assert.equal(JSON.stringify(query('search=%20Lisbon%20&page=2')), JSON.stringify(query('page=2&search=Lisbon')))
    assert.deepEqual(query('page=2').page, 2)
  })
  test('posts_per_page: positive integers, capped at 500; -1 means 500', () => {
    assert.equal(query('posts_per_page=1').limit, 1)
    assert.equal(query('posts_per_page=500').limit, 500)
    assert.equal(query('posts_per_page=501').limit, 500)
    assert.equal(query('posts_per_page=99999999999999999999999').limit, 500)
    assert.equal(query('posts_per_page=-1').limit, 500)
    assert.equal(query('posts_per_page=007').limit, 7)
  })
  test('posts_per_page: anything else is a 400 naming the parameter', () => {
    for (const bad of ['0', '-2', 'abc', '1.5', '', ' 5', '+5', '1e3', '0x10']) {
      assert.deepEqual(invalidParams(`posts_per_page=${encodeURIComponent(bad)}`), ['posts_per_page'], bad)
    }
  })
  test('category: an integer id; an id past the integer range names nothing', () => {
    assert.equal(query('category=12').categoryId, 12)
    assert.equal(query('category=-3').categoryId, -3)
    assert.equal(query('category=99999999999999').categoryId, 0)
    for (const bad of ['abc', '1.5', '', '1,2']) assert.deepEqual(invalidParams(`category=${encodeURIComponent(bad)}`), ['category'], bad)
  })
  test('tag: an integer id, as category; absent, the query has none (one cache key)', () => {
    assert.equal(query('tag=12').tagId, 12)
    assert.equal(query('tag=99999999999999').tagId, 0)
    assert.equal('tagId' in query('category=3'), false)
    assert.deepEqual(query('tag=4&category=3'), { postType: 'post', limit: 50, categoryId: 3, tagId: 4 })
    for (const bad of ['abc', '1.5', '', 'lisbon']) assert.deepEqual(invalidParams(`tag=${encodeURIComponent(bad)}`), ['tag'], bad)
  })
  test('every invalid parameter is named at once', () => {
    assert.deepEqual(invalidParams('posts_per_page=0&category=x').sort(), ['category', 'posts_per_page'])
  })
  test('post_status and unknown parameters are ignored; a repeated parameter keeps its last value', () => {
    assert.deepEqual(query('post_status=draft&foo=bar'), query(''))
    assert.equal(query('posts_per_page=5&posts_per_page=7').limit, 7)
    assert.equal(query('post_type=page&post_type=landmark').postType, 'landmark')
    assert.equal(query('post_type=').postType, 'post')
  })
})

test('parsePostId matches digits only, as WordPress routes do', () => {
  assert.equal(parsePostId('42'), 42)
  assert.equal(parsePostId('0042'), 42)
  assert.equal(parsePostId('99999999999999999999'), 0)
  for (const bad of ['', 'abc', '12abc', '-1', '1.0', ' 1', '١٢']) assert.equal(parsePostId(bad), null, bad)
})

test('isoDateSchema takes ISO 8601 dates and date-times, zoneless as UTC', () => {
  assert.equal(isoDateSchema.parse('2024-05-01').toISOString(), '2024-05-01T00:00:00.000Z')
  assert.equal(isoDateSchema.parse('2024-05-01T12:30').toISOString(), '2024-05-01T12:30:00.000Z')
  assert.equal(isoDateSchema.parse('2024-05-01T12:30:15+02:00').toISOString(), '2024-05-01T10:30:15.000Z')
  for (const bad of ['yesterday', '2024-13-45', '01/05/2024', '2024-02-30T00:00:00Z']) assert.equal(isoDateSchema.safeParse(bad).success, false, bad)
})

test('postTypeLabel: a type as visitors read it, plural', () => {
  assert.deepEqual(['post', 'landmark', 'city_walk', 'bus', 'trip-2'].map(postTypeLabel), ['Posts', 'Landmarks', 'City walks', 'Bus', 'Trip 2s'])
})

test('postTypeSchema: WordPress post type keys, not the paths the app uses', () => {
  for (const ok of ['post', 'landmark', 'my_type-2']) assert.ok(postTypeSchema.safeParse(ok).success, ok)
  for (const bad of ['', 'Post', 'a/b', 'x'.repeat(21), 'admin', 'places', 'wp-json']) assert.equal(postTypeSchema.safeParse(bad).success, false, bad)
})

test('importFeatureSchema: defaults, coordinate ranges, null geometry', () => {
  const feature = importFeatureSchema.parse({ type: 'Feature', geometry: null, properties: { title: 'A' } })
  assert.deepEqual(feature.properties, { title: 'A', content: '', excerpt: '', type: 'post', status: 'publish', address: '', categories: [], tags: [] })
  const tagged = importFeatureSchema.parse({ type: 'Feature', geometry: null, properties: { title: 'A', tags: [' Rainy   day ', 'rainy day', 'Food'] } })
  assert.deepEqual(tagged.properties.tags, ['Rainy day', 'Food'], 'spaces collapsed, each once ignoring case')
  for (const tags of [['a, b'], [''], ['x'.repeat(201)], Array.from({ length: 101 }, (_, i) => `t${i}`), 'a']) {
    assert.equal(importFeatureSchema.safeParse({ type: 'Feature', geometry: null, properties: { title: 'A', tags } }).success, false, JSON.stringify(tags))
  }
  assert.ok(importFeatureSchema.safeParse({ type: 'Feature', geometry: { type: 'Point', coordinates: [180, -90, 12] }, properties: { title: 'A' } }).success)
  for (const coordinates of [[181, 0], [0, 91], [0], ['1', '2'], [Number.NaN, 0]]) {
    assert.equal(
      importFeatureSchema.safeParse({ type: 'Feature', geometry: { type: 'Point', coordinates }, properties: { title: 'A' } }).success,
      false,
      JSON.stringify(coordinates),
    )
  }
  assert.equal(importFeatureSchema.safeParse({ type: 'Feature', geometry: null, properties: { title: '  ' } }).success, false)
  assert.equal(importFeatureSchema.safeParse({ type: 'Feature', geometry: null, properties: { title: 'A', status: 'published' } }).success, false)
})

test('parseCategoryPath splits on > and trims', () => {
  assert.deepEqual(parseCategoryPath(' Europe >France>  Paris '), ['Europe', 'France', 'Paris'])
  assert.deepEqual(parseCategoryPath('Food & Drink'), ['Food & Drink'])
})

describe('the map parameters of GET /geojson', () => {
  test('none of them: the query is as before', () => {
    assert.deepEqual(query('zoom=3&posts_per_page=5'), { postType: 'post', limit: 5, categoryId: null })
    assert.deepEqual(query('cluster=false&zoom=x'), query(''), 'zoom is read only with cluster=true')
  })
  test('bbox: west,south,east,north; west > east crosses the antimeridian', () => {
    assert.deepEqual(query('bbox=-10.5,35,20,60').bbox, [-10.5, 35, 20, 60])
    assert.deepEqual(query('bbox=170,-50,-170,-30').bbox, [170, -50, -170, -30])
    assert.deepEqual(query('bbox=-180,-90,180,90').bbox, [-180, -90, 180, 90])
    for (const bad of ['', '1,2,3', '1,2,3,4,5', 'a,b,c,d', '1, 2,3,4', '1e1,2,3,4', '181,0,0,1', '0,-91,1,1', '0,10,1,5', '-0x1,0,1,1']) {
      assert.deepEqual(invalidParams(`bbox=${encodeURIComponent(bad)}`), ['bbox'], bad)
    }
  })
  test('page: a positive integer', () => {
    assert.equal(query('page=3').page, 3)
    assert.equal(query('page=99999999999999').page, 2_147_483_647)
    for (const bad of ['0', '-1', '1.5', '', 'x']) assert.deepEqual(invalidParams(`page=${encodeURIComponent(bad)}`), ['page'], bad)
  })
  test('cluster=true needs zoom, an integer 0 to 24', () => {
    assert.equal(query('cluster=true&zoom=0').clusterZoom, 0)
    assert.equal(query('cluster=1&zoom=24&bbox=2.35,48.85,2.3501,48.8501').clusterZoom, 24)
    assert.equal(query('cluster=0&zoom=5').clusterZoom, undefined)
    assert.deepEqual(invalidParams('cluster=true'), ['zoom'])
    for (const bad of ['25', '-1', '1.5', '', 'x']) assert.deepEqual(invalidParams(`cluster=true&zoom=${encodeURIComponent(bad)}`), ['zoom'], bad)
    for (const bad of ['yes', 'TRUE', '']) assert.deepEqual(invalidParams(`cluster=${bad}&zoom=1`), ['cluster'], bad)
  })
  test('with cluster=true the box may span at most 8192 pixels each way at that zoom', () => {
    assert.ok(query('cluster=true&zoom=4&bbox=-180,-85,180,85'), 'the whole world is 4096 pixels wide at zoom 4')
    assert.deepEqual(invalidParams('cluster=true&zoom=6&bbox=-180,-85,180,85'), ['bbox'])
    assert.ok(query('cluster=true&zoom=15&bbox=2.3,48.85,2.4,48.87'), 'a city quarter at zoom 15')
    assert.deepEqual(invalidParams('cluster=true&zoom=15&bbox=2,48,3,49'), ['bbox'])
    assert.ok(query('bbox=2,48,3,49'), 'without clusters any box is a page of places')
  })
  test('without a bbox the whole world is the box: zoom 5 at most', () => {
    assert.equal(query('cluster=true&zoom=5').clusterZoom, 5, 'the whole world is 8192 pixels wide at zoom 5')
    for (const zoom of [6, 16, 24]) assert.deepEqual(invalidParams(`cluster=true&zoom=${zoom}`), ['zoom'], `zoom ${zoom}`)
    assert.ok(query('zoom=24'), 'zoom alone, without cluster, is ignored')
  })
})

describe('search and _embed', () => {
  test('search: kept as given, empty is as none, over 200 characters is a 400', () => {
    assert.equal(query('search=Tower').search, 'Tower')
    assert.equal(query('search=').search, undefined)
    assert.equal(query(`search=${'a'.repeat(200)}`).search, 'a'.repeat(200))
    assert.deepEqual(invalidParams(`search=${'a'.repeat(201)}`), ['search'])
  })
  test('_embed: present, whatever its value', () => {
    assert.equal(query('_embed').embed, true)
    assert.equal(query('_embed=0').embed, true)
    assert.equal(query('').embed, undefined)
  })
})

describe('after and before', () => {
  test('dates and date-times, T and Z in either case or a space for T, kept upper-case', () => {
    assert.equal(query('after=2024-05-01').after, '2024-05-01')
    assert.equal(query('before=2024-05-01t10:00:00z').before, '2024-05-01T10:00:00Z')
    assert.equal(query(`after=${encodeURIComponent('2024-05-01 10:00:00')}`).after, '2024-05-01T10:00:00')
    assert.equal(query('after=2024-05-01T10:00&before=2024-05-01T10:00:00.5%2B02:00').before, '2024-05-01T10:00:00.5+02:00')
    assert.equal(query('').after, undefined)
  })
  test('anything else is a 400 naming the parameter: an unencoded + of an offset among them', () => {
    for (const bad of [
      'yesterday',
      '2024-02-30',
      '2024-05',
      '2024-05-01T25:00',
      '2024-05-01T10:00:00+05:30',
      '',
      '1714557600',
      '0000-06-01T00:00',
      '0000-01-01',
    ])
      assert.deepEqual(invalidParams(`after=${bad}`), ['after'], bad)
    assert.deepEqual(invalidParams('after=x&before=y'), ['after', 'before'])
  })
  test('before earlier than after in one zone is a 400 naming before; a day or an instant with itself', () => {
    assert.deepEqual(invalidParams('after=2024-05-02&before=2024-05-01'), ['before'])
    assert.deepEqual(invalidParams('after=2024-05-01T10:00:00Z&before=2024-05-01T09:00:00Z'), ['before'])
    // A date-time is excluded: nothing is after and before one instant.
    assert.deepEqual(invalidParams('after=2024-05-01T10:00&before=2024-05-01T10:00'), ['before'])
    assert.equal(query('after=2024-05-01&before=2024-05-01').before, '2024-05-01')
    // In two zones (an offset and the site's), the order depends on the site's: no error, perhaps no places.
    assert.equal(query('after=2024-05-01T10:00&before=2024-05-01T09:00:00%2B09:00').after, '2024-05-01T10:00')
  })
  test("the interval: a date's whole day included, a date-time's instant excluded, in the site's zone", () => {
    const at = Date.parse
    assert.equal(publishedWithin({}, 'UTC'), undefined)
    assert.deepEqual(publishedWithin({ after: '2024-01-01', before: '2024-12-31' }, 'UTC'), [at('2024-01-01T00:00:00Z'), at('2025-01-01T00:00:00Z') - 1])
    assert.deepEqual(publishedWithin({ after: '2024-01-01' }, 'Asia/Tokyo'), [at('2023-12-31T15:00:00Z'), null])
    assert.deepEqual(publishedWithin({ before: '2024-05-01T10:00:00Z' }, 'Asia/Tokyo'), [null, at('2024-05-01T10:00:00Z') - 1])
    assert.deepEqual(publishedWithin({ after: '2024-05-01T10:00:00' }, 'Asia/Tokyo'), [at('2024-05-01T01:00:00Z') + 1, null])
    // Between two milliseconds: after takes the next, before the one below.
    assert.deepEqual(publishedWithin({ after: '2024-05-01T10:00:00.0005Z', before: '2024-05-01T10:00:00.0015Z' }, 'UTC'), [
      at('2024-05-01T10:00:00.001Z'),
      at('2024-05-01T10:00:00.001Z'),
    ])
  })
})

describe('parseMapState: the map page address', () => {
  test('zoom, lat, lng, category, tag, post_type, search, after and before', () => {
    const address = {
      zoom: '12',
      lat: '48.8566',
      lng: '-2.35',
      category: '7',
      tag: '9',
      post_type: 'landmark',
      search: ' tower ',
      after: '2024-01-01',
      before: '2024-12-31',
    }
    assert.deepEqual(parseMapState(address), {
      postType: 'landmark',
      categoryId: 7,
      tagId: 9,
      search: 'tower',
      after: '2024-01-01',
      before: '2024-12-31',
      view: { zoom: 12, latitude: 48.8566, longitude: -2.35 },
    })
  })
  test('anything invalid is left out, never an error', () => {
    assert.deepEqual(parseMapState({}), { postType: 'post', categoryId: null, tagId: null, search: '', after: '', before: '', view: null })
    // The timeline's days only, and in order.
    assert.deepEqual(
      [parseMapState({ after: '2024-02-30', before: '2024-05-01T10:00:00Z' })].map((s) => [s.after, s.before]),
      [['', '']],
    )
    assert.deepEqual(
      [parseMapState({ after: '2024-05-02', before: '2024-05-01' })].map((s) => [s.after, s.before]),
      [['', '']],
    )
    assert.deepEqual(
      [parseMapState({ before: '2024-05-01' })].map((s) => [s.after, s.before]),
      [['', '2024-05-01']],
    )
    assert.equal(parseMapState({ search: 'x'.repeat(201) }).search, '')
    assert.deepEqual(parseMapState({ zoom: '99', lat: '1', lng: '1' }).view, null)
    assert.deepEqual(parseMapState({ zoom: '3', lat: '91', lng: '1' }).view, null)
    assert.deepEqual(parseMapState({ zoom: '3', lat: '1' }).view, null)
    assert.deepEqual(parseMapState({ category: 'x', tag: '-1', post_type: 'No/Type' }), {
      postType: 'post',
      categoryId: null,
      tagId: null,
      search: '',
      after: '',
      before: '',
      view: null,
    })
    assert.deepEqual(parseMapState({ zoom: ['1', '4'], lat: '0', lng: '0' }).view, { zoom: 4, latitude: 0, longitude: 0 })
  })
})

describe('parseBBox: the one bbox grammar of GET /geojson and /ogc (docs/api.md, bbox)', () => {
  test('four decimal numbers; west > east crosses the antimeridian', () => {
    assert.deepEqual(parseBBox('-10.5,35,20,60'), [-10.5, 35, 20, 60])
    assert.deepEqual(parseBBox('170,-50,-170,-30'), [170, -50, -170, -30])
  })
  test('what is wrong, for each route to word', () => {
    for (const bad of ['', '1,2,3', '1, 2,3,4', ' 1,2,3,4', '1e1,2,3,4', '+1,2,3,4', '0x1,2,3,4', '1.,2,3,4', '.5,2,3,4']) {
      assert.equal((parseBBox(bad) as BBoxProblem).problem, 'format', bad)
    }
    assert.equal((parseBBox('181,0,0,1') as BBoxProblem).problem, 'range')
    assert.equal((parseBBox('0,-91,1,1') as BBoxProblem).problem, 'range')
    assert.equal((parseBBox('0,10,1,5') as BBoxProblem).problem, 'order')
  })
})

describe('queryValues', () => {
  test('a parameter named like an Object property is a parameter like any other, first or last value kept', () => {
    const params = new URLSearchParams('constructor=1&__proto__=x&toString=2&a=1&a=2')
    assert.deepEqual({ ...queryValues(params, 'first') }, { constructor: '1', ['__proto__']: 'x', toString: '2', a: '1' })
    assert.deepEqual({ ...queryValues(params, 'last') }, { constructor: '1', ['__proto__']: 'x', toString: '2', a: '2' })
  })
})
