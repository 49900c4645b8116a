import 'server-only'
import { z } from 'zod'
import type {
  BBox,
  OgcCollection,
  OgcCollections,
  OgcConformance,
  OgcFeature,
  OgcItems,
  OgcLandingPage,
  OgcLink,
  OgcTripFeature,
  OgcTripItems,
} from '../api/contract'
import { getConfig } from '../config'
import { spanOf } from '../dates'
import { ApiError } from '../http/errors'
import { postUrl } from '../places/geojson'
import { countPlacesIn, getPlaceIndex, placeIdsIn, ranksBetween, type RankRange } from '../places/map-index'
import { findPublicPlacesByIds, type Place } from '../places/query'
import { isPostTypeKey } from '../places/post-fields'
import { publicPostTypes } from '../places/post-types'
import { bboxParam, parseQuery, queryValues } from '../places/schemas'
import { withFormat } from './html'
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_OFFSET } from './limits'
import { detailRoutes, during, meets, routeMeets, toOgcTripFeature, tripEntries, tripsExtent, TRIPS_COLLECTION, type TripEntry } from './trips'
import { findPublicTrip } from '../trips/trips'

// OGC API – Features, Part 1: Core (https://docs.ogc.org/is/17-069r4/17-069r4.html) over the public places: one
// collection per post type that has public places, GeoJSON items, bbox, limit and offset paging. It shows only what
// GET /places/v1/geojson would show: published posts with public geodata. And one collection of lines, `trips`
// (lib/ogc/trips.ts): what GET /places/v1/trips/{id} shows of each published trip.

// The classes met: Common's core (landing page, conformance, API definition) and collections, and Features' core,
// GeoJSON, HTML (lib/ogc/html.ts) and OpenAPI 3.0 (/ogc/api, lib/api/openapi.ts), as MapServer and pygeoapi declare them.
const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-common-2/1.0/conf/collections',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/html',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
]
const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'
/** The temporal reference system of dates in ISO 8601 (OGC API – Features, 7.13: a collection's temporal extent). */
const GREGORIAN = 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian'
const JSON_TYPE = 'application/json'
const GEOJSON_TYPE = 'application/geo+json'
const HTML_TYPE = 'text/html'
/** The media type of an OpenAPI 3.0 document in JSON, as OGC API – Common names it. */
export const OAS30_TYPE = 'application/vnd.oai.openapi+json;version=3.0'

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

export function getConformance(): OgcConformance {
  return { conformsTo: CONFORMANCE }
}

/** The landing page; `title` is the site's (lib/site.ts). */
export function getLandingPage(title: string): OgcLandingPage {
  const root = base()
  return {
    title,
    description: 'Published places as OGC API – Features: one collection per post type, and the trips as lines.',
    links: [
      { href: root, rel: 'self', type: JSON_TYPE, title: 'This document' },
      alternate(root),
      { href: `${root}/api`, rel: 'service-desc', type: OAS30_TYPE, title: 'The API definition (OpenAPI 3.0)' },
      {
        href: `${getConfig().siteUrl}/places/v1/openapi.json`,
        rel: 'service-desc',
        type: 'application/vnd.oai.openapi+json;version=3.1',
        title: "The site's every route, its REST API too (OpenAPI 3.1)",
      },
      { href: `${root}/conformance`, rel: 'conformance', type: JSON_TYPE, title: 'Conformance classes' },
      { href: `${root}/collections`, rel: 'data', type: JSON_TYPE, title: 'The collections' },
    ],
  }
}

function collectionDocument(type: string, count: number, bbox: BBox, dates: [first: Date, last: Date]): OgcCollection {
  const href = `${base()}/collections/${encodeURIComponent(type)}`
  return {
    id: type,
    title: type === 'post' ? 'Posts' : type,
    description: `Published ${type} posts with a public location (${count}).`,
    itemType: 'feature',
    crs: [CRS84],
    extent: { spatial: { bbox: [bbox], crs: CRS84 }, temporal: { interval: [[dates[0].toISOString(), dates[1].toISOString()]], trs: GREGORIAN } },
    links: [{ href, rel: 'self', type: JSON_TYPE }, alternate(href), { href: `${href}/items`, rel: 'items', type: GEOJSON_TYPE, title: `The ${type} places` }],
  }
}

