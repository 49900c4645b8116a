import { mercatorX, mercatorY } from '../../geo/web-mercator'
import type { PlacePoint } from '../query'
import type { BBox } from '../schemas'
import { gridCell, zKey } from './grid'

/**
 * The map's index of the public places of one post type (and category), built once per data version and kept in
 * memory, about 56 bytes a place, so that a view costs the same whatever the number of places:
 * - the places in the collection's order (newest first), as flat arrays: a page of the places in a box in that order,
 *   and the places of a time interval, one run of that order;
 * - the same places sorted by the web-map tile they are in (Z-order keys of the tiles of level GRID_LEVEL), with
 *   running sums of their positions: the places of any tile are one run of that order, found by binary search, and
 *   their number and mean position follow from its ends. Clusters are the tiles 64 pixels wide at the map's zoom,
 *   and a box's places are its tiles' runs (only those across its edges are looked at place by place).
 * (supercluster, used before, keeps a tree of every zoom level: about 700 bytes a place.)
 */
export type PlaceIndex = {
  /** how many places the index holds */
  size: number
  /** ids, latitudes, longitudes and publication dates (milliseconds since 1970) by rank: newest first, ties by id descending */
  ids: Int32Array
  latitudes: Float64Array
  longitudes: Float64Array
  dates: Float64Array
  /** the box holding every place (see extentOf); null when there are none */
  extent: BBox | null
  /** the Z-order key of each place's tile, ascending */
  keys: Float64Array
  /** the rank of the place of each key */
  ranks: Uint32Array
  /** running sums of the places' Web Mercator x and y in key order: [i] is the sum over the first i keys */
  sumX: Float64Array
  sumY: Float64Array
}

/** What an index takes in memory: ids 4, latitudes 8, longitudes 8, dates 8, keys 8, ranks 4, sumX 8, sumY 8 bytes a place. */
export const BYTES_PER_PLACE = 56

/** Places given one by one in the collection's order, and then indexed. */
export class PlaceIndexBuilder {
  private size = 0
  private ids = new Int32Array(1024)
  private latitudes = new Float64Array(1024)
  private longitudes = new Float64Array(1024)
  private dates = new Float64Array(1024)

  add(id: number, latitude: number, longitude: number, date: number): void {
    if (this.size === this.ids.length) {
      const [ids, latitudes, longitudes, dates] = [
        new Int32Array(this.size * 2),
        new Float64Array(this.size * 2),
        new Float64Array(this.size * 2),
        new Float64Array(this.size * 2),
      ]
      ids.set(this.ids)
      latitudes.set(this.latitudes)
      longitudes.set(this.longitudes)
      dates.set(this.dates)
      this.ids = ids
      this.latitudes = latitudes
      this.longitudes = longitudes
      this.dates = dates
    }
    this.ids[this.size] = id
    this.latitudes[this.size] = latitude
    this.longitudes[this.size] = longitude
    this.dates[this.size] = date
    this.size++
  }

  build(): PlaceIndex {
    const { size } = this
    const ids = this.ids.slice(0, size)
    const latitudes = this.latitudes.slice(0, size)
    const longitudes = this.longitudes.slice(0, size)
    const dates = this.dates.slice(0, size)
    // Each place projected once, for its tile's key and for the running sums.
    const xs = Float64Array.from(longitudes, mercatorX)
    const ys = Float64Array.from(latitudes, mercatorY)
    // Sorted by key with the rank in the low 27 bits (a native sort of 64-bit integers, twice as fast as a comparator).
    const sorted = new BigUint64Array(size)
    for (let rank = 0; rank < size; rank++) {
      const key = zKey(gridCell(xs[rank]!), gridCell(ys[rank]!))
      sorted[rank] = (BigInt(key) << 27n) | BigInt(rank)
    }
    sorted.sort()
    const keys = new Float64Array(size)
    const ranks = new Uint32Array(size)
    const sumX = new Float64Array(size + 1)
    const sumY = new Float64Array(size + 1)
    for (let i = 0; i < size; i++) {
      const rank = Number(sorted[i]! & 0x7ffffffn)
      keys[i] = Number(sorted[i]! >> 27n)
      ranks[i] = rank
      sumX[i + 1] = sumX[i]! + xs[rank]!
      sumY[i + 1] = sumY[i]! + ys[rank]!
    }
    return { size, ids, latitudes, longitudes, dates, extent: extentOf(latitudes, longitudes), keys, ranks, sumX, sumY }
  }
}

