import 'server-only'
import type { BBox, OgcTripFeature } from '../api/contract'
import { getConfig } from '../config'
import { getDb } from '../db'
import { tripUrl } from '../places/geojson'
import { partsOf } from '../places/map-index/box'
import { PUBLIC_TRIP_WHERE } from '../places/visibility'
import type { Line } from '../trips/public-route'
import { listPublicTrips, type PublicTrip } from '../trips/trips'

// The published trips as one more collection of the OGC API (docs/api.md, OGC API – Features): a feature a trip, its
// route the MultiLineString of GET /places/v1/trips/{id} (null where its level hides it), so that a GIS draws the
// lines. "trips" is a path of the site, never a post type's key, so it names no other collection.

export const TRIPS_COLLECTION = 'trips'

/**
 * A published trip as the collection filters it: its interval, and the boxes of its route's lines (none when
 * hidden), from the overview route, widened by what simplifying it to within 100 m may have moved.
 */
export type TripEntry = { trip: PublicTrip; boxes: BBox[] }

/** Degrees of latitude in a little more than 100 m. */
const OVERVIEW_MARGIN = 0.001

/** The box of a line cut at the antimeridian (west ≤ east), widened by `margin` metres' worth of degrees. */
function boxOf(line: Line): BBox {
  let [west, south, east, north] = [180, 90, -180, -90]
  for (const [longitude, latitude] of line) {
    ;[west, east] = [Math.min(west, longitude), Math.max(east, longitude)]
    ;[south, north] = [Math.min(south, latitude), Math.max(north, latitude)]
  }
  const across = OVERVIEW_MARGIN / Math.max(Math.cos((Math.max(Math.abs(south), Math.abs(north)) * Math.PI) / 180), 0.01)
  return [Math.max(west - across, -180), Math.max(south - OVERVIEW_MARGIN, -90), Math.min(east + across, 180), Math.min(north + OVERVIEW_MARGIN, 90)]
}

/** The published trips, newest first, each line boxed by its overview route. */
export async function tripEntries(): Promise<TripEntry[]> {
  return (await listPublicTrips()).map((trip) => ({ trip, boxes: (trip.route ?? []).map(boxOf) }))
}

/** Whether a box meets `bbox` (west > east crosses the antimeridian), edges included. */
export function meets(bbox: BBox, [west, south, east, north]: BBox): boolean {
  return partsOf(bbox).some(([w, s, e, n]) => west <= e && east >= w && south <= n && north >= s)
}

/** Whether the segment from a to b meets the box (one that does not cross the antimeridian): Liang–Barsky clipping. */
function segmentMeets([west, south, east, north]: BBox, [x0, y0]: [number, number], [x1, y1]: [number, number]): boolean {
  let [enter, leave] = [0, 1]
  const [dx, dy] = [x1 - x0, y1 - y0]
  const edges: [number, number][] = [
    [-dx, x0 - west],
    [dx, east - x0],
    [-dy, y0 - south],
    [dy, north - y0],
  ]
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false
      continue
    }
    const t = q / p
    if (p < 0) enter = Math.max(enter, t)
    else leave = Math.min(leave, t)
    if (enter > leave) return false
  }
  return true
}

/** Whether a route (its lines cut at the antimeridian, straight between points) meets `bbox`, edges included. */
export function routeMeets(bbox: BBox, route: readonly Line[]): boolean {
  const parts = partsOf(bbox)
  return route.some((line) => line.slice(1).some((point, i) => parts.some((part) => segmentMeets(part, line[i]!, point))))
}

/** Whether a trip's time meets the interval, ends included; a trip without times meets none. */
export function during({ startedAt, endedAt }: PublicTrip, start: number | null, end: number | null): boolean {
  if (!startedAt || !endedAt) return false
  return (start === null || endedAt.getTime() >= start) && (end === null || startedAt.getTime() <= end)
}

/** The extent of the collection: the routes' box (the world when every route is hidden) and the first and last times. */
export function tripsExtent(entries: readonly TripEntry[]): { bbox: BBox; interval: [string | null, string | null] } {
  const boxes = entries.flatMap((entry) => entry.boxes)
  const bbox: BBox =
    boxes.length === 0
      ? [-180, -90, 180, 90]
      : [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))]
  const starts = entries.flatMap(({ trip }) => (trip.startedAt ? [trip.startedAt.getTime()] : []))
  const ends = entries.flatMap(({ trip }) => (trip.endedAt ? [trip.endedAt.getTime()] : []))
  const iso = (times: number[], pick: (...values: number[]) => number) => (times.length === 0 ? null : new Date(pick(...times)).toISOString())
  return { bbox, interval: [iso(starts, Math.min), iso(ends, Math.max)] }
}

/** The routes of the published trips of `ids` in detail (to within 5 m), by id. */
export async function detailRoutes(ids: readonly number[]): Promise<Map<number, Line[] | null>> {
  const rows = await getDb().trip.findMany({ where: { id: { in: [...ids] }, ...PUBLIC_TRIP_WHERE }, select: { id: true, publicRoute: true } })
  return new Map(rows.map((row) => [row.id, row.publicRoute === null ? null : (JSON.parse(row.publicRoute) as Line[])]))
}

export function toOgcTripFeature(trip: PublicTrip, route: Line[] | null): OgcTripFeature {
  return {
    type: 'Feature',
    id: trip.id,
    geometry: route && { type: 'MultiLineString', coordinates: route },
    properties: {
      slug: trip.slug,
      title: trip.title,
      url: tripUrl(getConfig().siteUrl, trip.slug),
      description: trip.description,
      started_at: trip.startedAt?.toISOString() ?? null,
      ended_at: trip.endedAt?.toISOString() ?? null,
      distance_m: trip.distanceMetres,
      climb_m: trip.climbMetres,
    },
  }
}
