import 'server-only'
import { keyedHash } from '../auth/secret'
import { getConfig } from '../config'
import { readDataVersion } from '../db'
import { getSiteSettings } from '../site'
import { cachedAnswer, type Built, type Bytes } from '../http/cache'
import type { Coding } from '../http/encoding'
import { ApiError } from '../http/errors'
import { clusterPage, countPlacesIn, getPlaceIndex, mapItemsIn, placeIdsIn, type PlaceIndex } from './map-index'
import type {
  BBox,
  ClusterEmbedded,
  ClusterFeature,
  EmbeddedClusterFeature,
  EmbeddedPlaceFeature,
  MapCollection,
  PlaceEmbedded,
  PlaceFeature,
} from '../api/contract'
import { listPublicCategoryTree, topLevelOf } from './categories'
import { firstPictures } from '../media/pictures'
import { toEmbedded, toEmbeddedFeature, toFeature } from './geojson'
import { findPlaceDetails, findPublicPlace, findPublicPlacesByIds, listPublicPlaces, type Place, type PlaceFilter } from './query'
import { publishedWithin, type CollectionQuery, type Published } from './schemas'

/** A public answer: its ETag, known before the body is sent, the body in a coding (identity unless asked), and the line its build kept beside it (the OGC answers' Link header, else ''). */
export type PublicAnswer = { etag: string; body: (coding?: Coding) => Promise<Bytes>; head: string }
/** A public GeoJSON answer, as lib/http/route.ts's publicResponse sends it. */
export type GeojsonAnswer = PublicAnswer & { contentType: string }

const GEOJSON_TYPE = 'application/geo+json'

// Bump when the output's shape changes, so clients and caches do not keep answers of the old shape.
const FORMAT = 'places-geojson-3'
let etags: { version: number; byVariant: Map<string, string> } | undefined

/**
 * The ETag of a public answer of this data version: it changes with the version (bumped by any write, see
 * prisma/migrations) and with what else the bytes depend on (the site URL in properties.url, the output `format`: the
 * REST routes' by default, the OGC API's per format). A keyed hash of them, not the version itself: a count of writes
 * would tell anyone how busy the editors are, drafts included. Worked out once per version and variant, not per
 * request; `format` is one of the code's own constants, never a value from a request (each is kept until the version
 * changes).
 */
function variantEtag(version: number, format = FORMAT): string {
  const variant = `${format}\n${getConfig().siteUrl}`
  if (etags?.version !== version) etags = { version, byVariant: new Map() }
  let etag = etags.byVariant.get(variant)
  if (etag === undefined) {
    etag = `"${keyedHash(`${variant}\n${version}`)}"`
    etags.byVariant.set(variant, etag)
  }
  return etag
}

/**
 * The one way a public answer is made (the GeoJSON routes', the OGC API's). The data version is read first, so that
 * an answer is never older than the version its ETag names; the answer is cached (lib/http/cache.ts) under the route
 * and its parsed query, whatever the spelling of the URL, so that nothing the answer depends on can be left out of
 * the key; its ETag is that of the version and `format` (variantEtag). With `mayFail`, the body is built (or found)
 * before this returns: a missing resource is then an error, never a 304.
 */
export async function publicAnswer(
  route: string,
  query: unknown,
  build: (version: number) => Promise<Built>,
  { format = FORMAT, mayFail = false }: { format?: string; mayFail?: boolean } = {},
): Promise<PublicAnswer> {
  const version = await readDataVersion()
  const key = JSON.stringify([route, query])
  const make = () => build(version)
  const { head } = mayFail ? await cachedAnswer(version, key, make) : { head: '' }
  return { etag: variantEtag(version, format), head, body: async (coding = 'identity') => (await cachedAnswer(version, key, make, coding)).body }
}

// GET /places/v1/geojson
export async function getPlacesCollection(query: CollectionQuery): Promise<GeojsonAnswer> {
  return { ...(await publicAnswer('collection', query, (version) => buildCollection(query, version))), contentType: GEOJSON_TYPE }
}

async function buildCollection(query: CollectionQuery, version: number): Promise<string> {
  const { clusterZoom, clusterId, bbox, search, embed } = query
  const published = await publishedOf(query)
  if (clusterZoom === undefined && clusterId === undefined && !bbox && !search && !published)
    return JSON.stringify({ type: 'FeatureCollection', features: await toFeatures(await listPublicPlaces(query), embed) })
  // A search or a time interval is answered from an index of its own (lib/places/map-index), with a box or without.
  const index = await getPlaceIndex({ ...query, published }, version)
  if (clusterZoom !== undefined) return JSON.stringify(await mapView(index, query, bbox, clusterZoom))
  if (clusterId !== undefined) return JSON.stringify(await placesOfCluster(index, query, clusterId))
  if (bbox) return JSON.stringify(await placesInBox(index, query, bbox))
  const offset = ((query.page ?? 1) - 1) * query.limit
  const ids = index.ids.slice(offset, offset + query.limit)
  return JSON.stringify({ type: 'FeatureCollection', features: await toFeatures(await findPublicPlacesByIds(ids), embed) })
}

/** The interval of `after` and `before` in the site's time zone; undefined without them (docs/api.md, after and before). */
export async function publishedOf(query: Pick<CollectionQuery, 'after' | 'before'>): Promise<Published | undefined> {
  return query.after || query.before ? publishedWithin(query, (await getSiteSettings()).timezone) : undefined
}

