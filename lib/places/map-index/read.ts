import 'server-only'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { hasPublicPlaces, streamPublicPlacePoints } from '../query'
import type { StreamOptions } from '../../db/dialect'
import type { CollectionQuery, Published } from '../schemas'
import { buildPlaceIndex, PlaceIndexBuilder, type PlaceIndex } from './place-index'

/**
 * Which places an index holds: the public places of one post type, of one category (with its descendants) or all, of
 * one tag or all, of one search or all, and published within a time interval or at any time.
 */
export type PlaceIndexQuery = Pick<CollectionQuery, 'postType' | 'categoryId' | 'tagId' | 'search'> & { published?: Published }

// Rows read from the database at a time: between chunks, other requests get a turn.
const CHUNK = 20_000
const EMPTY_INDEX = buildPlaceIndex([])

/**
 * The index of the public places of `query`, read from one snapshot of the database in chunks. A type or category
 * with no public places costs one indexed query, and gets the empty index. `options`: whether the read takes turns
 * with the other instances' (StreamOptions).
 */
export async function readPlaceIndex(query: Omit<PlaceIndexQuery, 'search' | 'published'>, options: StreamOptions = {}): Promise<PlaceIndex> {
  if (!(await hasPublicPlaces(query))) return EMPTY_INDEX
  const builder = new PlaceIndexBuilder()
  for await (const chunk of streamPublicPlacePoints(query, CHUNK, options)) {
    // A post with no category reads as NULL.
    for (const [id, latitude, longitude, date, category] of chunk) builder.add(id, latitude, longitude, date, category ?? 0)
    await nextTurn()
  }
  return builder.build()
}
