import { mercatorX, mercatorY } from '../../geo/web-mercator'
import type { PlacePoint } from '../query'
import type { BBox } from '../../api/contract'
import { Column, RunningSums, splicedColumn, splicedSums, type Run, type Splice } from './blocks'
import { firstWhere, gridCell, lowerBound, zKey } from './grid'

/**
 * The map's index of the public places of one post type (and category), built once and updated after each write
 * (withChanges), kept in memory, about 58 bytes a place, so that a view costs the same whatever the number of places:
 * - the places in the collection's order (newest first), in blocks (blocks.ts): a page of the places in a box in that
 *   order, and the places of a time interval, one run of that order;
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
  ids: Column<Int32Array>
  latitudes: Column
  longitudes: Column
  dates: Column
  /** the box holding every place (see extentOf); null when there are none */
  extent: BBox | null
  /** the Z-order key of each place's tile, ascending */
  keys: Column
  /** the rank of the place of each key */
  ranks: Ranks
  /**
   * the first category (its lowest id; 0: none) of the place of each key, which colours it on the map: in key order, so
   * that a cluster's are one run to count (clusters.ts, categoriesIn)
   */
  categories: Column<Uint32Array>
  /** running sums of the places' Web Mercator x and y in key order, in whole units of 2^-30 of the world's width (4 cm; meanX, meanY) */
  sumX: RunningSums
  sumY: RunningSums
}

/**
 * What an index takes in memory: ids 4, latitudes 8, longitudes 8, dates 8, keys 8, ranks 4, categories 4, sumX 8, sumY 8 bytes a
 * place, and the boxes of its blocks of places (extentOf: 5.8 KB a block, 1.4 bytes a place). Every column is in
 * blocks (blocks.ts): a write copies only the blocks it changes.
 */
export const BYTES_PER_PLACE = 62

/** The units of the running sums, in the world's width: exact up to 2^53 / 2^30, 8 million places. */
const UNITS = 2 ** 30
const unitsOf = (m: number): number => Math.round(m * UNITS)

/** The mean Web Mercator x of the places of keys [lo, hi). */
export const meanX = (index: PlaceIndex, lo: number, hi: number): number => (index.sumX.before(hi) - index.sumX.before(lo)) / (hi - lo) / UNITS
/** The mean Web Mercator y of the places of keys [lo, hi). */
export const meanY = (index: PlaceIndex, lo: number, hi: number): number => (index.sumY.before(hi) - index.sumY.before(lo)) / (hi - lo) / UNITS

/** The places in the order of their tiles' keys, with the running sums. */
type KeyOrder = Pick<PlaceIndex, 'keys' | 'ranks' | 'categories' | 'sumX' | 'sumY'>

/**
 * The rank of the place of each key, kept as its age: its position counted from the oldest place (size - 1 - rank). A
 * new post is the newest: every other place's rank grows by one, and its age stays, so a write copies no block of ages
 * but the one the new place goes in. (A place taken out, or put in among older ones, changes the ages of the places
 * newer than it.)
 */
export class Ranks {
  constructor(
    readonly ages: Column<Uint32Array>,
    /** the rank of the oldest place: size - 1 */
    readonly last: number,
  ) {}

  /** The rank of the place at position i of key order. */
  get(i: number): number {
    return this.last - this.ages.get(i)
  }

  /** The ranks at positions [lo, hi) of key order (as far as it goes). */
  slice(lo: number, hi: number): number[] {
    return this.ages.slice(lo, hi).map((age) => this.last - age)
  }
}

/** The Z-order key of the tile of a point (Web Mercator x and y). */
const keyOf = (x: number, y: number): number => zKey(gridCell(x), gridCell(y))

/** Places given one by one in the collection's order, and then indexed. */
export class PlaceIndexBuilder {
  private size = 0
  private ids = new Int32Array(1024)
  private latitudes = new Float64Array(1024)
  private longitudes = new Float64Array(1024)
  private dates = new Float64Array(1024)
  private categories = new Uint32Array(1024)

