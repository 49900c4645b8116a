import type { Column } from './blocks'

// The grid the map index sorts places by: the web-map tiles of level GRID_LEVEL, numbered along a Z-order curve, so
// that the places of any tile of any level are one run of that order.

/** Past this zoom the index answers places, not clusters. */
export const CLUSTER_MAX_ZOOM = 16
/** A cluster at zoom z gathers the places of a tile of level z + 2: 64 pixels wide on the map's 256-pixel tiles. */
export const CELL_LEVELS = 2
export const GRID_LEVEL = CLUSTER_MAX_ZOOM + CELL_LEVELS
const GRID_SIZE = 2 ** GRID_LEVEL

/** The column (or row) of level GRID_LEVEL that a Web Mercator x (or y) is in. */
export const gridCell = (m: number): number => Math.min(GRID_SIZE - 1, Math.floor(m * GRID_SIZE))

/** The 16 bits of `v` apart, one zero between each. */
function spread(v: number): number {
  v = (v | (v << 8)) & 0x00ff00ff
  v = (v | (v << 4)) & 0x0f0f0f0f
  v = (v | (v << 2)) & 0x33333333
  return ((v | (v << 1)) & 0x55555555) >>> 0
}

/** The Z-order key of the tile (x, y) of level GRID_LEVEL: their bits interleaved, 36 bits (exact in a double). */
export function zKey(x: number, y: number): number {
  const low = (spread(x & 0xffff) | (spread(y & 0xffff) << 1)) >>> 0
  return (spread(x >>> 16) | (spread(y >>> 16) << 1)) * 2 ** 32 + low
}

/** How many levels, from the whole world down, the tiles of two keys share: GRID_LEVEL when the keys are equal. */
export function sharedLevels(a: number, b: number): number {
  if (a === b) return GRID_LEVEL
  const high = (Math.floor(a / 2 ** 32) ^ Math.floor(b / 2 ** 32)) >>> 0
  // The bits up to the highest that differs, from the lowest: each level is two of them.
  const differing = high !== 0 ? 64 - Math.clz32(high) : 32 - Math.clz32(((a % 2 ** 32) ^ (b % 2 ** 32)) >>> 0)
  return GRID_LEVEL - Math.ceil(differing / 2)
}

/**
 * The first position in keys[lo, hi) whose key is not below `key` (keys ascending). On the views' path: no closure,
 * and a search among the blocks' first keys, then within one block's array, rather than a lookup at every step.
 */
export function lowerBound(keys: Column, key: number, lo: number, hi: number): number {
  if (hi - lo <= 64) {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (keys.get(mid) < key) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const { blocks, starts } = keys
  // The first block after lo's, up to hi's, whose first key is not below `key`: the position is in the block before.
  let [after, end] = [keys.blockOf(lo) + 1, keys.blockOf(hi - 1) + 1]
  while (after < end) {
    const mid = (after + end) >>> 1
    if (blocks[mid]![0]! < key) after = mid + 1
    else end = mid
  }
  const [block, base] = [blocks[after - 1]!, starts[after - 1]!]
  let [from, to] = [Math.max(lo, base) - base, Math.min(hi, starts[after]!) - base]
  while (from < to) {
    const mid = (from + to) >>> 1
    if (block[mid]! < key) from = mid + 1
    else to = mid
  }
  return base + from
}

/** The first position in [lo, hi) at which `holds` is true, when it is false before some position and true from it on. */
export function firstWhere(lo: number, hi: number, holds: (position: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (holds(mid)) hi = mid
    else lo = mid + 1
  }
  return lo
}
