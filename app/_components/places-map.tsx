'use client'
import 'leaflet/dist/leaflet.css'
import { divIcon, latLngBounds, type DivIcon, type FitBoundsOptions, type LatLngBounds, type LatLngTuple, type Map as LeafletMap } from 'leaflet'
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { CircleMarker, MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet'
import type { CategoryNode } from '@/lib/places/categories'
import type { BBox, MapState } from '@/lib/places/schemas'
import { PlacePanel, type ListedPlace, type PlaceListState } from './place-panel'

export type PlacesMapProps = {
  postType: string
  categoryId: number | null
  /** the view the address asked for; null to fit the places */
  view: MapState['view']
  categories: CategoryNode[]
  /** a Leaflet URL template and its attribution (HTML from the site's configuration) */
  tiles: { url: string; attribution: string }
}

type Point = { type: 'Point'; coordinates: [number, number] }
type PlaceFeature = { type: 'Feature'; geometry: Point; properties: { id: number; title: string; url: string; address: string } }
type ClusterFeature = { type: 'Feature'; geometry: Point; properties: { cluster: true; point_count: number; expansion_zoom: number } }
/** GET /places/v1/geojson with bbox or cluster: a FeatureCollection with `total` and `extent` (README, The API). */
type MapAnswer<F> = { type: 'FeatureCollection'; total: number; extent: BBox | null; features: F[] }

type InitialView = { center: LatLngTuple; zoom: number } | { bounds: LatLngBounds; boundsOptions: FitBoundsOptions }

type Selection = { place: ListedPlace; latitude: number; longitude: number; focus: boolean; opener: HTMLElement | null }

const MAX_ZOOM = 19
const LIST_PAGE = 50
// Clusters are asked for a margin around the view, so that a short pan shows markers at once.
const CLUSTER_MARGIN = 0.25
const WORLD_VIEW: InitialView = { center: [20, 0], zoom: 2 }
const FIT: FitBoundsOptions = { padding: [24, 24], maxZoom: 15 }

const round = (value: number, digits: number) => Number(value.toFixed(digits))

// Web Mercator ends here: a view that reaches it shows the places nearer the pole at its edge.
const MERCATOR_EDGE = 85.05

/** Leaflet's bounds (longitudes past ±180 when the map has been panned round the world) as the API's bbox. */
function toBBox(bounds: LatLngBounds): BBox {
  const south = bounds.getSouth() <= -MERCATOR_EDGE ? -90 : round(bounds.getSouth(), 5)
  const north = bounds.getNorth() >= MERCATOR_EDGE ? 90 : round(bounds.getNorth(), 5)
  const width = bounds.getEast() - bounds.getWest()
  if (width >= 360) return [-180, south, 180, north]
  const west = round((((bounds.getWest() + 180) % 360) + 360) % 360 - 180, 5)
  let east = round(west + width, 5)
  if (east > 180) east = round(east - 360, 5) // west > east: the box crosses the antimeridian
  return [west, south, east, north]
}

/** The API's bbox as Leaflet bounds, east of west even across the antimeridian. */
function toBounds([west, south, east, north]: BBox): LatLngBounds {
  return latLngBounds([south, west], [north, east >= west ? east : east + 360])
}

/** The copy of `longitude` nearest the view's centre, so that places beyond the antimeridian show beside it. */
function nearCentre(longitude: number, centre: number): number {
  return longitude + 360 * Math.round((centre - longitude) / 360)
}

function geojsonUrl(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== null && value !== undefined) search.set(name, String(value))
  return `/places/v1/geojson?${search}`
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(url, { signal, headers: { Accept: 'application/geo+json' } })
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`)
  return response.json() as Promise<T>
}

function toListedPlace({ geometry, properties }: PlaceFeature): ListedPlace {
  return { ...properties, longitude: geometry.coordinates[0], latitude: geometry.coordinates[1] }
}

function isCluster(feature: ClusterFeature | PlaceFeature): feature is ClusterFeature {
  return 'cluster' in feature.properties
}

/** Keeps the view and the filter in the address, so that a link reopens the same map. */
function writeAddress(map: LeafletMap, postType: string, categoryId: number | null) {
  const centre = map.getCenter().wrap()
  const params = new URLSearchParams()
  if (postType !== 'post') params.set('post_type', postType)
  if (categoryId !== null) params.set('category', String(categoryId))
  params.set('zoom', String(map.getZoom()))
  params.set('lat', centre.lat.toFixed(5))
  params.set('lng', centre.lng.toFixed(5))
  window.history.replaceState(null, '', `?${params}`)
}

/**
 * The public map: clusters and places of the view from GET /places/v1/geojson?cluster=true, one popup at a time,
 * and beside it the list of the places in view (GET /places/v1/geojson?bbox=…). The only module that loads Leaflet.
 */
export default function PlacesMap({ postType, categoryId: initialCategoryId, view, categories, tiles }: PlacesMapProps) {
  const [map, setMap] = useState<LeafletMap | null>(null)
  const [categoryId, setCategoryId] = useState(initialCategoryId)
  const [markers, setMarkers] = useState<{ centre: number; features: (ClusterFeature | PlaceFeature)[] } | null>(null)
  const [list, setList] = useState<(PlaceListState & { bbox: BBox; page: number }) | null>(null)
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading')
  const [isLoadingMore, setIsLoadingMore] = useState(false)
  const [selection, setSelection] = useState<Selection | null>(null)
  const [tileState, setTileState] = useState({ loaded: 0, failed: 0 })
  const loading = useRef<AbortController | null>(null)

  const load = useCallback(async (map: LeafletMap, categoryId: number | null, fitToExtent: boolean) => {
    loading.current?.abort()
    const controller = new AbortController()
    loading.current = controller
    setStatus('loading')
    const zoom = map.getZoom()
    const bounds = map.getBounds()
    const inView = toBBox(bounds)
    const category = categoryId ?? undefined
    try {
      const [clusters, page] = await Promise.all([
        getJson<MapAnswer<ClusterFeature | PlaceFeature>>(
          geojsonUrl({ post_type: postType, category, cluster: 'true', zoom, bbox: toBBox(bounds.pad(CLUSTER_MARGIN)).join(',') }),
          controller.signal,
        ),
        getJson<MapAnswer<PlaceFeature>>(
          geojsonUrl({ post_type: postType, category, bbox: inView.join(','), posts_per_page: LIST_PAGE }),
          controller.signal,
        ),
      ])
      setMarkers({ centre: map.getCenter().lng, features: clusters.features })
      setList({ places: page.features.map(toListedPlace), total: page.total, bbox: inView, page: 1 })
      setStatus('ready')
      // A new category: show all its places (the move loads them).
      if (fitToExtent && clusters.extent) map.fitBounds(toBounds(clusters.extent), FIT)
    } catch (error) {
      if (controller.signal.aborted) return
      console.error(error)
      setStatus('error')
    }
  }, [postType])

  // Every move (pan, zoom, keyboard) loads its view and goes into the address; a burst of moves loads once.
  const categoryRef = useRef(categoryId)
  categoryRef.current = categoryId
  useEffect(() => {
    if (!map) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const onMoveEnd = () => {
      writeAddress(map, postType, categoryRef.current)
      clearTimeout(timer)
      timer = setTimeout(() => void load(map, categoryRef.current, false), 80)
    }
    map.on('moveend', onMoveEnd)
    void load(map, categoryRef.current, false)
    return () => {
      clearTimeout(timer)
      map.off('moveend', onMoveEnd)
      loading.current?.abort()
    }
  }, [map, load, postType])

  const changeCategory = useCallback((next: number | null) => {
    setCategoryId(next)
    setSelection(null)
    if (!map) return
    writeAddress(map, postType, next)
    void load(map, next, true)
  }, [map, load, postType])

  const showMore = useCallback(async () => {
    if (!list) return
    setIsLoadingMore(true)
    try {
      const page = await getJson<MapAnswer<PlaceFeature>>(
        geojsonUrl({ post_type: postType, category: categoryId ?? undefined, bbox: list.bbox.join(','), posts_per_page: LIST_PAGE, page: list.page + 1 }),
      )
      setList((current) => current && current.bbox === list.bbox
        ? { ...current, places: [...current.places, ...page.features.map(toListedPlace)], page: list.page + 1 }
        : current)
    } catch (error) {
      console.error(error)
    } finally {
      setIsLoadingMore(false)
    }
  }, [list, postType, categoryId])

  const select = useCallback((place: ListedPlace, options: { focus: boolean; opener: HTMLElement | null }) => {
    const centre = map?.getCenter().lng ?? 0
    setSelection({ place, latitude: place.latitude, longitude: nearCentre(place.longitude, centre), ...options })
  }, [map])

  const showOnMap = useCallback((place: ListedPlace, opener: HTMLElement) => select(place, { focus: true, opener }), [select])

  const closed = useCallback((closing: Selection) => {
    setSelection((current) => (current === closing ? null : current))
    // Back to the list item it was opened from, when the popup had the focus.
    const active = document.activeElement
    if (closing.opener?.isConnected && (!active || active === document.body || map?.getContainer().contains(active))) closing.opener.focus()
  }, [map])

  // The first view drawn, for the benchmark (bench/map-browser.mjs) and anyone measuring.
  const hasDrawn = useRef(false)
  useEffect(() => {
    if (status !== 'ready' || hasDrawn.current) return
    hasDrawn.current = true
    requestAnimationFrame(() => performance.mark('places-map:ready'))
  }, [status])

  // The first view: the address's, else one that fits every place of the post type and category (their extent,
  // from the smallest answer of the API: the clusters of zoom 0).
  const [initial, setInitial] = useState<InitialView | null>(() =>
    view ? { center: [view.latitude, view.longitude], zoom: Math.min(view.zoom, MAX_ZOOM) } : null)
  useEffect(() => {
    if (initial) return
    const controller = new AbortController()
    getJson<MapAnswer<unknown>>(geojsonUrl({ post_type: postType, category: categoryId ?? undefined, cluster: 'true', zoom: 0 }), controller.signal)
      .then((answer) => setInitial(answer.extent ? { bounds: toBounds(answer.extent), boundsOptions: FIT } : WORLD_VIEW))
      .catch((error) => {
        if (controller.signal.aborted) return
        console.error(error)
        setInitial(WORLD_VIEW)
      })
    return () => controller.abort()
  }, []) // once: the first view only

  const tileHandlers = useMemo(() => ({
    tileload: () => setTileState((s) => (s.loaded ? s : { ...s, loaded: 1 })),
    tileerror: () => setTileState((s) => (s.failed ? s : { ...s, failed: 1 })),
  }), [])

  return (
    <div className="map-app" data-ready={status === 'ready'}>
      <PlacePanel
        categories={categories}
        categoryId={categoryId}
        onCategoryChange={changeCategory}
        list={list}
        status={status}
        isLoadingMore={isLoadingMore}
        onShowOnMap={showOnMap}
        onShowMore={() => void showMore()}
      />
      <section className="map-area" aria-label="Map of the places">
        {initial && <MapContainer ref={setMap} className="places-map" maxZoom={MAX_ZOOM} minZoom={1} worldCopyJump {...initial}>
          <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={MAX_ZOOM} eventHandlers={tileHandlers} />
          {markers?.features.map((feature) => {
            const [longitude, latitude] = feature.geometry.coordinates
            const shown = nearCentre(longitude, markers.centre)
            return isCluster(feature)
              ? <ClusterMarker key={`c${longitude},${latitude},${feature.properties.point_count}`} latitude={latitude} longitude={shown} count={feature.properties.point_count} expansionZoom={feature.properties.expansion_zoom} />
              : <PlaceMarker key={`p${feature.properties.id}`} {...feature.properties} latitude={latitude} longitude={shown} onSelect={select} />
          })}
          {selection && <PlacePopup key={selection.place.id} selection={selection} onClosed={closed} />}
        </MapContainer>}
        {tileState.failed > 0 && tileState.loaded === 0 && (
          <p className="map-notice" role="status">The background map could not be loaded. The places are all here, and in the list.</p>
        )}
      </section>
    </div>
  )
}

const clusterIcons = new Map<string, DivIcon>()

/** A cluster's icon: its count (a number: no text from the data goes into this HTML). */
function clusterIcon(count: number): DivIcon {
  const label = count < 1000 ? String(count) : count < 10_000 ? `${(count / 1000).toFixed(1)}k` : `${Math.round(count / 1000)}k`
  const size = count < 10 ? 30 : count < 100 ? 36 : count < 1000 ? 42 : 48
  let icon = clusterIcons.get(label)
  if (!icon) {
    icon = divIcon({ html: `<span>${label}</span>`, className: 'cluster-marker', iconSize: [size, size] })
    clusterIcons.set(label, icon)
  }
  return icon
}

type ClusterMarkerProps = { latitude: number; longitude: number; count: number; expansionZoom: number }

// Markers re-render only when what they show changes: a pan keeps most of them as they are.
const ClusterMarker = memo(function ClusterMarker({ latitude, longitude, count, expansionZoom }: ClusterMarkerProps) {
  const map = useMap()
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  // The list is the way through the places for the keyboard; clusters are for the pointer, and zoom in on a click.
  const handlers = useMemo(() => ({
    click: () => map.setView(position, Math.min(Math.max(expansionZoom, map.getZoom() + 1), MAX_ZOOM)),
  }), [map, position, expansionZoom])
  return <Marker position={position} icon={clusterIcon(count)} keyboard={false} title={`${count} places: zoom in`} eventHandlers={handlers} />
})

type PlaceMarkerProps = Omit<ListedPlace, 'latitude' | 'longitude'> & {
  latitude: number
  /** where the marker is drawn: the copy of the place's longitude nearest the view */
  longitude: number
  onSelect: (place: ListedPlace, options: { focus: boolean; opener: null }) => void
}

const PlaceMarker = memo(function PlaceMarker({ onSelect, id, title, url, address, latitude, longitude }: PlaceMarkerProps) {
  const position = useMemo<LatLngTuple>(() => [latitude, longitude], [latitude, longitude])
  const handlers = useMemo(() => ({
    click: () => onSelect({ id, title, url, address, latitude, longitude }, { focus: false, opener: null }),
  }), [onSelect, id, title, url, address, latitude, longitude])
  return (
    <CircleMarker
      center={position}
      radius={8}
      className="place-marker"
      bubblingMouseEvents={false}
      pathOptions={PLACE_MARKER_STYLE}
      eventHandlers={handlers}
    />
  )
})

const PLACE_MARKER_STYLE = { color: '#fff', weight: 2, fillColor: '#2271b1', fillOpacity: 1 }

/** The popup of one place: its title as a link to its page, and its address. React renders the text: never HTML. */
function PlacePopup({ selection, onClosed }: { selection: Selection; onClosed: (selection: Selection) => void }) {
  const { place } = selection
  const position = useMemo<LatLngTuple>(() => [selection.latitude, selection.longitude], [selection])
  const handlers = useMemo(() => ({ remove: () => onClosed(selection) }), [selection, onClosed])
  const hasFocused = useRef(false)
  // Opened from the list: the focus moves into the popup, to its link; Escape closes it and goes back.
  const focusLink = useCallback((link: HTMLAnchorElement | null) => {
    if (!link || !selection.focus || hasFocused.current) return
    hasFocused.current = true
    link.focus({ preventScroll: true })
  }, [selection])
  return (
    <Popup position={position} eventHandlers={handlers} className="place-popup" autoPanPadding={[24, 24]}>
      <div
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return
          event.stopPropagation()
          onClosed(selection)
        }}
      >
        <p className="place-popup-title"><a ref={focusLink} href={place.url}>{place.title}</a></p>
        {place.address && <p className="place-popup-address">{place.address}</p>}
      </div>
    </Popup>
  )
}