// GET /geojson?bbox=…: a page of the places in the box, newest first, as without it
async function placesInBox(index: PlaceIndex, query: CollectionQuery, bbox: BBox): Promise<MapCollection<PlaceFeature>> {
  const total = countPlacesIn(index, bbox)
  const ids = placeIdsIn(index, bbox, ((query.page ?? 1) - 1) * query.limit, query.limit, total)
  const features = await toFeatures(await findPublicPlacesByIds(ids), query.embed)
  return { type: 'FeatureCollection', total, extent: index.extent, features }
}

// GET /geojson?cluster_id=…: a page of a cluster's places, newest first (docs/api.md, Clusters' places)
async function placesOfCluster(index: PlaceIndex, query: CollectionQuery, clusterId: number): Promise<MapCollection<PlaceFeature>> {
  const { total, ids } = clusterPage(index, clusterId, ((query.page ?? 1) - 1) * query.limit, query.limit) ?? { total: 0, ids: [] }
  const features = await toFeatures(await findPublicPlacesByIds(ids), query.embed)
  return { type: 'FeatureCollection', total, extent: index.extent, features }
}

/** The places' Features; with `embed`, each with its `_embedded` member (a place gone meanwhile is left out). */
async function toFeatures(places: Place[], embed = false): Promise<(PlaceFeature | EmbeddedPlaceFeature)[]> {
  const siteUrl = getConfig().siteUrl
  if (!embed) return places.map((place) => toFeature(place, siteUrl))
  const embedded = await embeddedOf(places)
  return places.flatMap((place) => {
    const found = embedded.get(place.id)
    return found ? [toEmbeddedFeature(place, siteUrl, found)] : []
  })
}

/** The `_embedded` members of public places (docs/api.md, _embed). */
async function embeddedOf(places: Place[]): Promise<Map<number, PlaceEmbedded>> {
  const ids = places.map((place) => place.id)
  const [details, pictures] = await Promise.all([findPlaceDetails(ids), firstPictures(ids)])
  const embedded = new Map<number, PlaceEmbedded>()
  for (const id of ids) {
    const found = details.get(id)
    if (found) embedded.set(id, toEmbedded(found, pictures.get(id) ?? null))
  }
  return embedded
}

// GET /geojson?cluster=true&zoom=Z[&bbox=…]: what a map at zoom Z draws in the box
async function mapView(
  index: PlaceIndex,
  query: CollectionQuery,
  bbox: BBox | undefined,
  zoom: number,
): Promise<MapCollection<ClusterFeature | EmbeddedClusterFeature | PlaceFeature>> {
  const items = mapItemsIn(index, bbox, zoom, query.embed)
  const [found, mixFor] = await Promise.all([
    findPublicPlacesByIds(items.flatMap((item) => (item.cluster ? [] : [item.id]))).then((places) => toFeatures(places, query.embed)),
    query.embed ? clusterMixes(query.postType) : undefined,
  ])
  const places = new Map(found.map((feature) => [feature.properties.id, feature]))
  const features = items.flatMap((item): (ClusterFeature | EmbeddedClusterFeature | PlaceFeature)[] => {
    if (item.cluster) {
      const feature: ClusterFeature = {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [item.longitude, item.latitude] },
        properties: { cluster: true, cluster_id: item.id, point_count: item.count, expansion_zoom: item.expansionZoom },
        bbox: item.bbox,
      }
      return [mixFor && item.categories ? { ...feature, _embedded: mixFor(item.categories) } : feature]
    }
    const place = places.get(item.id)
    return place ? [place] : []
  })
  const total = bbox ? countPlacesIn(index, bbox) : index.size
  return { type: 'FeatureCollection', total, extent: index.extent, features }
}

/**
 * How a cluster's `_embedded` is made from the counts of its places' first categories (docs/api.md, _embed): each
 * counted in its top-level category, of the post type's public tree of this data version.
 */
async function clusterMixes(postType: string): Promise<(counts: Map<number, number>) => ClusterEmbedded> {
  const tree = await listPublicCategoryTree(postType)
  const [nodes, tops] = [new Map(tree.map((node) => [node.id, node])), topLevelOf(tree)]
  return (counts) => {
    const byTop = new Map<number, number>()
    for (const [category, count] of counts) {
      const top = tops.get(category)
      if (top !== undefined) byTop.set(top, (byTop.get(top) ?? 0) + count)
    }
    const categories = [...byTop].map(([id, count]) => ({ id, name: nodes.get(id)!.name, slug: nodes.get(id)!.slug, count }))
    return { categories: categories.sort((a, b) => b.count - a.count || a.id - b.id) }
  }
}

/**
 * Builds the map's index of a filter (post type, category, tag), if the data changed since it was last built, so that the map's
 * first request finds it ready: the page calls this as it is sent, while the browser loads the map's code.
 */
export async function warmPlaceIndex(query: PlaceFilter): Promise<void> {
  await getPlaceIndex(query, await readDataVersion())
}

// GET /places/v1/geojson/{id}
export async function getPlaceFeature(id: number, { embed = false } = {}): Promise<GeojsonAnswer> {
  const build = async () => {
    const lookup = await findPublicPlace(id)
    if ('missing' in lookup) {
      throw lookup.missing === 'post'
        ? new ApiError('rest_post_invalid_id', 'Invalid post ID.')
        : new ApiError('rest_no_geodata', 'This post has no public geodata.')
    }
    const [feature] = await toFeatures([lookup.found], embed)
    if (!feature) throw new ApiError('rest_post_invalid_id', 'Invalid post ID.')
    return JSON.stringify(feature)
  }
  return { ...(await publicAnswer('feature', { id, embed }, build, { mayFail: true })), contentType: GEOJSON_TYPE }
}
