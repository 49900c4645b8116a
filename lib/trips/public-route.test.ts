import assert from 'node:assert/strict'
import { createReadStream } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { cellCentre } from '../geo/cell'
import { distanceKm } from '../geo/precision'
import { readGpxTracks } from '../places/formats/xml-formats'
import { DETAIL_TOLERANCE_M, keptParts, OVERVIEW_TOLERANCE_M, publicLines, type Line, type RouteZone } from './public-route'
import { packTrack, TrackBuilder, unpackTrack, type Track } from './track'

function trackOf(points: [latitude: number, longitude: number][], segmentStarts: number[] = [0]): Track {
  const builder = new TrackBuilder()
  points.forEach(([latitude, longitude], i) => {
    if (segmentStarts.includes(i)) builder.segment()
    builder.add(latitude, longitude, i * 1000, 100 + i)
  })
  return builder.build('test')
}

/** A line east along a parallel, a point every `stepDegrees`. */
const eastward = (latitude: number, from: number, to: number, stepDegrees: number): [number, number][] =>
  Array.from({ length: Math.round((to - from) / stepDegrees) + 1 }, (_, i) => [latitude, from + i * stepDegrees])

const metresFrom = (zone: RouteZone, [longitude, latitude]: [number, number]) => distanceKm(zone, { latitude, longitude }) * 1000

const mercatorY = (latitude: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-85.06, Math.min(85.06, latitude)) * Math.PI) / 360))
const fromMercatorY = (y: number) => (Math.atan(Math.sinh(y)) * 180) / Math.PI

/** The least distance from the zone's centre to any drawn step, as a map draws it (straight in Web Mercator), every 10 m or so. */
function nearestDrawn(zone: RouteZone, lines: Line[]): number {
  let nearest = Number.POSITIVE_INFINITY
  for (const line of lines) {
    for (let i = 1; i < line.length; i++) {
      const [a, b] = [line[i - 1]!, line[i]!]
      const steps = Math.max(1, Math.ceil(metresFrom({ ...zone, latitude: a[1], longitude: a[0] }, b) / 10))
      for (let k = 0; k <= steps; k++) {
        const latitude = fromMercatorY(mercatorY(a[1]) + ((mercatorY(b[1]) - mercatorY(a[1])) * k) / steps)
        nearest = Math.min(nearest, metresFrom(zone, [a[0] + ((b[0] - a[0]) * k) / steps, latitude]))
      }
    }
  }
  return nearest
}

test('publicLines: a track without zones is drawn as recorded, its segments apart, simplified within the tolerance', () => {
  // A straight walk with a 1 m wobble every other point: simplified to its two ends at 5 m, kept whole at 0.
  const points = eastward(45, 14, 14.01, 0.0001).map(([latitude, longitude], i): [number, number] => [latitude + (i % 2) * 0.000009, longitude])
  const [whole] = publicLines([trackOf(points)], 'exact', [], 0)
  assert.equal(whole!.length, points.length)
  assert.deepEqual(publicLines([trackOf(points)], 'exact', [], DETAIL_TOLERANCE_M), [
    [
      [14, 45],
      [14.01, 45],
    ],
  ])
  const twoSegments = publicLines(
    [
      trackOf(
        [
          [45, 14],
          [45, 14.01],
          [46, 14],
          [46, 14.01],
        ],
        [0, 2],
      ),
    ],
    'exact',
    [],
    DETAIL_TOLERANCE_M,
  )
  assert.deepEqual(
    twoSegments,
    [
      [
        [14, 45],
        [14.01, 45],
      ],
      [
        [14, 46],
        [14.01, 46],
      ],
    ],
    'no line joins the segments',
  )
  assert.deepEqual(publicLines([trackOf([[45, 14]])], 'exact', [], DETAIL_TOLERANCE_M), [], 'a single point is no line')
})

test('publicLines: a zone cuts the track, nothing is drawn inside it or across it, and the cut is on the grid, not the circle', () => {
  const zone: RouteZone = { latitude: 45.0004, longitude: 14.05, radiusMetres: 300 }
  const track = trackOf(eastward(45, 14, 14.1, 0.0001)) // ~11 m apart, straight through the zone's middle
  for (const tolerance of [0, DETAIL_TOLERANCE_M, OVERVIEW_TOLERANCE_M]) {
    const lines = publicLines([track], 'exact', [zone], tolerance)
    assert.equal(lines.length, 2, 'one line each side')
    assert.ok(nearestDrawn(zone, lines) > zone.radiusMetres, `nothing drawn within the zone (tolerance ${tolerance})`)
    // The ends lie outside every cell the zone touches: at least the radius away, and not at one distance.
    const ends = [lines[0]!.at(-1)!, lines[1]![0]!].map((end) => metresFrom(zone, end))
    for (const end of ends) assert.ok(end > zone.radiusMetres + 50, `an end ${end.toFixed(0)} m from the centre`)
    assert.ok(Math.abs(ends[0]! - ends[1]!) > 20, `the ends are not on one circle: ${ends.map((end) => end.toFixed(0)).join(', ')} m`)
  }
})