  add(id: number, latitude: number, longitude: number, date: number, category = 0): void {
    if (this.size === this.ids.length) {
      const [ids, latitudes, longitudes, dates, categories] = [
        new Int32Array(this.size * 2),
        new Float64Array(this.size * 2),
        new Float64Array(this.size * 2),
        new Float64Array(this.size * 2),
        new Uint32Array(this.size * 2),
      ]
      ids.set(this.ids)
      latitudes.set(this.latitudes)
      longitudes.set(this.longitudes)
      dates.set(this.dates)
      categories.set(this.categories)
      this.ids = ids
      this.latitudes = latitudes
      this.longitudes = longitudes
      this.dates = dates
      this.categories = categories
    }
    this.ids[this.size] = id
    this.latitudes[this.size] = latitude
    this.longitudes[this.size] = longitude
    this.dates[this.size] = date
    this.categories[this.size] = category
    this.size++
  }

  build(): PlaceIndex {
    const { size } = this
    const ids = this.ids.slice(0, size)
    const latitudes = this.latitudes.slice(0, size)
    const longitudes = this.longitudes.slice(0, size)
    const dates = this.dates.slice(0, size)
    // Each place projected once, for its tile's key and for the running sums.
    const xs = new Float64Array(size)
    const ys = new Float64Array(size)
    for (let rank = 0; rank < size; rank++) {
      xs[rank] = mercatorX(longitudes[rank]!)
      ys[rank] = mercatorY(latitudes[rank]!)
    }
    // Sorted by key with the rank in the low 27 bits (a native sort of 64-bit integers, twice as fast as a comparator).
    const sorted = new BigUint64Array(size)
    for (let rank = 0; rank < size; rank++) sorted[rank] = (BigInt(keyOf(xs[rank]!, ys[rank]!)) << 27n) | BigInt(rank)
    sorted.sort()
    const keys = new Float64Array(size)
    const ranks = new Uint32Array(size)
    const categories = new Uint32Array(size)
    // Each place's x and y in key order, for the running sums.
    const [x, y] = [new Float64Array(size), new Float64Array(size)]
    for (let i = 0; i < size; i++) {
      const rank = Number(sorted[i]! & 0x7ffffffn)
      keys[i] = Number(sorted[i]! >> 27n)
      ranks[i] = rank
      categories[i] = this.categories[rank]!
      x[i] = unitsOf(xs[rank]!)
      y[i] = unitsOf(ys[rank]!)
    }
    return indexOf({ ids, latitudes, longitudes, dates, keys, ranks, categories, x, y })
  }
}

/** An index of these arrays: rank order and key order, `x` and `y` each place's in key order, in UNITS. */
function indexOf(arrays: {
  ids: Int32Array
  latitudes: Float64Array
  longitudes: Float64Array
  dates: Float64Array
  keys: Float64Array
  ranks: Uint32Array
  categories: Uint32Array
  x: Float64Array
  y: Float64Array
}): PlaceIndex {
  const [latitudes, longitudes] = [Column.of(arrays.latitudes), Column.of(arrays.longitudes)]
  const size = arrays.ids.length
  const ages = arrays.ranks.map((rank) => size - 1 - rank)
  return {
    size,
    ids: Column.of(arrays.ids),
    latitudes,
    longitudes,
    dates: Column.of(arrays.dates),
    extent: extentOf(latitudes, longitudes),
    keys: Column.of(arrays.keys),
    ranks: new Ranks(Column.of(ages), size - 1),
    categories: Column.of(arrays.categories),
    sumX: RunningSums.of(arrays.x),
    sumY: RunningSums.of(arrays.y),
  }
}

/** The index of these places, given in the collection's order. */
export function buildPlaceIndex(points: PlacePoint[]): PlaceIndex {
  const builder = new PlaceIndexBuilder()
  for (const [id, latitude, longitude, date, category] of points) builder.add(id, latitude, longitude, date, category)
  return builder.build()
}

