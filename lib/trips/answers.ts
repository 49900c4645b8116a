import 'server-only'
import type { TripCollection, TripFeature } from '../api/contract'
import { getConfig } from '../config'
import { getDb } from '../db'
import { ApiError } from '../http/errors'
import { postUrl, tripUrl } from '../places/geojson'
import { publicAnswer, type GeojsonAnswer } from '../places/public'
import { PUBLISHED_POST_WHERE, publicLocation } from '../places/visibility'
import { findPublicTrip, listPublicTrips, type PublicTrip } from './trips'

// GET /places/v1/trips and /trips/{id} (docs/api.md, Trips): what the public may see of published trips, as GeoJSON.
// Cached and revalidated as every public answer is (lib/places/public.ts): a trip's write bumps the data version.

const GEOJSON_TYPE = 'application/geo+json'

/** The published posts of each trip, oldest first: what its page lists along the route. */
export async function publishedPostsOf(tripIds: readonly number[]): Promise<Map<number, number[]>> {
  const rows = await getDb().post.findMany({
    where: { tripId: { in: [...tripIds] }, ...PUBLISHED_POST_WHERE },
    select: { id: true, tripId: true },
    orderBy: [{ publishedAt: 'asc' }, { id: 'asc' }],
  })
  const posts = new Map<number, number[]>(tripIds.map((id) => [id, []]))
  for (const row of rows) posts.get(row.tripId!)!.push(row.id)
  return posts
}

function toTripFeature(trip: PublicTrip, posts: number[], siteUrl: string): TripFeature {
  return {
    type: 'Feature',
    geometry: trip.route && { type: 'MultiLineString', coordinates: trip.route },
    properties: {
      id: trip.id,
      slug: trip.slug,
      title: trip.title,
      url: tripUrl(siteUrl, trip.slug),
      description: trip.description,
      started_at: trip.startedAt?.toISOString() ?? null,
      ended_at: trip.endedAt?.toISOString() ?? null,
      distance_m: trip.distanceMetres,
      climb_m: trip.climbMetres,
      posts,
    },
  }
}

/** Every published trip, newest first, each route simplified for a small map. */
export async function getTripCollection(): Promise<GeojsonAnswer> {
  const build = async () => {
    const trips = await listPublicTrips()
    const posts = await publishedPostsOf(trips.map((trip) => trip.id))
    const { siteUrl } = getConfig()
    const collection: TripCollection = { type: 'FeatureCollection', features: trips.map((trip) => toTripFeature(trip, posts.get(trip.id)!, siteUrl)) }
    return JSON.stringify(collection)
  }
  return { ...(await publicAnswer('trips', {}, build)), contentType: GEOJSON_TYPE }
}

/** One published trip, its route in detail; 404 `rest_trip_invalid_id` for none the public may see. */
export async function getTripFeature(id: number): Promise<GeojsonAnswer> {
  const build = async () => {
    const trip = await findPublicTrip({ id })
    if (!trip) throw new ApiError('rest_trip_invalid_id', 'Invalid trip ID.')
    const posts = await publishedPostsOf([id])
    return JSON.stringify(toTripFeature(trip, posts.get(id)!, getConfig().siteUrl))
  }
  return { ...(await publicAnswer('trip', { id }, build, { mayFail: true })), contentType: GEOJSON_TYPE }
}

/** A post along a trip, as its page lists it: where the public may see it, if anywhere. */
export type TripStop = { id: number; title: string; url: string; publishedAt: Date; point: { latitude: number; longitude: number } | null }

/** A published trip's page (app/trip/[slug]/page.tsx): the trip and its published posts, oldest first; null for none. */
export async function findTripPage(slug: string): Promise<{ trip: PublicTrip; stops: TripStop[] } | null> {
  const trip = await findPublicTrip({ slug })
  if (!trip) return null
  const rows = await getDb().post.findMany({
    where: { tripId: trip.id, ...PUBLISHED_POST_WHERE },
    select: {
      id: true,
      type: true,
      slug: true,
      title: true,
      publishedAt: true,
      status: true,
      publicLatitude: true,
      publicLongitude: true,
      publicAddress: true,
    },
    orderBy: [{ publishedAt: 'asc' }, { id: 'asc' }],
  })
  const { siteUrl } = getConfig()
  const stops = rows.map((row) => ({
    id: row.id,
    title: row.title,
    url: postUrl(siteUrl, row.type, row.slug),
    publishedAt: row.publishedAt,
    point: publicLocation(row)?.point ?? null,
  }))
  return { trip, stops }
}
