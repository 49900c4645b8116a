import type { Metadata } from 'next'
import { getSiteSettings } from '@/lib/site'
import { listPublicTrips } from '@/lib/trips/trips'

export const metadata: Metadata = { title: 'Trips' }

const kilometres = new Intl.NumberFormat('en', { style: 'unit', unit: 'kilometer', maximumFractionDigits: 0 })

// The published trips, newest first: each a link to its page.
export default async function TripsPage() {
  const [trips, { timezone }] = await Promise.all([listPublicTrips(), getSiteSettings()])
  const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: timezone })
  return (
    <main className="post-page trips-page">
      <h1>Trips</h1>
      {trips.length === 0 ? (
        <p>
          No trips yet. Importing a GPX or KML file with tracks (<code>places import</code>, or Admin → Import) makes one.
        </p>
      ) : (
        <ol className="trips-list">
          {trips.map((trip) => (
            <li key={trip.id}>
              <a href={`/trip/${encodeURIComponent(trip.slug)}`}>{trip.title}</a>
              <span className="post-meta">
                {trip.startedAt && <time dateTime={trip.startedAt.toISOString()}>{date.format(trip.startedAt)}</time>}
                {trip.startedAt && ' · '}
                {kilometres.format(trip.distanceMetres / 1000)}
              </span>
            </li>
          ))}
        </ol>
      )}
    </main>
  )
}
