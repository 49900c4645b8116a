import assert from 'node:assert/strict'
import { BLOCK } from '../../lib/places/map-index/blocks'
import type { PlaceIndex } from '../../lib/places/map-index/place-index'

/**
 * An index's values, whatever its blocks: what a build and a write must agree on (a write leaves blocks of other
 * lengths than a build's). Checks on the way that the latitudes' blocks are the longitudes' lengths (extentOf reads
 * them in pairs) and that no block is empty or longer than 1.5 × BLOCK.
 */
export function valuesOf(index: PlaceIndex) {
  const { size } = index
  const columns = [index.ids, index.latitudes, index.longitudes, index.dates, index.keys, index.ranks.ages, index.categories, index.sumX.sums, index.sumY.sums]
  for (const column of columns) assert.ok(column.blocks.every((block) => block.length > 0 && block.length <= 1.5 * BLOCK))
  assert.deepEqual(
    index.latitudes.blocks.map((block) => block.length),
    index.longitudes.blocks.map((block) => block.length),
  )
  const sums = (running: PlaceIndex['sumX']) => Array.from({ length: size + 1 }, (_, i) => running.before(i))
  return {
    size,
    extent: index.extent,
    ...Object.fromEntries(
      (['ids', 'latitudes', 'longitudes', 'dates', 'keys', 'ranks', 'categories'] as const).map((name) => [name, index[name].slice(0, size)]),
    ),
    sumX: sums(index.sumX),
    sumY: sums(index.sumY),
  }
}