/**
 * The index after a write (cache.ts): the places of the `changed` ids taken out, and `added`, those of them that are
 * places of the index now (in any order), put in where a build would put them, so that the result is the index a
 * build from the database gives (map-index.test.ts checks it, array by array). Each order is the old one with a few
 * places taken out and put in: the blocks of its columns that keep their positions are shared with `index`, the
 * others made anew (blocks.ts), and the ranks in key order are rewritten one by one when places changed their ranks.
 * What a write leaves as it was is not copied: nothing when no place moved (a new title), not the ids and dates when
 * no place changed its rank (a place moved). No sort of the whole; `index` is left as it is, for the requests still
 * reading it.
 */
export function withChanges(index: PlaceIndex, changed: ReadonlySet<number>, added: readonly PlacePoint[]): PlaceIndex {
  const { ids, latitudes, longitudes, dates } = index
  const removed = ranksOfIds(ids, changed)
  const rankOf = new Map(Array.from(removed, (rank) => [ids.get(rank), rank]))
  // A place written again with its date keeps its rank.
  const ranksKept = removed.length === added.length && added.every(([id, , , date]) => rankOf.has(id) && dates.get(rankOf.get(id)!) === date)
  const isAsItWas = ([id, latitude, longitude, , category]: PlacePoint) => {
    const rank = rankOf.get(id)!
    return latitudes.get(rank) === latitude && longitudes.get(rank) === longitude && index.categories.get(keyPositionOf(index, rank)) === (category ?? 0)
  }
  if (ranksKept && added.every(isAsItWas)) return index
  const adds = [...added].sort(newestFirst)
  const byRank = ranksKept ? movedInRankOrder(index, adds, rankOf) : splicedRankOrder(index, removed, adds)
  const byKey = keyOrderAfter(index, removed, adds, byRank, ranksKept)
  const extent = extentOf(byRank.latitudes, byRank.longitudes)
  return { size: byRank.ids.length, ids: byRank.ids, latitudes: byRank.latitudes, longitudes: byRank.longitudes, dates: byRank.dates, extent, ...byKey }
}

/** The collection's order: newest first, ties by id descending. */
const newestFirst = (a: PlacePoint, b: PlacePoint) => b[3] - a[3] || b[0] - a[0]

/** The collection's order after a write, with each place's new rank. */
type RankOrderAfter = Pick<PlaceIndex, 'ids' | 'latitudes' | 'longitudes' | 'dates'> & {
  /** the new rank of each place put in, in the order of `adds` */
  rankOfAdded: number[]
  /** the new rank of the old place of rank `rank` */
  newRankOf: (rank: number) => number
  /** the ranks from which newRankOf adds or takes one more (none when every place keeps its rank) */
  steps: Float64Array
}

/** The latitudes and longitudes in the rank order of `plan`, the p-th place put in being adds[p]. */
const positionsAfter = (index: PlaceIndex, plan: Splice, adds: readonly PlacePoint[]) => ({
  latitudes: splicedColumn(Float64Array, index.latitudes, plan, (p) => adds[p]![1]),
  longitudes: splicedColumn(Float64Array, index.longitudes, plan, (p) => adds[p]![2]),
})

/**
 * Places that kept their ranks and moved (`adds` newest first: in rank order): the ids and dates as they were, the
 * blocks of positions that hold them made anew.
 */
function movedInRankOrder(index: PlaceIndex, adds: readonly PlacePoint[], rankOf: Map<number, number>): RankOrderAfter {
  const rankOfAdded = adds.map(([id]) => rankOf.get(id)!)
  const plan = splice(index.size, rankOfAdded, rankOfAdded)
  return { ids: index.ids, ...positionsAfter(index, plan, adds), dates: index.dates, rankOfAdded, newRankOf: (rank) => rank, steps: new Float64Array() }
}

