import { latitudeOf, longitudeOf, mercatorX, mercatorY } from '../../geo/web-mercator'
import type { BBox } from '../../api/contract'
import { boxOfTiles, contains, isIn, partsOf, ranksIn, walkTiles, WORLD } from './box'
import { clusterIdOf, parseClusterId, SELF } from './cluster-id'
import { CELL_LEVELS, CLUSTER_MAX_ZOOM, GRID_LEVEL, gridCell, lowerBound, sharedLevels, zKey } from './grid'
import { meanX, meanY, type PlaceIndex } from './place-index'

// What the map draws at a zoom: the places of each tile 64 pixels wide as one group, groups nearer than MERGE_PIXELS
// merged, and for each cluster the zoom at which it splits.

// Clusters (and places) whose centres are nearer than this, in pixels, are drawn as one.
const MERGE_PIXELS = 40
// Past this many tiles, a cluster's places are spread enough to be drawn apart.
const MAX_PARTS = 64

export type MapItem =
  | {
      cluster: true
      id: number
      longitude: number
      latitude: number
      count: number
      expansionZoom: number
      bbox: BBox
      /** with `withCategories`: how many of its places have each first category (categoriesIn) */
      categories?: Map<number, number>
    }
  | { cluster: false; id: number }

/**
 * A tile's places at the map's zoom: the tile, their run in key order, number and mean position, the groups it took
 * in, and which of the eight tiles around it (and itself) those are: bit (dy + 1) × 3 + (dx + 1).
 */
type Group = { tile: number; lo: number; hi: number; count: number; x: number; y: number; joined: Group[]; tiles: number; taken: boolean }

/**
 * What a map at `zoom` shows inside `bbox`: clusters (with the zoom at which each splits, and with `withCategories`
 * how many of its places are of each first category) and single places. An item is in when its position is: a
 * cluster's position is the mean of its places'.
 */
export function mapItemsIn(index: PlaceIndex, bbox: BBox | undefined, zoom: number, withCategories = false): MapItem[] {
  const box = bbox ?? WORLD
  if (zoom > CLUSTER_MAX_ZOOM) return [...ranksIn(index, box)].map((rank) => ({ cluster: false, id: index.ids.get(rank) }))
  const level = zoom + CELL_LEVELS
  const groups = new Map<number, Group>() // by tile: y × 2^level + x
  // The tiles of the box and of a tile's width around it: a group at the box's edge merges as in any other view.
  const [west, south, east, north] = box
  const margin = 2 ** -level
  const around: BBox = bbox
    ? [
        Math.max(-180, longitudeOf(mercatorX(west) - margin)),
        Math.max(-90, latitudeOf(mercatorY(south) + margin)),
        Math.min(180, longitudeOf(mercatorX(east) + margin)),
        Math.min(90, latitudeOf(mercatorY(north) - margin)),
      ]
    : WORLD
  for (const part of partsOf(around)) {
    walkTiles(index, part, level, (z, x, y, lo, hi) => {
      if (z < level) return true
      const tile = y * 2 ** level + x
      groups.set(tile, { tile, lo, hi, count: hi - lo, x: meanX(index, lo, hi), y: meanY(index, lo, hi), joined: [], tiles: SELF, taken: false })
      return false
    })
  }
  return mergeNear(groups, level, zoom).flatMap((group): MapItem[] => {
    if (group.count === 1) {
      const rank = index.ranks.get(group.lo)
      return isIn(index, box, rank) ? [{ cluster: false, id: index.ids.get(rank) }] : []
    }
    const longitude = longitudeOf(group.x)
    const latitude = latitudeOf(group.y)
    if (!contains(box, longitude, latitude)) return []
    const [id, expansionZoom] = [clusterIdOf(zoom, group.tile, group.tiles), expansionZoomOf(index, group, zoom)]
    const item: MapItem = { cluster: true, id, longitude, latitude, count: group.count, expansionZoom, bbox: bboxOf(index, group, level) }
    if (withCategories) item.categories = categoriesIn(index, [group, ...group.joined])
    return [item]
  })
}

// Counts by category id, zero but while categoriesIn counts: grown to the largest id met, up to MAX_COUNTED_ID (4 MB);
// larger ids (a site whose ids came from elsewhere) are counted in a Map.
let counts = new Uint32Array(1024)
const MAX_COUNTED_ID = 2 ** 20

/**
 * How many of the places of these runs of the key order have each first category (0: none): a pass over the blocks of
 * the categories' column (blocks.ts), counted in an array by id rather than a Map (a fifth of the time).
 */
