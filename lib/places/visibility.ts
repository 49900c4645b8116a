import 'server-only'
import { getConfig } from '../config'
import type { Tx } from '../db'
import { Prisma } from '../generated/sqlite/client'
import { cellCentre } from '../geo/cell'
import { formatPlace, getGazetteer, type Gazetteer } from '../geo/gazetteer'
import { distanceKm, roundCoordinate } from '../geo/precision'
import { DETAIL_TOLERANCE_M, drawLines, keptParts, OVERVIEW_TOLERANCE_M } from '../trips/public-route'
import { tracksFigures, type Track, type TracksFigures } from '../trips/track'
import { coarser, isLocationPrecision, routePrecisionOf, type LocationPrecision } from './location-levels'

// The one rule for what the public may see of a post's location (docs/privacy.md; SECURITY.md, "Who may see what").
// A visitor, an anonymous program, a GIS client or an export made without credentials sees a published post's
// location at its level, made coarser by any privacy zone its exact point lies in:
// - exact: the point and the address as entered;
// - approximate: the centre of the point's fixed cell of about 1 km (lib/geo/cell.ts), and as address the populated
//   place nearest that centre (so the address tells no more than the cell);
// - city: the nearest populated place's centre and name; nothing where no place is near (the open sea);
// - hidden: nothing, neither point nor address.
// The rule runs when a location, its level or a zone changes, and what it allows is kept in the posts' public_*
// columns. Every public surface reads those, in one of the forms below (a row, a Prisma filter, SQL), and never the
// exact columns: a coarsened place cannot be found by its exact point, by a bbox, a cluster or a search by address.

/**
 * The level of a new post from what its source states (an import, WordPress's meta): geo_public false is hidden
 * whatever else is said, a stated level is kept, geo_public true alone is exact (WordPress shows such a place as
 * it is), and a post that states nothing takes the site's default (DEFAULT_LOCATION_PRECISION).
 */
export function levelOfNewPost(stated: { geoPublic?: boolean; precision?: LocationPrecision }): LocationPrecision {
  if (stated.geoPublic === false) return 'hidden'
  return stated.precision ?? (stated.geoPublic ? 'exact' : getConfig().defaultLocationPrecision)
}

/** What the rule reads of a post. */
export type ExactLocation = { latitude: number | null; longitude: number | null; address: string; locationPrecision: string }

/** What the rule allows the public, as the posts table keeps it. */
export type PublicColumns = { publicLatitude: number | null; publicLongitude: number | null; publicAddress: string }

/** A privacy zone as the rule reads it. */
export type Zone = { latitude: number; longitude: number; radiusMetres: number; level: string }

const NOTHING: PublicColumns = { publicLatitude: null, publicLongitude: null, publicAddress: '' }

function levelOf(value: string): LocationPrecision {
  // An unknown level (a row written by hand) shows nothing rather than too much.
  return isLocationPrecision(value) ? value : 'hidden'
}

/** The coarsest level of the zones the point lies in; null when it lies in none. */
export function zoneLevelAt(point: { latitude: number; longitude: number }, zones: readonly Zone[]): LocationPrecision | null {
  let level: LocationPrecision | null = null
  for (const zone of zones) {
    if (distanceKm(point, zone) * 1000 <= zone.radiusMetres) level = level ? coarser(level, levelOf(zone.level)) : levelOf(zone.level)
  }
  return level
}

/** The level the public sees a location at: its own, or a zone's where that is coarser. */
export function effectivePrecision(location: ExactLocation, zones: readonly Zone[]): LocationPrecision {
  const own = levelOf(location.locationPrecision)
  const { latitude, longitude } = location
  if (latitude === null || longitude === null) return own
  const zone = zoneLevelAt({ latitude, longitude }, zones)
  return zone ? coarser(own, zone) : own
}

function needsGazetteer(level: LocationPrecision): boolean {
  return level === 'approximate' || level === 'city'
}

/** The rule itself, given the level it applies and, for approximate and city, the gazetteer. */
export function derivePublicColumns(location: ExactLocation, level: LocationPrecision, gazetteer: Gazetteer | null): PublicColumns {
  const { latitude, longitude, address } = location
  if (level === 'hidden') return NOTHING
  if (latitude === null || longitude === null) return level === 'exact' ? { ...NOTHING, publicAddress: address } : NOTHING
  if (level === 'exact') return { publicLatitude: latitude, publicLongitude: longitude, publicAddress: address }
  if (!gazetteer) throw new Error(`the ${level} level needs the gazetteer`)
  if (level === 'approximate') {
    const centre = cellCentre(latitude, longitude)
    const place = gazetteer.reverseGeocode(centre.latitude, centre.longitude)
    return { publicLatitude: centre.latitude, publicLongitude: centre.longitude, publicAddress: place ? formatPlace(place) : '' }
  }
  const place = gazetteer.reverseGeocode(latitude, longitude)
  if (!place) return NOTHING
  return { publicLatitude: roundCoordinate(place.latitude), publicLongitude: roundCoordinate(place.longitude), publicAddress: formatPlace(place) }
}

/** The rule with the privacy zones read once: for a write of one post, or of many (an import). */
export class PublicLocationRule {
  private constructor(readonly zones: readonly Zone[]) {}

