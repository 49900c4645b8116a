import { z } from 'zod'
import { mercatorY } from '../geo/web-mercator'
import { invalidParams } from '../http/errors'

/** The cap of GET /geojson, and what `-1` (WordPress's "all") means. */
export const MAX_PER_PAGE = 500
export const DEFAULT_PER_PAGE = 50

/** `[west, south, east, north]` in degrees; west > east when the box crosses the antimeridian (RFC 7946, 5.2). */
export type BBox = [number, number, number, number]

export type CollectionQuery = {
  postType: string
  limit: number
  categoryId: number | null
  /** only the places inside this box (`bbox`) */
  bbox?: BBox
  /** the page of `limit` places, from 1 (`page`) */
  page?: number
  /** clusters and places for a map at this zoom level instead of a page of places (`cluster=true&zoom=Z`) */
  clusterZoom?: number
}

/** The zoom levels `zoom` takes: those of web map tiles. */
export const MAX_ZOOM = 24
/**
 * With `cluster=true` the box may span at most this many pixels of a 256-pixel-tile map at the zoom asked for, each
 * way: a screen and a margin around it. The answer's size is bounded by the screen, not by the data.
 */
export const MAX_CLUSTER_BOX_PIXELS = 8192

const positiveInteger = /^\d+$/
const POST_TYPE_KEY = /^[a-z0-9_-]{1,20}$/
const MAX_ID = 2_147_483_647
const integer = /^-?\d+$/

// Query strings are parsed as PHP does for WordPress: a repeated parameter's last value wins.
function last(params: URLSearchParams, name: string): string | null {
  return params.getAll(name).at(-1) ?? null
}

/**
 * GET /geojson's query, as docs/api.md decides it. `post_status` is accepted and ignored, unknown parameters too.
 * Throws 400 `rest_invalid_param` naming every invalid parameter.
 */
export function parseCollectionQuery(params: URLSearchParams): CollectionQuery {
  const invalid: Record<string, string> = {}

  const perPage = last(params, 'posts_per_page')
  let limit = DEFAULT_PER_PAGE
  if (perPage !== null) {
    if (perPage === '-1') limit = MAX_PER_PAGE
    else if (positiveInteger.test(perPage) && Number(perPage) > 0) limit = Math.min(Number(perPage), MAX_PER_PAGE)
    else invalid.posts_per_page = 'posts_per_page must be a positive integer, or -1 for the maximum (500).'
  }

  const category = last(params, 'category')
  let categoryId: number | null = null
  if (category !== null) {
    // An id past the database's integer range names no category: an empty collection, as for any unknown id.
    if (integer.test(category)) categoryId = Math.abs(Number(category)) <= MAX_ID ? Number(category) : 0
    else invalid.category = 'category must be a category id (an integer).'
  }

  const query: CollectionQuery = { postType: last(params, 'post_type') || 'post', limit, categoryId }
  parseMapParams(params, query, invalid)
  if (Object.keys(invalid).length > 0) throw invalidParams(invalid)
  return query
}

const DECIMAL = /^-?\d+(\.\d+)?$/

/**
 * The parameters the map adds to GET /geojson (README "The API"): `bbox`, `page`, `cluster` and `zoom`. Each takes
 * effect only when present, so a request without them is answered as before.
 */
