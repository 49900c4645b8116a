import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { Notice } from '@/app/admin/_components/notice'
import { requireSessionActor } from '@/lib/admin/session'
import { getConfig } from '@/lib/config'
import { ApiError } from '@/lib/http/errors'
import { parsePostId } from '@/lib/places/schemas'
import { describeClock } from '@/lib/trips/match'
import { cleanReviewQuery, parseReviewRequest, reviewTripPhotos, type PhotoReview } from '@/lib/trips/review-photos'
import { PlacementReview } from './_components/placement-review'

export const metadata: Metadata = { title: 'Place photos from a track' }

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)

// GET /admin/trips/{id}/photos – where the photos without GPS of the posts the user may edit would go on the trip's
// tracks, to accept or reject before anything is written (docs/trips.md, Placing photos in the admin)
export default async function PlacePhotosPage({ params, searchParams }: PageProps<'/admin/trips/[id]/photos'>) {
  const { id: rawId } = await params
  const query = await searchParams
  const actor = await requireSessionActor(`/admin/trips/${encodeURIComponent(rawId)}/photos`)
  const tripId = parsePostId(rawId)
  if (tripId === null) notFound()
  const asked = { offset: one(query.offset), gap: one(query.gap), posts: one(query.posts), hand: one(query.hand) }
  const { request, errors } = parseReviewRequest(asked)
  // Posts named wrongly are not taken for none: that would review every photo since the trip began.
  if (errors.posts) return <Refused message={errors.posts} />
  const review = async (): Promise<PhotoReview | null> => {
    try {
      return await reviewTripPhotos(actor, tripId, request)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      if (error.code === 'rest_invalid_param' && request.byHand && errors.hand === undefined) {
        // A photo put where the track never was: said beside the map, and the rest reviewed without it.
        errors.hand = error.message
        request.byHand = undefined
        return reviewTripPhotos(actor, tripId, request)
      }
      if (error.code === 'rest_trip_invalid_id' || error.status === 403) return null
      throw error
    }
  }
  let found: PhotoReview | null
  try {
    found = await review()
  } catch (error) {
    // A trip of planned routes only: nothing to place by.
    if (!(error instanceof ApiError) || error.code !== 'rest_invalid_param') throw error
    return <Refused message={error.message} />
  }
  if (!found) notFound()
  const { trip, track, cameras } = found
  const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`
  const field = (name: keyof typeof asked) => ({
    id: `review-${name}`,
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(`review-${name}`, errors[name], `review-${name}-hint`),
  })
  return (
    <>
      <p className="muted">
        <a href="/admin/trips">Trips</a> ›
      </p>
      <h1>Place photos from “{trip.title}”</h1>
      <p>
        Each photo without GPS {request.postIds ? 'of the posts chosen' : 'uploaded since the trip began, of the posts you may edit,'} is put where the track
        was when it was taken. Check them on the map, then place the ones you accept: nothing is written before. A post without a location takes its first
        placed photo&apos;s point.
      </p>
      <p className="muted">
        {track.tracks === 1 ? '1 track' : `${track.tracks} tracks`}, {track.timedPoints.toLocaleString('en')} points with a time, from {minute(track.from)} to{' '}
        {minute(track.to)}, {(track.distanceM / 1000).toFixed(1)} km
      </p>
      <form className="admin-form review-options" method="get" aria-label="Matching">
        {asked.posts && !errors.posts && <input type="hidden" name="posts" value={asked.posts} />}
        {request.byHand && <input type="hidden" name="hand" value={asked.hand} />}
        <div className="field">
          <label htmlFor="review-offset">Camera clock offset</label>
          <input {...field('offset')} defaultValue={asked.offset ?? ''} placeholder="found from photos" autoComplete="off" />
          <p className="hint" id="review-offset-hint">
            What to add to every camera&apos;s times: +01:12 when it was 1 h 12 min behind. Empty: each camera&apos;s is found from its photos with GPS.
          </p>
          <FieldError id="review-offset" message={errors.offset} />
        </div>
        <div className="field">
          <label htmlFor="review-gap">Furthest from a track point</label>
          <input {...field('gap')} defaultValue={asked.gap ?? '10m'} autoComplete="off" />
          <p className="hint" id="review-gap-hint">
            A photo taken further in time from the track&apos;s points is not placed: 90s, 10m, 1h30m.
          </p>
          <FieldError id="review-gap" message={errors.gap} />
        </div>
        <button type="submit">Match again</button>
      </form>
      <ul className="review-cameras" aria-label="Cameras' clocks">
        {cameras.map((clock) => (
          <li key={clock.camera}>{describeClock(clock)}</li>
        ))}
      </ul>
      <PlacementReview review={found} query={cleanReviewQuery(asked, errors)} handError={errors.hand} tiles={getConfig().mapTiles} />
    </>
  )
}

function Refused({ message }: { message: string }) {
  return (
    <>
      <h1>Place photos from a track</h1>
      <Notice notice={{ tone: 'error', text: message }} />
    </>
  )
}
