import 'server-only'
import { z } from 'zod'
import type { BBox, OgcCollection, OgcCollections, OgcConformance, OgcFeature, OgcItems, OgcLandingPage, OgcLink } from '../api/contract'
import { getConfig } from '../config'
import { getDb } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import { ApiError } from '../http/errors'
import { postUrl } from '../places/geojson'
import { bboxParam, isPostTypeKey, parseQuery, queryValues } from '../places/schemas'
import { PUBLIC_PLACE_WHERE } from '../places/visibility'
import { withFormat } from './html'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from './limits'

// OGC API – Features, Part 1: Core (https://docs.ogc.org/is/17-069r4/17-069r4.html) over the public places: one
// collection per post type that has public places, GeoJSON items, bbox, limit and offset paging. It shows only what
// GET /places/v1/geojson would show: published posts with public geodata.

const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
]
const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'
const JSON_TYPE = 'application/json'
const GEOJSON_TYPE = 'application/geo+json'
const HTML_TYPE = 'text/html'

/** `f` of every resource: JSON (GeoJSON for items) or HTML; without it the Accept header decides (lib/ogc/respond.ts). */
export const formatParam = z.enum(['json', 'geojson', 'html'], { error: 'f must be json, geojson or html.' }).meta({
  description:
    'The format: json or geojson (the same: GeoJSON for items), or html, a page to browse. Without f, a client that prefers text/html (a browser) gets HTML, any other JSON.',
})

/** The same resource as a page (lib/ogc/html.ts). */
function alternate(href: string): Link {
  return { href: withFormat(href, 'html'), rel: 'alternate', type: HTML_TYPE, title: 'This document as HTML' }
}

type Link = OgcLink

function base(): string {
  return `${getConfig().siteUrl}/ogc`
}

function publicPlaces(type: string): Prisma.PostWhereInput {
  return { type, ...PUBLIC_PLACE_WHERE }
}

export function getConformance(): OgcConformance {
  return { conformsTo: CONFORMANCE }
}

export function getLandingPage(): OgcLandingPage {
  const root = base()
  return {
    title: 'Places',
    description: 'Published places as OGC API – Features: one collection per post type.',
    links: [
      { href: root, rel: 'self', type: JSON_TYPE, title: 'This document' },
      alternate(root),
      {
        href: `${getConfig().siteUrl}/places/v1/openapi.json`,
        rel: 'service-desc',
        type: 'application/vnd.oai.openapi+json;version=3.1',
        title: 'The API definition',
      },
      { href: `${root}/conformance`, rel: 'conformance', type: JSON_TYPE, title: 'Conformance classes' },
      { href: `${root}/collections`, rel: 'data', type: JSON_TYPE, title: 'The collections' },
    ],
  }
}

function collectionDocument(type: string, count: number, bbox: BBox): OgcCollection {
  const href = `${base()}/collections/${encodeURIComponent(type)}`
  return {
    id: type,
    title: type === 'post' ? 'Posts' : type,
    description: `Published ${type} posts with a public location (${count}).`,
    itemType: 'feature',
    crs: [CRS84],
    extent: { spatial: { bbox: [bbox], crs: CRS84 } },
    links: [{ href, rel: 'self', type: JSON_TYPE }, alternate(href), { href: `${href}/items`, rel: 'items', type: GEOJSON_TYPE, title: `The ${type} places` }],
  }
}

async function collectionSummaries(): Promise<OgcCollection[]> {
  const groups = await getDb().post.groupBy({
    by: ['type'],
    where: PUBLIC_PLACE_WHERE,
    _count: { _all: true },
    _min: { publicLatitude: true, publicLongitude: true },
    _max: { publicLatitude: true, publicLongitude: true },
    orderBy: { type: 'asc' },
  })
  return groups.map((g) =>
    collectionDocument(g.type, g._count._all, [
      g._min.publicLongitude ?? -180,
      g._min.publicLatitude ?? -90,
      g._max.publicLongitude ?? 180,
      g._max.publicLatitude ?? 90,
    ]),
  )
}

export async function getCollections(): Promise<OgcCollections> {
  const href = `${base()}/collections`
  return { links: [{ href, rel: 'self', type: JSON_TYPE }, alternate(href)], collections: await collectionSummaries() }
}

function noCollection(id: string): ApiError {
  return new ApiError('ogc_no_collection', `There is no collection "${id}".`, 404)
}

export async function getCollection(id: string): Promise<OgcCollection> {
  const collection = isPostTypeKey(id) ? (await collectionSummaries()).find((c) => c.id === id) : undefined
  if (!collection) throw noCollection(id)
  return collection
}

/**
 * The parameters of /items. Unknown parameters are a 400, as the standard requires (a strict object); a repeated
 * parameter keeps its first value.
 */