/** The places at ranks `removed` taken out, `adds` (newest first) put in before the first old place older than each. */
function splicedRankOrder(index: PlaceIndex, removed: Uint32Array, adds: readonly PlacePoint[]): RankOrderAfter {
  const { size, ids, dates } = index
  const before = adds.map(([id, , , date]) => firstWhere(0, size, (r) => dates.get(r) < date || (dates.get(r) === date && ids.get(r) < id)))
  const plan = splice(size, removed, before)
  const order = {
    ids: splicedColumn(Int32Array, ids, plan, (p) => adds[p]![0]),
    dates: splicedColumn(Float64Array, dates, plan, (p) => adds[p]![3]),
  }
  // An old place's new rank: its old one, less the places taken out before it, plus those put in before it (from
  // rank `at` on, `by`). Worked out for each place in key order, in no order of ranks: a sum, not a table to look up.
  const at = Float64Array.from([...Array.from(removed, (rank) => rank + 1), ...before])
  const by = Float64Array.from([...Array.from(removed, () => -1), ...before.map(() => 1)])
  const newRankOf = (rank: number) => {
    let shifted = rank
    for (let s = 0; s < at.length; s++) shifted += rank >= at[s]! ? by[s]! : 0
    return shifted
  }
  return { ...order, ...positionsAfter(index, plan, adds), rankOfAdded: Array.from(plan.putAt), newRankOf, steps: at }
}

/** The position in key order of the place of `rank`: its key's run holds it, the ranks of a run ascending. */
function keyPositionOf({ size, latitudes, longitudes, keys, ranks }: PlaceIndex, rank: number): number {
  const lo = lowerBound(keys, keyOf(mercatorX(longitudes.get(rank)), mercatorY(latitudes.get(rank))), 0, size)
  return firstWhere(lo, lowerBound(keys, keys.get(lo) + 1, lo, size), (i) => ranks.get(i) >= rank)
}

/** The tiles' order after a write: by key, ties by new rank, as a build sorts them; with the running sums. */
function keyOrderAfter(index: PlaceIndex, removed: Uint32Array, adds: readonly PlacePoint[], byRank: RankOrderAfter, ranksKept: boolean): KeyOrder {
  const { size, keys, ranks, categories, sumX, sumY } = index
  const { rankOfAdded, newRankOf, steps } = byRank
  const puts = adds
    .map(([, latitude, longitude, , category], a) => {
      const [x, y] = [mercatorX(longitude), mercatorY(latitude)]
      return { key: keyOf(x, y), rank: rankOfAdded[a]!, category: category ?? 0, x: unitsOf(x), y: unitsOf(y) }
    })
    .sort((a, b) => a.key - b.key || a.rank - b.rank)
  // Each place put in goes within its key's run, before the first old place of a later new rank.
  const before = puts.map(({ key, rank }) =>
    firstWhere(lowerBound(keys, key, 0, size), lowerBound(keys, key + 1, 0, size), (i) => newRankOf(ranks.get(i)) > rank),
  )
  const plan = splice(
    size,
    Array.from(removed, (rank) => keyPositionOf(index, rank)).sort((a, b) => a - b),
    before,
  )
  // Ages (Ranks) change only where ranks step (`steps`): a block of ages none of whose places' ages change is kept.
  const last = plan.size - 1
  const newAge = (age: number) => last - newRankOf(size - 1 - age)
  const ageSteps = Array.from(steps, (rank) => size - 1 - rank)
  const keepsAges = (block: Uint32Array) => {
    const [least, most] = extremesOf(block)
    // Ages change by the same amount between two steps: the block's least age, and the first after each step.
    return newAge(least) === least && ageSteps.every((age) => age < least || age >= most || newAge(age + 1) === age + 1)
  }
  return {
    keys: splicedColumn(Float64Array, keys, plan, (p) => puts[p]!.key),
    // Ages that change are worked out anew, in the blocks that hold them.
    ranks: new Ranks(
      splicedColumn(
        Uint32Array,
        ranks.ages,
        plan,
        (p) => last - puts[p]!.rank,
        ranksKept ? undefined : (i) => newAge(ranks.ages.get(i)),
        ranksKept ? undefined : keepsAges,
      ),
      last,
    ),
    categories: splicedColumn(Uint32Array, categories, plan, (p) => puts[p]!.category),
    sumX: splicedSums(sumX, plan, (p) => puts[p]!.x),
    sumY: splicedSums(sumY, plan, (p) => puts[p]!.y),
  }
}

