import 'server-only'
import { getConfig } from '../config'
import { getDb } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import { ApiError, invalidParams } from '../http/errors'
import { postUrl } from '../places/geojson'
import { isPostTypeKey } from '../places/schemas'
import { PUBLIC_PLACE_WHERE } from '../places/visibility'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from './limits'

// OGC API – Features, Part 1: Core (https://docs.ogc.org/is/17-069r4/17-069r4.html) over the public places: one
// collection per post type that has public places, GeoJSON items, bbox, limit and offset paging. It shows only what
// GET /places/v1/geojson would show: published posts with public geodata.

export const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
]
const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'
const JSON_TYPE = 'application/json'
const GEOJSON_TYPE = 'application/geo+json'

type Link = { href: string; rel: string; type?: string; title?: string }

function base(): string {
  return `${getConfig().siteUrl}/ogc`
}

function publicPlaces(type: string): Prisma.PostWhereInput {
  return { type, ...PUBLIC_PLACE_WHERE }
}

export function getLandingPage() {
  const root = base()
  return {
    title: 'Places',
    description: 'Published places as OGC API – Features: one collection per post type.',
    links: [
      { href: root, rel: 'self', type: JSON_TYPE, title: 'This document' },
      { href: `${getConfig().siteUrl}/places/v1/openapi.json`, rel: 'service-desc', type: 'application/vnd.oai.openapi+json;version=3.1', title: 'The API definition' },
      { href: `${root}/conformance`, rel: 'conformance', type: JSON_TYPE, title: 'Conformance classes' },
      { href: `${root}/collections`, rel: 'data', type: JSON_TYPE, title: 'The collections' },
    ] satisfies Link[],
  }
}

function collectionDocument(type: string, count: number, bbox: [number, number, number, number]) {
  const href = `${base()}/collections/${encodeURIComponent(type)}`
  return {
    id: type,
    title: type === 'post' ? 'Posts' : type,
    description: `Published ${type} posts with a public location (${count}).`,
    itemType: 'feature',
    crs: [CRS84],
    extent: { spatial: { bbox: [bbox], crs: CRS84 } },
    links: [
      { href, rel: 'self', type: JSON_TYPE },
      { href: `${href}/items`, rel: 'items', type: GEOJSON_TYPE, title: `The ${type} places` },
    ] satisfies Link[],
  }
}

async function collectionSummaries() {
  const groups = await getDb().post.groupBy({
    by: ['type'],
    where: PUBLIC_PLACE_WHERE,
    _count: { _all: true },
    _min: { latitude: true, longitude: true },
    _max: { latitude: true, longitude: true },
    orderBy: { type: 'asc' },
  })
  return groups.map((g) => collectionDocument(g.type, g._count._all, [g._min.longitude ?? -180, g._min.latitude ?? -90, g._max.longitude ?? 180, g._max.latitude ?? 90]))
}

export async function getCollections() {
  return { links: [{ href: `${base()}/collections`, rel: 'self', type: JSON_TYPE }] satisfies Link[], collections: await collectionSummaries() }
}

function noCollection(id: string): ApiError {
  return new ApiError('ogc_no_collection', `There is no collection "${id}".`, 404)
}

export async function getCollection(id: string) {
  const collection = isPostTypeKey(id) ? (await collectionSummaries()).find((c) => c.id === id) : undefined
  if (!collection) throw noCollection(id)
  return collection
}

export type ItemsQuery = { bbox: [number, number, number, number] | null; limit: number; offset: number }

const KNOWN_PARAMS = new Set(['bbox', 'limit', 'offset', 'f', 'bbox-crs'])

