import { z } from 'zod'
import { invalidParams } from '../http/errors'

/** The cap of GET /geojson, and what `-1` (WordPress's "all") means. */
export const MAX_PER_PAGE = 500
export const DEFAULT_PER_PAGE = 50

export type CollectionQuery = { postType: string; limit: number; categoryId: number | null }

const positiveInteger = /^\d+$/
const POST_TYPE_KEY = /^[a-z0-9_-]{1,20}$/
const MAX_ID = 2_147_483_647
const integer = /^-?\d+$/

// Query strings are parsed as PHP does for WordPress: a repeated parameter's last value wins.
function last(params: URLSearchParams, name: string): string | null {
  return params.getAll(name).at(-1) ?? null
}

/**
 * GET /geojson's query, as DECISIONS.md decides it. `post_status` is accepted and ignored, unknown parameters too.
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

  if (Object.keys(invalid).length > 0) throw invalidParams(invalid)
  return { postType: last(params, 'post_type') || 'post', limit, categoryId }
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

/** One feature of the import format (spec/CLI.md); `places export` writes the same. */
export const importFeatureSchema = z.object({
  type: z.literal('Feature'),
  // RFC 7946 positions may carry an altitude after longitude and latitude; it is not kept.
  geometry: z
    .object({ type: z.literal('Point'), coordinates: z.tuple([longitudeSchema, latitudeSchema]).rest(z.number()) })
    .nullable(),
  properties: z.object({
    id: z.number().int().positive().max(MAX_ID).optional(),
    title: z.string().trim().min(1, 'is required').max(1000),
    content: z.string().default(''),
    slug: z.string().max(190).optional(),
    type: postTypeSchema.default('post'),
    status: z.enum(STATUSES).default('publish'),
    date: isoDateSchema.optional(),
    address: z.string().max(1000).default(''),
    geo_public: z.boolean().default(true),
    categories: z.array(z.string().max(1000)).default([]),
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