/** The least and most value of a block of ages, kept while the block lives. */
const blockExtremes = new WeakMap<Uint32Array, [least: number, most: number]>()
function extremesOf(block: Uint32Array): [least: number, most: number] {
  let extremes = blockExtremes.get(block)
  if (!extremes) {
    let [least, most] = [Infinity, -Infinity]
    for (const age of block) {
      if (age < least) least = age
      if (age > most) most = age
    }
    extremes = [least, most]
    blockExtremes.set(block, extremes)
  }
  return extremes
}

// Up to this many changed posts, each is looked for in the index on its own (a native scan of the ids).
const FEW = 16

/** The ranks of the places of these ids the index holds, ascending. */
function ranksOfIds(ids: Column<Int32Array>, wanted: ReadonlySet<number>): Uint32Array {
  const found: number[] = []
  ids.blocks.forEach((block, b) => {
    const start = ids.starts[b]!
    if (wanted.size <= FEW) {
      for (const id of wanted) {
        const at = block.indexOf(id)
        if (at !== -1) found.push(start + at)
      }
    } else {
      for (let at = 0; at < block.length; at++) if (wanted.has(block[at]!)) found.push(start + at)
    }
  })
  return Uint32Array.from(found).sort()
}

/**
 * An old order of `size` places, with those at the positions `takes` taken out and places put in before the old
 * positions `puts` (both ascending): the runs of it kept, [from, end) going to new position `to`, and the new
 * position of each place put in.
 */
function splice(size: number, takes: ArrayLike<number>, puts: readonly number[]): Splice {
  const runs: Run[] = []
  const putAt = new Uint32Array(puts.length)
  let [from, to, t, p] = [0, 0, 0, 0]
  const keepUpTo = (end: number) => {
    if (end > from) runs.push([from, end, to])
    to += end - from
    from = end
  }
  while (t < takes.length || p < puts.length) {
    if (p < puts.length && (t === takes.length || puts[p]! <= takes[t]!)) {
      keepUpTo(puts[p]!)
      putAt[p++] = to++
    } else {
      keepUpTo(takes[t++]!)
      from++
    }
  }
  keepUpTo(size)
  return { size: to, runs, putAt }
}

/**
 * The box holding every point. Longitudes wrap: places on both sides of the antimeridian (Fiji, the Aleutians, the
 * Pacific) give a box that crosses it (west > east), when that box is less than half the world wide and narrower than
 * the one that does not; else the box runs from the westernmost place to the easternmost, as maps usually show.
 * The crossing box is everything but the widest gap between neighbouring longitudes, less than half the world wide
 * when that gap is more than 180°: then it is the only such gap, and, being more than a degree, it lies between the
 * degrees that hold a place. So one pass finds it, without sorting; and what it gathers of each block of places is
 * kept with the block (boxOf), so that the index after a write, which shares most blocks with the one before, works
 * out only its new blocks'.
 */
export function extentOf(latitudes: Column, longitudes: Column): BBox | null {
  if (latitudes.blocks.length === 0) return null
  let [south, north] = [90, -90]
  const first = new Float64Array(DEGREES).fill(Infinity)
  const last = new Float64Array(DEGREES).fill(-Infinity)
  latitudes.blocks.forEach((block, b) => {
    const box = boxOf(block, longitudes.blocks[b]!)
    south = Math.min(south, box.south)
    north = Math.max(north, box.north)
    for (let degree = 0; degree < DEGREES; degree++) {
      if (box.first[degree]! < first[degree]!) first[degree] = box.first[degree]!
      if (box.last[degree]! > last[degree]!) last[degree] = box.last[degree]!
    }
  })
  const degrees = [...first.keys()].filter((degree) => first[degree] !== Infinity)
  const [west, east] = [first[degrees[0]!]!, last[degrees.at(-1)!]!]
  for (let i = 1; i < degrees.length; i++) {
    const [gapWest, gapEast] = [last[degrees[i - 1]!]!, first[degrees[i]!]!]
    if (gapEast - gapWest > 180) return [gapEast, south, gapWest, north]
  }
  return [west, south, east, north]
}

/** Degrees of longitude from -180, the last holding 180 itself. */
const DEGREES = 361

