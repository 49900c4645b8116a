import { z } from 'zod'
import { bboxSchema, latitudeSchema, longitudeSchema, type BBox } from '../api/contract'
import { spanOf } from '../dates'
import { mercatorY } from '../geo/web-mercator'
import { invalidParams } from '../http/errors'
import { LOCATION_PRECISIONS } from './location-levels'
import { parseClusterId } from './map-index/cluster-id'
import { excerptSchema, isoDateSchema, isPostTypeKey, NO_NUL, NO_NUL_MESSAGE, postTypeSchema, STATUSES, tagNamesSchema } from './post-fields'

export { latitudeSchema, longitudeSchema, type BBox }

/** The cap of GET /geojson, and what `-1` (WordPress's "all") means. */
export const MAX_PER_PAGE = 500
export const DEFAULT_PER_PAGE = 50

/** The longest `search` of GET /geojson. */
export const MAX_SEARCH_LENGTH = 200

/** The zoom levels `zoom` takes: those of web map tiles. */
export const MAX_ZOOM = 24
/**
 * With `cluster=true` the box may span at most this many pixels of a 256-pixel-tile map at the zoom asked for, each
 * way: a screen and a margin around it. The answer's size is bounded by the screen, not by the data.
 */
export const MAX_CLUSTER_BOX_PIXELS = 8192
/** The deepest zoom at which the whole world (256 · 2^zoom pixels wide) fits MAX_CLUSTER_BOX_PIXELS. */
export const MAX_WORLD_ZOOM = Math.log2(MAX_CLUSTER_BOX_PIXELS / 256)

const positiveInteger = /^\d+$/
const MAX_ID = 2_147_483_647

/**
 * A query string as an object of strings. Repeated parameters: `last` keeps the last value, as PHP reads query
 * strings for WordPress (docs/api.md, Query parameters of GET /geojson); `first` the first, as /ogc always has.
 */
export function queryValues(params: URLSearchParams, keep: 'first' | 'last'): Record<string, string> {
  // No prototype: `constructor` or `__proto__` in a query string is a parameter like any other (an unknown one).
  const values = Object.create(null) as Record<string, string>
  for (const [name, value] of params) if (keep === 'last' || !Object.hasOwn(values, name)) values[name] = value
  return values
}

/**
 * Parses a query with a zod schema of its parameters; a query that does not pass is a 400 `rest_invalid_param` whose
 * `data.params` names each bad parameter with the first thing wrong with it: first the parameters a strict schema
 * does not know, then the others in the order of the schema.
 */
export function parseQuery<S extends z.ZodType>(schema: S, values: Record<string, string>): z.output<S> {
  const result = schema.safeParse(values)
  if (result.success) return result.data
  const invalid: Record<string, string> = {}
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') for (const name of issue.keys) invalid[name] = `${name} is not a parameter of this request.`
  }
  for (const issue of result.error.issues) if (issue.code !== 'unrecognized_keys') invalid[String(issue.path[0])] ??= issue.message
  throw invalidParams(invalid)
}

const DECIMAL = /^-?\d+(\.\d+)?$/

/** What is wrong with a bbox, for each caller to say in its own words. */
export type BBoxProblem = { problem: 'format' | 'range' | 'order'; message: string }

/**
 * The one bbox grammar of GET /geojson and /ogc (docs/api.md, bbox): `west,south,east,north`, exactly four decimal
 * numbers (an optional `-`, digits, optionally `.` and digits: no spaces, no exponent, no `+`) separated by commas;
 * longitudes from -180 to 180, latitudes from -90 to 90, south not above north. West may be greater than east: the
 * box then crosses the antimeridian.
 */
