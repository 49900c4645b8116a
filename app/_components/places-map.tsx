'use client'
import 'leaflet/dist/leaflet.css'
import {
  divIcon,
  point,
  type DivIcon,
  type LatLngBounds,
  type LatLngTuple,
  type LeafletEventHandlerFnMap,
  type Map as LeafletMap,
  type Marker as LeafletMarker,
} from 'leaflet'
import { memo, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react'
import { MapContainer, Marker, Popup, useMap } from 'react-leaflet'
import { Basemap, type TileSource } from './basemap'
import type { EmbeddedClusterFeature, EmbeddedPlaceFeature, MapCollection } from '@/lib/api/contract'
import type { CategoryNode } from '@/lib/places/categories'
import { colorMap, mixOf, NO_CATEGORY_COLOR, placeColor } from '@/lib/places/category-colors'
import type { MapState } from '@/lib/places/schemas'
import { DownloadMenu } from './download-menu'
import { MapLegend } from './map-legend'
import { MAP_ID, PlacePanel, type PostTypeChoice } from './place-panel'
import { CategoryColors, PlaceSummary, type ListedPlace } from './place-summary'
import { ShareDialog } from './share-dialog'
import {
  filterParams,
  FIT,
  geojsonUrl,
  getJson,
  isCluster,
  mapParams,
  MAX_ZOOM,
  toBounds,
  toListedPlace,
  usePlacesMapData,
  type MapFilter,
} from './use-places-map-data'

export type PlacesMapProps = {
  /** the filter the address asked for */
  filter: MapFilter
  /** the name of the filter's tag (none: null) */
  tagName: string | null
  /** the view the address asked for; null to fit the places */
  view: MapState['view']
  categories: CategoryNode[]
  /** the post types with public places, and their names for visitors: the map offers them when there are several */
  postTypes: PostTypeChoice[]
  /** a Leaflet URL template and its attribution (HTML from the site's configuration); null: the world layer alone */
  tiles: TileSource | null
  /** `embed`: the map alone, for other sites to frame (app/embed/page.tsx) */
  mode: 'home' | 'embed'
  /** the site's time zone (lib/site.ts): the places' dates are shown in it */
  timeZone: string
}

type Selection = { place: ListedPlace; latitude: number; longitude: number; focus: boolean; opener: HTMLElement | null }

/** A popup listing places: a cluster's (loaded by its cluster_id) or those drawn at one spot. */
type Group = {
  key: string
  latitude: number
  longitude: number
  count: number
  places: ListedPlace[] | null
  clusterId: number | null
  /** a cluster's: the zoom where it splits, and the box of its places (near the view's centre) */
  zoomTo: number | null
  bounds: LatLngBounds | null
  /** opened from the keyboard: the focus goes into the popup, and back to `opener` when it closes */
  focus: boolean
  opener: HTMLElement | null
}

// Places drawn nearer than this, in pixels, are one marker that lists them (two at one address, a few metres apart
// at the deepest zoom): otherwise only the top one could be clicked.
const STACK_PIXELS = 12
// Where the pointer is a finger, every marker is a target this wide (the size of every control on a phone), and places
// nearer than this are one marker: no marker's target then covers another's.
const TAP_PIXELS = 44
const GROUP_LIST = 10
// Where "Show on map" goes when the place is inside a cluster: as near as fitting places goes (FIT), streets and all.
const SHOW_ZOOM = 15

/** The copy of `longitude` nearest the view's centre, so that places beyond the antimeridian show beside it. */
function nearCentre(longitude: number, centre: number): number {
  return longitude + 360 * Math.round((centre - longitude) / 360)
}

/** The places of a view, those drawn at (almost) the same pixel together, in the answer's order. */
function stacksOf(map: LeafletMap, features: EmbeddedPlaceFeature[], zoom: number, pixels: number): EmbeddedPlaceFeature[][] {
  const stacks: { x: number; y: number; features: EmbeddedPlaceFeature[] }[] = []
  for (const feature of features) {
    const [longitude, latitude] = feature.geometry.coordinates
    const { x, y } = map.project([latitude, longitude], zoom)
    const near = stacks.find((stack) => Math.hypot(stack.x - x, stack.y - y) < pixels)
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
export default function PlacesMap({ filter: initialFilter, tagName, view, categories, postTypes, tiles, mode, timeZone }: PlacesMapProps) {
  const [map, setMap] = useState<LeafletMap | null>(null)
  const withList = mode === 'home'
  const data = usePlacesMapData({ map, initialFilter, view, withList })
  const { initial, filter, changeFilter, markers, list, timeline, status, isLoadingMore, showMore } = data
  const [selection, setSelection] = useState<Selection | null>(null)
  const [group, setGroup] = useState<Group | null>(null)
  const [tileState, setTileState] = useState({ loaded: 0, failed: 0 })
  const [tileNoticeClosed, setTileNoticeClosed] = useState(false)
  const [isPanelOpen, setPanelOpen] = useState(false)
  const [isSharing, setSharing] = useState(false)
  // Loaded in the browser only (places-map-loader.tsx): matchMedia is there from the first render.
  const [markerMode] = useState<MarkerMode>(() => ({ isTouch: window.matchMedia('(pointer: coarse)').matches, keyboard: mode === 'embed' }))
  // The legend is open on the home map of a wide screen; in an embed or on a phone, a button opens it.
  const [legendStartsOpen] = useState(() => withList && !window.matchMedia('(max-width: 48rem)').matches)

  const onFilterChange = useCallback(
    (change: Parameters<typeof changeFilter>[0]) => {
      setSelection(null)
      setGroup(null)
      changeFilter(change)
    },
    [changeFilter],
  )

  const select = useCallback(
    (place: ListedPlace, options: { focus: boolean; opener: HTMLElement | null }) => {
      const centre = map?.getCenter().lng ?? 0
      setGroup(null)
      setSelection({ place, latitude: place.latitude, longitude: nearCentre(place.longitude, centre), ...options })
    },
    [map],
  )

  // Read by showOnMap as it runs: a callback that changed with every view would render the whole list again.
  const drawnMarkers = useRef(markers)
  useEffect(() => {
    drawnMarkers.current = markers
  }, [markers])

  const showOnMap = useCallback(
    (place: ListedPlace, opener: HTMLElement) => {
      // On a phone the list covers the map: it closes, and the popup's Escape comes back to the list button.
      setPanelOpen(false)
      // A place inside a cluster has no marker of its own for the popup to point at: the map goes to the place.
      const drawn = drawnMarkers.current?.features.some((feature) => !isCluster(feature) && feature.properties.id === place.id)
      if (map && !drawn) {
        map.setView([place.latitude, nearCentre(place.longitude, map.getCenter().lng)], Math.max(map.getZoom(), SHOW_ZOOM), { animate: false })
      }
      select(place, { focus: true, opener })
    },
    [select, map],
  )

  // Back to what a popup was opened from (a list item, a marker), when the popup had the focus and nothing else took
  // it meanwhile (the popup of a place picked from a group's list).
  const returnFocus = useCallback(
    (opener: HTMLElement | null) => {
      const active = document.activeElement
      if (!opener?.isConnected || !(!active || active === document.body || map?.getContainer().contains(active))) return
      if (opener.closest('.place-panel:not(.is-open)') && window.matchMedia('(max-width: 48rem)').matches) setPanelOpen(true)
      requestAnimationFrame(() => {
        const now = document.activeElement
        if (!now || now === document.body || !now.closest('.leaflet-popup')) opener.focus()
      })
    },
    [map],
  )
  const closed = useCallback(
    (closing: Selection) => {
      setSelection((current) => (current === closing ? null : current))
      returnFocus(closing.opener)
    },
    [returnFocus],
  )
  const groupClosed = useCallback(
    (closing: Group) => {
      setGroup((current) => (current === closing ? null : current))
      returnFocus(closing.opener)
    },
    [returnFocus],
  )

  const openGroup = useCallback((next: Group) => {
    setSelection(null)
    setGroup(next)
  }, [])

  const onTileLoad = useCallback(() => setTileState((s) => (s.loaded ? s : { ...s, loaded: 1 })), [])
  const onTileError = useCallback(() => setTileState((s) => (s.failed ? s : { ...s, failed: 1 })), [])

  const stacks = useMemo(() => {
    if (!map || !markers) return []
    const places = markers.features.filter((feature): feature is EmbeddedPlaceFeature => !isCluster(feature))
    return stacksOf(map, places, markers.zoom, markerMode.isTouch ? TAP_PIXELS : STACK_PIXELS)
  }, [map, markers, markerMode])

  const params = useMemo(() => filterParams(filter), [filter])
  const colors = useMemo(() => colorMap(categories), [categories])
  // What markers are painted with (category-colors.ts); within a category, its colour, whatever each place's first.
  const paint = useMemo(() => {
    const only = filter.categoryId === null ? undefined : colors.get(filter.categoryId)
    return {
      cluster: (feature: EmbeddedClusterFeature) => only ?? clusterPaint(feature, colors),
      places: (places: EmbeddedPlaceFeature[]) => only ?? mixOf(places.map((place) => ({ color: placeColor(place._embedded.categories, colors), count: 1 }))),
    }
  }, [colors, filter.categoryId])
  // The legend's "No category", when the view has such places: a place without one, or a cluster with some.
  const withUncategorised = useMemo(
    () => markers?.features.some((feature) => (isCluster(feature) ? uncountedOf(feature) > 0 : feature._embedded.categories.length === 0)) ?? false,
    [markers],
  )

  return (
    <CategoryColors value={colors}>
      <div className={`map-app map-app-${mode}`} data-ready={status === 'ready'}>
        {withList && (
          <PlacePanel
            id="place-panel"
            isOpen={isPanelOpen}
            categories={categories}
            postTypes={postTypes}
            filter={filter}
            tagName={tagName}
            onFilterChange={onFilterChange}
            list={list}
            timeline={timeline}
            status={status}
            isLoadingMore={isLoadingMore}
            onShowOnMap={showOnMap}
            onShowMore={() => void showMore()}
            timeZone={timeZone}
          />
        )}
        <section className="map-area" aria-label="Map of the places">
          {initial && (
            <MapContainer ref={setMap} id={MAP_ID} className="places-map" maxZoom={MAX_ZOOM} minZoom={1} worldCopyJump {...initial}>
              <Basemap tiles={tiles} maxZoom={MAX_ZOOM} onLoad={onTileLoad} onError={onTileError} />
              {markers?.features.filter(isCluster).map((feature) => {
                const [longitude, latitude] = feature.geometry.coordinates
                return (
                  <ClusterMarker
                    key={`c${longitude},${latitude},${feature.properties.point_count}`}
                    feature={feature}
                    paint={paint.cluster(feature)}
                    longitude={nearCentre(longitude, markers.centre)}
                    mode={markerMode}
                    onOpen={openGroup}
                  />
                )
              })}
              {markers &&
                stacks.map((stack) => {
                  const [first] = stack as [EmbeddedPlaceFeature, ...EmbeddedPlaceFeature[]]
                  const [longitude, latitude] = first.geometry.coordinates
                  const shown = nearCentre(longitude, markers.centre)
                  return stack.length === 1 ? (
                    <PlaceMarker
                      key={`p${first.properties.id}`}
                      {...first.properties}
                      color={paint.places(stack)}
                      latitude={latitude}
                      longitude={shown}
                      mode={markerMode}
                      onSelect={select}
                    />
                  ) : (
                    <StackMarker
                      key={`s${stack.map((f) => f.properties.id).join(',')}`}
                      stack={stack}
                      paint={paint.places(stack)}
                      longitude={shown}
                      mode={markerMode}
                      onOpen={openGroup}
                    />
                  )
                })}
              {selection && <PlacePopup key={selection.place.id} selection={selection} onClosed={closed} timeZone={timeZone} />}
              {group && <GroupPopup key={group.key} group={group} filter={params} onSelect={select} onClosed={groupClosed} />}
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
                {map && <DownloadMenu map={map} filter={filter} />}
              </>
            ) : (
              map && <LargerMapLink map={map} filter={filter} />
            )}
          </div>
          <div className="map-corner">
            <MapLegend
              categories={categories}
              colors={colors}
              categoryId={filter.categoryId}
              onChange={(categoryId) => onFilterChange({ categoryId })}
              withUncategorised={withUncategorised}
              startOpen={legendStartsOpen}
            />
            {tiles && tileState.failed > 0 && tileState.loaded === 0 && !tileNoticeClosed && (
              <div className={withList ? 'map-notice' : 'map-notice map-notice-small'} role="status">
                <p>
                  {withList
                    ? 'The detailed background map could not be loaded. The places are all here, and in the list.'
                    : 'The detailed background map could not be loaded.'}
                </p>
                <button type="button" className="map-notice-close" aria-label="Close the notice" onClick={() => setTileNoticeClosed(true)}>
                  ×
                </button>
              </div>
            )}
          </div>
        </section>
        {isSharing && map && <ShareDialog params={mapParams(map, filter)} onClose={() => setSharing(false)} />}
      </div>
    </CategoryColors>
  )
}

/** /embed's way out: the home map with the same view, filter and search, in a new tab. */
function LargerMapLink({ map, filter }: { map: LeafletMap; filter: MapFilter }) {
  const [href, setHref] = useState(() => `/?${mapParams(map, filter)}`)
  useEffect(() => {
    const update = () => setHref(`/?${mapParams(map, filter)}`)
    map.on('moveend', update)
    return () => void map.off('moveend', update)
  }, [map, filter])
  return (
    // The site's own page: noopener is what matters (no window.opener); its referrer is the site itself anyway.
    // eslint-disable-next-line react/jsx-no-target-blank -- rel=noopener, as the issue asks; every supported browser honours it
    <a className="map-button" href={href} target="_blank" rel="noopener">
      View larger map
    </a>
  )
}

/**
 * How markers are drawn and reached: where the pointer is a finger, each is a target at least TAP_PIXELS wide; on
 * /embed, which has no list, each takes the keyboard's focus (Enter opens it). On the home map the list is the
 * keyboard's way through the places, and markers are for the pointer.
 */
type MarkerMode = { isTouch: boolean; keyboard: boolean }

// Icons made lately, by what they show; emptied past MAX_ICONS (mixes of colours are many).
const icons = new Map<string, DivIcon>()
const MAX_ICONS = 500

/**
 * A marker's icon: a circle (a cluster's or a stack's with its count: a number, no text from the data goes into this
 * HTML), painted with its place's colour or its places' mix (category-colors.ts: only `#rrggbb` colours), inside a
 * target at least TAP_PIXELS wide where the pointer is a finger.
 */
function markerIcon(kind: 'cluster' | 'stack' | 'place', count: number, isTouch: boolean, paint: string): DivIcon {
  const label = kind === 'place' ? '' : count < 1000 ? String(count) : count < 10_000 ? `${(count / 1000).toFixed(1)}k` : `${Math.round(count / 1000)}k`
  const size = kind === 'place' ? 18 : kind === 'stack' ? 32 : count < 10 ? 30 : count < 100 ? 36 : count < 1000 ? 42 : 48
  const target = isTouch ? Math.max(size, TAP_PIXELS) : size
  const key = `${kind}${label}${target}${paint}`
  let icon = icons.get(key)
  if (!icon) {
    if (icons.size >= MAX_ICONS) icons.clear()
    icon = divIcon({ html: `<span style="--size:${size}px;--paint:${paint}">${label}</span>`, className: `${kind}-marker`, iconSize: [target, target] })
    icons.set(key, icon)
  }
  return icon
}

/** How many of a cluster's places its mix leaves out: those with no category (docs/api.md, _embed). */
const uncountedOf = ({ properties, _embedded }: EmbeddedClusterFeature) =>
  properties.point_count - _embedded.categories.reduce((sum, { count }) => sum + count, 0)

/** A cluster's paint: the mix of its places' top-level categories, those with none in the colour of no category. */
function clusterPaint(feature: EmbeddedClusterFeature, colors: ReadonlyMap<number, string>): string {
  return mixOf([
    ...feature._embedded.categories.map(({ id, count }) => ({ color: colors.get(id) ?? NO_CATEGORY_COLOR, count })),
    { color: NO_CATEGORY_COLOR, count: uncountedOf(feature) },
  ])
}

type Origin = { focus: boolean; opener: HTMLElement | null }

/**
 * A marker's handlers: a click opens it; so does Enter (or Space) when it has the keyboard's focus (/embed), and then
 * the popup takes the focus, to give it back to the marker when it closes.
 */
function markerHandlers(open: (origin: Origin) => void): LeafletEventHandlerFnMap {
  return {
    click: () => open({ focus: false, opener: null }),
    keypress: (event) => {
      const { originalEvent } = event
      if (originalEvent.key !== 'Enter' && originalEvent.key !== ' ') return
      originalEvent.preventDefault()
      open({ focus: true, opener: (event.target as LeafletMarker).getElement() ?? null })
    },
  }
}

type ClusterMarkerProps = { feature: EmbeddedClusterFeature; paint: string; longitude: number; mode: MarkerMode; onOpen: (group: Group) => void }

// Markers re-render only when what they show changes: a pan keeps most of them as they are.
const ClusterMarker = memo(function ClusterMarker({ feature, paint, longitude, mode, onOpen }: ClusterMarkerProps) {
  const latitude = feature.geometry.coordinates[1]
  const { cluster_id: clusterId, point_count: count, expansion_zoom: expansionZoom } = feature.properties
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  // The box of its places, moved round the world as the marker is.
  const shift = longitude - feature.geometry.coordinates[0]
  const [west, south, east, north] = feature.bbox
  const bounds = useMemo(() => toBounds([west + shift, south, east + shift, north]), [west, south, east, north, shift])
  const handlers = useMemo(
    () =>
      markerHandlers((origin) =>
        onOpen({
          key: `c${latitude},${longitude},${count}`,
          latitude,
          longitude,
          count,
          places: null,
          clusterId,
          zoomTo: expansionZoom <= MAX_ZOOM ? expansionZoom : null,
          bounds,
          ...origin,
        }),
      ),
    [onOpen, latitude, longitude, count, clusterId, expansionZoom, bounds],
  )
  return (
    <Marker
      position={position}
      icon={markerIcon('cluster', count, mode.isTouch, paint)}
      keyboard={mode.keyboard}
      title={`${count} places: list them`}
      eventHandlers={handlers}
    />
  )
})

type StackMarkerProps = { stack: EmbeddedPlaceFeature[]; paint: string; longitude: number; mode: MarkerMode; onOpen: (group: Group) => void }

const StackMarker = memo(function StackMarker({ stack, paint, longitude, mode, onOpen }: StackMarkerProps) {
  const latitude = stack[0]!.geometry.coordinates[1]
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  const handlers = useMemo(
    () =>
      markerHandlers((origin) =>
        onOpen({
          key: `s${stack.map((f) => f.properties.id).join(',')}`,
          latitude,
          longitude,
          count: stack.length,
          places: stack.map(toListedPlace),
          clusterId: null,
          zoomTo: null,
          bounds: null,
          ...origin,
        }),
      ),
    [onOpen, latitude, longitude, stack],
  )
  return (
    <Marker
      position={position}
      icon={markerIcon('stack', stack.length, mode.isTouch, paint)}
      keyboard={mode.keyboard}
      title={`${stack.length} places here: list them`}
      eventHandlers={handlers}
    />
  )
})

type PlaceMarkerProps = Omit<ListedPlace, 'latitude' | 'longitude' | 'embedded'> & {
  latitude: number
  /** where the marker is drawn: the copy of the place's longitude nearest the view */
  longitude: number
  /** its category's (category-colors.ts) */
  color: string
  mode: MarkerMode
  onSelect: (place: ListedPlace, options: Origin) => void
}

const PlaceMarker = memo(function PlaceMarker({ onSelect, id, title, url, address, latitude, longitude, color, mode }: PlaceMarkerProps) {
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  const handlers = useMemo(
    () => markerHandlers((origin) => onSelect({ id, title, url, address, latitude, longitude }, origin)),
    [onSelect, id, title, url, address, latitude, longitude],
  )
  // Leaflet writes the title into the marker's `title` attribute as text: its accessible name, escaped by the DOM.
  return <Marker position={position} icon={markerIcon('place', 1, mode.isTouch, color)} keyboard={mode.keyboard} title={title} eventHandlers={handlers} />
})

// A popup is panned clear of what floats over the map: the zoom buttons (top left), the toolbar (top right, 44 px
// tall on a phone) and the attribution (bottom right); on a phone its × would otherwise open the Download menu.
const POPUP_PADDING = { autoPanPaddingTopLeft: point(64, 64), autoPanPaddingBottomRight: point(24, 32) }

/**
 * A cluster's Zoom in: to the zoom where it splits, centred on its places, or closer while they all fit in the view
 * (clear of the buttons, as FIT). Its popup closes: the cluster it lists is no longer drawn there.
 */
function zoomToGroup(map: LeafletMap, bounds: LatLngBounds, splitsAt: number): void {
  const padding = point(FIT.paddingTopLeft as [number, number]).add(FIT.paddingBottomRight as [number, number])
  const fitted = map.getBoundsZoom(bounds, false, padding)
  map.closePopup()
  map.setView(bounds.getCenter(), Math.min(Math.max(fitted, splitsAt, map.getZoom() + 1), MAX_ZOOM))
}

/** A popup's content closes it on Escape, which bubbles up from the link or button that has the focus. */
const onEscape = (close: () => void) => (event: ReactKeyboardEvent) => {
  if (event.key !== 'Escape') return
  event.stopPropagation()
  close()
}

/** A ref callback that gives its element the focus, once, when `focus` (a popup opened from the keyboard). */
function useFocusOnce<T extends HTMLElement>(focus: boolean): (element: T | null) => void {
  const hasFocused = useRef(false)
  return useCallback(
    (element: T | null) => {
      if (!element || !focus || hasFocused.current) return
      hasFocused.current = true
      element.focus({ preventScroll: true })
    },
    [focus],
  )
}

/** The popup of one place: its picture, title (a link to its page), date, address and categories. */
function PlacePopup({ selection, onClosed, timeZone }: { selection: Selection; onClosed: (selection: Selection) => void; timeZone: string }) {
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
  // Opened from the list or the keyboard: the focus moves into the popup, to its link; Escape closes it and goes back.
  const focusLink = useFocusOnce<HTMLAnchorElement>(selection.focus)
  return (
    <Popup position={position} eventHandlers={handlers} className="place-popup" {...POPUP_PADDING} minWidth={200} maxWidth={260}>
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- Escape bubbles up from the link inside; the div itself takes no focus */}
      <div className="place-summary" onKeyDown={onEscape(() => onClosed(selection))}>
        <PlaceSummary place={place} sizes="240px" titleRef={focusLink} timeZone={timeZone} />
      </div>
    </Popup>
  )
}

type GroupPopupProps = {
  group: Group
  filter: Record<string, string | number | undefined>
  onSelect: (place: ListedPlace, options: Origin) => void
  onClosed: (group: Group) => void
}

/**
 * A cluster's places (the first GROUP_LIST, newest first) or a stack's: each opens its own popup. Opened from the
 * keyboard, the focus goes to the first place; Escape closes it.
 */
function GroupPopup({ group, filter, onSelect, onClosed }: GroupPopupProps) {
  const map = useMap()
  const position = useMemo<LatLngTuple>(() => [group.latitude, group.longitude], [group])
  const handlers = useMemo(() => ({ remove: () => onClosed(group) }), [onClosed, group])
  const focusFirst = useFocusOnce<HTMLButtonElement>(group.focus)
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
    <Popup position={position} eventHandlers={handlers} className="place-popup group-popup" {...POPUP_PADDING} minWidth={220} maxWidth={280}>
      <p className="group-popup-title">{group.count.toLocaleString('en')} places</p>
      {!loaded ? (
        <p className="post-meta">Loading…</p>
      ) : (
        // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- Escape bubbles up from the buttons inside
        <ul className="group-list" onKeyDown={onEscape(() => onClosed(group))}>
          {loaded.places.map((place, i) => (
            <li key={place.id}>
              <button
                ref={i === 0 ? focusFirst : undefined}
                type="button"
                className="link-button"
                // After the click has gone through: were this popup gone from the page when Leaflet sees the click, Leaflet
                // would take it for a click on the map, and close the place's popup it opened. From the keyboard (a
                // click of no pointer), the place's popup takes the focus, and gives it back to the group's marker.
                onClick={(event) => {
                  const focus = event.detail === 0
                  setTimeout(() => onSelect(place, { focus, opener: focus ? group.opener : null }))
                }}
              >
                {place.title}
              </button>
              {place.address && <span className="post-meta place-address">{place.address}</span>}
            </li>
          ))}
        </ul>
      )}
      {rest > 0 && <p className="post-meta">and {rest.toLocaleString('en')} more.</p>}
      {group.zoomTo !== null && group.bounds && (
        <button type="button" className="group-zoom" onClick={() => zoomToGroup(map, group.bounds!, group.zoomTo!)}>
          Zoom in
        </button>
      )}
    </Popup>
  )
}
