import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cellCentre } from './cell'
import { distanceKm } from './precision'

const eiffel = { latitude: 48.8583701, longitude: 2.2944813 }

test('cellCentre: every point of a cell gives the same centre, so averaging answers reveals nothing', () => {
  const centre = cellCentre(eiffel.latitude, eiffel.longitude)
  // Points a few metres apart around the tower: the same cell, the same answer.
  const near = [
    [0.00001, 0],
    [0, 0.00001],
    [-0.00002, 0.00003],
  ].map(([dLat, dLng]) => cellCentre(eiffel.latitude + dLat!, eiffel.longitude + dLng!))
  for (const answer of near) assert.deepEqual(answer, centre)
  assert.deepEqual(cellCentre(centre.latitude, centre.longitude), centre, 'a centre is in its own cell')
})

test('cellCentre: the centre is within the cell, under a kilometre from the point, at every latitude', () => {
  for (const latitude of [-89.99, -66.5, -33.9, 0, 0.0001, 12.3, 48.8583701, 64.1, 78.2, 89.99]) {
    for (const longitude of [-180, -179.9999, -73.98, 0, 2.29, 139.7, 179.9999, 180]) {
      const centre = cellCentre(latitude, longitude)
      const km = distanceKm({ latitude, longitude }, centre)
      // Half a cell's diagonal is 0.71 km; near the poles a row's single column is narrower than that anyway.
      assert.ok(km <= 0.75, `${latitude},${longitude} → ${centre.latitude},${centre.longitude}: ${km} km`)
      assert.ok(Math.abs(centre.latitude) <= 90 && Math.abs(centre.longitude) <= 180)
    }
  }
})

test('cellCentre: cells are about 1 km wide on the ground, so neighbours a kilometre apart differ', () => {
  for (const latitude of [0, 45, 70]) {
    // From a cell's centre, a kilometre east or north is in the next cell, near its centre.
    const a = cellCentre(latitude, 10)
    const east = cellCentre(a.latitude, a.longitude + 1 / (111.32 * Math.cos((a.latitude * Math.PI) / 180)))
    const north = cellCentre(a.latitude + 1 / 111.2, a.longitude)
    assert.notDeepEqual(a, east)
    assert.notDeepEqual(a, north)
    const width = distanceKm(a, east)
    assert.ok(width > 0.9 && width < 1.1, `cells at ${latitude}° are ${width} km apart`)
    // Rows have their own columns, so the cell north is offset by up to half a cell.
    assert.ok(distanceKm(a, north) > 0.99 && distanceKm(a, north) < 1.15)
  }
})