export function parseBBox(text: string): BBox | BBoxProblem {
  const parts = text.split(',')
  if (parts.length !== 4 || !parts.every((part) => DECIMAL.test(part))) {
    return { problem: 'format', message: 'bbox must be four comma-separated decimal numbers: west,south,east,north (degrees, WGS 84).' }
  }
  const [west, south, east, north] = parts.map(Number) as BBox
  if (west < -180 || west > 180 || east < -180 || east > 180) return { problem: 'range', message: 'bbox longitudes (west, east) must be from -180 to 180.' }
  if (south < -90 || south > 90 || north < -90 || north > 90) return { problem: 'range', message: 'bbox latitudes (south, north) must be from -90 to 90.' }
  if (south > north)
    return {
      problem: 'order',
      message: `bbox south (${south}) must not be greater than north (${north}). A west greater than east is allowed: the box then crosses the antimeridian.`,
    }
  return [west, south, east, north]
}

/**
 * A `bbox` parameter, with `message` for what is wrong with it. A bad one is an issue that does not stop the parse
 * (`continue`), so that every bad parameter of the query is named; the field then holds no box.
 */
export function bboxParam(message: (problem: BBoxProblem) => string) {
  return z.string().transform((text, ctx): BBox => {
    const parsed = parseBBox(text)
    if (Array.isArray(parsed)) return parsed
    ctx.addIssue({ code: 'custom', message: message(parsed), continue: true })
    return z.NEVER
  })
}

const ZOOM_MESSAGE = `zoom must be an integer from 0 to ${MAX_ZOOM}.`
const CLUSTER_ID_MESSAGE = 'cluster_id must be the cluster_id of a cluster in a clustered answer (cluster=true).'
const zoomParam = z
  .string()
  .regex(positiveInteger, ZOOM_MESSAGE)
  .refine((text) => Number(text) <= MAX_ZOOM, ZOOM_MESSAGE)
  .meta({ description: `With cluster=true (and required then): the map's zoom level, 0 to ${MAX_ZOOM}.` })

/**
 * `after` and `before` (WordPress's REST API names): a date (`2024-05-01`) or an RFC 3339 date-time, with an offset or
 * in the site's time zone; `T` and `Z` in either case, or a space for `T`, as WordPress reads them. A date names its
 * whole day, included: `after=2024-01-01&before=2024-12-31` is the year 2024. A date-time is an instant, excluded, as
 * in WordPress (docs/api.md, after and before).
 */
const DATE_OR_DATE_TIME = z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })])

function publishedParam(name: 'after' | 'before', description: string) {
  return z
    .string()
    .transform((text, ctx) => {
      const value = text.toUpperCase().replace(' ', 'T')
      // Year 0 is no year of the calendar the dates are written in (the one before 1 is 1 BC).
      if (DATE_OR_DATE_TIME.safeParse(value).success && !value.startsWith('0000') && Number.isFinite(spanOf(value, 'UTC')[0])) return value
      // In a query string an unencoded + is a space: a date-time's offset then reads `10:00:00 05:30`.
      const message = `${name} must be a date (2024-05-01) or a date-time (2024-05-01T10:00:00, in the site's time zone unless it ends with Z or an offset such as +02:00; in a URL, + is written %2B).`
      ctx.addIssue({ code: 'custom', message, continue: true })
      return z.NEVER
    })
    .meta({ description })
}

/** A time interval, both ends included, in milliseconds since 1970 (null: open): the places published within it. */
export type Published = readonly [start: number | null, end: number | null]

const isDate = (text: string) => text.length === 10

/**
 * The interval of `after` and `before` (publishedParam), either or both: a date's day included, a date-time's instant
 * excluded, each in `timeZone` unless it has an offset. Undefined when neither is given.
 */
export function publishedWithin({ after, before }: { after?: string; before?: string }, timeZone: string): Published | undefined {
  if (after === undefined && before === undefined) return undefined
  const start = after === undefined ? null : isDate(after) ? spanOf(after, timeZone)[0] : spanOf(after, timeZone)[1] + 1
  const end = before === undefined ? null : isDate(before) ? spanOf(before, timeZone)[1] : spanOf(before, timeZone)[0] - 1
  return [start, end]
}

/**
 * Whether `after` comes before `before`, when both are given in one zone (each with an offset, or neither: the
 * site's); else an issue says so. An interval that holds no time is a mistake.
 */
