import 'server-only'
import { z } from 'zod'
import { OPERATOR, type Caller } from '../auth/callers'
import { canManageZones } from '../auth/capabilities'
import { getDb, lockTables, transaction } from '../db'
import type { Prisma } from '../generated/sqlite/client'
import { KM_PER_DEGREE, roundCoordinate } from '../geo/precision'
import { ApiError, forbidden } from '../http/errors'
import { parseOrThrow } from '../http/params'
import { ZONE_LEVELS, type ZoneLevel } from './location-levels'
import { refreshPublicTrips } from '../trips/trips'
import { refreshPublicLocations } from './visibility'

// Privacy zones (docs/privacy.md): circles such as a home, in which every post is shown at least as coarsely as the
// zone's level, whatever its own. Administrators keep them (manage_options), in the admin and with `places zone`.
// Adding or removing one applies the rule again to the posts near it, in the same transaction, so that no answer
// shows a post by the old zones once the change is committed.

export type PrivacyZone = { id: number; name: string; latitude: number; longitude: number; radiusMetres: number; level: ZoneLevel; createdAt: string }

/** The largest radius: 500 km, a region; larger is more likely a typo (metres for kilometres) than a wish. */
export const MAX_ZONE_RADIUS_METRES = 500_000

export const zoneInputSchema = z.object({
  name: z.string().trim().max(200, 'must be at most 200 characters').default(''),
  latitude: z
    .number({ error: 'must be a number between -90 and 90' })
    .min(-90, 'must be between -90 and 90')
    .max(90, 'must be between -90 and 90')
    .transform(roundCoordinate),
  longitude: z
    .number({ error: 'must be a number between -180 and 180' })
    .min(-180, 'must be between -180 and 180')
    .max(180, 'must be between -180 and 180')
    .transform(roundCoordinate),
  radiusMetres: z
    .number({ error: 'must be a number of metres' })
    .int('must be a whole number of metres')
    .min(1, 'must be at least 1 metre')
    .max(MAX_ZONE_RADIUS_METRES, `must be at most ${MAX_ZONE_RADIUS_METRES.toLocaleString('en')} metres`),
  level: z.enum(ZONE_LEVELS, { error: `must be one of ${ZONE_LEVELS.join(', ')}` }),
})
export type ZoneInput = z.input<typeof zoneInputSchema>

function mayManage(actor: Caller): void {
  if (actor !== OPERATOR && !canManageZones(actor)) throw forbidden()
}

const toZone = (row: { id: number; name: string; latitude: number; longitude: number; radiusMetres: number; level: string; createdAt: Date }): PrivacyZone => ({
  ...row,
  level: row.level as ZoneLevel,
  createdAt: row.createdAt.toISOString(),
})

export async function listZones(actor: Caller): Promise<PrivacyZone[]> {
  mayManage(actor)
  return (await getDb().privacyZone.findMany({ orderBy: { id: 'asc' } })).map(toZone)
}

/**
 * The posts whose exact point may lie in the circle: a box around it, a little larger than the circle (the rule then
 * decides exactly), whole rows of longitude near a pole.
 */
function nearCircle({ latitude, longitude, radiusMetres }: { latitude: number; longitude: number; radiusMetres: number }): Prisma.PostWhereInput {
  const km = (radiusMetres / 1000) * 1.01 + 0.05
  const dLat = km / KM_PER_DEGREE
  const south = latitude - dLat
  const north = latitude + dLat
  const cos = Math.cos((Math.min(90, Math.max(Math.abs(south), Math.abs(north))) * Math.PI) / 180)
  const dLng = cos > 0.01 ? km / (KM_PER_DEGREE * cos) : 360
  const box: Prisma.PostWhereInput = { latitude: { gte: south, lte: north } }
  if (dLng >= 180) return box
  const west = longitude - dLng
  const east = longitude + dLng
  if (west >= -180 && east <= 180) return { ...box, longitude: { gte: west, lte: east } }
  // Across the antimeridian: two ranges.
  return { ...box, OR: [{ longitude: { gte: west < -180 ? west + 360 : west } }, { longitude: { lte: east > 180 ? east - 360 : east } }] }
}

/** A zone of 500 km may hold many posts and long trips, each derived again within the change's transaction. */
const ZONE_CHANGE_TIMEOUT_MS = 120_000

/** Adds a zone; returns it and how many posts the public now sees differently. */
export async function addZone(actor: Caller, input: unknown): Promise<{ zone: PrivacyZone; changed: number }> {
  mayManage(actor)
  const data = parseOrThrow(zoneInputSchema, input)
  return transaction(
    async (tx) => {
      // Every writer of a location holds the posts' write lock before it reads the zones: taking it first, the zone
      // change and a location written meanwhile are one after the other, never both by the old zones. Trips alike.
      await lockTables(tx, ['posts', 'trips'])
      const row = await tx.privacyZone.create({ data })
      const changed = await refreshPublicLocations(tx, nearCircle(row))
      await refreshPublicTrips(tx, row)
      return { zone: toZone(row), changed }
    },
    { timeout: ZONE_CHANGE_TIMEOUT_MS },
  )
}

/** Removes zone `id`; returns how many posts the public now sees differently. */
export async function removeZone(actor: Caller, id: number): Promise<{ changed: number }> {
  mayManage(actor)
  return transaction(
    async (tx) => {
      await lockTables(tx, ['posts', 'trips'])
      const row = await tx.privacyZone.findUnique({ where: { id } })
      if (!row) throw new ApiError('rest_zone_invalid_id', `There is no privacy zone ${id}.`)
      await tx.privacyZone.delete({ where: { id } })
      const changed = await refreshPublicLocations(tx, nearCircle(row))
      await refreshPublicTrips(tx, row)
      return { changed }
    },
    { timeout: ZONE_CHANGE_TIMEOUT_MS },
  )
}
