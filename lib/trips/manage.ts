import 'server-only'
import { z } from 'zod'
import { OPERATOR, type Caller } from '../auth/callers'
import { canManageTrips, type Actor } from '../auth/capabilities'
import { getDb, lockTables, transaction, type Tx } from '../db'
import { ApiError, forbidden } from '../http/errors'
import { parseOrThrow } from '../http/params'
import { ROUTE_PRECISIONS, routePrecisionOf } from '../places/location-levels'
import { isPublicTrip, PUBLIC_TRIP_WHERE, publicTripColumns } from '../places/visibility'
import { readTripTracks } from './trips'

// Trips as editors and operators keep them (docs/trips.md): listed, their title, description, status and route level
// changed, deleted. Editors and administrators (canManageTrips), in the admin and with `places trip`.

export type TripSummary = {
  id: number
  slug: string
  title: string
  description: string
  status: 'publish' | 'draft'
  routePrecision: (typeof ROUTE_PRECISIONS)[number]
  startedAt: string | null
  distanceMetres: number
  tracks: number
  points: number
  posts: number
}

export const tripUpdateSchema = z.object({
  title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional(),
  description: z.string().max(10_000, 'must be at most 10,000 characters').optional(),
  status: z.enum(['publish', 'draft'], { error: 'must be publish or draft' }).optional(),
  routePrecision: z.enum(ROUTE_PRECISIONS, { error: `must be one of ${ROUTE_PRECISIONS.join(', ')}` }).optional(),
})
export type TripUpdate = z.input<typeof tripUpdateSchema>

function mayManage(actor: Caller): void {
  if (actor !== OPERATOR && !canManageTrips(actor)) throw forbidden()
}

const noTrip = (id: number) => new ApiError('rest_trip_invalid_id', `There is no trip ${id}.`)

/** Every trip, drafts included, newest first. */
export async function listTrips(actor: Caller): Promise<TripSummary[]> {
  mayManage(actor)
  const rows = await getDb().trip.findMany({
    orderBy: [{ startedAt: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }],
    select: {
      id: true,
      slug: true,
      title: true,
      description: true,
      status: true,
      routePrecision: true,
      startedAt: true,
      distanceMetres: true,
      tracks: { select: { pointCount: true } },
      _count: { select: { posts: true } },
    },
  })
  return rows.map(({ tracks, _count, startedAt, status, routePrecision, ...trip }) => ({
    ...trip,
    status: status === 'draft' ? 'draft' : 'publish',
    routePrecision: routePrecisionOf(routePrecision),
    startedAt: startedAt?.toISOString() ?? null,
    tracks: tracks.length,
    points: tracks.reduce((sum, track) => sum + track.pointCount, 0),
    posts: _count.posts,
  }))
}

/** A trip as the post editor offers it. */
export type TripOption = { id: number; title: string; status: string }

/**
 * The trips `actor` may put a post on, newest first: every trip for who keeps trips (canManageTrips); the published
 * ones for others, and the post's own (`current`), so a draft trip's title reaches no one else.
 */
export async function listTripOptions(actor: Actor, current: number | null): Promise<TripOption[]> {
  return getDb().trip.findMany({
    where: canManageTrips(actor) ? {} : { OR: [PUBLIC_TRIP_WHERE, ...(current ? [{ id: current }] : [])] },
    orderBy: [{ startedAt: { sort: 'desc', nulls: 'last' } }, { id: 'desc' }],
    select: { id: true, title: true, status: true },
  })
}

/** Whether `actor` may put a post on trip `tripId` (listTripOptions' rule), within the transaction that does it. */
export async function mayChooseTrip(tx: Tx, actor: Actor, tripId: number): Promise<boolean> {
  const trip = await tx.trip.findUnique({ where: { id: tripId }, select: { status: true } })
  return trip !== null && (canManageTrips(actor) || isPublicTrip(trip))
}

/** Changes a trip; a new route level is applied to its route in the same transaction. */
export async function updateTrip(actor: Caller, id: number, input: unknown): Promise<void> {
  mayManage(actor)
  const data = parseOrThrow(tripUpdateSchema, input)
  await transaction(async (tx) => {
    // The zones' writers hold this lock too (lib/places/zones.ts): the route is derived by the zones of the moment.
    await lockTables(tx, ['trips'])
    const trip = await tx.trip.findUnique({ where: { id }, select: { routePrecision: true } })
    if (!trip) throw noTrip(id)
    const route =
      data.routePrecision && data.routePrecision !== trip.routePrecision
        ? publicTripColumns(await readTripTracks(tx, id), data.routePrecision, await tx.privacyZone.findMany())
        : {}
    await tx.trip.update({ where: { id }, data: { ...data, ...route, modifiedAt: new Date() } })
  })
}

/** Deletes a trip and its tracks; its posts stay, on no trip. */
export async function deleteTrip(actor: Caller, id: number): Promise<void> {
  mayManage(actor)
  const { count } = await getDb().trip.deleteMany({ where: { id } })
  if (count === 0) throw noTrip(id)
}
