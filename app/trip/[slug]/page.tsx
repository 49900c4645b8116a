import type { Metadata } from 'next'
import { notFound } from 'next/navigation'
import { cache } from 'react'
import { Picture } from '@/app/_components/picture'
import { getConfig } from '@/lib/config'
import { firstPictures } from '@/lib/media/pictures'
import { getSiteSettings } from '@/lib/site'
import { tripUrl } from '@/lib/places/geojson'
import { findTripPage } from '@/lib/trips/answers'
import type { PublicTrip } from '@/lib/trips/trips'
import { TripMapLoader } from './trip-map-loader'

type Props = PageProps<'/trip/[slug]'>

const loadTrip = cache(async (rawSlug: string) => {
  let slug: string
  try {
    slug = decodeURIComponent(rawSlug)
  } catch {
    notFound()
  }
  return (await findTripPage(slug)) ?? notFound()
})

/** The trip's description, else what is said of it: its figures and how many posts it has. */
function describe(trip: PublicTrip, posts: number): string {
  if (trip.description) return trip.description
  const said = figures(trip).map(({ label, value }) => `${label.toLowerCase()} ${value}`)
  return `A trip: ${[...said, `${posts} ${posts === 1 ? 'post' : 'posts'} along the way`].join(', ')}.`
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { trip, stops } = await loadTrip((await params).slug)
  const url = tripUrl(getConfig().siteUrl, trip.slug)
  return {
    title: trip.title,
    description: describe(trip, stops.length),
    alternates: { canonical: url, types: { 'application/geo+json': `${getConfig().siteUrl}/places/v1/trips/${trip.id}` } },
    openGraph: { type: 'article', siteName: (await getSiteSettings()).title, title: trip.title, url },
  }
}

const kilometres = new Intl.NumberFormat('en', { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 })
const metres = new Intl.NumberFormat('en', { style: 'unit', unit: 'meter', maximumFractionDigits: 0 })

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return `${hours} h ${minutes % 60} min`
  return `${Math.round(hours / 24)} days`
}

/** What is said of a trip: its distance, how long it took, how much it climbed; each only where known. */
function figures(trip: PublicTrip): { label: string; value: string }[] {
  return [
    { label: 'Distance', value: kilometres.format(trip.distanceMetres / 1000) },
    ...(trip.startedAt && trip.endedAt ? [{ label: 'Time', value: duration(trip.endedAt.getTime() - trip.startedAt.getTime()) }] : []),
    ...(trip.climbMetres !== null ? [{ label: 'Climb', value: metres.format(trip.climbMetres) }] : []),
  ]
}

// A published trip's page: its route as lib/places/visibility.ts lets the public see it, and its published posts in
// time order, each numbered on the map and in the list. React escapes every title and the description (plain text).
export default async function TripPage({ params }: Props) {
  const { trip, stops } = await loadTrip((await params).slug)
  const [{ timezone }, pictures] = await Promise.all([getSiteSettings(), firstPictures(stops.map((stop) => stop.id))])
  const date = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: timezone })
  // Stops of a trip of one day are told apart by their time.
  const oneDay = stops.length > 0 && date.format(stops[0]!.publishedAt) === date.format(stops.at(-1)!.publishedAt)
  const stopTime = oneDay ? new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: timezone }) : date
  const numbered = stops.map((stop, i) => ({ ...stop, number: i + 1 }))
  const onMap = numbered.flatMap((stop) => (stop.point ? [{ id: stop.id, number: stop.number, title: stop.title, url: stop.url, ...stop.point }] : []))
  return (
    <main className="post-page trip-page">
      <article className="post">
        <header className="post-header">
          <p className="post-meta">
            <a href="/trips">Trips</a>
          </p>
          <h1>{trip.title}</h1>
          {trip.startedAt && (
            <p className="post-meta">
              <time dateTime={trip.startedAt.toISOString()}>{date.format(trip.startedAt)}</time>
              {trip.endedAt && date.format(trip.endedAt) !== date.format(trip.startedAt) && (
                <>
                  {' – '}
                  <time dateTime={trip.endedAt.toISOString()}>{date.format(trip.endedAt)}</time>
                </>
              )}
            </p>
          )}
          <dl className="trip-figures">
            {figures(trip).map(({ label, value }) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        </header>
        {trip.description &&
          trip.description
            .split(/\n\s*\n/)
            .filter((paragraph) => paragraph.trim())
            .map((paragraph, i) => <p key={i}>{paragraph}</p>)}
        {(trip.route || onMap.length > 0) && (
          <div className="post-map-frame trip-map-frame">
            <TripMapLoader route={trip.route ?? []} stops={onMap} tiles={getConfig().mapTiles} />
          </div>
        )}
        {stops.length > 0 && (
          <section className="trip-stops" aria-labelledby="trip-stops-heading">
            <h2 id="trip-stops-heading">Along the way</h2>
            <ol>
              {numbered.map((stop) => {
                const picture = pictures.get(stop.id)
                return (
                  <li key={stop.id}>
                    {picture && (
                      <a href={stop.url} tabIndex={-1} aria-hidden="true">
                        <Picture picture={picture} sizes="6rem" />
                      </a>
                    )}
                    <span>
                      <a href={stop.url}>{stop.title}</a>
                      <br />
                      <time className="post-meta" dateTime={stop.publishedAt.toISOString()}>
                        {stopTime.format(stop.publishedAt)}
                      </time>
                    </span>
                  </li>
                )
              })}
            </ol>
          </section>
        )}
      </article>
    </main>
  )
}
