import 'server-only'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { hasPublicPlaces, streamPublicPlacePoints, type PlacePoint } from './query'
import type { BBox, CollectionQuery } from './schemas'

/**
 * The map's index of the public places of one post type (and category), built once per data version and kept in
 * memory, about 48 bytes a place, so that a view costs the same whatever the number of places:
 * - the places in the collection's order (newest first), as flat arrays: a page of the places in a box in that order;
 * - the same places sorted by the web-map tile they are in (Z-order keys of the tiles of level GRID_LEVEL), with
 *   running sums of their positions: the places of any tile are one run of that order, found by binary search, and
 *   their number and mean position follow from its ends. Clusters are the tiles 64 pixels wide at the map's zoom,
 *   and a box's places are its tiles' runs (only those across its edges are looked at place by place).
 * (supercluster, used before, keeps a tree of every zoom level: about 700 bytes a place.)
 */
export type PlaceIndex = {
  /** how many places the index holds */
  size: number
  /** ids, latitudes and longitudes by rank: newest first, ties by id descending */
  ids: Int32Array
  latitudes: Float64Array
  longitudes: Float64Array
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

/** Past this zoom the index answers places, not clusters. */
export const CLUSTER_MAX_ZOOM = 16
// A cluster at zoom z gathers the places of a tile of level z + 2: 64 pixels wide on the map's 256-pixel tiles.
const CELL_LEVELS = 2
const GRID_LEVEL = CLUSTER_MAX_ZOOM + CELL_LEVELS
const GRID_SIZE = 2 ** GRID_LEVEL
// Clusters (and places) whose centres are nearer than this, in pixels, are drawn as one.
const MERGE_PIXELS = 40

// Web Mercator, the map's projection, on the unit square: x east from longitude -180, y south from latitude ~85.05.
const mercatorX = (longitude: number): number => longitude / 360 + 0.5
function mercatorY(latitude: number): number {
  const sin = Math.sin((latitude * Math.PI) / 180)
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI
  return y < 0 ? 0 : y > 1 ? 1 : y
}
const longitudeOf = (x: number): number => (x - 0.5) * 360
const latitudeOf = (y: number): number => (360 * Math.atan(Math.exp((1 - 2 * y) * Math.PI))) / Math.PI - 90

const gridCell = (m: number): number => Math.min(GRID_SIZE - 1, Math.floor(m * GRID_SIZE))

/** The 16 bits of `v` apart, one zero between each. */
function spread(v: number): number {
  v = (v | (v << 8)) & 0x00ff00ff
  v = (v | (v << 4)) & 0x0f0f0f0f
  v = (v | (v << 2)) & 0x33333333
  return ((v | (v << 1)) & 0x55555555) >>> 0
}

/** The Z-order key of the tile (x, y) of level GRID_LEVEL: their bits interleaved, 36 bits (exact in a double). */
function zKey(x: number, y: number): number {
  const low = (spread(x & 0xffff) | (spread(y & 0xffff) << 1)) >>> 0
  return (spread(x >>> 16) | (spread(y >>> 16) << 1)) * 2 ** 32 + low
}

/** How many levels, from the whole world down, the tiles of two keys share: GRID_LEVEL when the keys are equal. */
function sharedLevels(a: number, b: number): number {
  if (a === b) return GRID_LEVEL
  const high = (Math.floor(a / 2 ** 32) ^ Math.floor(b / 2 ** 32)) >>> 0
  // The bits up to the highest that differs, from the lowest: each level is two of them.
  const differing = high !== 0 ? 64 - Math.clz32(high) : 32 - Math.clz32(((a % 2 ** 32) ^ (b % 2 ** 32)) >>> 0)
  return GRID_LEVEL - Math.ceil(differing / 2)
}

/** Places given one by one in the collection's order, and then indexed. */
export class PlaceIndexBuilder {
  private size = 0
  private ids = new Int32Array(1024)
  private latitudes = new Float64Array(1024)
  private longitudes = new Float64Array(1024)

  add(id: number, latitude: number, longitude: number): void {
    if (this.size === this.ids.length) {
      const [ids, latitudes, longitudes] = [new Int32Array(this.size * 2), new Float64Array(this.size * 2), new Float64Array(this.size * 2)]
      ids.set(this.ids)
      latitudes.set(this.latitudes)
      longitudes.set(this.longitudes)
      this.ids = ids
      this.latitudes = latitudes
      this.longitudes = longitudes
    }
    this.ids[this.size] = id
    this.latitudes[this.size] = latitude
    this.longitudes[this.size] = longitude
    this.size++
  }

  build(): PlaceIndex {
    const { size } = this
    const ids = this.ids.slice(0, size)
    const latitudes = this.latitudes.slice(0, size)
    const longitudes = this.longitudes.slice(0, size)
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
    return { size, ids, latitudes, longitudes, extent: extentOf(latitudes, longitudes), keys, ranks, sumX, sumY }
  }
}

/** The index of these places, given in the collection's order. */
export function buildPlaceIndex(points: PlacePoint[]): PlaceIndex {
  const builder = new PlaceIndexBuilder()
  for (const [id, latitude, longitude] of points) builder.add(id, latitude, longitude)
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

/** Whether a position is inside `bbox`, edges included; west > east crosses the antimeridian. */
function contains([west, south, east, north]: BBox, longitude: number, latitude: number): boolean {
  if (latitude < south || latitude > north) return false
  return west > east ? longitude >= west || longitude <= east : longitude >= west && longitude <= east
}

/** A box in Web Mercator: [x1, y1, x2, y2], x1 ≤ x2 and y1 ≤ y2 (north first). */
type Rect = [number, number, number, number]

/** The box as boxes that do not cross the antimeridian: two when it does, which share no place. */
const partsOf = ([west, south, east, north]: BBox): BBox[] => (west > east ? [[west, south, 180, north], [-180, south, east, north]] : [[west, south, east, north]])

/** A box that does not cross the antimeridian, on the unit square. */
const rectOf = ([west, south, east, north]: BBox): Rect => [mercatorX(west), mercatorY(north), mercatorX(east), mercatorY(south)]

function lowerBound(keys: Float64Array, key: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid]! < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Walks down the tiles that meet `rect`, from the whole world to those of `level` at most, skipping the empty ones:
 * `visit(level, x, y, lo, hi)` gets each with the run [lo, hi) of its places in key order, and says whether to go on
 * into its four children.
 */
function walkTiles(index: PlaceIndex, rect: Rect, level: number, visit: (level: number, x: number, y: number, lo: number, hi: number) => boolean): void {
  const [x1, y1, x2, y2] = rect
  const descend = (z: number, x: number, y: number, lo: number, hi: number): void => {
    if (lo === hi) return
    const size = 2 ** -z
    if (x * size > x2 || (x + 1) * size < x1 || y * size > y2 || (y + 1) * size < y1) return
    if (!visit(z, x, y, lo, hi) || z === level) return
    // The children's runs follow each other in Z-order: top left, top right, bottom left, bottom right.
    const shift = GRID_LEVEL - z - 1
    const first = zKey((2 * x) << shift, (2 * y) << shift)
    const quarter = 4 ** shift
    const b1 = lowerBound(index.keys, first + quarter, lo, hi)
    const b2 = lowerBound(index.keys, first + 2 * quarter, b1, hi)
    const b3 = lowerBound(index.keys, first + 3 * quarter, b2, hi)
    descend(z + 1, 2 * x, 2 * y, lo, b1)
    descend(z + 1, 2 * x + 1, 2 * y, b1, b2)
    descend(z + 1, 2 * x, 2 * y + 1, b2, b3)
    descend(z + 1, 2 * x + 1, 2 * y + 1, b3, hi)
  }
  descend(0, 0, 0, 0, index.size)
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
    const rect = rectOf(part)
    const [x1, y1, x2, y2] = rect
    walkTiles(index, rect, GRID_LEVEL, (z, x, y, lo, hi) => {
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

/** How many places are inside `bbox`. */
export function countPlacesIn(index: PlaceIndex, bbox: BBox): number {
  let count = 0
  runsIn(index, bbox, (lo, hi, part) => {
    if (!part) count += hi - lo
    else for (let i = lo; i < hi; i++) if (isIn(index, part, index.ranks[i]!)) count++
  })
  return count
}

const isIn = (index: PlaceIndex, bbox: BBox, rank: number): boolean => contains(bbox, index.longitudes[rank]!, index.latitudes[rank]!)

/** The ranks of the places inside `bbox`, in rank order. */
function ranksIn(index: PlaceIndex, bbox: BBox): Uint32Array {
  const found: number[] = []
  runsIn(index, bbox, (lo, hi, part) => {
    for (let i = lo; i < hi; i++) if (!part || isIn(index, part, index.ranks[i]!)) found.push(index.ranks[i]!)
  })
  return Uint32Array.from(found).sort()
}

/** A page of the ids of the places inside `bbox`, newest first: `limit` of them after skipping `offset`. */
export function placeIdsIn(index: PlaceIndex, bbox: BBox, offset: number, limit: number, count = countPlacesIn(index, bbox)): number[] {
  const ids: number[] = []
  if (offset >= count) return ids
  // Either every place in the box, sorted by rank, or a walk down the ranks until the page is full: about
  // (offset + limit) × size / count places long. Whichever is shorter.
  if (count * 4 < ((offset + limit) * index.size) / count) {
    for (const rank of ranksIn(index, bbox).subarray(offset, offset + limit)) ids.push(index.ids[rank]!)
    return ids
  }
  let skipped = 0
  for (let rank = 0; rank < index.size && ids.length < limit; rank++) {
    if (!isIn(index, bbox, rank)) continue
    if (skipped < offset) skipped++
    else ids.push(index.ids[rank]!)
  }
  return ids
}

export type MapItem =
  | { cluster: true; longitude: number; latitude: number; count: number; expansionZoom: number }
  | { cluster: false; id: number }

const WORLD: BBox = [-180, -90, 180, 90]

/** A tile's places at the map's zoom: their run in key order, number and mean position, and the groups it took in. */
type Group = { lo: number; hi: number; count: number; x: number; y: number; joined: Group[]; taken: boolean }

/**
 * What a map at `zoom` shows inside `bbox`: clusters (with the zoom at which each splits) and single places. An item
 * is in when its position is: a cluster's position is the mean of its places'.
 */
export function mapItemsIn(index: PlaceIndex, bbox: BBox | undefined, zoom: number): MapItem[] {
  const box = bbox ?? WORLD
  if (zoom > CLUSTER_MAX_ZOOM) return [...ranksIn(index, box)].map((rank) => ({ cluster: false, id: index.ids[rank]! }))
  const level = zoom + CELL_LEVELS
  const groups = new Map<number, Group>() // by tile: y × 2^level + x
  // The tiles of the box and of a tile's width around it: a group at the box's edge merges as in any other view.
  const [west, south, east, north] = box
  const margin = 2 ** -level
  const around: BBox = bbox ? [
    Math.max(-180, longitudeOf(mercatorX(west) - margin)), Math.max(-90, latitudeOf(mercatorY(south) + margin)),
    Math.min(180, longitudeOf(mercatorX(east) + margin)), Math.min(90, latitudeOf(mercatorY(north) - margin)),
  ] : WORLD
  for (const part of partsOf(around)) {
    walkTiles(index, rectOf(part), level, (z, x, y, lo, hi) => {
      if (z < level) return true
      groups.set(y * 2 ** level + x, { lo, hi, count: hi - lo, x: meanX(index, lo, hi), y: meanY(index, lo, hi), joined: [], taken: false })
      return false
    })
  }
  return mergeNear(groups, level, zoom).flatMap((group): MapItem[] => {
    if (group.count === 1) {
      const rank = index.ranks[group.lo]!
      return isIn(index, box, rank) ? [{ cluster: false, id: index.ids[rank]! }] : []
    }
    const longitude = longitudeOf(group.x)
    const latitude = latitudeOf(group.y)
    if (!contains(box, longitude, latitude)) return []
    return [{ cluster: true, longitude, latitude, count: group.count, expansionZoom: expansionZoomOf(index, group, zoom) }]
  })
}

const meanX = (index: PlaceIndex, lo: number, hi: number): number => (index.sumX[hi]! - index.sumX[lo]!) / (hi - lo)
const meanY = (index: PlaceIndex, lo: number, hi: number): number => (index.sumY[hi]! - index.sumY[lo]!) / (hi - lo)
const mergeRadius = (zoom: number): number => MERGE_PIXELS / (256 * 2 ** zoom)

/**
 * Groups drawn nearer than MERGE_PIXELS to a larger one join it (the larger first, as supercluster does): a tile's
 * group is near only those of the eight tiles around it, the tiles being wider than that distance.
 */
function mergeNear(groups: Map<number, Group>, level: number, zoom: number): Group[] {
  const radius = mergeRadius(zoom)
  const side = 2 ** level
  const kept: Group[] = []
  for (const [tile, group] of [...groups].sort(([, a], [, b]) => b.count - a.count)) {
    if (group.taken) continue
    group.taken = true // as a seed, it joins no other
    let count = group.count
    let sumX = group.x * count
    let sumY = group.y * count
    for (const dy of [-side, 0, side]) {
      for (const dx of [-1, 0, 1]) {
        const other = groups.get(tile + dy + dx)
        if (!other || other.taken || Math.hypot(other.x - group.x, other.y - group.y) > radius) continue
        other.taken = true
        group.joined.push(other)
        count += other.count
        sumX += other.x * other.count
        sumY += other.y * other.count
      }
    }
    kept.push({ ...group, count, x: sumX / count, y: sumY / count })
  }
  return kept
}

// Past this many tiles, a cluster's places are spread enough to be drawn apart.
const MAX_PARTS = 64

/**
 * The zoom, past `zoom`, at which a group's places are first drawn as more than one item, as mergeNear would draw
 * them: when the places of its run fall in tiles whose groups are not all near the largest's, or the groups it took
 * in are drawn far enough from it. CLUSTER_MAX_ZOOM + 1 at most, where every place is drawn.
 */
function expansionZoomOf(index: PlaceIndex, group: Group, zoom: number): number {
  let expansion = splitZoomOf(index, group.lo, group.hi, zoom)
  for (const other of group.joined) {
    // Drawn apart once their distance, doubled at each zoom, passes the radius.
    const apart = zoom + 1 + Math.max(0, Math.floor(Math.log2(mergeRadius(zoom) / Math.hypot(other.x - group.x, other.y - group.y))))
    expansion = Math.min(expansion, apart, splitZoomOf(index, other.lo, other.hi, zoom))
  }
  return expansion
}

/** The zoom, past `zoom`, at which the places of the run [lo, hi), one tile at `zoom`, are drawn as more than one. */
function splitZoomOf(index: PlaceIndex, lo: number, hi: number, zoom: number): number {
  const { keys } = index
  // Before the level their tiles part at, they are one group; from there, tile by tile.
  for (let z = Math.max(zoom + 1, sharedLevels(keys[lo]!, keys[hi - 1]!) + 1 - CELL_LEVELS); z <= CLUSTER_MAX_ZOOM; z++) {
    const span = 4 ** (GRID_LEVEL - z - CELL_LEVELS)
    const parts: [number, number][] = []
    for (let i = lo; i < hi && parts.length <= MAX_PARTS; ) {
      const end = lowerBound(keys, (Math.floor(keys[i]! / span) + 1) * span, i, hi)
      parts.push([i, end])
      i = end
    }
    if (parts.length > MAX_PARTS) return z
    const [largestLo, largestHi] = parts.reduce((a, b) => (b[1] - b[0] > a[1] - a[0] ? b : a))
    const [x, y] = [meanX(index, largestLo, largestHi), meanY(index, largestLo, largestHi)]
    const radius = mergeRadius(z)
    if (parts.some(([a, b]) => Math.hypot(meanX(index, a, b) - x, meanY(index, a, b) - y) > radius)) return z
  }
  return CLUSTER_MAX_ZOOM + 1
}

// Indexes of the (post type, category) pairs asked for lately, each for the data version it was built from. The
// home map's (posts, every category) is always kept: requests for other pairs cannot push it out. The others are
// kept while they fit in MAX_OTHER_INDEX_BYTES together and number at most MAX_OTHER_INDEXES (which also bounds the
// builds under way), least recently used first out; a pair with no public places gets no index at all (one indexed
// query answers that). On globalThis: Next bundles the page and the route apart, and both must share one cache.
const HOME_KEY = indexKey({ postType: 'post', categoryId: null })
const BYTES_PER_PLACE = 48 // ids 4, latitudes 8, longitudes 8, keys 8, ranks 4, sumX 8, sumY 8
const BYTES_PER_INDEX = 4096 // the arrays' and objects' own overhead, however few the places
const MAX_OTHER_INDEX_BYTES = 48 * 1024 * 1024
const MAX_OTHER_INDEXES = 64
type CachedIndex = { version: number; index: Promise<PlaceIndex>; bytes: number }
const shared = globalThis as unknown as { placeIndexes?: Map<string, CachedIndex> }
const cache = (shared.placeIndexes ??= new Map())
// Rows read from the database at a time: between chunks, other requests get a turn.
const CHUNK = 20_000

function indexKey(query: Pick<CollectionQuery, 'postType' | 'categoryId'>): string {
  return `${query.postType}\n${query.categoryId ?? ''}`
}

async function readPlaceIndex(query: Pick<CollectionQuery, 'postType' | 'categoryId'>): Promise<PlaceIndex> {
  const builder = new PlaceIndexBuilder()
  for await (const chunk of streamPublicPlacePoints(query, CHUNK)) {
    for (const [id, latitude, longitude] of chunk) builder.add(id, latitude, longitude)
    await nextTurn()
  }
  return builder.build()
}

/**
 * The index of the public places of one post type and category at data `version` (readDataVersion, read by the
 * caller before this): built on first use after any write, then shared by every request until the next write.
 */
export function getPlaceIndex(query: Pick<CollectionQuery, 'postType' | 'categoryId'>, version: number): Promise<PlaceIndex> {
  const key = indexKey(query)
  const cached = cache.get(key)
  cache.delete(key)
  // One built from a version at least as new is as good: the data it was read from is no older than the caller's.
  if (cached && cached.version >= version) {
    cache.set(key, cached)
    return cached.index
  }
  const entry: CachedIndex = { version, index: readPlaceIndexIfAny(query), bytes: BYTES_PER_INDEX }
  cache.set(key, entry)
  evict()
  entry.index.then((index) => {
    entry.bytes = BYTES_PER_INDEX + index.size * BYTES_PER_PLACE
    // An empty index is not kept: asking again costs the one query that found no places.
    if (index.size === 0 && cache.get(key) === entry) cache.delete(key)
    evict()
  }, () => {
    if (cache.get(key) === entry) cache.delete(key)
  })
  return entry.index
}

const EMPTY_INDEX = buildPlaceIndex([])

async function readPlaceIndexIfAny(query: Pick<CollectionQuery, 'postType' | 'categoryId'>): Promise<PlaceIndex> {
  return (await hasPublicPlaces(query)) ? readPlaceIndex(query) : EMPTY_INDEX
}

/**
 * Drops the least recently used indexes but the home map's while the others take more than MAX_OTHER_INDEX_BYTES
 * or number more than MAX_OTHER_INDEXES; the one used last is kept whatever its size.
 */
function evict(): void {
  const others = [...cache].filter(([key]) => key !== HOME_KEY)
  let bytes = others.reduce((sum, [, entry]) => sum + entry.bytes, 0)
  let count = others.length
  for (const [key, entry] of others.slice(0, -1)) {
    if (bytes <= MAX_OTHER_INDEX_BYTES && count <= MAX_OTHER_INDEXES) break
    cache.delete(key)
    bytes -= entry.bytes
    count--
  }
}
