import 'server-only'
import { canManageTrips, type Actor } from '../auth/capabilities'
import { getDb } from '../db'
import { ApiError, forbidden } from '../http/errors'
import { summarise, type LocateSummary } from '../places/locate'
import { renditionUrl } from '../media/storage'
import { proposePlacements, writePlacements, type CameraClock, type HandPlacement, type TrackPhoto, type TrackSummary } from './locate-from-track'
import { DEFAULT_MAX_GAP_MS, parseClockOffset, parseDuration } from './match'
import { drawLines, DETAIL_TOLERANCE_M, type Line } from './public-route'
import { readTripTracks } from './trips'

// Admin → Trips → Place photos (docs/trips.md): the photos of a trip's time placed on its tracks, shown to an editor
// on a map before anything is written; only the placements the editor accepts are written, each post within its own
// permissions. The review is asked again on accepting, so the browser says which photos, never where they go.

/** Posts named in one review, and the largest id a post can have. */
const MAX_POSTS = 1000
const MAX_ID = 2_147_483_647

/** What the review is asked, as its address says it: `?offset=+01:12&gap=10m&posts=3,4&hand=31,45.77,14.35`. */
export type ReviewRequest = { cameraOffsetMs?: number; maxGapMs: number; postIds?: number[]; byHand?: HandPlacement }

/** The request of a review's address, or what is wrong with it, field by field. */
export function parseReviewRequest(params: Record<string, string | undefined>): { request: ReviewRequest; errors: Record<string, string> } {
  const errors: Record<string, string> = {}
  const request: ReviewRequest = { maxGapMs: DEFAULT_MAX_GAP_MS }
  const offset = params.offset?.trim()
  if (offset) {
    const ms = parseClockOffset(offset)
    if (ms === null) errors.offset = 'Write the offset as +HH:MM (the camera was behind) or -HH:MM (ahead), e.g. +01:12.'
    else request.cameraOffsetMs = ms
  }
  const gap = params.gap?.trim()
  if (gap) {
    const ms = parseDuration(gap)
    if (ms === null || ms === 0) errors.gap = 'Write the gap as a duration, e.g. 90s, 10m or 1h30m.'
    else request.maxGapMs = ms
  }
  if (params.posts) {
    const ids = params.posts.split(',')
    const fine = ids.length <= MAX_POSTS && ids.every((id) => /^\d{1,10}$/.test(id) && Number(id) >= 1 && Number(id) <= MAX_ID)
    if (!fine) errors.posts = `Posts are given by their ids, at most ${MAX_POSTS}, separated by commas.`
    else request.postIds = ids.map(Number)
  }
  if (params.hand) {
    const match = /^(\d{1,10}),(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(params.hand)
    const [photoId, latitude, longitude] = match ? match.slice(1).map(Number) : []
    if (!match || photoId! > MAX_ID || Math.abs(latitude!) > 90 || Math.abs(longitude!) > 180) {
      errors.hand = 'A photo placed by hand is given as its id, latitude and longitude.'
    } else request.byHand = { photoId: photoId!, latitude: latitude!, longitude: longitude! }
  }
  return { request, errors }
}

/** The review's address as it was understood: what `errors` refused is left out, so that accepting asks the same. */
export function cleanReviewQuery(params: Record<string, string | undefined>, errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => Boolean(entry[1]) && !errors[entry[0]]))
}

export type ReviewedPhoto = TrackPhoto & {
  postTitle: string
  thumbnailUrl: string | null
  /** the point it has now, from a track or a hand (a photo with GPS is never placed) */
  current: { latitude: number; longitude: number; source: string } | null
}

export type PhotoReview = {
  trip: { id: number; title: string; slug: string }
  track: TrackSummary
  /** the trip's tracks whole, as who keeps trips sees them: not cut by privacy zones, simplified to within 5 m */
  route: Line[]
  cameras: CameraClock[]
  photos: ReviewedPhoto[]
}

/** A photo taken on a trip was uploaded after it began: a day's slack for a server's clock and a trip's first time. */
const UPLOAD_SLACK_MS = 24 * 3600_000

async function tripFor(actor: Actor, tripId: number) {
  // The review shows the whole track, through the privacy zones, and answers where it passed: who keeps trips only.
  if (!canManageTrips(actor)) throw forbidden()
  const db = getDb()
  const trip = await db.trip.findUnique({ where: { id: tripId }, select: { id: true, title: true, slug: true, startedAt: true } })
  if (!trip) throw new ApiError('rest_trip_invalid_id', `There is no trip ${tripId}.`)
  return { trip, tracks: await readTripTracks(db, tripId) }
}

async function proposal(actor: Actor, tripId: number, request: ReviewRequest) {
  const { trip, tracks } = await tripFor(actor, tripId)
  // Posts named are looked at whenever their photos were uploaded; else those uploaded since the trip began.
  const uploadedSince = request.postIds || !trip.startedAt ? undefined : new Date(trip.startedAt.getTime() - UPLOAD_SLACK_MS)
  const proposed = await proposePlacements({ who: actor, postIds: request.postIds, uploadedSince }, { ...request, tracks })
  return { trip, tracks, ...proposed }
}

/** Where the photos `actor` may edit would go on trip `tripId`'s tracks: nothing is written. */
export async function reviewTripPhotos(actor: Actor, tripId: number, request: ReviewRequest): Promise<PhotoReview> {
  const { trip, tracks, track, cameras, photos } = await proposal(actor, tripId, request)
  const rows = await getDb().attachment.findMany({
    where: { id: { in: photos.map((photo) => photo.id) } },
    select: {
      id: true,
      latitude: true,
      longitude: true,
      locationSource: true,
      post: { select: { title: true } },
      renditions: { select: { fileName: true }, where: { format: 'jpeg' }, orderBy: { width: 'asc' }, take: 1 },
    },
  })
  const byId = new Map(rows.map((row) => [row.id, row]))
  return {
    trip: { id: trip.id, title: trip.title, slug: trip.slug },
    track,
    route: drawLines(tracks, 'exact', [], DETAIL_TOLERANCE_M),
    cameras,
    photos: photos.map((photo) => {
      const row = byId.get(photo.id)
      const placed = row && row.latitude !== null && row.longitude !== null && row.locationSource
      return {
        ...photo,
        postTitle: row?.post.title ?? '',
        thumbnailUrl: row?.renditions[0] ? renditionUrl(row.renditions[0].fileName) : null,
        current: placed ? { latitude: row.latitude!, longitude: row.longitude!, source: row.locationSource! } : null,
      }
    }),
  }
}

export type AcceptedPlacements = { photos: number; posts: LocateSummary }

/** Writes the placements of `photoIds` the review proposes now (placed or unsure), and sets their posts without a location. */
export async function acceptTripPhotos(actor: Actor, tripId: number, request: ReviewRequest, photoIds: readonly number[]): Promise<AcceptedPlacements> {
  const accepted = new Set(photoIds)
  const { photos } = await proposal(actor, tripId, request)
  const placed = photos.filter((photo) => accepted.has(photo.id) && photo.outcome !== 'skipped')
  const { posts, photos: written } = await writePlacements(actor, placed, false)
  return { photos: written, posts: summarise(posts, false) }
}