function categoriesIn(index: PlaceIndex, runs: readonly { lo: number; hi: number }[]): Map<number, number> {
  const { blocks, starts } = index.categories
  const seen: number[] = []
  const large = new Map<number, number>()
  for (const { lo, hi } of runs) {
    for (let i = lo; i < hi;) {
      const b = index.categories.blockOf(i)
      const block = blocks[b]!
      const start = i - starts[b]!
      const end = Math.min(block.length, start + hi - i)
      for (let j = start; j < end; j++) {
        const category = block[j]!
        if (category >= MAX_COUNTED_ID) {
          large.set(category, (large.get(category) ?? 0) + 1)
          continue
        }
        if (category >= counts.length) {
          const grown = new Uint32Array(2 ** Math.ceil(Math.log2(category + 1)))
          grown.set(counts)
          counts = grown
        }
        if (counts[category]!++ === 0) seen.push(category)
      }
      i += end - start
    }
  }
  const found = large
  for (const category of seen) {
    found.set(category, counts[category]!)
    counts[category] = 0
  }
  return found
}

/**
 * A page of the ids of the places in the tiles a cluster id names (the places the cluster held, as the data is now),
 * newest first, and how many they are; null when the id is no cluster's. As placeIdsIn: either all of them sorted by
 * rank, or a walk down the ranks until the page is full, whichever is shorter; a page past the end costs nothing.
 */
export function clusterPage(index: PlaceIndex, id: number, offset: number, limit: number): { total: number; ids: number[] } | null {
  const cluster = parseClusterId(id)
  if (!cluster) return null
  const { zoom, x, y, tiles } = cluster
  const level = zoom + CELL_LEVELS
  const side = 2 ** level
  const shift = GRID_LEVEL - level
  const runs: [lo: number, hi: number][] = []
  const tileSet = new Set<number>()
  for (let bit = 0; bit < 9; bit++) {
    const [tx, ty] = [x + (bit % 3) - 1, y + Math.floor(bit / 3) - 1]
    if (!(tiles & (1 << bit)) || tx < 0 || ty < 0 || tx >= side || ty >= side) continue
    const first = zKey(tx * 2 ** shift, ty * 2 ** shift)
    const lo = lowerBound(index.keys, first, 0, index.size)
    runs.push([lo, lowerBound(index.keys, first + 4 ** shift, lo, index.size)])
    tileSet.add(ty * side + tx)
  }
  const total = runs.reduce((sum, [lo, hi]) => sum + hi - lo, 0)
  const ids: number[] = []
  if (offset >= total) return { total, ids }
  if (total * 4 < ((offset + limit) * index.size) / total) {
    const ranks = Uint32Array.from(runs.flatMap(([lo, hi]) => index.ranks.slice(lo, hi))).sort()
    for (const rank of ranks.subarray(offset, offset + limit)) ids.push(index.ids.get(rank))
    return { total, ids }
  }
  let skipped = 0
  for (let rank = 0; rank < index.size && ids.length < limit; rank++) {
    // The place's tile at the cluster's level, from its position as the index's keys were made.
    const tile = (gridCell(mercatorY(index.latitudes.get(rank))) >>> shift) * side + (gridCell(mercatorX(index.longitudes.get(rank))) >>> shift)
    if (!tileSet.has(tile)) continue
    if (skipped < offset) skipped++
    else ids.push(index.ids.get(rank))
  }
  return { total, ids }
}

/**
 * The box of a group's places (its run and those of the groups it took in), for a map to ask for the cluster's places
 * with `bbox`. Groups are tiles and their neighbours, which never reach across the antimeridian: west ≤ east.
 */
function bboxOf(index: PlaceIndex, group: Group, level: number): BBox {
  const side = 2 ** level
  return boxOfTiles(
    index,
    [group, ...group.joined].map(({ tile, lo, hi }) => ({ z: level, x: tile % side, y: Math.floor(tile / side), lo, hi })),
  )
}

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
        // Not past the world's east or west edge into the next row: the tiles around are those clusterPage reads.
        const column = (tile % side) + dx
        if (column < 0 || column >= side) continue
        const other = groups.get(tile + dy + dx)
        if (!other || other.taken || Math.hypot(other.x - group.x, other.y - group.y) > radius) continue
        other.taken = true
        group.joined.push(other)
        group.tiles |= 1 << ((Math.sign(dy) + 1) * 3 + dx + 1)
        count += other.count
        sumX += other.x * other.count
        sumY += other.y * other.count
      }
    }
    kept.push({ ...group, count, x: sumX / count, y: sumY / count })
  }
  return kept
}

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
  for (let z = Math.max(zoom + 1, sharedLevels(keys.get(lo), keys.get(hi - 1)) + 1 - CELL_LEVELS); z <= CLUSTER_MAX_ZOOM; z++) {
    const span = 4 ** (GRID_LEVEL - z - CELL_LEVELS)
    const parts: [number, number][] = []
    for (let i = lo; i < hi && parts.length <= MAX_PARTS;) {
      const end = lowerBound(keys, (Math.floor(keys.get(i) / span) + 1) * span, i, hi)
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
