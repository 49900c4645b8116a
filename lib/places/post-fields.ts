import { z } from 'zod'

// A post's fields as every writer checks them: the editor in the browser, the imports, the API's schemas. No server
// code here and nothing of the API's own messages (lib/places/schemas.ts): client components import it.

/** Text must not hold NUL characters: PostgreSQL refuses them, and no title or address needs one. */
export const NO_NUL = /^[^\u0000]*$/
export const NO_NUL_MESSAGE = 'must not contain NUL characters'

/** The longest excerpt: a description, not a second content. */
export const MAX_EXCERPT = 2000

/** An excerpt as kept: plain text, trimmed. */
export const excerptSchema = z
  .string()
  .trim()
  .max(MAX_EXCERPT, `must be at most ${MAX_EXCERPT.toLocaleString('en')} characters`)
  .regex(NO_NUL, NO_NUL_MESSAGE)

/** A tag's longest name, and the most tags a post may have. */
export const MAX_TAG_NAME = 200
export const MAX_TAGS = 100

/** A tag's name as kept: spaces collapsed; a comma separates tags where they are typed, as in WordPress, so none. */
export const tagNameSchema = z
  .string()
  .transform((name) => name.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1, 'must not be empty')
      .max(MAX_TAG_NAME, `must be at most ${MAX_TAG_NAME} characters`)
      .regex(/^[^,\u0000]*$/, 'must not contain commas or NUL characters'),
  )

/** A post's tags by name, each once (ignoring case: the first spelling is kept). */
export const tagNamesSchema = z
  .array(tagNameSchema)
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .transform((names) => names.filter((name, at) => names.findIndex((other) => other.toLowerCase() === name.toLowerCase()) === at))

const POST_TYPE_KEY = /^[a-z0-9_-]{1,20}$/

/** Whether a string can be a post type at all; one that cannot (a NUL byte, 300 characters) names no posts. */
export function isPostTypeKey(value: string): boolean {
  return POST_TYPE_KEY.test(value)
}

/** A post type's name for visitors, plural: `post` is Posts, `landmark` Landmarks, `city_walk` City walks. */
export function postTypeLabel(type: string): string {
  const words = type.replace(/[_-]+/g, ' ').trim()
  const capital = words.charAt(0).toUpperCase() + words.slice(1)
  return /s$/i.test(capital) ? capital : `${capital}s`
}

export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const

// Paths the app itself serves, which a post type's pages (/{type}/{slug}) must not shadow.
const RESERVED_TYPES = new Set([
  'admin',
  'api',
  'basemap',
  'embed',
  'places',
  'wp-json',
  'ogc',
  'signin',
  'signout',
  'uploads',
  'feed',
  'category',
  'tag',
  'trip',
  'trips',
])

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

/** `"Europe > France > Paris"` → `["Europe", "France", "Paris"]`. */
export function parseCategoryPath(path: string): string[] {
  return path
    .split('>')
    .map((name) => name.trim())
    .filter(Boolean)
}
