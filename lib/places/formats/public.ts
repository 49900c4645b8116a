import 'server-only'
import { z } from 'zod'
import { getConfig } from '../../config'
import { getDb, readDataVersion } from '../../db'
import { textStream } from '../../http/text-stream'
import { getSiteSettings } from '../../site'
import { getCategoryPaths } from '../categories'
import { EXPORT_SELECT, toExportedFeature, type ExportedFeature } from '../export'
import { countPlacesIn, getPlaceIndex, placeIdsIn } from '../map-index'
import { publishedOf } from '../public'
import { streamPublicPlacePoints } from '../query'
import { isPostTypeKey } from '../post-fields'
import { collectionParams, parseQuery, publishedInOrder, queryValues, viewFilterOf, type CollectionQuery } from '../schemas'
import { PUBLIC_PLACE_WHERE } from '../visibility'
import { EXPORT_FORMATS, MEDIA_TYPES, type ExportFormat } from './names'
import { writePlaces } from './write'

/** GET /places/v1/export's parameters: GET /geojson's filters (the same words, the same rules), and the format. */
export const exportParams = {
  format: z.enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(', ')}.` }).meta({
    description:
      'The file format: `geojson` (the import format of `places import`), `kml` (KML 2.2), `gpx` (GPX 1.1 waypoints) or `csv` (RFC 4180, with a header).',
    default: 'geojson',
  }),
  post_type: collectionParams.post_type,
  category: collectionParams.category,
  tag: collectionParams.tag,
  search: collectionParams.search,
  after: collectionParams.after,
  before: collectionParams.before,
  bbox: collectionParams.bbox.meta({
    description: "Only places inside `west,south,east,north` (degrees; west > east crosses the antimeridian), as GET /geojson reads it: the map's view.",
  }),
}

export type ExportQuery = Pick<CollectionQuery, 'postType' | 'categoryId' | 'tagId' | 'bbox' | 'search' | 'after' | 'before'> & { format: ExportFormat }

const exportQuerySchema = z
  .object(exportParams)
  .partial()
  .superRefine((query, ctx) => void publishedInOrder(query, ctx))
  .transform(({ format, after, before, ...filter }): ExportQuery => {
    const query: ExportQuery = { format: format ?? 'geojson', ...viewFilterOf(filter) }
    if (after !== undefined) query.after = after
    if (before !== undefined) query.before = before
    return query
  })

/** GET /places/v1/export's query; throws 400 `rest_invalid_param` naming every invalid parameter. */
export function parseExportQuery(params: URLSearchParams): ExportQuery {
  return parseQuery(exportQuerySchema, queryValues(params, 'last'))
}

const CHUNK = 1000

/** The ids of the places of a map view, in the map's order (newest first), CHUNK at a time. */
async function* idsOfView(query: ExportQuery): AsyncGenerator<number[]> {
  const { bbox } = query
  const published = await publishedOf(query)
  if (bbox || query.search || published) {
    // A box, a search or an interval is read from the map's index, as GET /geojson reads them: the same places, the
    // same order.
    const index = await getPlaceIndex({ ...query, published }, await readDataVersion())
    const total = bbox ? countPlacesIn(index, bbox) : index.size
    for (let offset = 0; offset < total; offset += CHUNK) yield bbox ? placeIdsIn(index, bbox, offset, CHUNK, total) : index.ids.slice(offset, offset + CHUNK)
    return
  }
  for await (const points of streamPublicPlacePoints(query, CHUNK)) yield points.map(([id]) => id)
}

/**
 * What the public sees of a map view (post type, category, tag, search, interval, box: GET /geojson's filters) as import-format
 * features: only published posts with a public location, each as lib/places/visibility.ts's rule shows it.
 */
export async function* publicPlacesOfView(query: ExportQuery): AsyncGenerator<ExportedFeature> {
  const db = getDb()
  const categoryPaths = await getCategoryPaths(db)
  for await (const ids of idsOfView(query)) {
    // Asked again with the public rule: a post unpublished or hidden since the index was built is left out.
    const posts = await db.post.findMany({ where: { id: { in: ids }, ...PUBLIC_PLACE_WHERE }, select: EXPORT_SELECT })
    const byId = new Map(posts.map((post) => [post.id, post]))
    for (const id of ids) {
      const post = byId.get(id)
      if (post) yield toExportedFeature(post, categoryPaths, null)
    }
  }
}

const EXTENSIONS: Record<ExportFormat, string> = { geojson: 'geojson', kml: 'kml', gpx: 'gpx', csv: 'csv' }

/** GET /places/v1/export: the file, streamed as it is written, to be saved under a name that says what it holds. */
export async function exportResponse(query: ExportQuery): Promise<Response> {
  const chunks = writePlaces(query.format, publicPlacesOfView(query), { siteUrl: getConfig().siteUrl, name: (await getSiteSettings()).title })
  // Only a valid post type key goes into the header: any other names no posts, and could hold a quote.
  const name = `places${isPostTypeKey(query.postType) ? `-${query.postType}` : ''}.${EXTENSIONS[query.format]}`
  return new Response(textStream(chunks), {
    headers: {
      'Content-Type': MEDIA_TYPES[query.format],
      'Content-Disposition': `attachment; filename="${name}"`,
      // The data changes with every edit: no cache keeps a copy without asking.
      'Cache-Control': 'no-cache',
    },
  })
}
