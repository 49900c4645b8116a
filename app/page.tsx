import { getConfig } from '@/lib/config'
import { listCategoryTree } from '@/lib/places/categories'
import { getPlacesExtent } from '@/lib/places/public'
import { parseMapState } from '@/lib/places/schemas'
import { PlacesMapLoader } from './_components/places-map-loader'

// The public map: every published place, clustered, with the list of those in view beside it. The page reads what
// the first view needs from lib/ (the warm-up of the map's index included); the map then reads /places/v1/geojson.
export default async function HomePage({ searchParams }: PageProps<'/'>) {
  const state = parseMapState(await searchParams)
  const categories = await listCategoryTree()
  const categoryId = categories.some((c) => c.id === state.categoryId) ? state.categoryId : null
  const extent = await getPlacesExtent({ postType: state.postType, categoryId })
  return (
    <main className="map-page">
      <h1 className="visually-hidden">Places</h1>
      <PlacesMapLoader
        postType={state.postType}
        categoryId={categoryId}
        view={state.view}
        extent={extent}
        categories={categories}
        tiles={getConfig().mapTiles}
      />
      <noscript>
        <p className="map-noscript">
          The map needs JavaScript. The places are also published as GeoJSON at{' '}
          <a href="/places/v1/geojson?posts_per_page=500">/places/v1/geojson</a>.
        </p>
      </noscript>
    </main>
  )
}