export function publishedInOrder(query: { after?: string; before?: string }, ctx: z.RefinementCtx): boolean {
  if (query.after === undefined || query.before === undefined) return true
  const withOffset = (text: string) => !isDate(text) && /(Z|[+-]\d\d:\d\d)$/.test(text)
  const [start, end] = publishedWithin(query, 'UTC')!
  if (withOffset(query.after) !== withOffset(query.before) || start! <= end!) return true
  ctx.addIssue({ code: 'custom', path: ['before'], message: 'before must be later than after: no place can be published between them.' })
  return false
}

/** WordPress's `_embed`: present, whatever its value (even empty), it adds each place's `_embedded` member. */
const embedParam = z.string().meta({
  description:
    'Present (any value, as in WordPress): each place Feature also carries `_embedded` (RFC 7946 foreign member): its publication date, categories and first picture (docs/api.md, _embed).',
})

/** GET /geojson/{id}'s parameters. */
export const featureParams = { _embed: embedParam }

/**
 * GET /geojson's parameters, as docs/api.md decides them; the map's own (`bbox`, `page`, `cluster`, `zoom`: README,
 * "Parameters for maps") take effect only when present, so a request without them is answered as before.
 * `post_status` is accepted and ignored, unknown parameters too.
 */
export const collectionParams = {
  post_type: z.string().meta({ description: 'Post type; an unknown type gives an empty collection.', default: 'post' }),
  posts_per_page: z
    .string()
    .regex(/^(-1|\d*[1-9]\d*)$/, `posts_per_page must be a positive integer, or -1 for the maximum (${MAX_PER_PAGE}).`)
    .meta({
      description: `How many places: a positive integer, at most ${MAX_PER_PAGE} (larger values are capped); -1 means ${MAX_PER_PAGE}. Anything else is a 400.`,
      default: String(DEFAULT_PER_PAGE),
    })
    .transform((text) => (text === '-1' ? MAX_PER_PAGE : Math.min(Number(text), MAX_PER_PAGE))),
  category: z
    .string()
    .regex(/^-?\d+$/, 'category must be a category id (an integer).')
    .meta({ description: 'A category id; posts in its descendant categories match too. An unknown id gives an empty collection; a non-integer is a 400.' })
    // An id past the database's integer range names no category: an empty collection, as for any unknown id.
    .transform((text) => (Math.abs(Number(text)) <= MAX_ID ? Number(text) : 0)),
  tag: z
    .string()
    .regex(/^-?\d+$/, 'tag must be a tag id (an integer).')
    .meta({
      description:
        "A tag id (as WordPress's `tag_id`): only places with that tag; with `category`, places in both. An unknown id gives an empty collection; a non-integer is a 400.",
    })
    .transform((text) => (Math.abs(Number(text)) <= MAX_ID ? Number(text) : 0)),
  post_status: z.string().meta({ description: 'Accepted and ignored: only published posts are returned.', default: 'publish' }),
  bbox: bboxParam((problem) => problem.message).meta({
    description:
      'For maps: only places inside `west,south,east,north` (degrees; west > east crosses the antimeridian; grammar: docs/api.md, bbox). The answer then also carries `total` (places in the box) and `extent` (the box of all places of the type and category).',
  }),
  page: z
    .string()
    .regex(/^\d*[1-9]\d*$/, 'page must be a positive integer (1 is the first page).')
    .meta({ description: 'For maps, with bbox: the page of posts_per_page places, from 1.' })
    .transform((text) => Math.min(Number(text), MAX_ID)),
  cluster: z
    .enum(['true', 'false', '1', '0'], { error: 'cluster must be true or false (or 1 or 0).' })
    .meta({
      description: `For maps: \`true\` answers clusters and places as a map at \`zoom\` draws them (cluster features have \`cluster\`, \`point_count\`, \`expansion_zoom\`); the bbox may then span at most ${MAX_CLUSTER_BOX_PIXELS} pixels each way at that zoom.`,
    })
    .transform((value) => value === 'true' || value === '1'),
  // zoom means something only for a clustered answer; without cluster=true it is ignored, as unknown parameters are.
  zoom: zoomParam,
  cluster_id: z
    .string()
    .regex(positiveInteger, CLUSTER_ID_MESSAGE)
    .refine((text) => parseClusterId(Number(text)) !== null, CLUSTER_ID_MESSAGE)
    .meta({
      description:
        "For maps: only the places of the cluster a clustered answer gave this `cluster_id`, a page of them newest first, with `total` (docs/api.md, Clusters' places). Not with cluster=true or bbox.",
    })
    .transform(Number),
  search: z
    .string()
    .max(MAX_SEARCH_LENGTH, `search must be at most ${MAX_SEARCH_LENGTH} characters.`)
    .regex(NO_NUL, `search ${NO_NUL_MESSAGE}.`)
    .meta({
      description: `Only places whose title or address contains this text, ignoring case (as WordPress's \`search\`); with every other parameter. Spaces around it are ignored, and empty is as none; at most ${MAX_SEARCH_LENGTH} characters.`,
    }),
  after: publishedParam(
    'after',
    "Only places published after this: a date (2024-05-01: from that day on, the day included) or a date-time (2024-05-01T10:00:00Z: later than that instant, as WordPress's `after`). Without an offset, in the site's time zone. With every other parameter.",
  ),
  before: publishedParam(
    'before',
    "Only places published before this: a date (2024-12-31: up to the end of that day, the day included) or a date-time (2024-12-31T18:00:00+01:00: earlier than that instant, as WordPress's `before`). Without an offset, in the site's time zone. With every other parameter.",
  ),
  _embed: embedParam,
}

