import { Prisma } from '../generated/sqlite/client'

// The one rule for what the public may see of a post's location (SECURITY.md, "Who may see what"): a visitor, an
// anonymous program, a GIS client or an export made without credentials sees a post's address and point only when
// the post is published and its location is public (WordPress's geo_public). A private location is no point *and*
// no address, on every public surface. A public place is a post whose public location has a point: what the map,
// the GeoJSON routes and OGC serve. Every public surface asks this module, in one of its three forms (a row, a
// Prisma filter, SQL), which say the same thing.

/** The columns the rule reads. */
export type LocatedPost = {
  status: string
  latitude: number | null
  longitude: number | null
  locationPublic: boolean
  address: string
}

/** What the public may see of a post's location: its address and point (null when it has none), or null for nothing. */
export type PublicLocation = { address: string; point: { latitude: number; longitude: number } | null }

export function publicLocation(post: LocatedPost): PublicLocation | null {
  const { status, latitude, longitude, locationPublic, address } = post
  if (status !== 'publish' || !locationPublic) return null
  return { address, point: latitude !== null && longitude !== null ? { latitude, longitude } : null }
}

/** The public places, as a Prisma filter on posts. */
export const PUBLIC_PLACE_WHERE = {
  status: 'publish',
  latitude: { not: null },
  longitude: { not: null },
  locationPublic: true,
} as const satisfies Prisma.PostWhereInput

/**
 * The public places, as SQL on posts aliased `p`: word for word the WHERE clause of the partial index posts_public_places_idx
 * (both migrations), since the planner uses a partial index only when the query names its condition.
 */
export const IS_PUBLIC_PLACE_SQL = Prisma.sql`p."status" = 'publish' AND p."latitude" IS NOT NULL AND p."longitude" IS NOT NULL AND p."location_public" = TRUE`
