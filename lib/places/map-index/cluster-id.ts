import { CELL_LEVELS, CLUSTER_MAX_ZOOM, GRID_LEVEL } from './grid'

// A cluster's id names its tiles, not its places: the zoom, the tile of its largest group and the tiles around that
// it took in (nine bits). 5 + 18 + 18 + 9 bits: an integer exact in a double. It lists the places of those tiles in
// any later version of the data too (docs/api.md, Clusters' places). Apart from clusters.ts so that the query schemas
// can check an id without importing the index.

/** The bit of the nine around-tiles (bit (dy + 1) × 3 + (dx + 1)) that is the tile itself. */
export const SELF = 1 << 4
const TILE_BITS = 2 ** GRID_LEVEL
const AROUND_BITS = 2 ** 9

/** The id of the cluster of `tile` (y × side + x at the zoom's level) that took in the around-tiles `tiles`. */
export function clusterIdOf(zoom: number, tile: number, tiles: number): number {
  const side = 2 ** (zoom + CELL_LEVELS)
  const [x, y] = [tile % side, Math.floor(tile / side)]
  return ((zoom * TILE_BITS + y) * TILE_BITS + x) * AROUND_BITS + tiles
}

/** The cluster an id names: its zoom, tile and the tiles around it that it holds; null when no cluster has it. */
export function parseClusterId(id: number): { zoom: number; x: number; y: number; tiles: number } | null {
  if (!Number.isSafeInteger(id) || id < 0) return null
  const tiles = id % AROUND_BITS
  const tile = Math.floor(id / AROUND_BITS)
  const [x, y, zoom] = [tile % TILE_BITS, Math.floor(tile / TILE_BITS) % TILE_BITS, Math.floor(tile / TILE_BITS / TILE_BITS)]
  const side = 2 ** (zoom + CELL_LEVELS)
  if (zoom > CLUSTER_MAX_ZOOM || x >= side || y >= side || !(tiles & SELF)) return null
  return { zoom, x, y, tiles }
}
