import { setTimeout as wait } from 'node:timers/promises'
import type { Metadata } from 'next'
import { after } from 'next/server'
import { getConfig } from '@/lib/config'
import { listPublicCategoryTree } from '@/lib/places/categories'
import { warmPlaceIndex } from '@/lib/places/public'
import { mapOEmbedDiscoveryUrl } from '@/lib/places/oembed'
import { parseMapState } from '@/lib/places/schemas'
import { PlacesMapLoader } from './_components/places-map-loader'

// The public map: every published place, clustered, with the list of those in view beside it. The page reads the
// categories from lib/; the map reads its places from /places/v1/geojson in the browser.
const SCRIPTS_FIRST_MS = 250

// oEmbed discovery: WordPress, Discourse and others embed this map by its URL (docs/api.md, "oEmbed").
export async function generateMetadata({ searchParams }: PageProps<'/'>): Promise<Metadata> {
  return { alternates: { types: { 'application/json+oembed': mapOEmbedDiscoveryUrl(await searchParams) } } }
}

export default async function HomePage({ searchParams }: PageProps<'/'>) {
  const state = parseMapState(await searchParams)
  const categories = await listPublicCategoryTree(state.postType)
  const categoryId = categories.some((c) => c.id === state.categoryId) ? state.categoryId : null
  // The map's index is rebuilt on the first visit after a write, which holds the server's one thread for about a
  // second at 100,000 places: it starts once the browser has fetched the page's scripts, and runs while they run.
  after(async () => {
    await wait(SCRIPTS_FIRST_MS)
    await warmPlaceIndex({ postType: state.postType, categoryId })
  })
  return (
    <main className="map-page">
      <h1 className="visually-hidden">Places</h1>
      <PlacesMapLoader postType={state.postType} categoryId={categoryId} view={state.view} categories={categories} tiles={getConfig().mapTiles} />
      <noscript>
        <p className="map-noscript">
          The map needs JavaScript. The places are also published as GeoJSON at <a href="/places/v1/geojson?posts_per_page=500">/places/v1/geojson</a>.
        </p>
      </noscript>
    </main>
  )
}
