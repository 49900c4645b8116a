/** The page size of /ogc/collections/{id}/items: its default, and the most it gives (larger limits are capped). */
export const DEFAULT_LIMIT = 10
export const MAX_LIMIT = 1000

/**
 * The largest `offset` of /items: PostgreSQL's and SQLite's 32-bit signed integer. Prisma and both databases take
 * it; a larger one (past 2^53 it is not even a whole number in JavaScript) used to reach the query and fail there
 * as a 500. No GIS client pages two billion places in, so more is a 400 naming this limit, not a silent cap: a cap
 * would answer a page other than the one asked for.
 */
export const MAX_OFFSET = 2_147_483_647
