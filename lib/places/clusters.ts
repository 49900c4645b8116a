import 'server-only'
import { setImmediate as nextTurn } from 'node:timers/promises'
import Supercluster from 'supercluster'
import { listPublicPlacePoints, type PlacePoint } from './query'
import type { BBox, CollectionQuery } from './schemas'

/**
 * The map's index of the public places of one post type (and category), built once per data version and kept in
 * memory, so that a view costs the same whatever the number of places:
 * - the places in the collection's order (newest first), as flat arrays: a page of the places in a box is a scan
 *   that stops at the page's end, and a count of the places in it a scan of the coordinates (about 1 ms for 100,000);
 * - the clusters at every zoom level, in a KD-tree per level (supercluster).
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
  clusters: Supercluster<PointProps, PointProps>
}

type PointProps = { rank: number }

/** Past this zoom the index answers places, not clusters. */
export const CLUSTER_MAX_ZOOM = 16
// In pixels of a 512-pixel tile: 40 screen pixels between cluster centres on the map's 256-pixel tiles.
const CLUSTER_RADIUS = 80

/** The index of these places, given in the collection's order. */
export function buildPlaceIndex(points: PlacePoint[]): PlaceIndex {
  const clusters = new Supercluster<PointProps, PointProps>({ radius: CLUSTER_RADIUS, maxZoom: CLUSTER_MAX_ZOOM })
  clusters.load(points.map((point, rank) => ({
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [point.longitude, point.latitude] },
    properties: { rank },
  })))
  return {
    size: points.length,
    ids: Int32Array.from(points, (point) => point.id),
    latitudes: Float64Array.from(points, (point) => point.latitude),
    longitudes: Float64Array.from(points, (point) => point.longitude),
    extent: extentOf(points),
    clusters,
  }
}

/**
 * The box holding every point. Longitudes wrap: places on both sides of the antimeridian (Fiji, the Aleutians, the
 * Pacific) give a box that crosses it (west > east), when that box is less than half the world wide and narrower than
 * the one that does not; else the box runs from the westernmost place to the easternmost, as maps usually show.
 */
export function extentOf(points: Pick<PlacePoint, 'latitude' | 'longitude'>[]): BBox | null {
  if (points.length === 0) return null
  let south = 90
  let north = -90
  for (const { latitude } of points) {
    if (latitude < south) south = latitude
    if (latitude > north) north = latitude
  }
  const longitudes = Float64Array.from(points, (p) => p.longitude).sort()
  const westernmost = longitudes[0]!
  const easternmost = longitudes.at(-1)!
  // The widest gap between neighbouring longitudes: a crossing box is everything but that gap.
  let gap = 0
  let gapEnd = 0
  for (let i = 1; i < longitudes.length; i++) {
    if (longitudes[i]! - longitudes[i - 1]! > gap) {
      gap = longitudes[i]! - longitudes[i - 1]!
      gapEnd = i
    }
  }
  const crossingWidth = 360 - gap
  if (crossingWidth < 180 && crossingWidth < easternmost - westernmost) return [longitudes[gapEnd]!, south, longitudes[gapEnd - 1]!, north]
  return [westernmost, south, easternmost, north]
}

/** Calls `visit(rank)` for each place inside `bbox` (edges included), in rank order, until it returns false. */
function scan(index: PlaceIndex, [west, south, east, north]: BBox, visit: (rank: number) => boolean): void {
  const { latitudes, longitudes, size } = index
  const crossing = west > east
  for (let rank = 0; rank < size; rank++) {
    const latitude = latitudes[rank]!
    if (latitude < south || latitude > north) continue
    const longitude = longitudes[rank]!
    if (crossing ? longitude < west && longitude > east : longitude < west || longitude > east) continue
    if (!visit(rank)) return
  }
}

/** A page of the ids of the places inside `bbox`, newest first: `limit` of them after skipping `offset`. */
export function placeIdsIn(index: PlaceIndex, bbox: BBox, offset: number, limit: number): number[] {
  const ids: number[] = []
  let skipped = 0
  scan(index, bbox, (rank) => {
    if (skipped < offset) skipped++
    else ids.push(index.ids[rank]!)
    return ids.length < limit
  })
  return ids
}

/** How many places are inside `bbox`. */
export function countPlacesIn(index: PlaceIndex, bbox: BBox): number {
  let count = 0
  scan(index, bbox, () => {
    count++
    return true
  })
  return count
}

export type MapItem =
  | { cluster: true; longitude: number; latitude: number; count: number; expansionZoom: number }
  | { cluster: false; id: number }

const WORLD: BBox = [-180, -90, 180, 90]

/**
 * What a map at `zoom` shows inside `bbox`: clusters (with the zoom at which each splits) and single places. An item
 * is in when its position is: a cluster's position is the mean of its places'.
 */
export function mapItemsIn(index: PlaceIndex, bbox: BBox | undefined, zoom: number): MapItem[] {
  return index.clusters.getClusters(bbox ?? WORLD, zoom).map((feature): MapItem => {
    const props = feature.properties
    if ('cluster' in props && props.cluster) {
      const [longitude, latitude] = feature.geometry.coordinates as [number, number]
      return {
        cluster: true,
        longitude,
        latitude,
        count: props.point_count,
        expansionZoom: index.clusters.getClusterExpansionZoom(props.cluster_id),
      }
    }
    return { cluster: false, id: index.ids[(props as PointProps).rank]! }
  })
}

// Indexes of the (post type, category) pairs asked for lately, each for the data version it was built from. A few
// are kept: one of 100,000 places takes about 30 MB. On globalThis: Next bundles the page and the route apart, and
// both must share one cache.
const MAX_CACHED = 6
const shared = globalThis as unknown as { placeIndexes?: Map<string, { version: number; index: Promise<PlaceIndex> }> }
const cache = (shared.placeIndexes ??= new Map())

/**
 * The index of the public places of one post type and category at data `version` (readDataVersion, read by the
 * caller before this): built on first use after any write, then shared by every request until the next write.
 */
export function getPlaceIndex(query: Pick<CollectionQuery, 'postType' | 'categoryId'>, version: number): Promise<PlaceIndex> {
  const key = `${query.postType}\n${query.categoryId ?? ''}`
  const cached = cache.get(key)
  cache.delete(key)
  // One built from a version at least as new is as good: the data it was read from is no older than the caller's.
  if (cached && cached.version >= version) {
    cache.set(key, cached)
    return cached.index
  }
  // Between reading the places and clustering them (each holds the thread for a while), other requests get a turn.
  const index = listPublicPlacePoints(query).then(async (points) => {
    await nextTurn()
    return buildPlaceIndex(points)
  })
  const entry = { version, index }
  cache.set(key, entry)
  index.catch(() => {
    if (cache.get(key) === entry) cache.delete(key)
  })
  for (const oldest of cache.keys()) {
    if (cache.size <= MAX_CACHED) break
    cache.delete(oldest)
  }
  return index
}