export const itemsParams = {
  'bbox-crs': z.literal(CRS84, { error: `Only ${CRS84} is supported.` }).meta({ description: 'The CRS of bbox: only CRS84.' }),
  f: formatParam,
  bbox: bboxParam(({ problem }) =>
    problem === 'format'
      ? 'bbox must be four numbers: min longitude, min latitude, max longitude, max latitude.'
      : 'bbox is out of range, or its minimum latitude is above its maximum.',
  ).meta({
    description:
      'min longitude, min latitude, max longitude, max latitude (CRS84), in the grammar of docs/api.md, bbox; a west edge east of the east edge crosses the antimeridian.',
  }),
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be an integer of at least 1.')
    .refine((text) => Number(text) >= 1, 'limit must be an integer of at least 1.')
    .meta({ description: `How many items, 1 to ${MAX_LIMIT} (larger values are capped).`, default: String(DEFAULT_LIMIT) })
    // The standard asks that a limit above the maximum be served as the maximum, not refused: any size is capped.
    .transform((text) => Math.min(Number(text), MAX_LIMIT)),
  offset: z
    .string()
    .regex(/^\d+$/, 'offset must be an integer of at least 0.')
    .refine((text) => Number(text) <= MAX_OFFSET, `offset must be at most ${MAX_OFFSET}.`)
    .meta({ description: `How many items to skip, 0 to ${MAX_OFFSET} (larger values are a 400); the \`next\` and \`prev\` links carry it.`, default: '0' })
    .transform(Number),
}

export const itemsQuerySchema = z
  .strictObject(itemsParams)
  .partial()
  .transform(({ bbox, limit, offset }) => ({ bbox: bbox ?? null, limit: limit ?? DEFAULT_LIMIT, offset: offset ?? 0 }))
export type ItemsQuery = z.output<typeof itemsQuerySchema>

/** The query of /items; throws 400 `rest_invalid_param` naming every invalid or unknown parameter. */
export function parseItemsQuery(params: URLSearchParams): ItemsQuery {
  return parseQuery(itemsQuerySchema, queryValues(params, 'first'))
}

function bboxWhere(bbox: ItemsQuery['bbox']): Prisma.PostWhereInput {
  if (!bbox) return {}
  const [w, s, e, n] = bbox
  const publicLatitude = { gte: s, lte: n }
  // A box whose west edge is east of its east edge crosses the antimeridian.
  return w <= e
    ? { publicLatitude, publicLongitude: { gte: w, lte: e } }
    : { publicLatitude, OR: [{ publicLongitude: { gte: w } }, { publicLongitude: { lte: e } }] }
}

// The location as the public may see it (lib/places/visibility.ts), never the exact one.
const FIELDS = { id: true, type: true, slug: true, title: true, publicAddress: true, publicLatitude: true, publicLongitude: true } as const
type Row = Prisma.PostGetPayload<{ select: typeof FIELDS }>

function toOgcFeature(row: Row): OgcFeature {
  return {
    type: 'Feature',
    id: row.id,
    geometry: { type: 'Point', coordinates: [row.publicLongitude!, row.publicLatitude!] },
    properties: { title: row.title, url: postUrl(getConfig().siteUrl, row.type, row.slug), address: row.publicAddress },
  }
}

export async function getItems(collectionId: string, query: ItemsQuery): Promise<OgcItems> {
  await getCollection(collectionId)
  const where = { ...publicPlaces(collectionId), ...bboxWhere(query.bbox) }
  const db = getDb()
  const [rows, matched] = await Promise.all([
    db.post.findMany({ where, orderBy: [{ publishedAt: 'desc' }, { id: 'desc' }], skip: query.offset, take: query.limit, select: FIELDS }),
    db.post.count({ where }),
  ])
  const itemsUrl = `${base()}/collections/${encodeURIComponent(collectionId)}/items`
  const page = (offset: number) => {
    const params = new URLSearchParams({ limit: String(query.limit), offset: String(offset) })
    if (query.bbox) params.set('bbox', query.bbox.join(','))
    return `${itemsUrl}?${params}`
  }
  const links: Link[] = [
    { href: page(query.offset), rel: 'self', type: GEOJSON_TYPE },
    alternate(page(query.offset)),
    { href: `${base()}/collections/${encodeURIComponent(collectionId)}`, rel: 'collection', type: JSON_TYPE },
  ]
  if (query.offset + rows.length < matched) links.push({ href: page(query.offset + query.limit), rel: 'next', type: GEOJSON_TYPE })
  if (query.offset > 0) links.push({ href: page(Math.max(0, query.offset - query.limit)), rel: 'prev', type: GEOJSON_TYPE })
  return {
    type: 'FeatureCollection',
    features: rows.map(toOgcFeature),
    numberMatched: matched,
    numberReturned: rows.length,
    timeStamp: new Date().toISOString(),
    links,
  }
}

/** A feature id: a post id, of the database's integer range; anything else names no feature. */
const featureIdSchema = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.int().min(1).max(2_147_483_647))

export async function getItem(collectionId: string, featureId: string): Promise<OgcFeature> {
  await getCollection(collectionId)
  const id = featureIdSchema.safeParse(featureId)
  const row = id.success ? await getDb().post.findFirst({ where: { id: id.data, ...publicPlaces(collectionId) }, select: FIELDS }) : null
  if (!row) throw new ApiError('ogc_no_feature', `Collection "${collectionId}" has no feature ${featureId}.`, 404)
  const href = `${base()}/collections/${encodeURIComponent(collectionId)}`
  return {
    ...toOgcFeature(row),
    links: [
      { href: `${href}/items/${row.id}`, rel: 'self', type: GEOJSON_TYPE },
      alternate(`${href}/items/${row.id}`),
      { href, rel: 'collection', type: JSON_TYPE },
    ],
  }
}
