import type { Metadata } from 'next'
import { feedLinks } from '@/lib/places/feed'
import { mapOEmbedDiscovery } from '@/lib/places/oembed'
import { MapPage } from './_components/map-page'

// oEmbed discovery: WordPress, Discourse and others embed this map by its URL (docs/api.md, "oEmbed"); the feeds of
// the site and of the category or tag shown (README, "Feeds").
export async function generateMetadata({ searchParams }: PageProps<'/'>): Promise<Metadata> {
  const params = await searchParams
  return { alternates: { types: { ...mapOEmbedDiscovery(params), 'application/rss+xml': await feedLinks(params) } } }
}

// The public map: every published place, clustered, with the search, the filter and the list of those in view.
export default async function HomePage({ searchParams }: PageProps<'/'>) {
  return <MapPage searchParams={await searchParams} mode="home" />
}