function parseMapParams(params: URLSearchParams, query: CollectionQuery, invalid: Record<string, string>): void {
  const bbox = last(params, 'bbox')
  if (bbox !== null) {
    const parsed = parseBBox(bbox)
    if (typeof parsed === 'string') invalid.bbox = parsed
    else query.bbox = parsed
  }

  const page = last(params, 'page')
  if (page !== null) {
    if (positiveInteger.test(page) && Number(page) > 0) query.page = Math.min(Number(page), MAX_ID)
    else invalid.page = 'page must be a positive integer (1 is the first page).'
  }

  const cluster = last(params, 'cluster')
  let isClustered = false
  if (cluster !== null) {
    if (cluster === 'true' || cluster === '1') isClustered = true
    else if (cluster !== 'false' && cluster !== '0') invalid.cluster = 'cluster must be true or false (or 1 or 0).'
  }
  // zoom means something only for a clustered answer; without cluster=true it is ignored, as unknown parameters are.
  if (isClustered) {
    const zoom = last(params, 'zoom')
    if (zoom === null) invalid.zoom = `zoom is required with cluster=true: the map's zoom level, an integer from 0 to ${MAX_ZOOM}.`
    else if (!positiveInteger.test(zoom) || Number(zoom) > MAX_ZOOM) invalid.zoom = `zoom must be an integer from 0 to ${MAX_ZOOM}.`
    else query.clusterZoom = Number(zoom)
  }

  if (query.clusterZoom !== undefined && query.bbox && !invalid.bbox) {
    const [width, height] = bboxPixels(query.bbox, query.clusterZoom)
    if (width > MAX_CLUSTER_BOX_PIXELS || height > MAX_CLUSTER_BOX_PIXELS) {
      invalid.bbox = `bbox is too large for zoom ${query.clusterZoom}: with cluster=true it may span at most ${MAX_CLUSTER_BOX_PIXELS} pixels of the map each way at that zoom (this one spans ${Math.ceil(width)} by ${Math.ceil(height)}). Send the box of the map's view, or a lower zoom.`
    }
  }
}

/** `"west,south,east,north"` → the box, or what is wrong with it. */
export function parseBBox(text: string): BBox | string {
  const parts = text.split(',')
  if (parts.length !== 4 || !parts.every((part) => DECIMAL.test(part))) {
    return 'bbox must be four comma-separated decimal numbers: west,south,east,north (degrees, WGS 84).'
  }
  const [west, south, east, north] = parts.map(Number) as BBox
  if (west < -180 || west > 180 || east < -180 || east > 180) return 'bbox longitudes (west, east) must be from -180 to 180.'
  if (south < -90 || south > 90 || north < -90 || north > 90) return 'bbox latitudes (south, north) must be from -90 to 90.'
  if (south > north) return `bbox south (${south}) must not be greater than north (${north}). A west greater than east is allowed: the box then crosses the antimeridian.`
  return [west, south, east, north]
}

/** How many pixels wide and high a box is on a map of 256-pixel tiles at `zoom`. */
export function bboxPixels([west, south, east, north]: BBox, zoom: number): [number, number] {
  const worldPixels = 256 * 2 ** zoom
  const degrees = east >= west ? east - west : east + 360 - west
  return [(degrees / 360) * worldPixels, (mercatorY(south) - mercatorY(north)) * worldPixels]
}

/** Whether a string can be a post type at all; one that cannot (a NUL byte, 300 characters) names no posts. */
export function isPostTypeKey(value: string): boolean {
  return POST_TYPE_KEY.test(value)
}

/**
 * A post id in a route path, as WordPress's `(?P<id>[\d]+)` matches it; null when the path does not match
 * (the route then answers 404 `rest_no_route`). Ids past the database's integer range match but name no post.
 */
export function parsePostId(raw: string): number | null {
  if (!positiveInteger.test(raw)) return null
  const id = Number(raw)
  return id <= MAX_ID ? id : 0
}

export const latitudeSchema = z.number().finite().min(-90).max(90)
export const longitudeSchema = z.number().finite().min(-180).max(180)

export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const

// Paths the app itself serves, which a post type's pages (/{type}/{slug}) must not shadow.
const RESERVED_TYPES = new Set(['admin', 'api', 'places', 'wp-json', 'ogc', 'signin', 'signout', 'uploads'])

/** A post type key as WordPress allows one (at most 20 characters: a–z, 0–9, `_`, `-`), not one of the app's paths. */
export const postTypeSchema = z
  .string()
  .regex(POST_TYPE_KEY, 'must be 1 to 20 characters: lower-case letters, digits, _ or -')
  .refine((type) => !RESERVED_TYPES.has(type), 'is a path the site itself uses')