  static async load(tx: Pick<Tx, 'privacyZone'>): Promise<PublicLocationRule> {
    return new PublicLocationRule(await tx.privacyZone.findMany({ select: { latitude: true, longitude: true, radiusMetres: true, level: true } }))
  }

  /** The public columns of a location. */
  async columns(location: ExactLocation): Promise<PublicColumns> {
    const level = effectivePrecision(location, this.zones)
    return derivePublicColumns(location, level, needsGazetteer(level) ? await getGazetteer() : null)
  }
}

/** The public columns of one location, as a write of it stores them. */
export async function publicColumnsOf(tx: Tx, location: ExactLocation): Promise<PublicColumns> {
  return (await PublicLocationRule.load(tx)).columns(location)
}

const REFRESH_BATCH = 1000

/**
 * Applies the rule again to the posts with a point that `where` selects (those near a zone that was added or
 * removed), in batches by id; returns how many changed.
 */
export async function refreshPublicLocations(tx: Tx, where: Prisma.PostWhereInput): Promise<number> {
  const rule = await PublicLocationRule.load(tx)
  let changed = 0
  for (let after = 0; ;) {
    const rows = await tx.post.findMany({
      where: { AND: [where, { id: { gt: after }, latitude: { not: null } }] },
      orderBy: { id: 'asc' },
      take: REFRESH_BATCH,
      select: {
        id: true,
        latitude: true,
        longitude: true,
        address: true,
        locationPrecision: true,
        publicLatitude: true,
        publicLongitude: true,
        publicAddress: true,
      },
    })
    for (const row of rows) {
      const next = await rule.columns(row)
      if (next.publicLatitude === row.publicLatitude && next.publicLongitude === row.publicLongitude && next.publicAddress === row.publicAddress) continue
      await tx.post.update({ where: { id: row.id }, data: next })
      changed++
    }
    if (rows.length < REFRESH_BATCH) return changed
    after = rows.at(-1)!.id
  }
}

/** What the public may see of a post's location: its address and point (null when it has none), or null for nothing. */
export type PublicLocation = { address: string; point: { latitude: number; longitude: number } | null }

/** The columns publicLocation reads. */
export type PublicLocatedPost = { status: string } & PublicColumns

export function publicLocation(post: PublicLocatedPost): PublicLocation | null {
  const { status, publicLatitude, publicLongitude, publicAddress } = post
  if (status !== 'publish') return null
  const point = publicLatitude !== null && publicLongitude !== null ? { latitude: publicLatitude, longitude: publicLongitude } : null
  return point || publicAddress ? { address: publicAddress, point } : null
}

/** The public places (published, with a point the public may see), as a Prisma filter on posts. */
export const PUBLIC_PLACE_WHERE = { status: 'publish', publicLatitude: { not: null } } as const satisfies Prisma.PostWhereInput

/**
 * The public places, as SQL on posts aliased `p`: word for word the WHERE clause of the partial index
 * posts_public_places_idx (migration 0006), since the planner uses a partial index only when the query names its condition.
 */
export const IS_PUBLIC_PLACE_SQL = Prisma.sql`p."status" = 'publish' AND p."public_latitude" IS NOT NULL`

/** A public place's columns as the public sees them, under the names of the exact ones, as SQL on posts aliased `p`. */
export const PUBLIC_LOCATION_COLUMNS_SQL = Prisma.sql`p."public_address" AS "address", p."public_latitude" AS "latitude", p."public_longitude" AS "longitude"`

// Trips (docs/trips.md): the public sees a published trip's title and description, of its tracks the lines
// lib/trips/public-route.ts allows at the trip's level (exact; approximate, through the ~1 km cells' centres; hidden,
// none), and what is said of them (distance, time, climb) counted on the points the zones leave: every privacy zone
// cuts them, whatever its level. As for posts, the rule runs when a track, the level or a zone changes, and its answer
// is kept in the trips' columns, which every public surface reads.

/**
 * What the rule allows the public of a trip, as the trips table keeps it: its route as MultiLineString coordinates
 * (JSON), and what is said of it, counted on the points the zones leave.
 */
export type PublicTripColumns = { publicRoute: string | null; publicOverview: string | null } & TracksFigures

/** The public columns of a trip: its tracks at its level, cut by the zones. */
export function publicTripColumns(tracks: readonly Track[], routePrecision: string, zones: readonly Zone[]): PublicTripColumns {
  const level = routePrecisionOf(routePrecision)
  const parts = keptParts(tracks, zones)
  const drawn = (tolerance: number) => {
    if (level === 'hidden') return null
    const lines = drawLines(parts, level, zones, tolerance)
    return lines.length > 0 ? JSON.stringify(lines) : null
  }
  return { publicRoute: drawn(DETAIL_TOLERANCE_M), publicOverview: drawn(OVERVIEW_TOLERANCE_M), ...tracksFigures(parts) }
}

/** The public trips, as a Prisma filter on trips. */
export const PUBLIC_TRIP_WHERE = { status: 'publish' } as const satisfies Prisma.TripWhereInput

/** Whether the public may see a trip (PUBLIC_TRIP_WHERE, on a row read). */
export function isPublicTrip(trip: { status: string }): boolean {
  return trip.status === PUBLIC_TRIP_WHERE.status
}

/** The posts the public may read (a trip's stops, each at its own level), as a Prisma filter on posts. */
export const PUBLISHED_POST_WHERE = { status: 'publish' } as const satisfies Prisma.PostWhereInput
