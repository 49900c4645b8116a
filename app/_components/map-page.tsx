import { setTimeout as wait } from 'node:timers/promises'
import { after } from 'next/server'
import { getConfig } from '@/lib/config'
import { readDataVersion } from '@/lib/db'
import { listPublicCategoryTree } from '@/lib/places/categories'
import { postTypeLabel } from '@/lib/places/post-fields'
import { publicPostTypes } from '@/lib/places/post-types'
import { warmPlaceIndex } from '@/lib/places/public'
import { parseMapState } from '@/lib/places/schemas'
import { findPublicTags } from '@/lib/places/tags'
import { getSiteSettings } from '@/lib/site'
import { PlacesMapLoader } from './places-map-loader'

// The public map, for the home page and for /embed (the same parameters): the page reads the categories from lib/;
// the map reads its places from /places/v1/geojson in the browser.
const SCRIPTS_FIRST_MS = 250

type Props = { searchParams: Record<string, string | string[] | undefined>; mode: 'home' | 'embed' }

export async function MapPage({ searchParams, mode }: Props) {
  const state = parseMapState(searchParams)
  const [categories, [tag], { title, timezone }, types] = await Promise.all([
    listPublicCategoryTree(state.postType),
    findPublicTags(state.tagId === null ? [] : [state.tagId], state.postType),
    getSiteSettings(),
    readDataVersion().then(publicPostTypes),
  ])
  // A category or tag the public map has no place with is left out, as if the address had not named it.
  const categoryId = categories.some((c) => c.id === state.categoryId) ? state.categoryId : null
  const tagId = tag?.id ?? null
  // The map's index is rebuilt on the first visit after a write, which holds the server's one thread for about a
  // second at 100,000 places: it starts once the browser has fetched the page's scripts, and runs while they run. A
  // search's index is not: it is built when the map asks for it, so that a page view alone starts no scan.
  after(async () => {
    await wait(SCRIPTS_FIRST_MS)
    await warmPlaceIndex({ postType: state.postType, categoryId, ...(tagId === null ? {} : { tagId }) })
  })
  return (
    <main className={`map-page${mode === 'embed' ? ' embed-page' : ''}`}>
      <h1 className="visually-hidden">{title}</h1>
      <PlacesMapLoader
        filter={{ postType: state.postType, categoryId, tagId, search: state.search, after: state.after, before: state.before }}
        tagName={tag?.name ?? null}
        view={state.view}
        categories={categories}
        postTypes={types
          .map(({ type, count }) => ({ type, label: postTypeLabel(type), count }))
          // Posts first, as WordPress lists them; then by name.
          .sort((a, b) => Number(b.type === 'post') - Number(a.type === 'post') || a.label.localeCompare(b.label, 'en'))}
        tiles={getConfig().mapTiles}
        mode={mode}
        timeZone={timezone}
      />
      <noscript>
        <p className="map-noscript">
          The map needs JavaScript. The places are also published as GeoJSON at <a href="/places/v1/geojson?posts_per_page=500">/places/v1/geojson</a>.
        </p>
      </noscript>
    </main>
  )
}
