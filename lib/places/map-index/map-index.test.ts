import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { prng as random } from '../../../bench/prng.ts'
import type { PlacePoint } from '../query'
import type { BBox } from '../schemas'
import { countPlacesIn, placeIdsIn } from './box'
import { BLOCK, Column } from './blocks'
import { parseClusterId } from './cluster-id'
import { clusterPage, mapItemsIn, type MapItem } from './clusters'
import { CLUSTER_MAX_ZOOM } from './grid'
import { buildPlaceIndex, extentOf, rangeOf, ranksBetween, subsetOf, withChanges } from './place-index'
import { valuesOf } from '../../../test/support/index-values.ts'

// Here the higher ids are the newer: published at second `id`.
// Some places with no category (0), the others in one of seven.
const categoryOf = (id: number) => (id % 4 === 0 ? 0 : 10 + (id % 7))
const point = (id: number, longitude: number, latitude: number): PlacePoint => [id, latitude, longitude, id * 1000, categoryOf(id)]
// As the query gives them: newest first.
const indexOf = (points: PlacePoint[]) => buildPlaceIndex([...points].sort((a, b) => b[0] - a[0]))
const extentOfPoints = (points: PlacePoint[]) => extentOf(Column.of(Float64Array.from(points, (p) => p[1])), Column.of(Float64Array.from(points, (p) => p[2])))

// Three places in Paris a few hundred metres apart, one in Berlin, two either side of the antimeridian (Fiji).
const PARIS = [point(1, 2.35, 48.85), point(2, 2.352, 48.851), point(3, 2.36, 48.86)]
const BERLIN = point(4, 13.4, 52.52)
const FIJI = [point(5, 179.9, -17.8), point(6, -179.9, -17.9)]
const index = indexOf([...PARIS, BERLIN, ...FIJI])

/** The box of some places, in one pass: what a cluster's bbox must be. */
const scannedBox = (points: PlacePoint[]): BBox => [
  Math.min(...points.map((p) => p[2])),
  Math.min(...points.map((p) => p[1])),
  Math.max(...points.map((p) => p[2])),
  Math.max(...points.map((p) => p[1])),
]

const sumOfCounts = (items: MapItem[]) => items.reduce((sum, item) => sum + (item.cluster ? item.count : 1), 0)

