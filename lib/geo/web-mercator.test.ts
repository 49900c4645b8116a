import assert from 'node:assert/strict'
import { test } from 'node:test'
import { latitudeOf, longitudeOf, MAX_MERCATOR_LATITUDE, mercatorX, mercatorY } from './web-mercator'

test('the square: longitude -180 to 180 is x 0 to 1; the limit north is y 0, south y 1, the equator 0.5', () => {
  assert.equal(mercatorX(-180), 0)
  assert.equal(mercatorX(180), 1)
  assert.equal(mercatorY(MAX_MERCATOR_LATITUDE), 0)
  assert.equal(mercatorY(-MAX_MERCATOR_LATITUDE), 1)
  assert.equal(mercatorY(0), 0.5)
  assert.ok(Math.abs(MAX_MERCATOR_LATITUDE - 85.0511287798) < 1e-10, "Leaflet's limit, to its precision")
})

test('latitudes nearer a pole than the limit, the poles included, are on the edge', () => {
  for (const latitude of [85.06, 89.9, 90]) {
    assert.equal(mercatorY(latitude), 0)
    assert.equal(mercatorY(-latitude), 1)
  }
})

test('longitudeOf and latitudeOf undo the projection inside the square', () => {
  for (const [longitude, latitude] of [
    [2.35, 48.85],
    [-179.9, -17.8],
    [139.7, 35.7],
    [0, 85],
    [10, -85],
  ] as const) {
    assert.ok(Math.abs(longitudeOf(mercatorX(longitude)) - longitude) < 1e-9)
    assert.ok(Math.abs(latitudeOf(mercatorY(latitude)) - latitude) < 1e-9)
  }
})
