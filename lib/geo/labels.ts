import 'server-only'
import KDBush from 'kdbush'
import { CAPITAL, getGazetteer, NOT_A_TOWN, type Cities } from './gazetteer'
import { DOT, isLabelTile, labelTilesAt, MAX_LABEL_ZOOM, MIN_LABEL_ZOOM, type TownLabel } from './label-tiles'
import { mercatorX, mercatorY } from './web-mercator'

// The map's town names where no tile server draws them (README, "The map"): the gazetteer's places (GeoNames,
// CC BY 4.0), capitals and large cities first, smaller towns as the zoom grows, never overlapping. Which towns a zoom
// shows is decided for the whole world at once (the first time a tile of that zoom is asked for), so the names of
// neighbouring tiles never collide.

/** A country's capital counts as a town this many times its size: Canberra before Sydney's suburbs. */
const CAPITAL_WEIGHT = 5
/** The least weighted population a town needs for its name at each zoom from MIN_LABEL_ZOOM: no village at zoom 5. */
const LEAST_AT_ZOOM = [5e6, 2e6, 8e5, 3e5, 1e5, 4e4, 1.5e4, 8000, 4000, 2000, 0, 0]
/** Font sizes, CSS pixels: a city's name larger than a town's. */
const CITY_PX = 14
const TOWN_PX = 12
const VILLAGE_PX = 11
/** Room kept clear around a name, CSS pixels each side: names are read apart, not as a run of words. */
const GAP = 3
/** How near a name a town's point leaves it too little room for a name of its own, CSS pixels. */
const NEAR = 12
const TILE_PX = 256
const CELL_PX = 128

/**
 * A name's width, a little more than a sans-serif's (600 weight, DejaVu's wide forms included) so that drawn names
 * never touch: CJK, Hangul and full-width letters an em, capitals and digits 0.72 em, the rest 0.62 em.
 */
function widthOf(name: string, px: number): number {
  let ems = 0
  for (const char of name) {
    const code = char.codePointAt(0)!
    if (
      (code >= 0x1100 && code <= 0x11ff) ||
      (code >= 0x2e80 && code <= 0xa4cf) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xff00 && code <= 0xff60)
    )
      ems += 1
    else if (code < 128 ? (code >= 65 && code <= 90) || (code >= 48 && code <= 57) : char !== char.toLowerCase()) ems += 0.72
    else ems += 0.62
  }
  return ems * px + 4 // the halo
}

/**
 * Where a name may go from its town's dot, in the order tried, and the box it takes there with the gap: [left, top,
 * right, bottom] written into `box`, for a name `width` × `height` beside the point (x, y).
 */
const ANCHORS: readonly [TownLabel[4], (x: number, y: number, width: number, height: number, box: Float64Array) => void][] = [
  ['right', (x, y, width, height, box) => box.set([x - DOT - GAP, y - height / 2 - GAP, x + DOT + width + GAP, y + height / 2 + GAP])],
  ['left', (x, y, width, height, box) => box.set([x - DOT - width - GAP, y - height / 2 - GAP, x + DOT + GAP, y + height / 2 + GAP])],
  ['above', (x, y, width, height, box) => box.set([x - width / 2 - GAP, y - DOT - height - GAP, x + width / 2 + GAP, y + DOT + GAP])],
  ['below', (x, y, width, height, box) => box.set([x - width / 2 - GAP, y - DOT - GAP, x + width / 2 + GAP, y + DOT + height + GAP])],
]
const NONE = 255
const NO_SHIFT = [0]

/** The towns that may be named, read once: most important first, with their names' sizes and their points. */
export type Towns = {
  cities: Cities
  /** the towns (GeoNames' places but NOT_A_TOWN), most important first */
  ranked: Int32Array
  weights: Float64Array
  pxs: Uint8Array
  /** by place, the name's width and height, CSS pixels */
  sizes: Float64Array
  /** by place, its point on Web Mercator's unit square */
  unitX: Float64Array
  unitY: Float64Array
}

