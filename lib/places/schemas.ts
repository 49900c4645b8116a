import { z } from 'zod'
import { invalidParams } from '../http/errors'

/** The cap of GET /geojson, and what `-1` (WordPress's "all") means. */
export const MAX_PER_PAGE = 500
export const DEFAULT_PER_PAGE = 50

export type CollectionQuery = { postType: string; limit: number; categoryId: number | null }

const positiveInteger = /^\d+$/
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
