import 'server-only'
import type { BBox } from '../api/contract'
import { getDb } from '../db'
import { PUBLIC_PLACE_WHERE } from './visibility'

// The post types that have public places, each with their number, box and first and last dates: the OGC API's
// collections, and the types the map offers (README, "The map"). Read once per data version.

export type PostTypeSummary = { type: string; count: number; bbox: BBox; dates: [first: Date, last: Date] }

let summaries: { version: number; types: Promise<PostTypeSummary[]> } | undefined

/**
 * The post types with public places, by key, at data `version` (readDataVersion): a scan of the public places after
 * each write, then nothing until the next.
 */
export function publicPostTypes(version: number): Promise<PostTypeSummary[]> {
  // A request of an older version takes the newer summaries: never older than its version, as answers must be.
  if (!summaries || summaries.version < version) {
    const types = readPublicPostTypes()
    summaries = { version, types }
    // A failed read is not kept: the next request tries again.
    types.catch(() => {
      if (summaries?.types === types) summaries = undefined
    })
  }
  return summaries.types
}

async function readPublicPostTypes(): Promise<PostTypeSummary[]> {
  const groups = await getDb().post.groupBy({
    by: ['type'],
    where: PUBLIC_PLACE_WHERE,
    _count: { _all: true },
    _min: { publicLatitude: true, publicLongitude: true, publishedAt: true },
    _max: { publicLatitude: true, publicLongitude: true, publishedAt: true },
    orderBy: { type: 'asc' },
  })
  return groups.map((g) => ({
    type: g.type,
    count: g._count._all,
    bbox: [g._min.publicLongitude ?? -180, g._min.publicLatitude ?? -90, g._max.publicLongitude ?? 180, g._max.publicLatitude ?? 90],
    dates: [g._min.publishedAt!, g._max.publishedAt!],
  }))
}