/** The index of these places, given in the collection's order. */
export function buildPlaceIndex(points: PlacePoint[]): PlaceIndex {
  const builder = new PlaceIndexBuilder()
  for (const [id, latitude, longitude, date] of points) builder.add(id, latitude, longitude, date)
  return builder.build()
}

/**
 * The box holding every point. Longitudes wrap: places on both sides of the antimeridian (Fiji, the Aleutians, the
 * Pacific) give a box that crosses it (west > east), when that box is less than half the world wide and narrower than
 * the one that does not; else the box runs from the westernmost place to the easternmost, as maps usually show.
 */
export function extentOf(latitudes: Float64Array, longitudes: Float64Array): BBox | null {
  if (latitudes.length === 0) return null
  let south = 90
  let north = -90
  for (const latitude of latitudes) {
    if (latitude < south) south = latitude
    if (latitude > north) north = latitude
  }
  const sorted = longitudes.slice().sort()
  const westernmost = sorted[0]!
  const easternmost = sorted.at(-1)!
  // The widest gap between neighbouring longitudes: a crossing box is everything but that gap.
  let gap = 0
  let gapEnd = 0
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]! - sorted[i - 1]! > gap) {
      gap = sorted[i]! - sorted[i - 1]!
      gapEnd = i
    }
  }
  const crossingWidth = 360 - gap
  if (crossingWidth < 180 && crossingWidth < easternmost - westernmost) return [sorted[gapEnd]!, south, sorted[gapEnd - 1]!, north]
  return [westernmost, south, easternmost, north]
}

/**
 * The ranks of the places published within [start, end] (milliseconds since 1970, either end null for open), as the
 * run [from, to) of the collection's order: dates descend with rank, so two binary searches find it.
 */
export function ranksBetween(index: PlaceIndex, start: number | null, end: number | null): [from: number, to: number] {
  const { dates, size } = index
  // The first rank at or after which every date is ≤ limit (or < limit when `strict`).
  const firstBelow = (limit: number, strict: boolean) => {
    let lo = 0
    let hi = size
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (strict ? dates[mid]! < limit : dates[mid]! <= limit) hi = mid
      else lo = mid + 1
    }
    return lo
  }
  const from = end === null ? 0 : firstBelow(end, false)
  const to = start === null ? size : firstBelow(start, true)
  return [from, Math.max(from, to)]
}

// The places by id (see subsetOf), made on first use and kept with the index: 8 bytes a place.
type ById = { ids: Int32Array; ranks: Uint32Array }
const byIdOrders = new WeakMap<PlaceIndex, ById>()
// An id and its rank packed in one float, id × RANKS + rank, exact below 2^53: a native sort, no comparator.
const RANKS = 2 ** 22

function byId(index: PlaceIndex): ById {
  let order = byIdOrders.get(index)
  if (!order) {
    const { size, ids } = index
    let ranks: Uint32Array
    if (size <= RANKS) {
      const packed = Float64Array.from(ids, (id, rank) => id * RANKS + rank).sort()
      ranks = Uint32Array.from(packed, (key) => key % RANKS)
    } else ranks = Uint32Array.from({ length: size }, (_, rank) => rank).sort((a, b) => ids[a]! - ids[b]!)
    order = { ids: Int32Array.from(ranks, (rank) => ids[rank]!), ranks }
    byIdOrders.set(index, order)
  }
  return order
}

/**
 * The index of those places of `index` whose ids are in `ids` (ascending, and perhaps holding others): a search's
 * (docs/api.md, search), the places of its type and category that the text index matched. Neither the database nor
 * the places' rows are read again: their positions and dates are the index's.
 */
export function subsetOf(index: PlaceIndex, ids: Int32Array): PlaceIndex {
  const order = byId(index)
  const ranks: number[] = []
  // Both ascending by id: one walk through each.
  for (let i = 0, j = 0; i < ids.length && j < order.ids.length;) {
    if (ids[i]! < order.ids[j]!) i++
    else if (ids[i]! > order.ids[j]!) j++
    else ranks.push(order.ranks[j++]!)
  }
  const builder = new PlaceIndexBuilder()
  for (const rank of Uint32Array.from(ranks).sort()) builder.add(index.ids[rank]!, index.latitudes[rank]!, index.longitudes[rank]!, index.dates[rank]!)
  return builder.build()
}