export function rankTowns(cities: Cities): Towns {
  const { size, names, longitudes, latitudes, populations, kinds } = cities
  const weights = new Float64Array(size)
  // Sorted as numbers, the weight above the place's index (in 2^18): the typed array's own numeric sort, with no
  // compare function to call 2 million times. Weights are whole numbers below 2^34.
  if (size > 2 ** 18) throw new RangeError(`${size} places: more than the sort's keys hold`)
  const keys: number[] = []
  for (let i = 0; i < size; i++) {
    if (kinds[i] === NOT_A_TOWN) continue
    weights[i] = populations[i]! * (kinds[i] === CAPITAL ? CAPITAL_WEIGHT : 1)
    keys.push(weights[i]! * 2 ** 18 + (2 ** 18 - 1 - i))
  }
  const ranked = Int32Array.from(Float64Array.from(keys).sort().reverse(), (key) => 2 ** 18 - 1 - (key % 2 ** 18))
  const pxs = new Uint8Array(size)
  const sizes = new Float64Array(2 * size)
  const [unitX, unitY] = [new Float64Array(size), new Float64Array(size)]
  for (const i of ranked) {
    const px = weights[i]! >= 1e6 ? CITY_PX : weights[i]! >= 1e5 ? TOWN_PX : VILLAGE_PX
    pxs[i] = px
    sizes[2 * i] = widthOf(names[i]!, px)
    sizes[2 * i + 1] = px * 1.25
    unitX[i] = mercatorX(longitudes[i]!)
    unitY[i] = mercatorY(latitudes[i]!)
  }
  return { cities, ranked, weights, pxs, sizes, unitX, unitY }
}

/**
 * Which towns a zoom names, and where beside each town's dot: by place, the index in ANCHORS of its name, NONE for
 * none. Greedy, most important first: a name is kept in a place around its dot where its box, with the gap, overlaps
 * no box kept before it. Each zoom is placed afresh, so that a town gives way to a larger one as soon as there is
 * room for the larger. Placed in slices of a twentieth of a second: the server answers other requests meanwhile.
 */
export async function placeLabels({ cities, ranked, weights, sizes, unitX, unitY }: Towns, zoom: number): Promise<Uint8Array> {
  const anchors = new Uint8Array(cities.size).fill(NONE)
  const box = new Float64Array(4) // left, top, right, bottom: one name's, with the gap
  const worldPx = TILE_PX * 2 ** zoom
  const row = worldPx / CELL_PX
  const boxes = new Map<number, number[]>() // by cell, the names kept there, as offsets in `kept`
  const kept: number[] = []
  // A box past the world's east or west edge is also the box moved a world's width: names either side of the
  // antimeridian (Fiji's, Chukotka's) meet there as anywhere else.
  const wrapOf = (left: number, right: number): number => (left < 0 ? worldPx : right > worldPx ? -worldPx : 0)
  const overlapsKept = (): boolean => {
    const wrap = wrapOf(box[0]!, box[2]!)
    for (const shift of wrap === 0 ? NO_SHIFT : [0, wrap]) {
      const [left, right] = [box[0]! + shift, box[2]! + shift]
      for (let cy = Math.max(0, Math.floor(box[1]! / CELL_PX)); cy <= Math.min(row - 1, Math.floor(box[3]! / CELL_PX)); cy++) {
        for (let cx = Math.max(0, Math.floor(left / CELL_PX)); cx <= Math.min(row - 1, Math.floor(right / CELL_PX)); cx++) {
          for (const k of boxes.get(cy * row + cx) ?? []) {
            if (left < kept[k + 2]! && right > kept[k]! && box[1]! < kept[k + 3]! && box[3]! > kept[k + 1]!) return true
          }
        }
      }
    }
    return false
  }
  const keep = (): void => {
    const wrap = wrapOf(box[0]!, box[2]!)
    for (const shift of wrap === 0 ? NO_SHIFT : [0, wrap]) {
      const at = kept.push(box[0]! + shift, box[1]!, box[2]! + shift, box[3]!) - 4
      for (let cy = Math.max(0, Math.floor(box[1]! / CELL_PX)); cy <= Math.min(row - 1, Math.floor(box[3]! / CELL_PX)); cy++) {
        for (let cx = Math.max(0, Math.floor(kept[at]! / CELL_PX)); cx <= Math.min(row - 1, Math.floor(kept[at + 2]! / CELL_PX)); cx++) {
          const cell = boxes.get(cy * row + cx)
          if (cell) cell.push(at)
          else boxes.set(cy * row + cx, [at])
        }
      }
    }
  }
  const least = LEAST_AT_ZOOM[zoom - MIN_LABEL_ZOOM]!
  // The towns down to the zoom's least weight (all of them when none is below it: -1 >>> 0 is past the end).
  const eligible = ranked.subarray(0, ranked.findIndex((i) => weights[i]! < least) >>> 0)
  // The towns' points, by cell: of the free places around a dot, a name takes the one whose largest town nearby (a
  // point within NEAR of it) is the smallest, so that Argenteuil's name goes west, leaving room for Saint-Denis's.
  const points = new Map<number, number[]>()
  for (const i of eligible) {
    const key = Math.floor((unitY[i]! * worldPx) / CELL_PX) * row + Math.floor((unitX[i]! * worldPx) / CELL_PX)
    const cell = points.get(key)
    if (cell) cell.push(i)
    else points.set(key, [i])
  }
  const largestNear = (i: number): number => {
    let largest = 0
    const [top, bottom] = [box[1]! - NEAR, box[3]! + NEAR]
    const wrap = wrapOf(box[0]! - NEAR, box[2]! + NEAR)
    for (const shift of wrap === 0 ? NO_SHIFT : [0, wrap]) {
      const [left, right] = [box[0]! - NEAR + shift, box[2]! + NEAR + shift]
      for (let cy = Math.max(0, Math.floor(top / CELL_PX)); cy <= Math.min(row - 1, Math.floor(bottom / CELL_PX)); cy++) {
        for (let cx = Math.max(0, Math.floor(left / CELL_PX)); cx <= Math.min(row - 1, Math.floor(right / CELL_PX)); cx++) {
          for (const j of points.get(cy * row + cx) ?? []) {
            if (j === i || weights[j]! <= largest) continue
            const [x, y] = [unitX[j]! * worldPx, unitY[j]! * worldPx]
            if (x > left && x < right && y > top && y < bottom) largest = weights[j]!
          }
        }
      }
    }
    return largest
  }
  let slice = performance.now()
  for (let n = 0; n < eligible.length; n++) {
    if ((n & 255) === 0 && performance.now() - slice > 50) {
      await new Promise((resolve) => setImmediate(resolve))
      slice = performance.now()
    }
    const i = eligible[n]!
    const [x, y, width, height] = [unitX[i]! * worldPx, unitY[i]! * worldPx, sizes[2 * i]!, sizes[2 * i + 1]!]
    let [best, bestLargest] = [NONE, Infinity]
    for (let anchor = 0; anchor < ANCHORS.length && bestLargest > 0; anchor++) {
      ANCHORS[anchor]![1](x, y, width, height, box)
      if (overlapsKept()) continue
      const largest = largestNear(i)
      if (largest < bestLargest) [best, bestLargest] = [anchor, largest]
    }
    if (best === NONE) continue
    ANCHORS[best]![1](x, y, width, height, box)
    keep()
    anchors[i] = best
  }
  return anchors
}

