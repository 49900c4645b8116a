import type { Metadata } from 'next'
import { mapOEmbedDiscovery } from '@/lib/places/oembed'
import { MapPage } from '../_components/map-page'

// The map alone, for other sites to frame (README, Share and embed): the home map's parameters, no site header, no
// list; only this page may be framed, by EMBED_ALLOWED_ORIGINS (proxy.ts, next.config.mjs). Its oEmbed discovery is
// the home map's with the same parameters, which embeds as this page.
export async function generateMetadata({ searchParams }: PageProps<'/embed'>): Promise<Metadata> {
  return { title: 'Map', robots: { index: false }, alternates: { types: mapOEmbedDiscovery(await searchParams) } }
}

export default async function EmbedPage({ searchParams }: PageProps<'/embed'>) {
  return <MapPage searchParams={await searchParams} mode="embed" />
}