describe('mapItemsIn', () => {
  test('at a low zoom, near places are one cluster with their count; every place is counted once', () => {
    const items = mapItemsIn(index, undefined, 3)
    const paris = items.find((item) => item.cluster && item.count === 3)
    assert.ok(paris, JSON.stringify(items))
    assert.equal(sumOfCounts(items), 6)
  })

  test("with its categories: a cluster counts its places' first categories, small ids and large ones alike", () => {
    const places: PlacePoint[] = [
      [4, 48.85, 2.35, 4000, 3],
      [3, 48.86, 2.36, 3000, 5_000_000],
      [2, 48.87, 2.37, 2000, 3],
      [1, 48.88, 2.38, 1000, 0],
    ]
    const [cluster] = mapItemsIn(buildPlaceIndex(places), undefined, 3, true)
    assert.ok(cluster?.cluster)
    assert.deepEqual(
      cluster.categories,
      new Map([
        [3, 2],
        [5_000_000, 1],
        [0, 1],
      ]),
    )
    // Counted again, from nothing: the counts of one call are not left for the next.
    assert.deepEqual(mapItemsIn(buildPlaceIndex(places), undefined, 3, true), [cluster])
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

  test("a cluster's bbox is the box of its places", () => {
    const items = mapItemsIn(index, undefined, 3)
    const paris = items.find((item) => item.cluster && item.count === 3)
    assert.ok(paris?.cluster)
    assert.deepEqual(paris.bbox, [2.35, 48.85, 2.36, 48.86])
    for (const item of items) if (item.cluster) assert.ok(item.bbox[0] <= item.bbox[2] && item.bbox[1] <= item.bbox[3], JSON.stringify(item))
  })

  test("a cluster of many thousand places (found by walking toward each edge): its bbox is still exactly its places' box", () => {
    const next = random(7)
    // Dense clusters whose edges lie on tiles' edges, at a pole past Web Mercator's square and on the antimeridian.
    const centres = [
      [2.35, 48.85, 0.5],
      [0, 0, 2],
      [10, 87, 6],
      [-179.5, -86, 1],
      [179.99, 10, 0.01],
    ] as const
    const points: PlacePoint[] = []
    for (let id = 60_000; id > 0; id--) {
      const [longitude, latitude, spread] = centres[id % centres.length]!
      const clamp = (x: number, limit: number) => Math.round(Math.max(-limit, Math.min(limit, x)) * 1e6) / 1e6
      points.push(point(id, clamp(longitude + (next() - 0.5) * spread, 180), clamp(latitude + (next() - 0.5) * spread, 90)))
    }
    const index = indexOf(points)
    const byId = new Map(points.map((p) => [p[0], p]))
    let large = 0
    for (let zoom = 0; zoom <= 8; zoom++) {
      for (const item of mapItemsIn(index, undefined, zoom)) {
        if (!item.cluster) continue
        if (item.count > 5_000) large++
        const { ids } = clusterPage(index, item.id, 0, item.count)!
        assert.deepEqual(item.bbox, scannedBox(ids.map((id) => byId.get(id)!)), `zoom ${zoom}, ${item.count} places`)
      }
    }
    assert.ok(large >= 20, `${large} clusters of more than 5,000 places`)
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
  test("in the order the places were given (the collection's), with the count in the box", () => {
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
    assert.deepEqual(extentOfPoints([...PARIS, BERLIN]), [2.35, 48.85, 13.4, 52.52])
    assert.deepEqual(extentOfPoints([BERLIN]), [13.4, 52.52, 13.4, 52.52])
    assert.equal(extentOfPoints([]), null)
  })

  test('places either side of the antimeridian: a narrow box across it', () => {
    assert.deepEqual(extentOfPoints(FIJI), [179.9, -17.9, -179.9, -17.8])
  })

  test('places round the world: from the westernmost to the easternmost, not across the antimeridian', () => {
    // Seoul, Sydney, Auckland, New York, Nairobi: the widest gap is over Asia, but a box across the Pacific is no
    // smaller than half the world.
    const world = [point(1, 126.98, 37.57), point(2, 151.2, -33.87), point(3, 174.76, -36.85), point(4, -74, 40.7), point(5, 36.8, -1.3)]
    assert.deepEqual(extentOfPoints(world), [-74, -36.85, 174.76, 40.7])
  })

  test('places round the Pacific: across the antimeridian', () => {
    const pacific = [point(1, 139.7, 35.7), point(2, -122.4, 37.8), point(3, -157.8, 21.3)]
    assert.deepEqual(extentOfPoints(pacific), [139.7, 21.3, -122.4, 37.8])
  })

  test('the box that sorting every longitude finds, on random places, ties and repeated longitudes included', () => {
    // The rule as first written: sort, then the westernmost of the widest gaps between neighbours.
    const sorted = (points: PlacePoint[]) => {
      const longitudes = points.map((p) => p[2]).sort((a, b) => a - b)
      const latitudes = points.map((p) => p[1])
      const [west, east] = [longitudes[0]!, longitudes.at(-1)!]
      let [gap, gapEnd] = [0, 0]
      for (let i = 1; i < longitudes.length; i++) if (longitudes[i]! - longitudes[i - 1]! > gap) [gap, gapEnd] = [longitudes[i]! - longitudes[i - 1]!, i]
      const [south, north] = [Math.min(...latitudes), Math.max(...latitudes)]
      const crossing = 360 - gap
      return crossing < 180 && crossing < east - west ? [longitudes[gapEnd], south, longitudes[gapEnd - 1], north] : [west, south, east, north]
    }
    const next = random(7)
    for (let run = 0; run < 300; run++) {
      const centre = next() * 360 - 180
      const spread = [1, 30, 170, 360][run % 4]!
      // Whole degrees half the time: equal longitudes, and gaps of equal width.
      const longitude = () => {
        const x = ((centre + (next() - 0.5) * spread + 540) % 360) - 180
        return run % 2 ? Math.round(x) : x
      }
      // Now and then more places than the first try's buckets (extentOf).
      const count = run % 10 ? 1 + Math.floor(next() * 40) : 5000 + Math.floor(next() * 5000)
      const points = Array.from({ length: count }, (_, i) => point(i + 1, longitude(), next() * 170 - 85))
      assert.deepEqual(extentOfPoints(points), sorted(points), JSON.stringify(points))
    }
  })
})

describe('the index against a plain scan of its places', () => {
  const next = random(42)
  const round = (x: number) => Math.round(x * 1e5) / 1e5
  // Dense cities, places spread over the world, some on the antimeridian and the poles (past Web Mercator's edge),
  // and places sharing one position; newest first as the query gives them.
  const cities = [
    [2.35, 48.85],
    [-0.12, 51.5],
    [139.7, 35.7],
    [179.95, -17.8],
    [-179.95, -17.85],
    [0, 0],
  ]
  const points: PlacePoint[] = []
  for (let id = 3000; id > 0; id--) {
    const kind = next()
    if (kind < 0.6) {
      const [longitude, latitude] = cities[Math.floor(next() * cities.length)]!
      points.push(point(id, round(Math.max(-180, Math.min(180, longitude! + (next() - 0.5) * 0.3))), round(latitude! + (next() - 0.5) * 0.2)))
    } else if (kind < 0.95) points.push(point(id, round(next() * 360 - 180), round(next() * 180 - 90)))
    else if (kind < 0.97) points.push(point(id, [-180, 180][id % 2]!, round(next() * 10)))
    else if (kind < 0.98) points.push(point(id, round(next() * 10), [-90, 90, 89.9][id % 3]!))
    else points.push(point(id, 4.5, 50.5))
  }
  const index = buildPlaceIndex(points)
  const inBox = ([west, south, east, north]: BBox, [, latitude, longitude]: PlacePoint) =>
    latitude >= south && latitude <= north && (west > east ? longitude >= west || longitude <= east : longitude >= west && longitude <= east)
  const boxes: BBox[] = [
    [-180, -90, 180, 90],
    [2.3, 48.8, 2.4, 48.9],
    [4.5, 50.5, 4.5, 50.5],
    [170, -30, -170, 0],
    [-10, -85.06, 10, 85.06],
    [-180, 0, -179.9, 10],
    [179.9, 0, 180, 10],
  ]
  for (let i = 0; i < 60; i++) {
    const [a, b, c, d] = [next() * 360 - 180, next() * 180 - 90, next() * 360 - 180, next() * 180 - 90].map(round) as BBox
    boxes.push(i % 3 === 0 ? ([a, Math.min(b, d), a + (c - a) / 50, Math.min(b, d) + Math.abs(d - b) / 20] as BBox) : [a, Math.min(b, d), c, Math.max(b, d)])
  }

  test("the places in a box and their number, in the collection's order, page by page", () => {
    for (const box of boxes) {
      const expected = points.filter((p) => inBox(box, p)).map(([id]) => id)
      assert.equal(countPlacesIn(index, box), expected.length, `count in ${box.join()}`)
      for (const [offset, limit] of [
        [0, 10],
        [0, 500],
        [7, 3],
        [expected.length - 2, 50],
      ] as const) {
        if (offset < 0) continue
        assert.deepEqual(placeIdsIn(index, box, offset, limit), expected.slice(offset, offset + limit), `page ${offset}+${limit} of ${box.join()}`)
      }
    }
  })

  test("a search's index, a subset of ids (some of no place of the index): those places, in the same order, boxed as if built anew", () => {
    // Ids 1 to 3,000, and the same places with ids far apart (WordPress's, imported): subsetOf looks ranks up by id in
    // an array for the first, in a Map for the second.
    const spread: PlacePoint[] = points.map(([id, ...rest]) => [id * 100_003, ...rest])
    for (const [places, placesIndex] of [
      [points, index],
      [spread, buildPlaceIndex(spread)],
    ] as const) {
      for (const share of [0, 0.01, 0.3, 1]) {
        const wanted = places.filter(() => next() < share).map(([id]) => id)
        // In any order, with ids of no place among them.
        const ids = Int32Array.from([6000, ...wanted.reverse(), 5000, -1, 2 ** 31 - 1])
        const subset = subsetOf(placesIndex, ids)
        const expected = places.filter(([id]) => wanted.includes(id))
        const fresh = buildPlaceIndex(expected)
        assert.deepEqual(subset.ids.slice(0, subset.size), fresh.ids.slice(0, fresh.size), `share ${share}`)
        assert.deepEqual(subset, fresh)
        for (const box of boxes.slice(0, 10)) assert.equal(countPlacesIn(subset, box), expected.filter((p) => inBox(box, p)).length)
      }
    }
  })

  test('the places of a time interval (ties of dates included) in a box: their ranks, number and pages', () => {
    // Three places a second, as the query orders them: date descending, then id descending.
    const dated = points.map(([id, latitude, longitude]): PlacePoint => [id, latitude, longitude, Math.floor(id / 3) * 1000])
    const datedIndex = buildPlaceIndex(dated)
    const intervals: [number | null, number | null][] = [
      [null, null],
      [null, 500_000],
      [500_000, null],
      [300_000, 300_000],
      [300_500, 300_900],
      [0, 1_000_000_000],
      [2_000_000, null],
      [null, -1],
    ]
    for (let i = 0; i < 20; i++) {
      const [a, b] = [Math.floor(next() * 1_000) * 1000, Math.floor(next() * 1_000) * 1000]
      intervals.push([Math.min(a, b), Math.max(a, b)])
    }
    for (const [start, end] of intervals) {
      const within = ([, , , date]: PlacePoint) => (start === null || date >= start) && (end === null || date <= end)
      const ranks = ranksBetween(datedIndex, start, end)
      const expectedRanks = dated.flatMap((p, rank) => (within(p) ? [rank] : []))
      assert.deepEqual(ranks, expectedRanks.length ? [expectedRanks[0], expectedRanks.at(-1)! + 1] : [ranks[0], ranks[0]], `${start}/${end}`)
      // The interval's own index (after and before on GET /geojson): the index a build of its places gives.
      assert.deepEqual(rangeOf(datedIndex, ranks), buildPlaceIndex(dated.filter(within)), `the index of ${start}/${end}`)
      for (const box of boxes.slice(0, 20)) {
        const expected = dated.filter((p) => within(p) && inBox(box, p)).map(([id]) => id)
        assert.equal(countPlacesIn(datedIndex, box, ranks), expected.length, `count in ${box.join()}, ${start}/${end}`)
        for (const [offset, limit] of [
          [0, 10],
          [0, 500],
          [5, 4],
        ] as const)
          assert.deepEqual(
            placeIdsIn(datedIndex, box, offset, limit, undefined, ranks),
            expected.slice(offset, offset + limit),
            `${box.join()}, ${start}/${end}`,
          )
      }
    }
  })

  test("a time interval's index over several blocks of each column: the index a build of its places gives", () => {
    // Places in the collection's order (newest first), dates a second apart, enough for four blocks (blocks.ts).
    const many = Array.from({ length: 3 * BLOCK + 100 }, (_, i): PlacePoint => [
      4 * BLOCK - i,
      round(next() * 170 - 85),
      round(next() * 360 - 180),
      (4 * BLOCK - i) * 1000,
    ])
    const manyIndex = buildPlaceIndex(many)
    for (const [start, end] of [
      [null, BLOCK * 1000],
      [2 * BLOCK * 1000 + 7_000, 3 * BLOCK * 1000 + 15_000],
      [BLOCK * 1000 + 1, null],
    ] as const) {
      const within = ([, , , date]: PlacePoint) => (start === null || date >= start) && (end === null || date <= end)
      assert.deepEqual(rangeOf(manyIndex, ranksBetween(manyIndex, start, end)), buildPlaceIndex(many.filter(within)), `${start}/${end}`)
    }
  })

  test('over the world, at every zoom, each place is drawn once: alone or in one cluster', () => {
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM + 1; zoom++) {
      const items = mapItemsIn(index, undefined, zoom)
      assert.equal(sumOfCounts(items), points.length, `zoom ${zoom}`)
      const ids = items.flatMap((item) => (item.cluster ? [] : [item.id]))
      assert.equal(new Set(ids).size, ids.length, `zoom ${zoom}: no place twice`)
      for (const item of items) if (item.cluster) assert.ok(item.expansionZoom > zoom && item.expansionZoom <= CLUSTER_MAX_ZOOM + 1)
    }
  })

  test("a cluster's id lists exactly its places, newest first, page by page: with the single places, every place once", () => {
    const rankOf = new Map(index.ids.slice(0, index.size).map((id, rank) => [id, rank]))
    for (let zoom = 0; zoom <= CLUSTER_MAX_ZOOM; zoom++) {
      for (const box of [undefined, ...boxes.slice(0, 20)]) {
        const items = mapItemsIn(index, box, zoom, true)
        const listed: number[] = items.flatMap((item) => (item.cluster ? [] : [item.id]))
        for (const item of items) {
          if (!item.cluster) continue
          const { total, ids } = clusterPage(index, item.id, 0, points.length)!
          assert.equal(total, item.count, `zoom ${zoom}, ${String(box)}: ${JSON.stringify(item)}`)
          assert.equal(ids.length, item.count)
          const ranks = ids.map((id) => rankOf.get(id)!)
          assert.ok(
            ranks.every((rank, i) => i === 0 || ranks[i - 1]! < rank),
            'newest first',
          )
          assert.deepEqual(item.bbox, scannedBox(ranks.map((rank) => [0, index.latitudes.get(rank), index.longitudes.get(rank), 0])), 'the box of its places')
          const counted = new Map<number, number>()
          for (const id of ids) counted.set(categoryOf(id), (counted.get(categoryOf(id)) ?? 0) + 1)
          assert.deepEqual(item.categories, counted, 'how many of its places are of each category')
          listed.push(...ids)
          // Pages, small ones walking down the ranks, and one past the end.
          if (zoom % 4 === 0 && !box) {
            for (const limit of [1, 3, 50]) {
              for (let offset = 0; offset < total; offset += limit)
                assert.deepEqual(clusterPage(index, item.id, offset, limit)!.ids, ids.slice(offset, offset + limit))
            }
            assert.deepEqual(clusterPage(index, item.id, total, 10), { total, ids: [] })
          }
        }
        assert.equal(new Set(listed).size, listed.length, `zoom ${zoom}, ${String(box)}: no place in two items`)
        if (!box) assert.equal(listed.length, points.length, `zoom ${zoom}: every place`)
      }
    }
  })

  test('an id that names no cluster is refused', () => {
    const [cluster] = mapItemsIn(index, undefined, 3).filter((item) => item.cluster)
    assert.ok(cluster && parseClusterId(cluster.id))
    for (const id of [-1, 0.5, 2 ** 53, cluster.id - (cluster.id % 512), 17 * 2 ** 45 + 16, (3 * 2 ** 36 + 32) * 512 + 16]) {
      assert.equal(parseClusterId(id), null, String(id))
      assert.equal(clusterPage(index, id, 0, 10), null, String(id))
    }
  })

  test("in a box, only items whose position is in it; no two nearer than a cluster's reach at low zooms", () => {
    for (const box of boxes) {
      for (const zoom of [1, 4, 9]) {
        const items = mapItemsIn(index, box, zoom)
        for (const item of items) {
          const place = item.cluster ? null : points.find(([id]) => id === item.id)!
          const [latitude, longitude] = item.cluster ? [item.latitude, item.longitude] : [place![1], place![2]]
          assert.ok(inBox(box, [0, latitude, longitude, 0]), `zoom ${zoom}, ${box.join()}: ${JSON.stringify(item)}`)
        }
      }
    }
    const world = mapItemsIn(index, undefined, 2)
    const pixels = (a: MapItem, b: MapItem) => {
      const at = (item: MapItem) =>
        (item.cluster
          ? [item.longitude, item.latitude]
          : points
              .find(([id]) => id === item.id)!
              .slice(1, 3)
              .reverse()) as [number, number]
      const [[lon1, lat1], [lon2, lat2]] = [at(a), at(b)]
      const y = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (Math.max(-85, Math.min(85, lat)) * Math.PI) / 360)) / (2 * Math.PI)
      return Math.hypot((lon1 - lon2) / 360, y(lat1) - y(lat2)) * 256 * 4
    }
    const nearest = Math.min(...world.flatMap((a, i) => world.slice(i + 1).map((b) => pixels(a, b))))
    assert.ok(nearest > 10, `two items ${nearest.toFixed(1)} pixels apart at zoom 2`)
  })
})

describe('withChanges', () => {
  /** How many blocks of `a` are not blocks of `b`: made by the write. */
  const newBlocks = (a: Column<Float64Array | Uint32Array | Int32Array>, b: Column<Float64Array | Uint32Array | Int32Array>) =>
    a.blocks.filter((block) => !(b.blocks as (typeof block)[]).includes(block)).length
  // The collection's order, as the query gives it: newest first, ties by id descending.
  const build = (places: Map<number, PlacePoint>) => buildPlaceIndex([...places.values()].sort((a, b) => b[3] - a[3] || b[0] - a[0]))

  // Places over the world (boxes across the antimeridian among them), and within one country (a box that a write
  // rarely moves).
  for (const [where, latitudes, longitudes] of [
    ['the world', [-85, 85], [-180, 180]],
    ['one country', [43, 51], [-4, 8]],
  ] as const) {
    test(`after random writes, the index a build gives, every array equal: places over ${where}`, () => {
      const next = random(11)
      const between = ([low, high]: readonly [number, number]) => low + next() * (high - low)
      // Few dates and few positions: places tie on date, and share tiles and points.
      const spots = Array.from({ length: 25 }, () => [between(latitudes), between(longitudes)] as const)
      const place = (id: number): PlacePoint => {
        const [latitude, longitude] = next() < 0.5 ? spots[Math.floor(next() * spots.length)]! : [between(latitudes), between(longitudes)]
        return [id, latitude, longitude, Math.floor(next() * 40) * 1000, Math.floor(next() * 3)]
      }
      // Places enough for three blocks of each column (blocks.ts): writes share the blocks they leave as they were.
      const places = new Map<number, PlacePoint>()
      for (let id = 1; id <= 3 * BLOCK * 1.25; id++) if (next() < 0.8) places.set(id, place(id))
      let index = build(places)
      let beforeExpected = build(places)
      for (let write = 0; write < 200; write++) {
        // A write touches a few posts (ids the index may not hold among them): taken out, added or written anew, or
        // moved a little (within its tile, or to the next) or not at all, keeping its date; now and then many at once.
        const changed = new Set(Array.from({ length: 1 + Math.floor(next() * (write % 10 ? 5 : 300)) }, () => 1 + Math.floor(next() * 4 * BLOCK * 1.25)))
        const nudge = write % 3 === 0
        for (const id of changed) {
          const [, latitude, longitude, date, category] = places.get(id) ?? place(id)
          const by = [0, 1e-5, 1e-2][Math.floor(next() * 3)]!
          // Not moved, it may change its category alone.
          if (nudge) places.set(id, [id, latitude + by, longitude - by, date, by === 0 ? Math.floor(next() * 3) : category])
          else if (next() < 0.3) places.delete(id)
          else places.set(id, place(id))
        }
        const added = [...changed].map((id) => places.get(id)).filter((place) => place !== undefined)
        const [before, expected] = [index, build(places)]
        index = withChanges(index, changed, added)
        assert.deepEqual(valuesOf(index), valuesOf(expected), `after write ${write}`)
        // A time interval of an index a write made (its blocks shared with the one before), as of a build.
        if (write % 20 === 0) {
          const [start, end] = [Math.floor(next() * 20) * 1000, 20_000 + Math.floor(next() * 20) * 1000]
          const interval = build(new Map([...places].filter(([, [, , , date]]) => date >= start && date <= end)))
          assert.deepEqual(valuesOf(rangeOf(index, ranksBetween(index, start, end))), valuesOf(interval), `an interval after write ${write}`)
        }
        // The index before, which shares blocks with this one, as it was: requests may still be reading it.
        assert.deepEqual(valuesOf(before), valuesOf(beforeExpected), `the index before write ${write}`)
        beforeExpected = expected
      }
    })
  }

  test('a place moved: in each column, the block that holds it is made anew, every other block shared', () => {
    const next = random(5)
    const places = Array.from({ length: 3 * BLOCK + 100 }, (_, i): PlacePoint => [i + 1, next() * 160 - 80, next() * 360 - 180, (i + 1) * 1000])
    const before = indexOf(places)
    const [id, latitude, longitude, date] = places[BLOCK + 7]!
    const moved: PlacePoint = [id, latitude + 1e-7, longitude, date]
    const after = withChanges(before, new Set([id]), [moved])
    assert.deepEqual(valuesOf(after), valuesOf(indexOf(places.map((place) => (place[0] === id ? moved : place)))))
    assert.equal(after.ids, before.ids)
    assert.equal(after.dates, before.dates)
    for (const column of ['latitudes', 'longitudes', 'keys', 'categories'] as const) assert.equal(newBlocks(after[column], before[column]), 1, column)
    assert.equal(newBlocks(after.ranks.ages, before.ranks.ages), 1)
    assert.equal(newBlocks(after.sumX.sums, before.sumX.sums), 1)
    assert.equal(newBlocks(after.sumY.sums, before.sumY.sums), 1)
  })

  // The write a site makes most: a new post. Every other place's rank grows by one, and nothing of it is copied.
  test('a new post, the newest, put in and taken out again: in each column, the block it goes in is made anew, every other block shared', () => {
    const next = random(7)
    const places = Array.from({ length: 8 * BLOCK + 100 }, (_, i): PlacePoint => [i + 1, next() * 160 - 80, next() * 360 - 180, (i + 1) * 1000])
    const before = indexOf(places)
    const added: PlacePoint = [places.length + 1, 48.86, 2.35, (places.length + 1) * 1000]
    const after = withChanges(before, new Set([added[0]]), [added])
    assert.deepEqual(valuesOf(after), valuesOf(indexOf([...places, added])))
    for (const column of ['ids', 'latitudes', 'longitudes', 'dates', 'keys', 'categories'] as const)
      assert.equal(newBlocks(after[column], before[column]), 1, column)
    assert.equal(newBlocks(after.ranks.ages, before.ranks.ages), 1, 'ages')
    assert.equal(newBlocks(after.sumX.sums, before.sumX.sums), 1)
    const again = withChanges(after, new Set([added[0]]), [])
    assert.deepEqual(valuesOf(again), valuesOf(before))
    for (const column of ['ids', 'keys', 'categories'] as const) assert.equal(newBlocks(again[column], after[column]), 1, column)
    assert.equal(newBlocks(again.ranks.ages, after.ranks.ages), 1, 'ages')
  })

  test('from and to no places at all', () => {
    const one: PlacePoint = [1, 48.85, 2.35, 1000]
    assert.deepEqual(valuesOf(withChanges(buildPlaceIndex([]), new Set([1]), [one])), valuesOf(buildPlaceIndex([one])))
    assert.deepEqual(valuesOf(withChanges(buildPlaceIndex([one]), new Set([1]), [])), valuesOf(buildPlaceIndex([])))
  })

  test('leaves the index it was given as it was', () => {
    const before = indexOf([...PARIS, BERLIN])
    const copy = indexOf([...PARIS, BERLIN])
    withChanges(before, new Set([1, 4]), [point(4, 13.5, 52.5)])
    assert.deepEqual(before, copy)
  })
})
