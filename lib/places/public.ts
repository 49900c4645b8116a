import 'server-only'
import { createHash } from 'node:crypto'
import { getConfig } from '../config'
import { ApiError } from '../http/errors'
import { toFeature, toFeatureCollection } from './geojson'
import { findPublicPlace, getDataVersion, listPublicPlaces } from './query'
import type { CollectionQuery } from './schemas'

/** A public GeoJSON answer: its ETag, known before the body is built, and the body. */
export type GeojsonAnswer = { etag: string; body: () => Promise<string> }

// Bump when the output's shape changes, so clients and caches do not keep answers of the old shape.
const FORMAT = 'places-geojson-1'
let siteTag: string | undefined

/**
 * The ETag of every public answer: the data version (bumped by any write, see prisma/migrations) and what else the
 * bytes depend on (the site URL in properties.url, the output format). Cheap: one indexed row read.
 */
async function currentEtag(): Promise<string> {
  siteTag ??= createHash('sha256').update(`${FORMAT}\n${getConfig().siteUrl}`).digest('base64url').slice(0, 10)
  return `"${await getDataVersion()}-${siteTag}"`
}

// GET /places/v1/geojson
export async function getPlacesCollection(query: CollectionQuery): Promise<GeojsonAnswer> {
  // The version is read before the data: an answer is never older than the version its ETag names.
  const etag = await currentEtag()
  return {
    etag,
    body: async () => JSON.stringify(toFeatureCollection(await listPublicPlaces(query), getConfig().siteUrl)),
  }
}

// GET /places/v1/geojson/{id}
export async function getPlaceFeature(id: number): Promise<GeojsonAnswer> {
  const etag = await currentEtag()
  const lookup = await findPublicPlace(id)
  if ('missing' in lookup) {
    throw lookup.missing === 'post'
      ? new ApiError('rest_post_invalid_id', 'Invalid post ID.', 404)
      : new ApiError('rest_no_geodata', 'This post has no public geodata.', 404)
  }
  const body = JSON.stringify(toFeature(lookup.found, getConfig().siteUrl))
  return { etag, body: async () => body }
}
