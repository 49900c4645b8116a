import { latitudeOf, longitudeOf, mercatorX, mercatorY } from '../../geo/web-mercator'
import type { BBox } from '../../api/contract'
import { GRID_LEVEL, lowerBound, zKey } from './grid'
import type { PlaceIndex } from './place-index'

// The index's queries by box: which places are inside one, how many, a page of them in the collection's order, and
// the walk down the tiles that meet a box that clustering shares.

export const WORLD: BBox = [-180, -90, 180, 90]

/** Whether a position is inside `bbox`, edges included; west > east crosses the antimeridian. */
export function contains([west, south, east, north]: BBox, longitude: number, latitude: number): boolean {
  if (latitude < south || latitude > north) return false
  return west > east ? longitude >= west || longitude <= east : longitude >= west && longitude <= east
}

export const isIn = (index: PlaceIndex, bbox: BBox, rank: number): boolean => contains(bbox, index.longitudes.get(rank), index.latitudes.get(rank))

/** A box in Web Mercator: [x1, y1, x2, y2], x1 ≤ x2 and y1 ≤ y2 (north first). */
type Rect = [number, number, number, number]

/** The box as boxes that do not cross the antimeridian: two when it does, which share no place. */
export const partsOf = ([west, south, east, north]: BBox): BBox[] =>
  west > east
    ? [
        [west, south, 180, north],
        [-180, south, east, north],
      ]
    : [[west, south, east, north]]

/** A box that does not cross the antimeridian, on the unit square. */
const rectOf = ([west, south, east, north]: BBox): Rect => [mercatorX(west), mercatorY(north), mercatorX(east), mercatorY(south)]

/**
 * Walks down the tiles that meet `part` (a box that does not cross the antimeridian), from the whole world to those
 * of `level` at most, skipping the empty ones: `visit(level, x, y, lo, hi)` gets each with the run [lo, hi) of its
 * places in key order, and says whether to go on into its four children.
 */
export function walkTiles(index: PlaceIndex, part: BBox, level: number, visit: (level: number, x: number, y: number, lo: number, hi: number) => boolean): void {
  const [x1, y1, x2, y2] = rectOf(part)
  const descend = (z: number, x: number, y: number, lo: number, hi: number): void => {
    if (lo === hi) return
    const size = 2 ** -z
    if (x * size > x2 || (x + 1) * size < x1 || y * size > y2 || (y + 1) * size < y1) return
    if (!visit(z, x, y, lo, hi) || z === level) return
    const [b1, b2, b3] = quartersOf(index, z, x, y, lo, hi)
    descend(z + 1, 2 * x, 2 * y, lo, b1)
    descend(z + 1, 2 * x + 1, 2 * y, b1, b2)
    descend(z + 1, 2 * x, 2 * y + 1, b2, b3)
    descend(z + 1, 2 * x + 1, 2 * y + 1, b3, hi)
  }
  descend(0, 0, 0, 0, index.size)
}

/**
 * Where the runs of a tile's four children begin, after the first's: they follow each other in Z-order (top left, top
 * right, bottom left, bottom right).
 */
function quartersOf(index: PlaceIndex, z: number, x: number, y: number, lo: number, hi: number): [number, number, number] {
  const shift = GRID_LEVEL - z - 1
  const first = zKey((2 * x) << shift, (2 * y) << shift)
  const quarter = 4 ** shift
  const b1 = lowerBound(index.keys, first + quarter, lo, hi)
  const b2 = lowerBound(index.keys, first + 2 * quarter, b1, hi)
  return [b1, b2, lowerBound(index.keys, first + 3 * quarter, b2, hi)]
}

/** A tile of level `z` and the run [lo, hi) of its places in key order. */
export type Tile = { z: number; x: number; y: number; lo: number; hi: number }