/** Text must not hold NUL characters: PostgreSQL refuses them, and no title or address needs one. */
export const NO_NUL = /^[^\u0000]*$/
export const NO_NUL_MESSAGE = 'must not contain NUL characters'

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/** An ISO 8601 date or date-time; without a zone it is taken as UTC. */
export const isoDateSchema = z
  .string()
  .regex(ISO_8601, 'must be an ISO 8601 date, e.g. 2024-05-01T12:00:00Z')
  .transform((text, ctx) => {
    const zoned = /T.*(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : text.includes('T') ? `${text}Z` : `${text}T00:00:00Z`
    const date = new Date(zoned)
    const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number]
    const day = new Date(Date.UTC(y, m - 1, d))
    // JavaScript rolls 2024-02-30 over to March; a real date must name a day that exists.
    if (Number.isNaN(date.getTime()) || day.getUTCMonth() !== m - 1 || day.getUTCDate() !== d) {
      ctx.addIssue({ code: 'custom', message: 'is not a real date' })
      return z.NEVER
    }
    return date
  })

/** One feature of the import format (docs/cli.md); `places export` writes the same. */
export const importFeatureSchema = z.object({
  type: z.literal('Feature'),
  // RFC 7946 positions may carry an altitude after longitude and latitude; it is not kept.
  geometry: z
    .object({ type: z.literal('Point'), coordinates: z.tuple([longitudeSchema, latitudeSchema]).rest(z.number()) })
    .nullable(),
  properties: z.object({
    id: z.number().int().positive().max(MAX_ID).optional(),
    title: z.string().trim().min(1, 'is required').max(1000).regex(NO_NUL, NO_NUL_MESSAGE),
    content: z.string().regex(NO_NUL, NO_NUL_MESSAGE).default(''),
    slug: z.string().max(190).regex(NO_NUL, NO_NUL_MESSAGE).optional(),
    type: postTypeSchema.default('post'),
    status: z.enum(STATUSES).default('publish'),
    date: isoDateSchema.optional(),
    address: z.string().max(1000).regex(NO_NUL, NO_NUL_MESSAGE).default(''),
    geo_public: z.boolean().default(true),
    categories: z.array(z.string().max(1000).regex(NO_NUL, NO_NUL_MESSAGE)).default([]),
    author: z.email().optional(),
  }),
})

export type ImportFeature = z.output<typeof importFeatureSchema>

export const importCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.unknown()),
})

/** `"Europe > France > Paris"` → `["Europe", "France", "Paris"]`. */
export function parseCategoryPath(path: string): string[] {
  return path.split('>').map((name) => name.trim()).filter(Boolean)
}

/** What the home page's address keeps: `?zoom=&lat=&lng=&category=&post_type=`. */
export type MapState = {
  postType: string
  categoryId: number | null
  /** the view to open on; null to fit the places */
  view: { zoom: number; latitude: number; longitude: number } | null
}

/** The home page's address, leniently: a value that is not valid is left out (a shared link still opens a map). */
export function parseMapState(params: Record<string, string | string[] | undefined>): MapState {
  const one = (name: string) => {
    const value = params[name]
    return Array.isArray(value) ? value.at(-1) : value
  }
  const postType = one('post_type')
  const category = one('category') ?? ''
  const zoom = one('zoom') ?? ''
  const latitude = Number(one('lat') || Number.NaN)
  const longitude = Number(one('lng') || Number.NaN)
  const hasView = positiveInteger.test(zoom) && Number(zoom) <= MAX_ZOOM
    && latitudeSchema.safeParse(latitude).success && longitudeSchema.safeParse(longitude).success
  return {
    postType: postType && isPostTypeKey(postType) ? postType : 'post',
    categoryId: positiveInteger.test(category) && Number(category) > 0 && Number(category) <= MAX_ID ? Number(category) : null,
    view: hasView ? { zoom: Number(zoom), latitude, longitude } : null,
  }
}