/** The trips' collection; none while no trip is published. */
function tripsDocument(entries: readonly TripEntry[]): OgcCollection[] {
  if (entries.length === 0) return []
  const href = `${base()}/collections/${TRIPS_COLLECTION}`
  const { bbox, interval } = tripsExtent(entries)
  return [
    {
      id: TRIPS_COLLECTION,
      title: 'Trips',
      description: `Published trips (${entries.length}): each route a MultiLineString, cut by the privacy zones, as its level allows (none when hidden).`,
      itemType: 'feature',
      crs: [CRS84],
      extent: { spatial: { bbox: [bbox], crs: CRS84 }, temporal: { interval: [interval], trs: GREGORIAN } },
      links: [{ href, rel: 'self', type: JSON_TYPE }, alternate(href), { href: `${href}/items`, rel: 'items', type: GEOJSON_TYPE, title: 'The trips' }],
    },
  ]
}

/** Every collection with its count and extent (lib/places/post-types.ts: read once per data version), the trips last. */
async function collectionSummaries(version: number): Promise<OgcCollection[]> {
  const types = (await publicPostTypes(version)).map(({ type, count, bbox, dates }) => collectionDocument(type, count, bbox, dates))
  return [...types, ...tripsDocument(await tripEntries())]
}

export async function getCollections(version: number): Promise<OgcCollections> {
  const href = `${base()}/collections`
  return { links: [{ href, rel: 'self', type: JSON_TYPE }, alternate(href)], collections: await collectionSummaries(version) }
}

function noCollection(id: string): ApiError {
  return new ApiError('ogc_no_collection', `There is no collection "${id}".`)
}

export async function getCollection(id: string, version: number): Promise<OgcCollection> {
  const collection = isPostTypeKey(id) || id === TRIPS_COLLECTION ? (await collectionSummaries(version)).find((c) => c.id === id) : undefined
  if (!collection) throw noCollection(id)
  return collection
}

/** A time interval, both ends included, in milliseconds since 1970 (null: open), and as the request wrote it. */
export type Interval = { start: number | null; end: number | null; text: string }

const instant = z.union([z.iso.datetime({ offset: true, local: false }), z.iso.date()])

/**
 * One end of `datetime`: null for an open end (`..` or nothing), undefined when it is neither a date-time of RFC 3339
 * with its offset nor a date. Otherwise the first and last whole millisecond it covers (a date is its whole day, UTC;
 * a date-time with digits below the millisecond, which Date.parse drops, starts at the next one: places' dates are
 * whole milliseconds), and where it begins and ends to the digit, as [millisecond, fraction of one].
 */
type End = { first: number; last: number; from: [number, number]; to: [number, number] }
function endOf(text: string): End | null | undefined {
  if (text === '' || text === '..') return null
  if (!instant.safeParse(text).success) return undefined
  const [first, last] = spanOf(text, 'UTC')
  if (text.length === 10) return { first, last, from: [first, 0], to: [last, 1] }
  const fraction = Number(`0.${/\.\d{3}(\d+)/.exec(text)?.[1] ?? '0'}`)
  return { first, last, from: [last, fraction], to: [last, fraction] }
}

/**
 * `datetime` (OGC API – Features, 7.15.4): an instant, or an interval `start/end` with either end open (`..` or
 * empty). The places are those published within it, ends included.
 */
