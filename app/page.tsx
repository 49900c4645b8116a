import type { Metadata } from 'next'
import { mapOEmbedDiscovery } from '@/lib/places/oembed'
import { MapPage } from './_components/map-page'

// oEmbed discovery: WordPress, Discourse and others embed this map by its URL (docs/api.md, "oEmbed").
export async function generateMetadata({ searchParams }: PageProps<'/'>): Promise<Metadata> {
  return { alternates: { types: mapOEmbedDiscovery(await searchParams) } }
}

// The public map: every published place, clustered, with the search, the filter and the list of those in view.
export default async function HomePage({ searchParams }: PageProps<'/'>) {
  return <MapPage searchParams={await searchParams} mode="home" />
}
