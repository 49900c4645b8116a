'use client'

import dynamic from 'next/dynamic'
import { useRouter } from 'next/navigation'
import { useState, useTransition } from 'react'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import type { TileSource } from '@/app/_components/basemap'
import { describeGap, describeSkip } from '@/lib/trips/match'
import type { PhotoReview, ReviewedPhoto } from '@/lib/trips/review-photos'
import { acceptTripPhotosAction } from '../../../actions'

// Leaflet touches `window` when it loads: the map is rendered in the browser only.
const PlacementMap = dynamic(() => import('./placement-map'), {
  ssr: false,
  loading: () => (
    <p className="post-map-loading" role="status">
      Loading the map…
    </p>
  ),
})

type Query = { offset?: string; gap?: string; posts?: string; hand?: string }

const placeable = (photo: ReviewedPhoto) => photo.outcome !== 'skipped'
/** Placed there already (an earlier run, or the same review accepted before): nothing to write. */
const already = (photo: ReviewedPhoto) => photo.current !== null && photo.current.latitude === photo.latitude && photo.current.longitude === photo.longitude
const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`

export function PlacementReview({ review, query, handError, tiles }: { review: PhotoReview; query: Query; handError?: string; tiles: TileSource | null }) {
  const router = useRouter()
  const [pending, startTransition] = useTransition()
  const [message, setMessage] = useState<NoticeValue | undefined>(handError ? { tone: 'error', text: handError } : undefined)
  // Sure placements (and the one put by hand) are accepted unless rejected; unsure ones wait to be looked at.
  const [accepted, setAccepted] = useState(
    () => new Set(review.photos.filter((photo) => photo.outcome === 'placed' && !already(photo)).map((photo) => photo.id)),
  )
  const [focused, setFocused] = useState<number | null>(null)
  const [placing, setPlacing] = useState<number | null>(null)
  const candidates = review.photos.filter(placeable)
  const numbers = new Map(candidates.map((photo, index) => [photo.id, index + 1]))
  const skipped = review.photos.filter((photo) => !placeable(photo))
  const from = Date.parse(review.track.from)
  const toWrite = candidates.filter((photo) => accepted.has(photo.id))

  function toggle(id: number, on: boolean) {
    setAccepted((before) => {
      const after = new Set(before)
      if (on) after.add(id)
      else after.delete(id)
      return after
    })
  }

  function pick(latitude: number, longitude: number) {
    if (placing === null) return
    const next = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => Boolean(entry[1])))
    next.set('hand', `${placing},${latitude.toFixed(7)},${longitude.toFixed(7)}`)
    setPlacing(null)
    router.push(`?${next}`)
  }

  function onAccept() {
    const ids = toWrite.map((photo) => photo.id)
    startTransition(async () => {
      const result = await acceptTripPhotosAction(review.trip.id, query, ids)
      if (!result.ok) return setMessage({ tone: 'error', text: result.message })
      const { photos, posts } = result.data
      setMessage({
        tone: 'ok',
        text: `Placed ${photos} ${photos === 1 ? 'photo' : 'photos'}; set the location of ${posts.set} ${posts.set === 1 ? 'post' : 'posts'} without one.`,
      })
      router.refresh()
    })
  }

  const placingPhoto = review.photos.find((photo) => photo.id === placing)
  return (
    <>
      <div aria-live="polite">
        <Notice notice={message} />
        {placingPhoto && (
          <p className="notice review-placing">
            Click the map where “{placingPhoto.title || `photo ${placingPhoto.id}`}” was taken, on the track: its camera&apos;s clock is found from it.{' '}
            <button type="button" className="secondary" onClick={() => setPlacing(null)}>
              Cancel
            </button>
          </p>
        )}
      </div>
      <PlacementMap
        route={review.route}
        markers={candidates.map((photo) => ({
          id: photo.id,
          number: numbers.get(photo.id)!,
          title: photo.title || photo.postTitle,
          latitude: photo.latitude!,
          longitude: photo.longitude!,
          sure: photo.outcome === 'placed',
          accepted: accepted.has(photo.id),
        }))}
        focused={focused}
        tiles={tiles}
        onPick={placing === null ? null : pick}
        onFocus={setFocused}
      />
      {review.photos.length === 0 ? (
        <p className="muted">
          No photos to place: none without a point of its own (a photo placed by hand stays where it was put). Upload the trip&apos;s photos to its posts first.
        </p>
      ) : (
        <>
          <div className="inline review-actions">
            <button type="button" disabled={pending || toWrite.length === 0} onClick={onAccept}>
              Place {toWrite.length} {toWrite.length === 1 ? 'photo' : 'photos'}
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => setAccepted(new Set(candidates.map((photo) => photo.id)))}>
              Accept all
            </button>
            <button type="button" className="secondary" disabled={pending} onClick={() => setAccepted(new Set())}>
              Reject all
            </button>
          </div>
          <table className="post-table review-table">
            <caption className="muted">
              {candidates.length} of {review.photos.length} photos placed on the track; {skipped.length} not.
            </caption>
            <thead>
              <tr>
                <th scope="col">Accept</th>
                <th scope="col">Photo</th>
                <th scope="col">Taken (clock corrected)</th>
                <th scope="col">Where</th>
                <th scope="col">By hand</th>
              </tr>
            </thead>
            <tbody>
              {review.photos.map((photo) => {
                const name = photo.title || `Photo ${photo.id}`
                const number = numbers.get(photo.id)
                return (
                  <tr key={photo.id} className={photo.id === focused ? 'focused' : undefined} onMouseEnter={() => setFocused(photo.id)}>
                    <td>
                      {number !== undefined && (
                        <label className="review-accept">
                          <input type="checkbox" checked={accepted.has(photo.id)} onChange={(event) => toggle(photo.id, event.target.checked)} />
                          <span>
                            {number}
                            <span className="visually-hidden">. Accept “{name}”</span>
                          </span>
                        </label>
                      )}
                    </td>
                    <td>
                      <div className="review-photo">
                        {/* eslint-disable-next-line @next/next/no-img-element -- the stored sizes are served as they are */}
                        {photo.thumbnailUrl && <img src={photo.thumbnailUrl} alt="" width={64} height={48} loading="lazy" />}
                        <span>
                          {name}
                          <br />
                          <a className="muted" href={`/admin/posts/${photo.postId}`}>
                            {photo.postTitle || `Post ${photo.postId}`}
                          </a>
                        </span>
                      </div>
                    </td>
                    <td>{photo.time ? minute(photo.time) : '–'}</td>
                    <td>
                      {photo.outcome === 'skipped' ? (
                        <span className="muted">Not placed: {describeSkip(photo, from)}</span>
                      ) : (
                        <>
                          {photo.latitude}, {photo.longitude}
                          <br />
                          <span className={photo.outcome === 'unsure' ? 'review-unsure' : 'muted'}>
                            {photo.source === 'hand'
                              ? 'placed by hand'
                              : photo.gapMs === 0
                                ? 'taken as the track recorded a point'
                                : `${photo.outcome === 'unsure' ? 'Unsure: ' : ''}within ${describeGap(photo.gapMs!)} of the track's points`}
                            {already(photo) ? '; there already' : ''}
                          </span>
                        </>
                      )}
                    </td>
                    <td>
                      {photo.time && (
                        <button type="button" className="secondary" disabled={pending} aria-pressed={placing === photo.id} onClick={() => setPlacing(photo.id)}>
                          Place “{name}” by hand
                        </button>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </>
      )}
    </>
  )
}