test('publicLines: a step that would pass through a zone is not drawn, even between two points outside it', () => {
  const zone: RouteZone = { latitude: 45, longitude: 14.05, radiusMetres: 1000 }
  // A planned route: a few points 5 km apart, one step straight over the zone.
  const lines = publicLines(
    [
      trackOf([
        [45.01, 13.95],
        [45, 14],
        [45, 14.1],
        [45.01, 14.15],
      ]),
    ],
    'exact',
    [zone],
    DETAIL_TOLERANCE_M,
  )
  assert.deepEqual(lines, [
    [
      [13.95, 45.01],
      [14, 45],
    ],
    [
      [14.1, 45],
      [14.15, 45.01],
    ],
  ])
  assert.ok(nearestDrawn(zone, lines) > zone.radiusMetres)
})

test('publicLines: simplifying keeps clear of a zone though the line runs on to far higher latitudes', () => {
  // Along 40° N, round a zone of 100 m in a bump of 300 m, then north to 80° N: simplified on a plane scaled at the
  // line's middle latitude, the overview would cut straight through the zone.
  const zone: RouteZone = { latitude: 40, longitude: 14.01, radiusMetres: 100 }
  const bump = Array.from({ length: 61 }, (_, i): [number, number] => {
    const angle = Math.PI - (Math.PI * i) / 60
    return [40 + (Math.sin(angle) * 300) / 111_195, 14.01 + (Math.cos(angle) * 300) / (111_195 * Math.cos((40 * Math.PI) / 180))]
  })
  const points: [number, number][] = [...eastward(40, 13.99, 14.0063, 0.0001), ...bump, ...eastward(40, 14.0137, 14.03, 0.0001)]
  for (let latitude = 41; latitude <= 80; latitude++) points.push([latitude, 14.03])
  for (const tolerance of [DETAIL_TOLERANCE_M, OVERVIEW_TOLERANCE_M]) {
    const lines = publicLines([trackOf(points)], 'exact', [zone], tolerance)
    assert.ok(nearestDrawn(zone, lines) > zone.radiusMetres, `clear of the zone at ${tolerance} m: ${nearestDrawn(zone, lines).toFixed(0)} m`)
  }
})

test('publicLines: a zone of 500 km near the pole cuts a long step that passes within it, as the map draws the step', () => {
  const zone: RouteZone = { latitude: 70, longitude: 20, radiusMetres: 500_000 }
  // Along 66° N the step passes 445 km from the centre; along 64° N, 667 km.
  assert.deepEqual(
    publicLines(
      [
        trackOf([
          [66, 0],
          [66, 40],
        ]),
      ],
      'exact',
      [zone],
      DETAIL_TOLERANCE_M,
    ),
    [],
  )
  const clear = publicLines(
    [
      trackOf([
        [64, 0],
        [64, 40],
      ]),
    ],
    'exact',
    [zone],
    DETAIL_TOLERANCE_M,
  )
  assert.equal(clear.length, 1)
  assert.ok(nearestDrawn(zone, clear) > zone.radiusMetres)
})

test('publicLines: a line simplified to its ends is drawn straight on the map, and that chord keeps clear of zones', () => {
  // 150 km straight in degrees: the map's chord between its ends bows about 250 m away from it, one way or the other.
  const line = Array.from({ length: 301 }, (_, i): [number, number] => [45 + (2 * i) / 300, (2.8 * i) / 300])
  for (const side of [-1, 1]) {
    const zone: RouteZone = { latitude: 46 + (side * 0.0126) / Math.SQRT2, longitude: 1.4 - (side * 0.0126) / Math.SQRT2, radiusMetres: 1000 }
    for (const tolerance of [DETAIL_TOLERANCE_M, OVERVIEW_TOLERANCE_M]) {
      const lines = publicLines([trackOf(line)], 'exact', [zone], tolerance)
      assert.ok(nearestDrawn(zone, lines) > zone.radiusMetres, `side ${side}, ${tolerance} m: ${nearestDrawn(zone, lines).toFixed(0)} m`)
    }
  }
})

test('publicLines: long steps are tested all along, to the pole and from the equator', () => {
  const towardsPole = publicLines(
    [
      trackOf([
        [-80, 0],
        [-90, 0],
      ]),
    ],
    'exact',
    [{ latitude: -85, longitude: 0, radiusMetres: 10_000 }],
    0,
  )
  assert.deepEqual(towardsPole, [], 'a step to the South Pole through a zone')
  const meridian = publicLines(
    [
      trackOf([
        [0, 10],
        [80, 10],
      ]),
    ],
    'exact',
    [{ latitude: 40, longitude: 10, radiusMetres: 20 }],
    0,
  )
  assert.deepEqual(meridian, [], 'a step of 8,900 km through a zone of 20 m')
})

