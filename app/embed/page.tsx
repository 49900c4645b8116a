import type { Metadata } from 'next'
import { mapOEmbedDiscovery } from '@/lib/places/oembed'
import { notFound } from 'next/navigation'
import { getConfig } from '@/lib/config'
import { tripUrl } from '@/lib/places/geojson'
import { findTripPage } from '@/lib/trips/answers'
import { MapPage } from '../_components/map-page'
import { TripMapLoader } from '../trip/[slug]/trip-map-loader'

// The map alone, for other sites to frame (README, Share and embed): the home map's parameters, no site header, no
// list; only this page may be framed, by EMBED_ALLOWED_ORIGINS (proxy.ts, next.config.mjs). Its oEmbed discovery is
// the home map's with the same parameters, which embeds as this page.
export async function generateMetadata({ searchParams }: PageProps<'/embed'>): Promise<Metadata> {
  const params = await searchParams
  // A trip's embed is no map of places: it names none of the home map's oEmbed.
  if (typeof params.trip === 'string') return { title: 'Trip', robots: { index: false } }
  return { title: 'Map', robots: { index: false }, alternates: { types: mapOEmbedDiscovery(params) } }
}

export default async function EmbedPage({ searchParams }: PageProps<'/embed'>) {
  const params = await searchParams
  // ?trip=SLUG: the trip's route and stops instead of the map of places (docs/trips.md).
  if (typeof params.trip === 'string') return <TripEmbed slug={params.trip} />
  return <MapPage searchParams={params} mode="embed" />
}

async function TripEmbed({ slug }: { slug: string }) {
  const page = await findTripPage(slug)
  if (!page) notFound()
  const { trip, stops } = page
  const onMap = stops.flatMap((stop, i) => (stop.point ? [{ id: stop.id, number: i + 1, title: stop.title, url: stop.url, ...stop.point }] : []))
  return (
    <main className="map-page embed-page trip-embed">
      <h1 className="visually-hidden">{trip.title}</h1>
      <TripMapLoader route={trip.route ?? []} stops={onMap} tiles={getConfig().mapTiles} linkTarget="_top" />
      <a className="trip-embed-title" href={tripUrl(getConfig().siteUrl, trip.slug)} target="_top">
        {trip.title}
      </a>
    </main>
  )
}
