import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { prng as random } from '../../../bench/prng.ts'
import type { PlacePoint } from '../query'
import { arcDegrees, boxAround, metresOf, nearestPlaces } from './nearby'
import { buildPlaceIndex } from './place-index'
import { contains } from './box'

/** The k nearest by looking at every place: what the index must agree with. */
function plainNearest(points: PlacePoint[], latitude: number, longitude: number, k: number, exceptId: number): number[] {
  return points
    .filter(([id]) => id !== exceptId)
    .map(([id, lat, lng]) => ({ id, degrees: arcDegrees(latitude, longitude, lat, lng) }))
    .sort((a, b) => a.degrees - b.degrees || a.id - b.id)
    .slice(0, k)
    .map(({ id }) => id)
}

describe('nearestPlaces', () => {
  test('agrees with a plain scan: clustered and scattered places, near the poles and across the antimeridian', () => {
    const next = random(7)
    const points: PlacePoint[] = []
    let id = 1
    // A dense city, places scattered over the world, and a few at the edges of the map.
    for (let i = 0; i < 400; i++) points.push([id++, 48.85 + (next() - 0.5) * 0.05, 2.35 + (next() - 0.5) * 0.05, 0])
    for (let i = 0; i < 600; i++) points.push([id++, Math.asin(2 * next() - 1) / (Math.PI / 180), next() * 360 - 180, 0])
    for (const [lat, lng] of [
      [89.9, 10],
      [89.5, -170],
      [-89.8, 0],
      [-17.8, 179.99],
      [-17.9, -179.99],
      [0, 180],
      [0, -180],
    ] as const)
      points.push([id++, lat, lng, 0])
    const index = buildPlaceIndex(points)
    for (const [, lat, lng] of points.filter((_, i) => i % 37 === 0).concat(points.slice(-7))) {
      for (const k of [1, 5, 12]) {
        const self = points.find((p) => p[1] === lat && p[2] === lng)![0]
        assert.deepEqual(
          nearestPlaces(index, lat, lng, k, self).map((place) => place.id),
          plainNearest(points, lat, lng, k, self),
          `k=${k} at ${lat},${lng}`,
        )
      }
    }
  })

  test('the nearest across the antimeridian is found, with its distance in metres', () => {
    const index = buildPlaceIndex([
      [1, -17.8, 179.9, 0],
      [2, -17.8, -179.9, 0],
      [3, -17.8, 170, 0],
    ])
    const [nearest] = nearestPlaces(index, -17.8, 179.9, 1, 1)
    assert.equal(nearest?.id, 2)
    assert.ok(Math.abs(nearest.metres - 21_180) < 100, String(nearest.metres))
  })

  test('fewer places than k: all of them; none: an empty list; the place itself is left out', () => {
    const index = buildPlaceIndex([
      [1, 10, 10, 0],
      [2, -40, -100, 0],
    ])
    assert.deepEqual(
      nearestPlaces(index, 10, 10, 5, 1).map((p) => p.id),
      [2],
    )
    assert.deepEqual(nearestPlaces(buildPlaceIndex([]), 0, 0, 5), [])
    assert.deepEqual(nearestPlaces(index, 0, 0, 0), [])
  })
})

describe('boxAround', () => {
  test('holds every position within the radius', () => {
    const next = random(11)
    for (let i = 0; i < 2000; i++) {
      const lat = next() * 170 - 85
      const lng = next() * 360 - 180
      const radius = 10 ** (next() * 4 - 3)
      const box = boxAround(lat, lng, radius)
      // A position at the radius, in a random direction.
      const bearing = next() * 2 * Math.PI
      const r = (radius * 0.999 * Math.PI) / 180
      const φ1 = (lat * Math.PI) / 180
      const φ2 = Math.asin(Math.sin(φ1) * Math.cos(r) + Math.cos(φ1) * Math.sin(r) * Math.cos(bearing))
      const λ2 = (lng * Math.PI) / 180 + Math.atan2(Math.sin(bearing) * Math.sin(r) * Math.cos(φ1), Math.cos(r) - Math.sin(φ1) * Math.sin(φ2))
      const lng2 = (((((λ2 * 180) / Math.PI + 540) % 360) + 360) % 360) - 180
      assert.ok(contains(box, lng2, (φ2 * 180) / Math.PI), `${lat},${lng} r=${radius}: ${JSON.stringify(box)}`)
    }
  })

  test('metres of a degree of arc: about 111 km', () => {
    assert.ok(Math.abs(metresOf(1) - 111_195) < 1)
  })
})
