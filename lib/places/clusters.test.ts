import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { buildPlaceIndex, CLUSTER_MAX_ZOOM, countPlacesIn, extentOf, mapItemsIn, placeIdsIn, type MapItem } from './clusters'
import type { PlacePoint } from './query'

const point = (id: number, longitude: number, latitude: number): PlacePoint => ({ id, longitude, latitude })
// As the query gives them: newest first. Here the higher ids are the newer.
const indexOf = (points: PlacePoint[]) => buildPlaceIndex([...points].sort((a, b) => b.id - a.id))

// Three places in Paris a few hundred metres apart, one in Berlin, two either side of the antimeridian (Fiji).
const PARIS = [point(1, 2.35, 48.85), point(2, 2.352, 48.851), point(3, 2.36, 48.86)]
const BERLIN = point(4, 13.4, 52.52)
const FIJI = [point(5, 179.9, -17.8), point(6, -179.9, -17.9)]
const index = indexOf([...PARIS, BERLIN, ...FIJI])

const sumOfCounts = (items: MapItem[]) => items.reduce((sum, item) => sum + (item.cluster ? item.count : 1), 0)

describe('mapItemsIn', () => {
  test('at a low zoom, near places are one cluster with their count; every place is counted once', () => {
    const items = mapItemsIn(index, undefined, 3)
    const paris = items.find((item) => item.cluster && item.count === 3)
    assert.ok(paris, JSON.stringify(items))
    assert.equal(sumOfCounts(items), 6)
  })

  test('a cluster sits at the mean of its places, and says the zoom at which it splits', () => {
    const [paris] = mapItemsIn(index, [2, 48, 3, 49], 3)
    assert.ok(paris?.cluster)
    assert.ok(Math.abs(paris.longitude - (2.35 + 2.352 + 2.36) / 3) < 1e-6)
    assert.ok(paris.expansionZoom > 3 && paris.expansionZoom <= CLUSTER_MAX_ZOOM + 1)
    const after = mapItemsIn(index, [2, 48, 3, 49], paris.expansionZoom)
    assert.ok(after.length > 1, 'it has split at its expansion zoom')
    assert.equal(sumOfCounts(after), 3)
  })

  test('past the last clustered zoom, every place is itself, by id', () => {
    const items = mapItemsIn(index, [2, 48, 3, 49], CLUSTER_MAX_ZOOM + 1)
    assert.deepEqual(items.map((item) => (item.cluster ? 'cluster' : item.id)).sort(), [1, 2, 3])
  })

  test('a box with west > east crosses the antimeridian', () => {
    const items = mapItemsIn(index, [179, -20, -179, -15], 12)
    assert.deepEqual(items.map((item) => (item.cluster ? 'cluster' : item.id)).sort(), [5, 6])
    assert.deepEqual(mapItemsIn(index, [-179, -20, 179, -15], 12), [], 'the same numbers the other way round: the rest of the world')
  })
})

describe('placeIdsIn', () => {
  test('in the order the places were given (the collection\'s), with the count in the box', () => {
    const given = buildPlaceIndex([point(12, 1.2, 1), point(10, 1, 1), point(11, 1.1, 1), point(13, 50, 50)])
    assert.deepEqual(placeIdsIn(given, [0, 0, 2, 2], 0, 10), [12, 10, 11])
    assert.equal(countPlacesIn(given, [0, 0, 2, 2]), 3)
  })

  test('pages: offset and limit', () => {
    const many = indexOf(Array.from({ length: 25 }, (_, i) => point(i + 1, 10 + i / 100, 10)))
    assert.deepEqual(placeIdsIn(many, [9, 9, 11, 11], 0, 10), [25, 24, 23, 22, 21, 20, 19, 18, 17, 16])
    assert.deepEqual(placeIdsIn(many, [9, 9, 11, 11], 20, 10), [5, 4, 3, 2, 1])
    assert.deepEqual(placeIdsIn(many, [9, 9, 11, 11], 30, 10), [])
  })

  test('only what is inside the box, edges included; west > east crosses the antimeridian', () => {
    assert.deepEqual(placeIdsIn(index, [2.35, 48.85, 2.352, 48.851], 0, 10), [2, 1])
    assert.deepEqual(placeIdsIn(index, [179, -20, -179, -15], 0, 10), [6, 5])
    assert.deepEqual(placeIdsIn(index, [-179, -20, 179, -15], 0, 10), [])
    assert.equal(countPlacesIn(index, [-180, -90, 180, 90]), 6)
    assert.equal(countPlacesIn(index, [179, -20, -179, -15]), 2)
  })
})

describe('extentOf', () => {
  test('west, south, east, north of the places', () => {
    assert.deepEqual(extentOf([...PARIS, BERLIN]), [2.35, 48.85, 13.4, 52.52])
    assert.deepEqual(extentOf([BERLIN]), [13.4, 52.52, 13.4, 52.52])
    assert.equal(extentOf([]), null)
  })

  test('places either side of the antimeridian: a narrow box across it', () => {
    assert.deepEqual(extentOf(FIJI), [179.9, -17.9, -179.9, -17.8])
  })

  test('places round the world: from the westernmost to the easternmost, not across the antimeridian', () => {
    // Seoul, Sydney, Auckland, New York, Nairobi: the widest gap is over Asia, but a box across the Pacific is no
    // smaller than half the world.
    const world = [point(1, 126.98, 37.57), point(2, 151.2, -33.87), point(3, 174.76, -36.85), point(4, -74, 40.7), point(5, 36.8, -1.3)]
    assert.deepEqual(extentOf(world), [-74, -36.85, 174.76, 40.7])
  })

  test('places round the Pacific: across the antimeridian', () => {
    const pacific = [point(1, 139.7, 35.7), point(2, -122.4, 37.8), point(3, -157.8, 21.3)]
    assert.deepEqual(extentOf(pacific), [139.7, 21.3, -122.4, 37.8])
  })
})