const datetimeParam = z
  .string()
  .transform((text, context): Interval => {
    // RFC 3339 allows a lower-case T and Z.
    const parts = text.toUpperCase().split('/')
    const ends = parts.map(endOf)
    const invalid = (message: string) => (context.addIssue({ code: 'custom', message }), z.NEVER)
    if (parts.length > 2 || ends.includes(undefined) || (parts.length === 1 && ends[0] === null))
      return invalid('datetime must be a date-time of RFC 3339 (2024-05-01T10:00:00Z), a date, or an interval of them: start/end, either open as "..".')
    const [start, end = start] = ends as (End | null)[]
    if (start && end && (start.from[0] > end.to[0] || (start.from[0] === end.to[0] && start.from[1] > end.to[1])))
      return invalid("datetime's start is after its end.")
    // Within one millisecond, `first` may be past `last`: a valid interval with no place in it.
    return { start: start?.first ?? null, end: end?.last ?? null, text }
  })
  .meta({
    description:
      'The places published at an instant or within an interval, ends included: a date-time of RFC 3339 with its offset (2024-05-01T10:00:00Z), a date (its whole day, UTC), or start/end with either end open as ".." (2024-01-01/.., ../2023-12-31T23:59:59Z).',
  })

/**
 * The parameters of /items. Unknown parameters are a 400, as the standard requires (a strict object); a repeated
 * parameter keeps its first value.
 */
export const itemsParams = {
  'bbox-crs': z.literal(CRS84, { error: `Only ${CRS84} is supported.` }).meta({ description: 'The CRS of bbox: only CRS84.' }),
  f: formatParam,
  datetime: datetimeParam,
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
  .transform(({ bbox, datetime, limit, offset }) => ({ bbox: bbox ?? null, datetime: datetime ?? null, limit: limit ?? DEFAULT_LIMIT, offset: offset ?? 0 }))
export type ItemsQuery = z.output<typeof itemsQuerySchema>

/** The query of /items; throws 400 `rest_invalid_param` naming every invalid or unknown parameter. */
export function parseItemsQuery(params: URLSearchParams): ItemsQuery {
  return parseQuery(itemsQuerySchema, queryValues(params, 'first'))
}

function toOgcFeature(place: Place): OgcFeature {
  return {
    type: 'Feature',
    id: place.id,
    geometry: { type: 'Point', coordinates: [place.longitude, place.latitude] },
    properties: {
      title: place.title,
      url: postUrl(getConfig().siteUrl, place.type, place.slug),
      address: place.address,
      date: new Date(place.publishedAt).toISOString(),
    },
  }
}

/**
 * A page of a collection's places, from the map's index of its post type (lib/places/map-index), built once per data
 * version: the count and the page's ids without a scan, with a box or without, then the page's places. The index is
 * in the order of the places' dates, so those of an interval are one run of it.
 */
export async function getItems(collectionId: string, query: ItemsQuery, version: number): Promise<OgcItems> {
  await getCollection(collectionId, version)
  const index = await getPlaceIndex({ postType: collectionId, categoryId: null }, version)
  const { bbox, datetime, offset, limit } = query
  const ranks: RankRange = datetime ? ranksBetween(index, datetime.start, datetime.end) : [0, index.size]
  const [from, to] = ranks
  const matched = bbox ? countPlacesIn(index, bbox, ranks) : to - from
  const ids = bbox ? placeIdsIn(index, bbox, offset, limit, matched, ranks) : index.ids.slice(from + offset, Math.min(to, from + offset + limit))
  const places = await findPublicPlacesByIds(ids)
  return { type: 'FeatureCollection', features: places.map(toOgcFeature), numberReturned: places.length, ...pageOf(collectionId, query, ids.length, matched) }
}

/**
 * The trips whose route meets the box and whose first to last time meets the interval, newest first: few enough to
 * filter in memory. A box is checked against the lines' boxes first, then against the routes in detail of those
 * that pass; without one, only the page's routes are read.
 */
export async function getTripItems(query: ItemsQuery, version: number): Promise<OgcTripItems> {
  await getCollection(TRIPS_COLLECTION, version)
  const { bbox, datetime, offset, limit } = query
  const near = (await tripEntries()).filter(
    ({ trip, boxes }) => (!bbox || boxes.some((box) => meets(bbox, box))) && (!datetime || during(trip, datetime.start, datetime.end)),
  )
  const detail = bbox ? await detailRoutes(near.map(({ trip }) => trip.id)) : null
  const matching = detail ? near.filter(({ trip }) => routeMeets(bbox!, detail.get(trip.id) ?? [])) : near
  const page = matching.slice(offset, offset + limit).map(({ trip }) => trip)
  const routes = detail ?? (await detailRoutes(page.map((trip) => trip.id)))
  // A trip made a draft between the two reads is left out of the page.
  const features = page.filter((trip) => routes.has(trip.id)).map((trip) => toOgcTripFeature(trip, routes.get(trip.id)!))
  return { type: 'FeatureCollection', features, numberReturned: features.length, ...pageOf(TRIPS_COLLECTION, query, page.length, matching.length) }
}

/** The count, time and links of a page of items: `read` (some may have gone since) of `matched`, at the query's offset. */
function pageOf(collectionId: string, { bbox, datetime, offset, limit }: ItemsQuery, read: number, matched: number) {
  const itemsUrl = `${base()}/collections/${encodeURIComponent(collectionId)}/items`
  const page = (at: number) => {
    const params = new URLSearchParams({ limit: String(limit), offset: String(at) })
    if (bbox) params.set('bbox', bbox.join(','))
    if (datetime) params.set('datetime', datetime.text)
    return `${itemsUrl}?${params}`
  }
  const links: Link[] = [
    { href: page(offset), rel: 'self', type: GEOJSON_TYPE },
    alternate(page(offset)),
    { href: `${base()}/collections/${encodeURIComponent(collectionId)}`, rel: 'collection', type: JSON_TYPE },
  ]
  if (offset + read < matched) links.push({ href: page(offset + limit), rel: 'next', type: GEOJSON_TYPE })
  if (offset > 0) links.push({ href: page(Math.max(0, offset - limit)), rel: 'prev', type: GEOJSON_TYPE })
  return { numberMatched: matched, timeStamp: new Date().toISOString(), links }
}

/** A feature id: a post id, of the database's integer range; anything else names no feature. */
const featureIdSchema = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.int().min(1).max(2_147_483_647))

