'use client'
import 'leaflet/dist/leaflet.css'
import { divIcon, point, type DivIcon, type LatLngTuple, type Map as LeafletMap } from 'leaflet'
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { CircleMarker, MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet'
import type { ClusterFeature, EmbeddedPlaceFeature, MapCollection, PlaceFeature } from '@/lib/api/contract'
import type { CategoryNode } from '@/lib/places/categories'
import type { MapState } from '@/lib/places/schemas'
import { DownloadMenu } from './download-menu'
import { PlacePanel } from './place-panel'
import { PlaceSummary, type ListedPlace } from './place-summary'
import { ShareDialog } from './share-dialog'
import { geojsonUrl, getJson, isCluster, mapParams, MAX_ZOOM, toListedPlace, usePlacesMapData } from './use-places-map-data'
import { WorldLayer } from './world-layer'

export type PlacesMapProps = {
  postType: string
  categoryId: number | null
  search: string
  /** the view the address asked for; null to fit the places */
  view: MapState['view']
  categories: CategoryNode[]
  /** a Leaflet URL template and its attribution (HTML from the site's configuration); null: the world layer alone */
  tiles: { url: string; attribution: string } | null
  /** `embed`: the map alone, for other sites to frame (app/embed/page.tsx) */
  mode: 'home' | 'embed'
}

type Selection = { place: ListedPlace; latitude: number; longitude: number; focus: boolean; opener: HTMLElement | null }

/** A popup listing places: a cluster's (loaded by its cluster_id) or those drawn at one spot. */
type Group = { key: string; latitude: number; longitude: number; count: number; places: ListedPlace[] | null; clusterId: number | null; zoomTo: number | null }

// Places drawn nearer than this, in pixels, are one marker that lists them (two at one address, a few metres apart
// at the deepest zoom): otherwise only the top one could be clicked.
const STACK_PIXELS = 12
const GROUP_LIST = 10

/** The copy of `longitude` nearest the view's centre, so that places beyond the antimeridian show beside it. */
function nearCentre(longitude: number, centre: number): number {
  return longitude + 360 * Math.round((centre - longitude) / 360)
}

/** The places of a view, those drawn at (almost) the same pixel together, in the answer's order. */
function stacksOf(map: LeafletMap, features: PlaceFeature[], zoom: number): PlaceFeature[][] {
  const stacks: { x: number; y: number; features: PlaceFeature[] }[] = []
  for (const feature of features) {
    const [longitude, latitude] = feature.geometry.coordinates
    const { x, y } = map.project([latitude, longitude], zoom)
    const near = stacks.find((stack) => Math.hypot(stack.x - x, stack.y - y) < STACK_PIXELS)
    if (near) near.features.push(feature)
    else stacks.push({ x, y, features: [feature] })
  }
  return stacks.map((stack) => stack.features)
}

/**
 * The public map: clusters and places of the view from GET /places/v1/geojson?cluster=true, one popup at a time,
 * and beside it the search, the filter and the list of the places in view, as usePlacesMapData loads them. Drawn on
 * the site's own world layer, under the configured tiles if any. The only module that loads Leaflet for visitors.
 */
export default function PlacesMap({ postType, categoryId: initialCategoryId, search: initialSearch, view, categories, tiles, mode }: PlacesMapProps) {
  const [map, setMap] = useState<LeafletMap | null>(null)
  const withList = mode === 'home'
  const data = usePlacesMapData({ map, postType, initialCategoryId, initialSearch, view, withList })
  const { initial, categoryId, changeCategory, search, changeSearch, markers, list, status, isLoadingMore, showMore } = data
  const [selection, setSelection] = useState<Selection | null>(null)
  const [group, setGroup] = useState<Group | null>(null)
  const [tileState, setTileState] = useState({ loaded: 0, failed: 0 })
  const [isPanelOpen, setPanelOpen] = useState(false)
  const [isSharing, setSharing] = useState(false)

  const onCategoryChange = useCallback(
    (next: number | null) => {
      setSelection(null)
      setGroup(null)
      changeCategory(next)
    },
    [changeCategory],
  )
  const onSearch = useCallback(
    (next: string) => {
      setSelection(null)
      setGroup(null)
      changeSearch(next)
    },
    [changeSearch],
  )

  const select = useCallback(
    (place: ListedPlace, options: { focus: boolean; opener: HTMLElement | null }) => {
      const centre = map?.getCenter().lng ?? 0
      setGroup(null)
      setSelection({ place, latitude: place.latitude, longitude: nearCentre(place.longitude, centre), ...options })
    },
    [map],
  )

  const showOnMap = useCallback(
    (place: ListedPlace, opener: HTMLElement) => {
      // On a phone the list covers the map: it closes, and the popup's Escape comes back to the list button.
      setPanelOpen(false)
      select(place, { focus: true, opener })
    },
    [select],
  )

  const closed = useCallback(
    (closing: Selection) => {
      setSelection((current) => (current === closing ? null : current))
      // Back to the list item it was opened from, when the popup had the focus.
      const active = document.activeElement
      if (!closing.opener?.isConnected || !(!active || active === document.body || map?.getContainer().contains(active))) return
      if (closing.opener.closest('.place-panel:not(.is-open)') && window.matchMedia('(max-width: 48rem)').matches) setPanelOpen(true)
      const opener = closing.opener
      requestAnimationFrame(() => opener.focus())
    },
    [map],
  )

  const openGroup = useCallback((next: Group) => {
    setSelection(null)
    setGroup(next)
  }, [])

  const tileHandlers = useMemo(
    () => ({
      tileload: () => setTileState((s) => (s.loaded ? s : { ...s, loaded: 1 })),
      tileerror: () => setTileState((s) => (s.failed ? s : { ...s, failed: 1 })),
    }),
    [],
  )

  const stacks = useMemo(() => {
    if (!map || !markers) return []
    const places = markers.features.filter((feature): feature is PlaceFeature => !isCluster(feature))
    return stacksOf(map, places, markers.zoom)
  }, [map, markers])

  const filter = useMemo(() => ({ post_type: postType, category: categoryId ?? undefined, search: search || undefined }), [postType, categoryId, search])

  return (
    <div className={`map-app map-app-${mode}`} data-ready={status === 'ready'}>
      {withList && (
        <PlacePanel
          id="place-panel"
          isOpen={isPanelOpen}
          categories={categories}
          categoryId={categoryId}
          onCategoryChange={onCategoryChange}
          search={search}
          onSearch={onSearch}
          list={list}
          status={status}
          isLoadingMore={isLoadingMore}
          onShowOnMap={showOnMap}
          onShowMore={() => void showMore()}
        />
      )}
      <section className="map-area" aria-label="Map of the places">
        {initial && (
          <MapContainer ref={setMap} className="places-map" maxZoom={MAX_ZOOM} minZoom={1} worldCopyJump {...initial}>
            <WorldLayer />
            {tiles && <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={MAX_ZOOM} eventHandlers={tileHandlers} />}
            {markers?.features.filter(isCluster).map((feature) => {
              const [longitude, latitude] = feature.geometry.coordinates
              return (
                <ClusterMarker
                  key={`c${longitude},${latitude},${feature.properties.point_count}`}
                  feature={feature}
                  longitude={nearCentre(longitude, markers.centre)}
                  onOpen={openGroup}
                />
              )
            })}
            {markers &&
              stacks.map((stack) => {
                const [first] = stack as [PlaceFeature, ...PlaceFeature[]]
                const [longitude, latitude] = first.geometry.coordinates
                const shown = nearCentre(longitude, markers.centre)
                return stack.length === 1 ? (
                  <PlaceMarker key={`p${first.properties.id}`} {...first.properties} latitude={latitude} longitude={shown} onSelect={select} />
                ) : (
                  <StackMarker key={`s${stack.map((f) => f.properties.id).join(',')}`} stack={stack} longitude={shown} onOpen={openGroup} />
                )
              })}
            {selection && <PlacePopup key={selection.place.id} selection={selection} onClosed={closed} />}
            {group && <GroupPopup key={group.key} group={group} filter={filter} onSelect={select} onClosed={() => setGroup(null)} />}
          </MapContainer>
        )}
        <div className="map-toolbar">
          {withList && (
            <button
              type="button"
              className="map-button panel-toggle"
              aria-expanded={isPanelOpen}
              aria-controls="place-panel"
              onClick={() => setPanelOpen((open) => !open)}
            >
              {isPanelOpen ? 'Map' : 'List'}
            </button>
          )}
          {withList ? (
            <>
              <button type="button" className="map-button" onClick={() => setSharing(true)}>
                Share
              </button>
              {map && <DownloadMenu map={map} postType={postType} categoryId={categoryId} search={search} />}
            </>
          ) : (
            map && <LargerMapLink map={map} postType={postType} categoryId={categoryId} search={search} />
          )}
        </div>
        {tiles && tileState.failed > 0 && tileState.loaded === 0 && (
          <p className="map-notice" role="status">
            The detailed background map could not be loaded. The places are all here{withList ? ', and in the list' : ''}.
          </p>
        )}
      </section>
      {isSharing && map && <ShareDialog params={mapParams(map, postType, categoryId, search)} onClose={() => setSharing(false)} />}
    </div>
  )
}

/** /embed's way out: the home map with the same view, filter and search, in a new tab. */
function LargerMapLink({ map, postType, categoryId, search }: { map: LeafletMap; postType: string; categoryId: number | null; search: string }) {
  const [href, setHref] = useState(() => `/?${mapParams(map, postType, categoryId, search)}`)
  useEffect(() => {
    const update = () => setHref(`/?${mapParams(map, postType, categoryId, search)}`)
    map.on('moveend', update)
    return () => void map.off('moveend', update)
  }, [map, postType, categoryId, search])
  return (
    // The site's own page: noopener is what matters (no window.opener); its referrer is the site itself anyway.
    // eslint-disable-next-line react/jsx-no-target-blank -- rel=noopener, as the issue asks; every supported browser honours it
    <a className="map-button" href={href} target="_blank" rel="noopener">
      View larger map
    </a>
  )
}

const countIcons = new Map<string, DivIcon>()

/** A cluster's or a stack's icon: its count (a number: no text from the data goes into this HTML). */
function countIcon(count: number, kind: 'cluster' | 'stack'): DivIcon {
  const label = count < 1000 ? String(count) : count < 10_000 ? `${(count / 1000).toFixed(1)}k` : `${Math.round(count / 1000)}k`
  const size = kind === 'stack' ? 28 : count < 10 ? 30 : count < 100 ? 36 : count < 1000 ? 42 : 48
  const key = `${kind}${label}`
  let icon = countIcons.get(key)
  if (!icon) {
    icon = divIcon({ html: `<span>${label}</span>`, className: `${kind}-marker`, iconSize: [size, size] })
    countIcons.set(key, icon)
  }
  return icon
}

type ClusterMarkerProps = { feature: ClusterFeature; longitude: number; onOpen: (group: Group) => void }

// Markers re-render only when what they show changes: a pan keeps most of them as they are. The list is the way
// through the places for the keyboard; clusters are for the pointer: a click lists their places.
const ClusterMarker = memo(function ClusterMarker({ feature, longitude, onOpen }: ClusterMarkerProps) {
  const latitude = feature.geometry.coordinates[1]
  const { cluster_id: clusterId, point_count: count, expansion_zoom: expansionZoom } = feature.properties
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  const handlers = useMemo(
    () => ({
      click: () =>
        onOpen({
          key: `c${latitude},${longitude},${count}`,
          latitude,
          longitude,
          count,
          places: null,
          clusterId,
          zoomTo: expansionZoom <= MAX_ZOOM ? expansionZoom : null,
        }),
    }),
    [onOpen, latitude, longitude, count, clusterId, expansionZoom],
  )
  return <Marker position={position} icon={countIcon(count, 'cluster')} keyboard={false} title={`${count} places: list them`} eventHandlers={handlers} />
})

type StackMarkerProps = { stack: PlaceFeature[]; longitude: number; onOpen: (group: Group) => void }

const StackMarker = memo(function StackMarker({ stack, longitude, onOpen }: StackMarkerProps) {
  const latitude = stack[0]!.geometry.coordinates[1]
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  const handlers = useMemo(
    () => ({
      click: () =>
        onOpen({
          key: `s${stack.map((f) => f.properties.id).join(',')}`,
          latitude,
          longitude,
          count: stack.length,
          places: stack.map(toListedPlace),
          clusterId: null,
          zoomTo: null,
        }),
    }),
    [onOpen, latitude, longitude, stack],
  )
  return (
    <Marker
      position={position}
      icon={countIcon(stack.length, 'stack')}
      keyboard={false}
      title={`${stack.length} places here: list them`}
      eventHandlers={handlers}
    />
  )
})

type PlaceMarkerProps = Omit<ListedPlace, 'latitude' | 'longitude' | 'embedded'> & {
  latitude: number
  /** where the marker is drawn: the copy of the place's longitude nearest the view */
  longitude: number
  onSelect: (place: ListedPlace, options: { focus: boolean; opener: null }) => void
}

const PlaceMarker = memo(function PlaceMarker({ onSelect, id, title, url, address, latitude, longitude }: PlaceMarkerProps) {
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  const handlers = useMemo(
    () => ({
      click: () => onSelect({ id, title, url, address, latitude, longitude }, { focus: false, opener: null }),
    }),
    [onSelect, id, title, url, address, latitude, longitude],
  )
  return (
    <CircleMarker center={position} radius={8} className="place-marker" bubblingMouseEvents={false} pathOptions={PLACE_MARKER_STYLE} eventHandlers={handlers} />
  )
})

const PLACE_MARKER_STYLE = { color: '#fff', weight: 2, fillColor: '#2271b1', fillOpacity: 1 }
const POPUP_PADDING = point(24, 24)

/** The popup of one place: its picture, title (a link to its page), date, address and categories. */
function PlacePopup({ selection, onClosed }: { selection: Selection; onClosed: (selection: Selection) => void }) {
  const position = useMemo<LatLngTuple>(() => [selection.latitude, selection.longitude], [selection])
  const handlers = useMemo(() => ({ remove: () => onClosed(selection) }), [selection, onClosed])
  // A marker gives the four properties only: the rest comes with the place's own `_embed`.
  const [place, setPlace] = useState(selection.place)
  useEffect(() => {
    if (selection.place.embedded) return
    const controller = new AbortController()
    getJson<EmbeddedPlaceFeature>(`/places/v1/geojson/${selection.place.id}?_embed`, controller.signal)
      .then((feature) => setPlace((current) => ({ ...current, embedded: feature._embedded })))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error(error)
      })
    return () => controller.abort()
  }, [selection.place])
  const hasFocused = useRef(false)
  // Opened from the list: the focus moves into the popup, to its link; Escape closes it and goes back.
  const focusLink = useCallback(
    (link: HTMLAnchorElement | null) => {
      if (!link || !selection.focus || hasFocused.current) return
      hasFocused.current = true
      link.focus({ preventScroll: true })
    },
    [selection],
  )
  return (
    <Popup position={position} eventHandlers={handlers} className="place-popup" autoPanPadding={POPUP_PADDING} minWidth={200} maxWidth={260}>
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- Escape bubbles up from the link inside; the div itself takes no focus */}
      <div
        className="place-summary"
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return
          event.stopPropagation()
          onClosed(selection)
        }}
      >
        <PlaceSummary place={place} sizes="240px" titleRef={focusLink} />
      </div>
    </Popup>
  )
}