/** A zoom's names: the towns it names, most important first, with where; and their points, a position in it a rank. */
type Named = { towns: Int32Array; anchors: Uint8Array; index: KDBush }

/** The towns named at a zoom, from placeLabels, indexed by their points. */
async function nameTowns(ranking: Towns, zoom: number): Promise<Named> {
  const anchors = await placeLabels(ranking, zoom)
  const towns = ranking.ranked.filter((i) => anchors[i] !== NONE)
  const index = new KDBush(Math.max(1, towns.length))
  for (const i of towns) index.add(ranking.unitX[i]!, ranking.unitY[i]!)
  index.finish()
  return { towns, anchors, index }
}

/** Made on first use and kept for the life of the process; a failure is tried again on the next question. */
function memo<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined
  return () =>
    (made ??= make().catch((error: unknown) => {
      made = undefined
      throw error
    }))
}

const ranking = memo(async () => rankTowns((await getGazetteer()).cities))
/** By zoom, its names: each placed the first time a tile of that zoom is asked for. */
const zooms = Array.from({ length: MAX_LABEL_ZOOM + 1 }, (_, zoom) => memo(async () => nameTowns(await ranking(), zoom)))

/** The names a tile of names shows at its zoom, most important first: those of the towns whose point is in it. */
export async function townLabels(zoom: number, x: number, y: number): Promise<TownLabel[]> {
  if (!isLabelTile(zoom, x, y)) throw new RangeError(`not a tile the map names towns on: ${zoom}/${x}/${y}`)
  const [{ cities, pxs, unitX, unitY }, { towns, anchors, index }] = await Promise.all([ranking(), zooms[zoom]!()])
  const span = 1 / labelTilesAt(zoom)
  const labels: TownLabel[] = []
  for (const rank of index.range(x * span, y * span, (x + 1) * span, (y + 1) * span).sort((a, b) => a - b)) {
    const i = towns[rank]!
    // A point on the tile's east or south edge belongs to the next tile.
    if (unitX[i] === (x + 1) * span || unitY[i] === (y + 1) * span) continue
    labels.push([cities.names[i]!, cities.longitudes[i]!, cities.latitudes[i]!, pxs[i]!, ANCHORS[anchors[i]!]![0]])
  }
  return labels
}
