import 'server-only'
import { keyedHash } from '../auth/secret'
import { getConfig } from '../config'
import { readDataVersion } from '../db'
import { cachedBody, type Bytes } from '../http/cache'
import { ApiError } from '../http/errors'
import { countPlacesIn, getPlaceIndex, mapItemsIn, placeIdsIn, type PlaceIndex } from './map-index'
import type { BBox, ClusterFeature, MapCollection, PlaceFeature } from '../api/contract'
import { toFeature, toFeatureCollection } from './geojson'
import { findPublicPlace, findPublicPlacesByIds, listPublicPlaces } from './query'
import type { CollectionQuery } from './schemas'

/** A public GeoJSON answer: its ETag, known before the body is built, and the body. */
export type GeojsonAnswer = { etag: string; body: () => Promise<Bytes> }

// Bump when the output's shape changes, so clients and caches do not keep answers of the old shape.
const FORMAT = 'places-geojson-1'
let lastEtag: { version: number; etag: string } | undefined

/**
 * The ETag of every public answer: it changes with the data version (bumped by any write, see prisma/migrations)
 * and with what else the bytes depend on (the site URL in properties.url, the output format). A keyed hash of them,
 * not the version itself: a count of writes would tell anyone how busy the editors are, drafts included.
 */
function etagOf(version: number): string {
  if (lastEtag?.version !== version) lastEtag = { version, etag: `"${keyedHash(`${FORMAT}\n${getConfig().siteUrl}\n${version}`)}"` }
  return lastEtag.etag
}

// GET /places/v1/geojson
export async function getPlacesCollection(query: CollectionQuery): Promise<GeojsonAnswer> {
  // The version is read before the data: an answer is never older than the version its ETag names.
  const version = await readDataVersion()
  const { postType, limit, categoryId, bbox, page = 1, clusterZoom } = query
  const key = JSON.stringify(['collection', postType, limit, categoryId, page, bbox ?? null, clusterZoom ?? null])
  return { etag: etagOf(version), body: () => cachedBody(version, key, () => buildCollection(query, version)) }
}

async function buildCollection(query: CollectionQuery, version: number): Promise<string> {
  if (query.clusterZoom === undefined && !query.bbox) {
    return JSON.stringify(toFeatureCollection(await listPublicPlaces(query), getConfig().siteUrl))
  }
  const index = await getPlaceIndex(query, version)
  return JSON.stringify(query.clusterZoom === undefined ? await placesInBox(index, query, query.bbox!) : await mapView(index, query.bbox, query.clusterZoom))
}

// GET /geojson?bbox=…: a page of the places in the box, newest first, as without it
async function placesInBox(index: PlaceIndex, query: CollectionQuery, bbox: BBox): Promise<MapCollection<PlaceFeature>> {
  const total = countPlacesIn(index, bbox)
  const ids = placeIdsIn(index, bbox, ((query.page ?? 1) - 1) * query.limit, query.limit, total)
  const places = await findPublicPlacesByIds(ids)
  const siteUrl = getConfig().siteUrl
  return { type: 'FeatureCollection', total, extent: index.extent, features: places.map((place) => toFeature(place, siteUrl)) }
}

// GET /geojson?cluster=true&zoom=Z[&bbox=…]: what a map at zoom Z draws in the box
async function mapView(index: PlaceIndex, bbox: BBox | undefined, zoom: number): Promise<MapCollection<ClusterFeature | PlaceFeature>> {
  const items = mapItemsIn(index, bbox, zoom)
  const places = new Map((await findPublicPlacesByIds(items.flatMap((item) => (item.cluster ? [] : [item.id])))).map((place) => [place.id, place]))
  const siteUrl = getConfig().siteUrl
  const features = items.flatMap((item): (ClusterFeature | PlaceFeature)[] => {
    if (item.cluster) {
      return [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [item.longitude, item.latitude] },
          properties: { cluster: true, point_count: item.count, expansion_zoom: item.expansionZoom },
        },
      ]
    }
    const place = places.get(item.id)
    return place ? [toFeature(place, siteUrl)] : []
  })
  const total = bbox ? countPlacesIn(index, bbox) : index.size
  return { type: 'FeatureCollection', total, extent: index.extent, features }
}

/**
 * Builds the map's index of a post type and category, if the data changed since it was last built, so that the map's
 * first request finds it ready: the page calls this as it is sent, while the browser loads the map's code.
 */
export async function warmPlaceIndex(query: Pick<CollectionQuery, 'postType' | 'categoryId'>): Promise<void> {
  await getPlaceIndex(query, await readDataVersion())
}

// GET /places/v1/geojson/{id}
export async function getPlaceFeature(id: number): Promise<GeojsonAnswer> {
  const version = await readDataVersion()
  const body = await cachedBody(version, JSON.stringify(['feature', id]), async () => {
    const lookup = await findPublicPlace(id)
    if ('missing' in lookup) {
      throw lookup.missing === 'post'
        ? new ApiError('rest_post_invalid_id', 'Invalid post ID.', 404)
        : new ApiError('rest_no_geodata', 'This post has no public geodata.', 404)
    }
    return JSON.stringify(toFeature(lookup.found, getConfig().siteUrl))
  })
  return { etag: etagOf(version), body: () => Promise.resolve(body) }
}
