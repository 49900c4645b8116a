import 'server-only'
import { getDb, type Tx } from '../db'
import type { RoutePrecision } from '../places/location-levels'
import { KM_PER_DEGREE } from '../geo/precision'
import { PUBLIC_TRIP_WHERE, publicTripColumns, type Zone } from '../places/visibility'
import { freeSlug } from '../slugs'
import type { Line } from './public-route'
import { packTrack, unpackTrack, type Track } from './track'

// Trips (docs/trips.md): a journey's tracks, kept whole, and the posts written along it. What the public sees of a
// trip is read from the columns lib/places/visibility.ts derives; nothing public reads the tracks themselves.

export type TripInput = {
  title: string
  slug?: string
  description?: string
  status?: 'publish' | 'draft'
  routePrecision?: RoutePrecision
  tracks: readonly Track[]
}

async function readZones(tx: Tx): Promise<Zone[]> {
  return tx.privacyZone.findMany({ select: { latitude: true, longitude: true, radiusMetres: true, level: true } })
}

/** The box of the whole tracks (longitudes as recorded: a track across the antimeridian spans the world). */
function boxOf(tracks: readonly Track[]): { south: number; west: number; north: number; east: number } | Record<string, never> {
  let [south, west, north, east] = [90, 180, -90, -180]
  for (const track of tracks) {
    for (const latitude of track.latitudes) [south, north] = [Math.min(south, latitude), Math.max(north, latitude)]
    for (const longitude of track.longitudes) [west, east] = [Math.min(west, longitude), Math.max(east, longitude)]
  }
  return south <= north ? { south, west, north, east } : {}
}

/**
 * Writes a trip and its tracks, with what the public may see of them; returns its id and slug. The caller holds the
 * trips' write lock (lockTables), as the zones' writers do, so the zones read here are those of the commit.
 */
export async function createTrip(tx: Tx, input: TripInput): Promise<{ id: number; slug: string }> {
  const routePrecision = input.routePrecision ?? 'exact'
  const base = input.slug ?? input.title
  const taken = new Set((await tx.trip.findMany({ select: { slug: true } })).map((trip) => trip.slug))
  const trip = await tx.trip.create({
    data: {
      title: input.title,
      slug: freeSlug(base, (slug) => taken.has(slug)),
      description: input.description ?? '',
      status: input.status ?? 'publish',
      routePrecision,
      ...boxOf(input.tracks),
      ...publicTripColumns(input.tracks, routePrecision, await readZones(tx)),
    },
    select: { id: true, slug: true },
  })
  await tx.tripTrack.createMany({
    data: input.tracks.map((track, position) => ({
      tripId: trip.id,
      position,
      name: track.name,
      pointCount: track.latitudes.length,
      points: packTrack(track),
    })),
  })
  return trip
}

/** A trip's tracks, whole, in their order. */
export async function readTripTracks(tx: Tx, tripId: number): Promise<Track[]> {
  const rows = await tx.tripTrack.findMany({ where: { tripId }, orderBy: [{ position: 'asc' }, { id: 'asc' }], select: { name: true, points: true } })
  return rows.map((row) => unpackTrack(row.name, row.points))
}

/**
 * Applies the rule again to the trips whose tracks come near `zone` (one added or removed); returns how many the
 * public now sees differently.
 */
export async function refreshPublicTrips(tx: Tx, zone: { latitude: number; longitude: number; radiusMetres: number }): Promise<number> {
  const zones = await readZones(tx)
  // The zone's box, with two cells to spare (a cell touching the zone withholds its points), overlapping the trip's.
  const dLat = ((zone.radiusMetres / 1000) * 1.01 + 2) / KM_PER_DEGREE
  const cos = Math.cos((Math.min(90, Math.abs(zone.latitude) + dLat) * Math.PI) / 180)
  const dLng = cos > 0.01 ? dLat / cos : 360
  const near = {
    south: { lte: zone.latitude + dLat },
    north: { gte: zone.latitude - dLat },
    // A box that wraps round the antimeridian is not narrowed by longitude.
    ...(Math.abs(zone.longitude) + dLng < 180 ? { west: { lte: zone.longitude + dLng }, east: { gte: zone.longitude - dLng } } : {}),
  }
  let changed = 0
  const trips = await tx.trip.findMany({
    where: near,
    select: {
      id: true,
      routePrecision: true,
      publicRoute: true,
      publicOverview: true,
      distanceMetres: true,
      climbMetres: true,
      startedAt: true,
      endedAt: true,
    },
    orderBy: { id: 'asc' },
  })
  for (const { id, routePrecision, ...current } of trips) {
    const next = publicTripColumns(await readTripTracks(tx, id), routePrecision, zones)
    // Every column the rule writes compared: a zone at the start may change the start time and nothing else.
    const same = (Object.keys(next) as (keyof typeof next)[]).every((key) => String(next[key]?.valueOf()) === String(current[key]?.valueOf()))
    if (same) continue
    await tx.trip.update({ where: { id }, data: { ...next, modifiedAt: new Date() } })
    changed++
  }
  return changed
}

/** A trip as the public sees it. */
export type PublicTrip = {
  id: number
  slug: string
  title: string
  description: string
  startedAt: Date | null
  endedAt: Date | null
  distanceMetres: number
  climbMetres: number | null
  /** the route's lines, or null where the public sees none */
  route: Line[] | null
}

const PUBLIC_TRIP_SELECT = {
  id: true,
  slug: true,
  title: true,
  description: true,
  startedAt: true,
  endedAt: true,
  distanceMetres: true,
  climbMetres: true,
} as const

/** The published trips, newest first, each with its route simplified for a small map. */
export async function listPublicTrips(): Promise<PublicTrip[]> {
  const rows = await getDb().trip.findMany({
    where: PUBLIC_TRIP_WHERE,
    select: { ...PUBLIC_TRIP_SELECT, publicOverview: true },
    orderBy: [{ startedAt: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }],
  })
  return rows.map(({ publicOverview, ...trip }) => ({ ...trip, route: publicOverview === null ? null : (JSON.parse(publicOverview) as Line[]) }))
}

/** A published trip by id or slug, with its route in detail; null for none (or none the public may see). */
export async function findPublicTrip(key: { id: number } | { slug: string }): Promise<PublicTrip | null> {
  const row = await getDb().trip.findFirst({ where: { ...key, ...PUBLIC_TRIP_WHERE }, select: { ...PUBLIC_TRIP_SELECT, publicRoute: true } })
  if (!row) return null
  const { publicRoute, ...trip } = row
  return { ...trip, route: publicRoute === null ? null : (JSON.parse(publicRoute) as Line[]) }
}