test('publicLines: a zone on the far side of the world does not cut a crossing of the antimeridian', () => {
  const zone: RouteZone = { latitude: -17, longitude: 0, radiusMetres: 1000 }
  const lines = publicLines(
    [
      trackOf([
        [-17, 179.9],
        [-17, -179.9],
      ]),
    ],
    'exact',
    [zone],
    0,
  )
  assert.deepEqual(lines, [
    [
      [179.9, -17],
      [180, -17],
    ],
    [
      [-180, -17],
      [-179.9, -17],
    ],
  ])
})

test('keptParts: the points the public may see, with their times and elevations, cut where a zone withholds some', () => {
  const zone: RouteZone = { latitude: 45, longitude: 14.05, radiusMetres: 300 }
  const [kept] = keptParts([trackOf(eastward(45, 14, 14.1, 0.001))], [zone])
  assert.equal(kept!.segmentStarts.length, 2)
  assert.ok(kept!.latitudes.length < 95 && kept!.latitudes.length > 60, `the cells about the zone withheld: ${kept!.latitudes.length} of 101 kept`)
  assert.equal(kept!.times[0], 0)
  assert.equal(kept!.elevations.at(-1), 200, 'the last point, kept')
  for (let i = 0; i < kept!.latitudes.length; i++) assert.ok(metresFrom(zone, [kept!.longitudes[i]!, kept!.latitudes[i]!]) > zone.radiusMetres)
})

test('keptParts: a point just inside a zone of 500 km far north is withheld, though the zone lies far to its west', () => {
  const zone: RouteZone = { latitude: 60, longitude: 0, radiusMetres: 500_000 }
  // The longitude along 60° N at 50 m inside the edge, found by halving.
  let [inside, outside] = [0, 20]
  for (let i = 0; i < 60; i++) {
    const middle = (inside + outside) / 2
    if (metresFrom(zone, [middle, 60]) < zone.radiusMetres - 50) inside = middle
    else outside = middle
  }
  const [kept] = keptParts(
    [
      trackOf([
        [60, inside],
        [60, 30],
      ]),
    ],
    [zone],
  )
  assert.deepEqual(Array.from(kept!.longitudes), [30])
})

test('publicLines: at the approximate level every point drawn is a cell centre', () => {
  // North-east, so the cells' centres make a staircase, not one straight line that simplifying would leave two ends of.
  const track = trackOf(eastward(45.1234, 14, 14.05, 0.0003).map(([latitude, longitude], i): [number, number] => [latitude + i * 0.0002, longitude]))
  const lines = publicLines([track], 'approximate', [], 0)
  assert.equal(lines.length, 1)
  for (const [longitude, latitude] of lines[0]!) {
    const centre = cellCentre(latitude, longitude)
    assert.ok(Math.abs(centre.latitude - latitude) < 1e-6 && Math.abs(centre.longitude - longitude) < 1e-6, `${latitude},${longitude}`)
  }
  assert.ok(lines[0]!.length >= 8 && lines[0]!.length < track.latitudes.length / 4, `a point per corner of the cells crossed: ${lines[0]!.length}`)
})

test('publicLines: a track across the antimeridian is cut on it, both sides meeting at one latitude', () => {
  const lines = publicLines(
    [
      trackOf([
        [-16.9, 179.8],
        [-17, 179.95],
        [-17.1, -179.95],
        [-17.2, -179.8],
      ]),
    ],
    'exact',
    [],
    0,
  )
  assert.deepEqual(lines, [
    [
      [179.8, -16.9],
      [179.95, -17],
      [180, -17.05],
    ],
    [
      [-180, -17.05],
      [-179.95, -17.1],
      [-179.8, -17.2],
    ],
  ])
})

test('publicLines: a real walk around a zone keeps clear of it at every tolerance', async () => {
  const tracks = await readGpxTracks(createReadStream(path.join(import.meta.dirname, '../../test/fixtures/tracks/korita-zbevnica.gpx')))
  const track = tracks.toSorted((a, b) => b.latitudes.length - a.latitudes.length)[0]
  const middle = track!.latitudes.length >> 1
  const zone: RouteZone = { latitude: track!.latitudes[middle]!, longitude: track!.longitudes[middle]!, radiusMetres: 200 }
  const whole = publicLines([track!], 'exact', [], 0)
  for (const tolerance of [DETAIL_TOLERANCE_M, OVERVIEW_TOLERANCE_M]) {
    const lines = publicLines([track!], 'exact', [zone], tolerance)
    assert.ok(lines.length >= 2, 'cut')
    assert.ok(nearestDrawn(zone, lines) > zone.radiusMetres, `clear of the zone at ${tolerance} m`)
  }
  assert.ok(nearestDrawn(zone, whole) < 1, 'the walk passes the centre')
})

test('packTrack and unpackTrack: a track comes back as it went, whatever the bytes are aligned to', () => {
  const track = trackOf(
    [
      [45, 14],
      [45.1, 14.1],
      [45.2, 14.2],
    ],
    [0, 2],
  )
  track.times[1] = Number.NaN
  const packed = packTrack(track)
  const shifted = new Uint8Array(packed.length + 3).subarray(3)
  shifted.set(packed)
  assert.deepEqual(unpackTrack('test', shifted), track)
})