/** A feature's links: itself, as a page, and its collection. */
function itemLinks(collectionId: string, itemId: number): Link[] {
  const href = `${base()}/collections/${encodeURIComponent(collectionId)}`
  return [
    { href: `${href}/items/${itemId}`, rel: 'self', type: GEOJSON_TYPE },
    alternate(`${href}/items/${itemId}`),
    { href, rel: 'collection', type: JSON_TYPE },
  ]
}

const noFeature = (collectionId: string, featureId: string) => new ApiError('ogc_no_feature', `Collection "${collectionId}" has no feature ${featureId}.`)

export async function getItem(collectionId: string, featureId: string, version: number): Promise<OgcFeature> {
  await getCollection(collectionId, version)
  const id = featureIdSchema.safeParse(featureId)
  const [place] = id.success ? await findPublicPlacesByIds([id.data]) : []
  if (place?.type !== collectionId) throw noFeature(collectionId, featureId)
  return { ...toOgcFeature(place), links: itemLinks(collectionId, place.id) }
}

/** One published trip, its route in detail. */
export async function getTripItem(featureId: string, version: number): Promise<OgcTripFeature> {
  await getCollection(TRIPS_COLLECTION, version)
  const id = featureIdSchema.safeParse(featureId)
  const trip = id.success ? await findPublicTrip({ id: id.data }) : null
  if (!trip) throw noFeature(TRIPS_COLLECTION, featureId)
  return { ...toOgcTripFeature(trip, trip.route), links: itemLinks(TRIPS_COLLECTION, trip.id) }
}
