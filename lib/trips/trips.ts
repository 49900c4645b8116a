import 'server-only'
import { getDb, type Tx } from '../db'
import { ROUTE_PRECISIONS, type RoutePrecision } from '../places/location-levels'
import { PUBLIC_TRIP_WHERE, publicRouteColumns, type Zone } from '../places/visibility'
import { freeSlug } from '../slugs'
import type { Line } from './public-route'
import { packTrack, trackStats, unpackTrack, type Track } from './track'

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

/** A trip's level when its source says none: the site's default for posts, where a route can show it. */
export function defaultRoutePrecision(postDefault: string): RoutePrecision {
  return (ROUTE_PRECISIONS as readonly string[]).includes(postDefault) ? (postDefault as RoutePrecision) : 'hidden'
}

/** What is said of the tracks together: distance, climb, first and last times. */
function tripFigures(tracks: readonly Track[]) {
  let [distanceMetres, climbMetres, first, last] = [0, null as number | null, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]
  for (const track of tracks) {
    const stats = trackStats(track)
    distanceMetres += stats.distanceM
    if (stats.elevationGainM !== null) climbMetres = (climbMetres ?? 0) + stats.elevationGainM
    for (const time of track.times) if (!Number.isNaN(time)) [first, last] = [Math.min(first, time), Math.max(last, time)]
  }
  const when = (ms: number) => (Number.isFinite(ms) ? new Date(ms) : null)
  return {
    distanceMetres: Math.round(distanceMetres),
    climbMetres: climbMetres === null ? null : Math.round(climbMetres),
    startedAt: when(first),
    endedAt: when(last),
  }
}

async function readZones(tx: Tx): Promise<Zone[]> {
  return tx.privacyZone.findMany({ select: { latitude: true, longitude: true, radiusMetres: true, level: true } })
}

/** Writes a trip and its tracks, with what the public may see of them; returns its id and slug. */
export async function createTrip(tx: Tx, input: TripInput, zones?: readonly Zone[]): Promise<{ id: number; slug: string }> {
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
      ...tripFigures(input.tracks),
      ...publicRouteColumns(input.tracks, routePrecision, zones ?? (await readZones(tx))),
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

/** Applies the rule again to every trip's route (a privacy zone was added or removed); returns how many changed. */
export async function refreshPublicRoutes(tx: Tx): Promise<number> {
  const zones = await readZones(tx)
  let changed = 0
  for (const trip of await tx.trip.findMany({ select: { id: true, routePrecision: true, publicRoute: true, publicOverview: true }, orderBy: { id: 'asc' } })) {
    const next = publicRouteColumns(await readTripTracks(tx, trip.id), trip.routePrecision, zones)
    if (next.publicRoute === trip.publicRoute && next.publicOverview === trip.publicOverview) continue
    await tx.trip.update({ where: { id: trip.id }, data: next })
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