/** What GET /geojson answers for: the query, parsed. */
export const collectionQueryOutput = z.object({
  postType: z.string(),
  limit: z.int().min(1).max(MAX_PER_PAGE),
  categoryId: z.int().nullable(),
  /** only the places with this tag (`tag`) */
  tagId: z.int().optional(),
  /** only the places inside this box (`bbox`) */
  bbox: bboxSchema.optional(),
  /** the page of `limit` places, from 1 (`page`) */
  page: z.int().min(1).optional(),
  /** clusters and places for a map at this zoom level instead of a page of places (`cluster=true&zoom=Z`) */
  clusterZoom: z.int().min(0).max(MAX_ZOOM).optional(),
  /** only the places of this cluster (`cluster_id`, which names its tiles: lib/places/map-index/clusters.ts) */
  clusterId: z.int().min(0).optional(),
  /** only the places whose title or address contains this, ignoring case (`search`; never empty) */
  search: z.string().min(1).max(MAX_SEARCH_LENGTH).optional(),
  /** only the places published after this date or date-time, upper-case (`after`; publishedWithin) */
  after: z.string().optional(),
  /** only the places published before this date or date-time, upper-case (`before`; publishedWithin) */
  before: z.string().optional(),
  /** each place with its `_embedded` member (`_embed`) */
  embed: z.boolean().optional(),
})
export type CollectionQuery = z.output<typeof collectionQueryOutput>