/** The query of /items; unknown parameters are a 400, as the standard requires. */
export function parseItemsQuery(params: URLSearchParams): ItemsQuery {
  const invalid: Record<string, string> = {}
  for (const name of params.keys()) if (!KNOWN_PARAMS.has(name)) invalid[name] = `${name} is not a parameter of this request.`
  const crs = params.get('bbox-crs')
  if (crs !== null && crs !== CRS84) invalid['bbox-crs'] = `Only ${CRS84} is supported.`
  const format = params.get('f')
  if (format !== null && !['json', 'geojson'].includes(format)) invalid.f = 'f must be json or geojson.'

  let bbox: ItemsQuery['bbox'] = null
  const rawBbox = params.get('bbox')
  if (rawBbox !== null) {
    const numbers = rawBbox.split(',').map((n) => (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(n.trim()) ? Number(n) : Number.NaN))
    const [w, s, e, n] = numbers
    if (numbers.length !== 4 || numbers.some((x) => !Number.isFinite(x))) invalid.bbox = 'bbox must be four numbers: min longitude, min latitude, max longitude, max latitude.'
    else if (Math.abs(w!) > 180 || Math.abs(e!) > 180 || Math.abs(s!) > 90 || Math.abs(n!) > 90 || s! > n!) invalid.bbox = 'bbox is out of range, or its minimum latitude is above its maximum.'
    else bbox = [w!, s!, e!, n!]
  }
  const integer = (name: string, fallback: number, min: number, max = Number.POSITIVE_INFINITY): number => {
    const raw = params.get(name)
    if (raw === null) return fallback
    if (!/^\d+$/.test(raw) || Number(raw) < min) {
      invalid[name] = `${name} must be an integer of at least ${min}.`
      return fallback
    }
    if (Number(raw) > max) {
      invalid[name] = `${name} must be at most ${max}.`
      return fallback
    }
    return Number(raw)
  }
  // The standard asks that a limit above the maximum be served as the maximum, not refused: any size is capped.
  const limit = Math.min(integer('limit', DEFAULT_LIMIT, 1), MAX_LIMIT)
  const offset = integer('offset', 0, 0, MAX_OFFSET)
  if (Object.keys(invalid).length > 0) throw invalidParams(invalid)
  return { bbox, limit, offset }
}

function bboxWhere(bbox: ItemsQuery['bbox']): Prisma.PostWhereInput {
  if (!bbox) return {}
  const [w, s, e, n] = bbox
  const latitude = { gte: s, lte: n }
  // A box whose west edge is east of its east edge crosses the antimeridian.
  return w <= e ? { latitude, longitude: { gte: w, lte: e } } : { latitude, OR: [{ longitude: { gte: w } }, { longitude: { lte: e } }] }
}

const FIELDS = { id: true, type: true, slug: true, title: true, address: true, latitude: true, longitude: true } as const
type Row = { id: number; type: string; slug: string; title: string; address: string; latitude: number | null; longitude: number | null }

function toOgcFeature(row: Row) {
  return {
    type: 'Feature' as const,
    id: row.id,
    geometry: { type: 'Point' as const, coordinates: [row.longitude!, row.latitude!] },
    properties: { title: row.title, url: postUrl(getConfig().siteUrl, row.type, row.slug), address: row.address },
  }
}

export async function getItems(collectionId: string, query: ItemsQuery) {
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
    { href: `${base()}/collections/${encodeURIComponent(collectionId)}`, rel: 'collection', type: JSON_TYPE },
  ]
  if (query.offset + rows.length < matched) links.push({ href: page(query.offset + query.limit), rel: 'next', type: GEOJSON_TYPE })
  if (query.offset > 0) links.push({ href: page(Math.max(0, query.offset - query.limit)), rel: 'prev', type: GEOJSON_TYPE })
  return {
    type: 'FeatureCollection' as const,
    features: rows.map(toOgcFeature),
    numberMatched: matched,
    numberReturned: rows.length,
    timeStamp: new Date().toISOString(),
    links,
  }
}

export async function getItem(collectionId: string, featureId: string) {
  await getCollection(collectionId)
  const id = /^\d{1,10}$/.test(featureId) ? Number(featureId) : 0
  const row = id > 0 && id <= 2_147_483_647 ? await getDb().post.findFirst({ where: { id, ...publicPlaces(collectionId) }, select: FIELDS }) : null
  if (!row) throw new ApiError('ogc_no_feature', `Collection "${collectionId}" has no feature ${featureId}.`, 404)
  const href = `${base()}/collections/${encodeURIComponent(collectionId)}`
  return {
    ...toOgcFeature(row),
    links: [
      { href: `${href}/items/${row.id}`, rel: 'self', type: GEOJSON_TYPE },
      { href, rel: 'collection', type: JSON_TYPE },
    ] satisfies Link[],
  }
}
