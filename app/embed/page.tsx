import type { Metadata } from 'next'
import { MapPage } from '../_components/map-page'

// The map alone, for other sites to frame (README, Share and embed): the home map's parameters, no site header, no
// list; only this page may be framed, by EMBED_ALLOWED_ORIGINS (proxy.ts, next.config.mjs).
export const metadata: Metadata = { title: 'Map', robots: { index: false } }

export default async function EmbedPage({ searchParams }: PageProps<'/embed'>) {
  return <MapPage searchParams={await searchParams} mode="embed" />
}
