'use client'
import type { CategoryNode } from '@/lib/places/categories'

/** A place of the list, as GET /places/v1/geojson gives it. */
export type ListedPlace = { id: number; title: string; url: string; address: string; latitude: number; longitude: number }

export type PlaceListState = {
  places: ListedPlace[]
  /** how many places are in view, of which `places` are the newest */
  total: number
}

type Props = {
  categories: CategoryNode[]
  categoryId: number | null
  onCategoryChange: (categoryId: number | null) => void
  list: PlaceListState | null
  status: 'loading' | 'ready' | 'error'
  isLoadingMore: boolean
  onShowOnMap: (place: ListedPlace, opener: HTMLElement) => void
  onShowMore: () => void
}

// NBSP: a <select> collapses ordinary spaces, and an option can hold nothing but text.
const INDENT = '\u00a0\u00a0\u00a0'

/**
 * The filter and the list of the places in view: the way through the map's data for the keyboard and for screen
 * readers. Every place links to its page and can be shown on the map (its popup).
 */
export function PlacePanel({ categories, categoryId, onCategoryChange, list, status, isLoadingMore, onShowOnMap, onShowMore }: Props) {
  const count = list?.total ?? 0
  const shown = list?.places.length ?? 0
  let summary: string
  if (status === 'error') summary = 'The places could not be loaded. Move the map or choose a category to try again.'
  else if (!list) summary = 'Loading places…'
  else if (count === 0) summary = categoryId === null ? 'No places in view.' : 'No places of this category in view.'
  else
    summary = `${count.toLocaleString('en')} ${count === 1 ? 'place' : 'places'} in view${shown < count ? `, the ${shown.toLocaleString('en')} newest listed` : ''}.`

  return (
    <aside className="place-panel" aria-labelledby="place-panel-heading">
      <div className="place-filter">
        <label htmlFor="category-filter">Category</label>
        <select
          id="category-filter"
          value={categoryId ?? ''}
          onChange={(event) => onCategoryChange(event.target.value === '' ? null : Number(event.target.value))}
        >
          <option value="">All categories</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {INDENT.repeat(category.depth)}
              {category.name}
            </option>
          ))}
        </select>
      </div>
      <h2 id="place-panel-heading">Places in view</h2>
      <p className="place-count" role="status" aria-live="polite">
        {summary}
      </p>
      <ul className="place-list" aria-busy={status === 'loading'}>
        {list?.places.map((place) => (
          <li key={place.id}>
            <a href={place.url} className="place-title">
              {place.title}
            </a>
            {place.address && <span className="post-meta place-address">{place.address}</span>}
            <button
              type="button"
              className="link-button"
              aria-label={`Show on map: ${place.title}`}
              onClick={(event) => onShowOnMap(place, event.currentTarget)}
            >
              Show on map
            </button>
          </li>
        ))}
      </ul>
      {shown < count && (
        <button type="button" className="show-more" onClick={onShowMore} disabled={isLoadingMore}>
          {isLoadingMore ? 'Loading…' : 'Show more places'}
        </button>
      )}
    </aside>
  )
}