/** A tile's children that hold places. */
function childrenOf(index: PlaceIndex, { z, x, y, lo, hi }: Tile): Tile[] {
  const [b1, b2, b3] = quartersOf(index, z, x, y, lo, hi)
  const children: Tile[] = [
    { z: z + 1, x: 2 * x, y: 2 * y, lo, hi: b1 },
    { z: z + 1, x: 2 * x + 1, y: 2 * y, lo: b1, hi: b2 },
    { z: z + 1, x: 2 * x, y: 2 * y + 1, lo: b2, hi: b3 },
    { z: z + 1, x: 2 * x + 1, y: 2 * y + 1, lo: b3, hi },
  ]
  return children.filter((child) => child.lo < child.hi)
}

// Degrees by which a tile's edge, worked out from its number, is widened before it bounds the places inside it: far
// more than the projection's rounding, far less than any two places apart.
const EDGE_MARGIN = 1e-9
// Runs this short are looked at place by place rather than walked further (walking costs some binary searches a tile).
const SCANNED_RUN = 256

/**
 * The box of the places of `tiles` (runs of key order), exactly as a pass over them would find it. Past some thousands
 * of places, in a walk down the tiles toward each edge: a tile is looked into only while its own edge could lie beyond
 * the furthest place found.
 */
export function boxOfTiles(index: PlaceIndex, tiles: readonly Tile[]): BBox {
  if (tiles.reduce((places, { lo, hi }) => places + hi - lo, 0) <= 16 * SCANNED_RUN) return scannedBox(index, tiles)
  // Each edge as a least value: `bound` is one no place of a tile goes below, `edge` picks it from a box. Rows run north
  // to south, and the first and last rows hold the places nearer a pole than the square's edge (MAX_MERCATOR_LATITUDE).
  const least = (bound: (tile: Tile) => number, edge: (box: BBox) => number): number => {
    let best = Infinity
    const byBound = (a: Tile, b: Tile) => bound(a) - bound(b)
    const visit = (tile: Tile) => {
      if (bound(tile) - EDGE_MARGIN >= best) return
      if (tile.z === GRID_LEVEL || tile.hi - tile.lo <= SCANNED_RUN) best = Math.min(best, edge(scannedBox(index, [tile])))
      else childrenOf(index, tile).sort(byBound).forEach(visit)
    }
    ;[...tiles].sort(byBound).forEach(visit)
    return best
  }
  return [
    least(
      ({ z, x }) => longitudeOf(x * 2 ** -z),
      ([west]) => west,
    ),
    least(
      ({ z, y }) => (y === 2 ** z - 1 ? -90 : latitudeOf((y + 1) * 2 ** -z)),
      ([, south]) => south,
    ),
    -least(
      ({ z, x }) => -longitudeOf((x + 1) * 2 ** -z),
      ([, , east]) => -east,
    ),
    -least(
      ({ z, y }) => (y === 0 ? -90 : -latitudeOf(y * 2 ** -z)),
      ([, , , north]) => -north,
    ),
  ]
}

/** The box of the places of `tiles`, in one pass over them. */
function scannedBox({ latitudes, longitudes, ranks }: PlaceIndex, tiles: readonly Tile[]): BBox {
  let [west, south, east, north] = [180, 90, -180, -90]
  const { ages, last } = ranks
  for (const { lo, hi } of tiles)
    // Block by block (blocks.ts), the ages read straight from their arrays; no closure: the bounds stay in registers.
    for (let i = lo; i < hi;) {
      const b = ages.blockOf(i)
      const [block, start] = [ages.blocks[b]!, ages.starts[b]!]
      for (const end = Math.min(hi, start + block.length); i < end; i++) {
        const rank = last - block[i - start]!
        const longitude = longitudes.get(rank)
        const latitude = latitudes.get(rank)
        if (longitude < west) west = longitude
        if (longitude > east) east = longitude
        if (latitude < south) south = latitude
        if (latitude > north) north = latitude
      }
    }
  return [west, south, east, north]
}