export const collectionQuerySchema = z
  .object({ ...collectionParams, zoom: z.string() })
  .partial()
  .superRefine(
    (query, ctx) => {
      if (!publishedInOrder(query, ctx)) return
      if (query.cluster_id !== undefined && (query.cluster === true || query.bbox !== undefined)) {
        ctx.addIssue({ code: 'custom', path: ['cluster_id'], message: "cluster_id lists a cluster's places: it does not go with cluster=true or bbox." })
        return
      }
      if (query.cluster !== true) return
      if (query.zoom === undefined) {
        ctx.addIssue({ code: 'custom', path: ['zoom'], message: `zoom is required with cluster=true: the map's zoom level, an integer from 0 to ${MAX_ZOOM}.` })
        return
      }
      const zoom = zoomParam.safeParse(query.zoom)
      if (!zoom.success) {
        ctx.addIssue({ code: 'custom', path: ['zoom'], message: ZOOM_MESSAGE })
        return
      }
      // Without a bbox the view is the whole world, bounded as a box is, so that no answer grows with the places.
      if (query.bbox === undefined) {
        if (Number(zoom.data) > MAX_WORLD_ZOOM) {
          ctx.addIssue({
            code: 'custom',
            path: ['zoom'],
            message: `zoom ${zoom.data} is too deep for the whole world: with cluster=true and no bbox the world may span at most ${MAX_CLUSTER_BOX_PIXELS} pixels each way, zoom ${MAX_WORLD_ZOOM} at most. Send the box of the map's view as bbox, or a lower zoom.`,
          })
        }
        return
      }
      // A bbox that failed holds no box (bboxParam): only a parsed one is measured.
      if (!Array.isArray(query.bbox)) return
      const [width, height] = bboxPixels(query.bbox, Number(zoom.data))
      if (width > MAX_CLUSTER_BOX_PIXELS || height > MAX_CLUSTER_BOX_PIXELS) {
        ctx.addIssue({
          code: 'custom',
          path: ['bbox'],
          message: `bbox is too large for zoom ${zoom.data}: with cluster=true it may span at most ${MAX_CLUSTER_BOX_PIXELS} pixels of the map each way at that zoom (this one spans ${Math.ceil(width)} by ${Math.ceil(height)}). Send the box of the map's view, or a lower zoom.`,
        })
      }
    },
    { when: () => true },
  )
  .transform(({ post_type, posts_per_page, category, tag, bbox, page, cluster, zoom, cluster_id, search, after, before, _embed }) => {
    const query: CollectionQuery = { postType: post_type || 'post', limit: posts_per_page ?? DEFAULT_PER_PAGE, categoryId: category ?? null }
    if (tag !== undefined) query.tagId = tag
    if (bbox) query.bbox = bbox
    // The first page, named or not, is one answer (the answers' cache is keyed by this query: lib/places/public.ts).
    if (page !== undefined && page > 1) query.page = page
    if (cluster && zoom !== undefined) query.clusterZoom = Number(zoom)
    if (cluster_id !== undefined) query.clusterId = cluster_id
    if (search?.trim()) query.search = search.trim()
    if (after !== undefined) query.after = after
    if (before !== undefined) query.before = before
    if (_embed !== undefined) query.embed = true
    return query
  })
  .pipe(collectionQueryOutput)

/** A map view's filters as GET /geojson parses them: what /export and /timeline read of the same parameters. */
export type ViewFilter = Pick<CollectionQuery, 'postType' | 'categoryId' | 'tagId' | 'search' | 'bbox'>

/** The parsed values of `post_type`, `category`, `tag`, `search` and `bbox` as a ViewFilter, by GET /geojson's rules. */
export function viewFilterOf(values: { post_type?: string; category?: number; tag?: number; search?: string; bbox?: BBox }): ViewFilter {
  const filter: ViewFilter = { postType: values.post_type || 'post', categoryId: values.category ?? null }
  if (values.tag !== undefined) filter.tagId = values.tag
  if (values.bbox) filter.bbox = values.bbox
  if (values.search?.trim()) filter.search = values.search.trim()
  return filter
}

/** GET /geojson's query; throws 400 `rest_invalid_param` naming every invalid parameter. */
export function parseCollectionQuery(params: URLSearchParams): CollectionQuery {
  return parseQuery(collectionQuerySchema, queryValues(params, 'last'))
}

/** GET /geojson/{id}'s query: whether `_embed` is present. Nothing else is read: unknown parameters are ignored. */
export function parseFeatureQuery(params: URLSearchParams): { embed: boolean } {
  return { embed: params.has('_embed') }
}

/** How many pixels wide and high a box is on a map of 256-pixel tiles at `zoom`. */
export function bboxPixels([west, south, east, north]: BBox, zoom: number): [number, number] {
  const worldPixels = 256 * 2 ** zoom
  const degrees = east >= west ? east - west : east + 360 - west
  return [(degrees / 360) * worldPixels, (mercatorY(south) - mercatorY(north)) * worldPixels]
}

/**
 * A post id in a route path, as WordPress's `(?P<id>[\d]+)` matches it. Ids past the database's integer range match
 * but name no post (0).
 */
