import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ApiError } from '../http/errors'
import { importFeatureSchema, isoDateSchema, parseCategoryPath, parseCollectionQuery, parsePostId, postTypeSchema } from './schemas'

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

test('postTypeSchema: WordPress post type keys, not the paths the app uses', () => {
  for (const ok of ['post', 'landmark', 'my_type-2']) assert.ok(postTypeSchema.safeParse(ok).success, ok)
  for (const bad of ['', 'Post', 'a/b', 'x'.repeat(21), 'admin', 'places', 'wp-json']) assert.equal(postTypeSchema.safeParse(bad).success, false, bad)
})

test('importFeatureSchema: defaults, coordinate ranges, null geometry', () => {
  const feature = importFeatureSchema.parse({ type: 'Feature', geometry: null, properties: { title: 'A' } })
  assert.deepEqual(feature.properties, { title: 'A', content: '', type: 'post', status: 'publish', address: '', geo_public: true, categories: [] })
  assert.ok(importFeatureSchema.safeParse({ type: 'Feature', geometry: { type: 'Point', coordinates: [180, -90, 12] }, properties: { title: 'A' } }).success)
  for (const coordinates of [[181, 0], [0, 91], [0], ['1', '2'], [Number.NaN, 0]]) {
    assert.equal(importFeatureSchema.safeParse({ type: 'Feature', geometry: { type: 'Point', coordinates }, properties: { title: 'A' } }).success, false, JSON.stringify(coordinates))
  }
  assert.equal(importFeatureSchema.safeParse({ type: 'Feature', geometry: null, properties: { title: '  ' } }).success, false)
  assert.equal(importFeatureSchema.safeParse({ type: 'Feature', geometry: null, properties: { title: 'A', status: 'published' } }).success, false)
})

test('parseCategoryPath splits on > and trims', () => {
  assert.deepEqual(parseCategoryPath(' Europe >France>  Paris '), ['Europe', 'France', 'Paris'])
  assert.deepEqual(parseCategoryPath('Food & Drink'), ['Food & Drink'])
})