// Margin, in units of the unit square, by which a tile must be inside a box to be taken whole without looking at its
// places (the projection's rounding is far smaller; a place so near the edge is looked at).
const INSIDE_MARGIN = 1e-9
// Runs this short are looked at place by place rather than walked further.
const SHORT_RUN = 16

/**
 * Calls `visit(lo, hi, part)` for runs of key order that hold every place in `bbox`: whole runs (`part` null), and runs
 * whose places are to be checked against `part`, the part of the box (partsOf) they were found in.
 */
function runsIn(index: PlaceIndex, bbox: BBox, visit: (lo: number, hi: number, part: BBox | null) => void): void {
  for (const part of partsOf(bbox)) {
    const [x1, y1, x2, y2] = rectOf(part)
    walkTiles(index, part, GRID_LEVEL, (z, x, y, lo, hi) => {
      const size = 2 ** -z
      const whole = x * size > x1 + INSIDE_MARGIN && (x + 1) * size < x2 - INSIDE_MARGIN && y * size > y1 + INSIDE_MARGIN && (y + 1) * size < y2 - INSIDE_MARGIN
      if (whole || z === GRID_LEVEL || hi - lo <= SHORT_RUN) {
        visit(lo, hi, whole ? null : part)
        return false
      }
      return true
    })
  }
}

/** A run [from, to) of the collection's order: the places of a time interval (ranksBetween); all when not given. */
export type RankRange = readonly [from: number, to: number]

const isAll = (index: PlaceIndex, [from, to]: RankRange) => from === 0 && to === index.size

/** How many places are inside `bbox` (and of `ranks`). */
export function countPlacesIn(index: PlaceIndex, bbox: BBox, range: RankRange = [0, index.size]): number {
  const [from, to] = range
  if (from === to) return 0
  const { ranks } = index
  const all = isAll(index, range)
  let count = 0
  runsIn(index, bbox, (lo, hi, part) => {
    if (!part && all) count += hi - lo
    else
      for (let i = lo; i < hi; i++) {
        const rank = ranks.get(i)
        if (rank >= from && rank < to && (!part || isIn(index, part, rank))) count++
      }
  })
  return count
}

/** The ranks of the places inside `bbox` (and of `ranks`), in rank order. */
export function ranksIn(index: PlaceIndex, bbox: BBox, [from, to]: RankRange = [0, index.size]): Uint32Array {
  const found: number[] = []
  if (from < to)
    runsIn(index, bbox, (lo, hi, part) => {
      for (let i = lo; i < hi; i++) {
        const rank = index.ranks.get(i)
        if (rank >= from && rank < to && (!part || isIn(index, part, rank))) found.push(rank)
      }
    })
  return Uint32Array.from(found).sort()
}

/**
 * A page of the ids of the places inside `bbox` (and of `ranks`), newest first: `limit` of them after skipping
 * `offset`. `count` is countPlacesIn's, when the caller has it.
 */
export function placeIdsIn(index: PlaceIndex, bbox: BBox, offset: number, limit: number, count?: number, ranks: RankRange = [0, index.size]): number[] {
  count ??= countPlacesIn(index, bbox, ranks)
  const ids: number[] = []
  if (offset >= count) return ids
  const [from, to] = ranks
  // Either every place in the box, sorted by rank, or a walk down the ranks until the page is full: about
  // (offset + limit) × (to − from) / count places long. Whichever is shorter.
  if (count * 4 < ((offset + limit) * (to - from)) / count) {
    for (const rank of ranksIn(index, bbox, ranks).subarray(offset, offset + limit)) ids.push(index.ids.get(rank))
    return ids
  }
  let skipped = 0
  for (let rank = from; rank < to && ids.length < limit; rank++) {
    if (!isIn(index, bbox, rank)) continue
    if (skipped < offset) skipped++
    else ids.push(index.ids.get(rank))
  }
  return ids
}