export const postIdSchema = z
  .string()
  .regex(positiveInteger)
  .transform((text) => (Number(text) <= MAX_ID ? Number(text) : 0))
  .meta({ description: 'A post id (digits only; anything else matches no route: 404 `rest_no_route`).' })

/** A post id in a route path (postIdSchema); null when the path does not match (the route then answers 404 `rest_no_route`). */
export function parsePostId(raw: string): number | null {
  const id = postIdSchema.safeParse(raw)
  return id.success ? id.data : null
}

/** One feature of the import format (docs/cli.md); `places export` writes the same. */
export const importFeatureSchema = z.object({
  type: z.literal('Feature'),
  // RFC 7946 positions may carry an altitude after longitude and latitude; it is not kept.
  geometry: z.object({ type: z.literal('Point'), coordinates: z.tuple([longitudeSchema, latitudeSchema]).rest(z.number()) }).nullable(),
  properties: z.object({
    id: z.number().int().positive().max(MAX_ID).optional(),
    title: z.string().trim().min(1, 'is required').max(1000).regex(NO_NUL, NO_NUL_MESSAGE),
    content: z.string().regex(NO_NUL, NO_NUL_MESSAGE).default(''),
    excerpt: excerptSchema.default(''),
    slug: z.string().max(190).regex(NO_NUL, NO_NUL_MESSAGE).optional(),
    type: postTypeSchema.default('post'),
    status: z.enum(STATUSES).default('publish'),
    date: isoDateSchema.optional(),
    address: z.string().max(1000).regex(NO_NUL, NO_NUL_MESSAGE).default(''),
    /** false is hidden, whatever location_precision says (WordPress's geo_public) */
    geo_public: z.boolean().optional(),
    location_precision: z.enum(LOCATION_PRECISIONS).optional(),
    categories: z.array(z.string().max(1000).regex(NO_NUL, NO_NUL_MESSAGE)).default([]),
    tags: tagNamesSchema.default([]),
    /** the slug of the trip the post is on (docs/trips.md); a trip this site does not have puts it on none */
    trip: z.string().trim().min(1).max(190).regex(NO_NUL, NO_NUL_MESSAGE).optional(),
    author: z.email().optional(),
  }),
})

export type ImportFeature = z.output<typeof importFeatureSchema>

export const importCollectionSchema = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(z.unknown()),
})

/** What the home page's (and /embed's) address keeps: `?zoom=&lat=&lng=&category=&tag=&post_type=&search=&after=&before=`. */
export type MapState = {
  postType: string
  categoryId: number | null
  tagId: number | null
  /** the search, trimmed; empty for none */
  search: string
  /** the first and last days of the places' publication (the timeline: `after`, `before`); empty for none */
  after: string
  before: string
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
  const tag = one('tag') ?? ''
  const search = (one('search') ?? '').trim()
  const zoom = one('zoom') ?? ''
  const latitude = Number(one('lat') || Number.NaN)
  const longitude = Number(one('lng') || Number.NaN)
  const hasView =
    positiveInteger.test(zoom) && Number(zoom) <= MAX_ZOOM && latitudeSchema.safeParse(latitude).success && longitudeSchema.safeParse(longitude).success
  // Days only (the timeline's), both kept only in order.
  const [after, before] = [one('after') ?? '', one('before') ?? ''].map((text) => (z.iso.date().safeParse(text).success ? text : ''))
  const inOrder = !after || !before || after <= before
  return {
    postType: postType && isPostTypeKey(postType) ? postType : 'post',
    categoryId: positiveInteger.test(category) && Number(category) > 0 && Number(category) <= MAX_ID ? Number(category) : null,
    tagId: positiveInteger.test(tag) && Number(tag) > 0 && Number(tag) <= MAX_ID ? Number(tag) : null,
    search: search.length <= MAX_SEARCH_LENGTH && NO_NUL.test(search) ? search : '',
    after: inOrder ? after! : '',
    before: inOrder ? before! : '',
    view: hasView ? { zoom: Number(zoom), latitude, longitude } : null,
  }
}