/**
 * What extentOf gathers of the places of one block: their south and north, and the westernmost and easternmost
 * longitude in each degree (Infinity and -Infinity where none), kept while the block of latitudes lives.
 */
type BlockBox = { longitudes: Float64Array; south: number; north: number; first: Float64Array; last: Float64Array }
const blockBoxes = new WeakMap<Float64Array, BlockBox>()

function boxOf(latitudes: Float64Array, longitudes: Float64Array): BlockBox {
  const kept = blockBoxes.get(latitudes)
  if (kept?.longitudes === longitudes) return kept
  const box = { longitudes, south: 90, north: -90, first: new Float64Array(DEGREES).fill(Infinity), last: new Float64Array(DEGREES).fill(-Infinity) }
  for (let i = 0; i < latitudes.length; i++) {
    const [latitude, longitude] = [latitudes[i]!, longitudes[i]!]
    if (latitude < box.south) box.south = latitude
    if (latitude > box.north) box.north = latitude
    const degree = Math.floor(longitude + 180)
    if (longitude < box.first[degree]!) box.first[degree] = longitude
    if (longitude > box.last[degree]!) box.last[degree] = longitude
  }
  blockBoxes.set(latitudes, box)
  return box
}

/**
 * The ranks of the places published within [start, end] (milliseconds since 1970, either end null for open), as the
 * run [from, to) of the collection's order: dates descend with rank, so two binary searches find it.
 */
export function ranksBetween(index: PlaceIndex, start: number | null, end: number | null): [from: number, to: number] {
  const { dates, size } = index
  // The first rank at or after which every date is ≤ limit (or < limit when `strict`).
  const firstBelow = (limit: number, strict: boolean) => firstWhere(0, size, (r) => (strict ? dates.get(r) < limit : dates.get(r) <= limit))
  const from = end === null ? 0 : firstBelow(end, false)
  const to = start === null ? size : firstBelow(start, true)
  return [from, Math.max(from, to)]
}

/**
 * The index of the places of ranks [from, to) (a time interval's: ranksBetween), the same as subsetOf's of their ids,
 * made in one pass over the key order: the ranks kept are one run, so nothing is looked up or sorted.
 */
export function rangeOf(index: PlaceIndex, [from, to]: readonly [from: number, to: number]): PlaceIndex {
  if (from === 0 && to === index.size) return index
  const size = to - from
  const [latitudes, longitudes] = [new Float64Array(size), new Float64Array(size)]
  index.latitudes.copyTo(latitudes, 0, from, size)
  index.longitudes.copyTo(longitudes, 0, from, size)
  const [keys, ranks, categories] = [new Float64Array(size), new Uint32Array(size), new Uint32Array(size)]
  const [x, y] = [new Float64Array(size), new Float64Array(size)]
  // The ranks [from, to) are the ages (last - to, last - from]: their positions found block by block, the other columns
  // read at them.
  const { ages, last } = index.ranks
  const positions = new Uint32Array(size)
  let k = 0
  ages.blocks.forEach((block, b) => {
    for (let j = 0; j < block.length; j++) {
      const age = block[j]!
      if (age <= last - to || age > last - from) continue
      positions[k] = ages.starts[b]! + j
      ranks[k++] = last - age - from
    }
  })
  index.keys.gather(positions, keys)
  index.categories.gather(positions, categories)
  index.sumX.gather(positions, x)
  index.sumY.gather(positions, y)
  const [ids, dates] = [new Int32Array(size), new Float64Array(size)]
  index.ids.copyTo(ids, 0, from, size)
  index.dates.copyTo(dates, 0, from, size)
  return indexOf({ ids, latitudes, longitudes, dates, keys, ranks, categories, x, y })
}

/** What subsetOf looks up in an index, made on first use and kept with it: 8 to 20 bytes a place (a Map: about 60). */
type Lookups = {
  /** the rank of the place of an id, -1 for none */
  rankOf: (id: number) => number
  /** the position in key order of the place of each rank */
  keyPositions: Uint32Array
}
const lookupsOf = new WeakMap<PlaceIndex, Lookups>()
/** Ranks by id in an array indexed by id, as long as it takes at most this many bytes a place (else in a Map). */
const MAX_ID_TABLE_BYTES_PER_PLACE = 16

