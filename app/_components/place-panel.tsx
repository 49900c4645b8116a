'use client'
import { useState } from 'react'
import type { CategoryNode } from '@/lib/places/categories'
import type { Timeline as TimelineCounts } from '@/lib/api/contract'
import { PlaceSummary, type ListedPlace } from './place-summary'
import { Timeline } from './timeline'
import type { MapState } from '@/lib/places/schemas'

export type { ListedPlace }

export type PlaceListState = {
  places: ListedPlace[]
  /** how many places are in view, of which `places` are the newest */
  total: number
  /** whether the filter has places anywhere, in view or not (none match a search, say) */
  anywhere: boolean
}

/** The map's filter (use-places-map-data.ts, MapFilter): the visitor changes all but the post type here. */
type Filter = Pick<MapState, 'postType' | 'categoryId' | 'tagId' | 'search' | 'after' | 'before'>

/** A post type with public places: its key, its name for visitors (plural), how many. */
export type PostTypeChoice = { type: string; label: string; count: number }

type Props = {
  id: string
  /** on a phone, the panel is shown over the map only when opened */
  isOpen: boolean
  categories: CategoryNode[]
  postTypes: PostTypeChoice[]
  filter: Filter
  /** the name of the filter's tag (none: null) */
  tagName: string | null
  onFilterChange: (change: Partial<Omit<Filter, 'postType'>>) => void
  list: PlaceListState | null
  /** how many places in view were published in each year or month (the timeline) */
  timeline: TimelineCounts | null
  status: 'loading' | 'ready' | 'error'
  isLoadingMore: boolean
  onShowOnMap: (place: ListedPlace, opener: HTMLElement) => void
  onShowMore: () => void
  /** the site's time zone, for the places' dates */
  timeZone: string
}

/** The map's element (places-map.tsx), which the list's skip link takes the focus to. */
export const MAP_ID = 'places-map'

// NBSP: a <select> collapses ordinary spaces, and an option can hold nothing but text.
const INDENT = '\u00a0\u00a0\u00a0'
// As GET /geojson's `search` takes it (lib/places/schemas.ts, MAX_SEARCH_LENGTH).
const MAX_SEARCH = 200

/**
 * The search, the filter and the list of the places in view: the way through the map's data for the keyboard and for
 * screen readers. Every place links to its page and can be shown on the map (its popup).
 */
export function PlacePanel(props: Props) {
  const { id, isOpen, categories, postTypes, filter, tagName, onFilterChange, list, timeline, status, isLoadingMore, onShowOnMap, onShowMore, timeZone } = props
  const { postType, categoryId, tagId, search, after, before } = filter
  // Several types: each is a map of its own (its categories and tags), a link away; the search covers the one shown.
  const shownType = postTypes.length > 1 ? postTypes.find((choice) => choice.type === postType) : undefined
  const onSearch = (next: string) => onFilterChange({ search: next })
  const [draft, setDraft] = useState(search)
  const count = list?.total ?? 0
  const shown = list?.places.length ?? 0
  let summary: string
  if (status === 'error') summary = 'The places could not be loaded. Move the map or choose a category to try again.'
  else if (!list) summary = 'Loading places…'
  else if (count === 0) {
    // A search looks everywhere: none in view is not none at all.
    const where = list.anywhere ? ' in view' : ''
    summary = search
      ? `No ${shownType ? shownType.label.toLowerCase() : 'places'}${where} match “${search}”.`
      : categoryId === null && tagId === null
        ? `No places${where}.`
        : `No places of this ${categoryId === null ? 'tag' : 'category'}${where}.`
  } else
    summary = `${count.toLocaleString('en')} ${count === 1 ? 'place' : 'places'} in view${search ? ` ${count === 1 ? 'matches' : 'match'} “${search}”` : ''}${shown < count ? `, the ${shown.toLocaleString('en')} newest listed` : ''}.`
  if (status !== 'error' && list && (after || before))
    summary = `${summary.slice(0, -1)}, published ${after && before ? `${after} to ${before}` : after ? `from ${after}` : `until ${before}`}.`

  return (
    <aside id={id} className={`place-panel${isOpen ? ' is-open' : ''}`} aria-labelledby="place-panel-heading">
      {shownType && (
        <nav className="post-types" aria-label="Kinds of places">
          {postTypes.map((choice) => (
            <a key={choice.type} href={typeHref(choice.type, filter)} aria-current={choice.type === postType ? 'page' : undefined}>
              {choice.label} <span className="post-meta">{choice.count.toLocaleString('en')}</span>
            </a>
          ))}
        </nav>
      )}
      <form
        role="search"
        className="place-search"
        onSubmit={(event) => {
          event.preventDefault()
          onSearch(draft.trim())
        }}
      >
        <label htmlFor="place-search">Search titles and addresses{shownType && ` of ${shownType.label}`}</label>
        <div className="place-search-row">
          <input id="place-search" type="search" name="search" maxLength={MAX_SEARCH} value={draft} onChange={(event) => setDraft(event.target.value)} />
          <button type="submit">Search</button>
        </div>
        {search && (
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setDraft('')
              onSearch('')
            }}
          >
            Clear the search
          </button>
        )}
      </form>
      <div className="place-filter">
        <label htmlFor="category-filter">Category</label>
        <select
          id="category-filter"
          value={categoryId ?? ''}
          onChange={(event) => onFilterChange({ categoryId: event.target.value === '' ? null : Number(event.target.value) })}
        >
          <option value="">All categories</option>
          {categories.map((category) => (
            <option key={category.id} value={category.id}>
              {INDENT.repeat(category.depth)}
              {category.name}
            </option>
          ))}
        </select>
        {tagId !== null && tagName !== null && (
          <p className="place-tag">
            Tagged <strong>{tagName}</strong>{' '}
            <button type="button" className="link-button" onClick={() => onFilterChange({ tagId: null })}>
              Show every tag
            </button>
          </p>
        )}
      </div>
      <h2 id="place-panel-heading">{search ? `Search results` : 'Places in view'}</h2>
      <p className="place-count" role="status" aria-live="polite">
        {summary}
      </p>
      {/* Past the list in one key press: a long list is many Tabs to the map and its buttons. */}
      <a
        className="skip-link"
        href={`#${MAP_ID}`}
        onClick={(event) => {
          event.preventDefault()
          document.getElementById(MAP_ID)?.focus()
        }}
      >
        Skip the list, to the map
      </a>
      {/* After the skip link: the days are many Tab stops (a date input is three), and the list many more. */}
      <Timeline counts={timeline} days={{ after, before }} onChange={onFilterChange} />
      <ul className="place-list" aria-busy={status === 'loading'}>
        {list?.places.map((place) => (
          <li key={place.id}>
            <PlaceSummary place={place} sizes="4.5rem" timeZone={timeZone} />
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

/** The map of another post type, with the same search and days (its categories and tags are its own). */
function typeHref(type: string, { search, after, before }: Filter): string {
  const params = new URLSearchParams()
  if (type !== 'post') params.set('post_type', type)
  if (search) params.set('search', search)
  if (after) params.set('after', after)
  if (before) params.set('before', before)
  return `/${params.toString() ? `?${params}` : ''}`
}
