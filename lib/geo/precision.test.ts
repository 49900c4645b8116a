import assert from 'node:assert/strict'
import { test } from 'node:test'
import { distanceKm, formatCoordinate, roundCoordinate } from './precision'

test('coordinates are kept to 7 decimals, shown without trailing zeros', () => {
  assert.equal(roundCoordinate(48.858370123456), 48.8583701)
  assert.equal(roundCoordinate(-9.13933336), -9.1393334)
  assert.equal(formatCoordinate(48.8584), '48.8584')
  assert.equal(formatCoordinate(2.29449999999), '2.2945')
  assert.equal(formatCoordinate(-0.00000004), '0')
})

test('distances: Lisbon to Florence, across the antimeridian, and none', () => {
  const lisbon = { latitude: 38.7223, longitude: -9.1393 }
  const florence = { latitude: 43.7696, longitude: 11.2558 }
  assert.ok(Math.abs(distanceKm(lisbon, florence) - 1790) < 5, String(distanceKm(lisbon, florence)))
  assert.ok(Math.abs(distanceKm({ latitude: 0, longitude: 179.9 }, { latitude: 0, longitude: -179.9 }) - 22.24) < 0.1)
  assert.equal(distanceKm(lisbon, lisbon), 0)
})
