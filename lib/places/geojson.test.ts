import assert from 'node:assert/strict'
import { test } from 'node:test'
import { postUrl, toFeature, toFeatureCollection } from './geojson'

const place = { id: 7, type: 'post', slug: 'tokyo-tower', title: 'Tokyo <Tower>', address: 'Minato', latitude: 35.6586, longitude: 139.7454, publishedAt: 0 }

test('a feature is RFC 7946: [longitude, latitude], and exactly four properties', () => {
  assert.deepEqual(toFeature(place, 'https://example.org'), {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [139.7454, 35.6586] },
    properties: { id: 7, title: 'Tokyo <Tower>', url: 'https://example.org/post/tokyo-tower', address: 'Minato' },
  })
})

test('urls encode the type and slug', () => {
  assert.equal(postUrl('http://localhost:3000', 'post', '東京'), 'http://localhost:3000/post/%E6%9D%B1%E4%BA%AC')
})

test('a collection keeps the order it is given', () => {
  const collection = toFeatureCollection([place, { ...place, id: 3 }], 'https://example.org')
  assert.equal(collection.type, 'FeatureCollection')
  assert.deepEqual(
    collection.features.map((f) => f.properties.id),
    [7, 3],
  )
})