type GroupPopupProps = {
  group: Group
  filter: Record<string, string | number | undefined>
  onSelect: (place: ListedPlace, options: { focus: boolean; opener: null }) => void
  onClosed: () => void
}

/** A cluster's places (the first GROUP_LIST, newest first) or a stack's: each opens its own popup. */
function GroupPopup({ group, filter, onSelect, onClosed }: GroupPopupProps) {
  const map = useMap()
  const position = useMemo<LatLngTuple>(() => [group.latitude, group.longitude], [group])
  const handlers = useMemo(() => ({ remove: onClosed }), [onClosed])
  const [loaded, setLoaded] = useState<{ places: ListedPlace[]; total: number } | null>(group.places ? { places: group.places, total: group.count } : null)
  useEffect(() => {
    if (group.places || group.clusterId === null) return
    const controller = new AbortController()
    getJson<MapCollection<EmbeddedPlaceFeature>>(
      geojsonUrl({ ...filter, cluster_id: group.clusterId, posts_per_page: GROUP_LIST, _embed: '' }),
      controller.signal,
    )
      .then((answer) => setLoaded({ places: answer.features.map(toListedPlace), total: answer.total }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.error(error)
      })
    return () => controller.abort()
  }, [group, filter])
  const rest = loaded ? loaded.total - loaded.places.length : 0
  return (
    <Popup position={position} eventHandlers={handlers} className="place-popup group-popup" autoPanPadding={POPUP_PADDING} minWidth={220} maxWidth={280}>
      <p className="group-popup-title">{group.count.toLocaleString('en')} places</p>
      {!loaded ? (
        <p className="post-meta">Loading…</p>
      ) : (
        <ul className="group-list">
          {loaded.places.map((place) => (
            <li key={place.id}>
              <button
                type="button"
                className="link-button"
                // After the click has gone through: were this popup gone from the page when Leaflet sees the click, Leaflet
                // would take it for a click on the map, and close the place's popup it opened.
                onClick={() => setTimeout(() => onSelect(place, { focus: false, opener: null }))}
              >
                {place.title}
              </button>
              {place.address && <span className="post-meta place-address">{place.address}</span>}
            </li>
          ))}
        </ul>
      )}
      {rest > 0 && <p className="post-meta">and {rest.toLocaleString('en')} more.</p>}
      {group.zoomTo !== null && (
        <button type="button" className="group-zoom" onClick={() => map.setView(position, Math.min(Math.max(group.zoomTo!, map.getZoom() + 1), MAX_ZOOM))}>
          Zoom in
        </button>
      )}
    </Popup>
  )
}