function lookups(index: PlaceIndex): Lookups {
  let found = lookupsOf.get(index)
  if (!found) {
    const { size, ranks } = index
    let maxId = -1
    for (const block of index.ids.blocks) for (const id of block) maxId = Math.max(maxId, id)
    let rankOf: Lookups['rankOf']
    // Ids handed out by the database are dense: an array indexed by id is made in one pass, a Map is twenty times slower.
    if (4 * (maxId + 1) <= MAX_ID_TABLE_BYTES_PER_PLACE * size + 65_536) {
      const table = new Int32Array(maxId + 1).fill(-1)
      index.ids.blocks.forEach((block, b) => block.forEach((id, j) => (table[id] = index.ids.starts[b]! + j)))
      rankOf = (id) => (id >= 0 && id <= maxId ? table[id]! : -1)
    } else {
      const map = new Map<number, number>()
      index.ids.blocks.forEach((block, b) => block.forEach((id, j) => map.set(id, index.ids.starts[b]! + j)))
      rankOf = (id) => map.get(id) ?? -1
    }
    const keyPositions = new Uint32Array(size)
    ranks.ages.blocks.forEach((block, b) => {
      for (let j = 0; j < block.length; j++) keyPositions[ranks.last - block[j]!] = ranks.ages.starts[b]! + j
    })
    found = { rankOf, keyPositions }
    lookupsOf.set(index, found)
  }
  return found
}

// A key position and a subset's rank packed in one float, position × SUBSET_RANKS + rank, exact below 2^53: a native
// sort, no comparator.
const SUBSET_RANKS = 2 ** 23

/**
 * The index of those places of `index` whose ids are in `ids` (in any order, no id twice, perhaps ids of no place): a
 * search's (docs/api.md, search), the places of its type and category that the text index matched. Nothing is read
 * again nor worked out anew: the subset's orders are the index's without the other places, its running sums add up
 * the index's own steps, and it costs what the subset holds, not what the index does. The same index as a build of
 * those places.
 */
export function subsetOf(index: PlaceIndex, ids: Int32Array | Column<Int32Array>): PlaceIndex {
  const { rankOf, keyPositions } = lookups(index)
  const kept: number[] = []
  for (const block of ids instanceof Column ? ids.blocks : [ids]) {
    for (const id of block) {
      const rank = rankOf(id)
      if (rank >= 0) kept.push(rank)
    }
  }
  // The subset's ranks are the index's, in the same order, renumbered.
  const ranksKept = Uint32Array.from(kept).sort()
  const size = ranksKept.length
  const subset = {
    ids: new Int32Array(size),
    latitudes: new Float64Array(size),
    longitudes: new Float64Array(size),
    dates: new Float64Array(size),
    keys: new Float64Array(size),
    ranks: new Uint32Array(size),
    categories: new Uint32Array(size),
    x: new Float64Array(size),
    y: new Float64Array(size),
  }
  const byKey = new Float64Array(size)
  for (let to = 0; to < size; to++) {
    const rank = ranksKept[to]!
    subset.ids[to] = index.ids.get(rank)
    subset.latitudes[to] = index.latitudes.get(rank)
    subset.longitudes[to] = index.longitudes.get(rank)
    subset.dates[to] = index.dates.get(rank)
    byKey[to] = keyPositions[rank]! * SUBSET_RANKS + to
  }
  byKey.sort()
  const { keys, categories, sumX, sumY } = index
  for (let k = 0; k < size; k++) {
    const i = Math.floor(byKey[k]! / SUBSET_RANKS)
    subset.keys[k] = keys.get(i)
    subset.ranks[k] = byKey[k]! % SUBSET_RANKS
    subset.categories[k] = categories.get(i)
    // Whole numbers below 2^53: each step of the index's sums is exactly the place's own.
    subset.x[k] = sumX.at(i)
    subset.y[k] = sumY.at(i)
  }
  return indexOf(subset)
}
