'use client'

import { useState, useTransition, type FormEvent } from 'react'
import { FieldError, describedBy } from '@/app/admin/_components/field-error'
import { Notice, type NoticeValue } from '@/app/admin/_components/notice'
import type { FieldErrors } from '@/lib/http/params'
import type { TripSummary } from '@/lib/trips/manage'
import { deleteTripAction, updateTripAction } from '../actions'

const LEVELS: Record<TripSummary['routePrecision'], string> = {
  exact: 'Exact: the route as recorded',
  approximate: 'Approximate: through squares of about 1 km',
  hidden: 'Hidden: no route, only the posts',
}

const kilometres = new Intl.NumberFormat('en', { maximumFractionDigits: 1 })

export function Trips({ trips }: { trips: TripSummary[] }) {
  const [message, setMessage] = useState<NoticeValue>()
  const [pending, startTransition] = useTransition()
  return (
    <>
      <div aria-live="polite">
        <Notice notice={message} />
      </div>
      {trips.length === 0 ? (
        <p className="muted">No trips yet: import a GPX or KML file with tracks.</p>
      ) : (
        trips.map((trip) => <TripForm key={trip.id} trip={trip} pending={pending} startTransition={startTransition} setMessage={setMessage} />)
      )}
    </>
  )
}

function TripForm({
  trip,
  pending,
  startTransition,
  setMessage,
}: {
  trip: TripSummary
  pending: boolean
  startTransition: (action: () => Promise<void>) => void
  setMessage: (message: NoticeValue) => void
}) {
  const [errors, setErrors] = useState<FieldErrors>({})
  const id = (name: string) => `trip-${trip.id}-${name}`
  const field = (name: string) => ({
    id: id(name),
    name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': describedBy(id(name), errors[name]),
  })

  function onSave(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const values = Object.fromEntries(new FormData(event.currentTarget))
    const title = typeof values.title === 'string' ? values.title.trim() : trip.title
    startTransition(async () => {
      const result = await updateTripAction(trip.id, values)
      setErrors(result.ok ? {} : result.fieldErrors)
      setMessage(result.ok ? { tone: 'ok', text: `Trip “${title}” saved.` } : { tone: 'error', text: result.message })
    })
  }

  function onDelete() {
    if (!window.confirm(`Delete the trip “${trip.title}” and its tracks? Its ${trip.posts} posts stay.`)) return
    startTransition(async () => {
      const result = await deleteTripAction(trip.id)
      setMessage(result.ok ? { tone: 'ok', text: `Trip “${trip.title}” deleted.` } : { tone: 'error', text: result.message })
    })
  }

  return (
    <section className="admin-trip" aria-labelledby={id('heading')}>
      <h2 id={id('heading')}>
        {trip.status === 'publish' ? <a href={`/trip/${encodeURIComponent(trip.slug)}`}>{trip.title}</a> : trip.title}
        {trip.status === 'draft' && <span className="muted"> (draft)</span>}
      </h2>
      <p className="muted">
        {trip.startedAt ? `${trip.startedAt.slice(0, 10)} · ` : ''}
        {kilometres.format(trip.distanceMetres / 1000)} km · {trip.tracks} {trip.tracks === 1 ? 'track' : 'tracks'} of {trip.points.toLocaleString('en')} points
        · {trip.posts} {trip.posts === 1 ? 'post' : 'posts'}
      </p>
      {trip.startedAt && (
        <p>
          <a href={`/admin/trips/${trip.id}/photos`}>Place photos from its track</a>: photos without GPS, put where the track was when each was taken.
        </p>
      )}
      <form className="admin-form narrow-form" onSubmit={onSave} noValidate aria-label={`Edit the trip ${trip.title}`}>
        <div className="field">
          <label htmlFor={id('title')}>Title</label>
          <input {...field('title')} defaultValue={trip.title} required />
          <FieldError id={id('title')} message={errors.title} />
        </div>
        <div className="field">
          <label htmlFor={id('description')}>Description (plain text)</label>
          <textarea {...field('description')} defaultValue={trip.description} rows={3} />
          <FieldError id={id('description')} message={errors.description} />
        </div>
        <div className="field">
          <label htmlFor={id('routePrecision')}>The public sees the route</label>
          <select {...field('routePrecision')} defaultValue={trip.routePrecision}>
            {Object.entries(LEVELS).map(([level, label]) => (
              <option key={level} value={level}>
                {label}
              </option>
            ))}
          </select>
          <FieldError id={id('routePrecision')} message={errors.routePrecision} />
        </div>
        <div className="field">
          <label htmlFor={id('status')}>Status</label>
          <select {...field('status')} defaultValue={trip.status}>
            <option value="publish">Published</option>
            <option value="draft">Draft: seen by editors only</option>
          </select>
        </div>
        <div className="inline">
          <button type="submit" disabled={pending}>
            Save trip
          </button>
          <button type="button" className="secondary" disabled={pending} onClick={onDelete}>
            Delete trip
          </button>
        </div>
      </form>
    </section>
  )
}
