'use client'
import 'leaflet/dist/leaflet.css'
import { divIcon, type DivIcon, type LatLngTuple, type Map as LeafletMap } from 'leaflet'
import { memo, useCallback, useMemo, useRef, useState } from 'react'
import { CircleMarker, MapContainer, Marker, Popup, TileLayer, useMap } from 'react-leaflet'
import type { CategoryNode } from '@/lib/places/categories'
import type { MapState } from '@/lib/places/schemas'
import { PlacePanel, type ListedPlace } from './place-panel'
import { isCluster, MAX_ZOOM, usePlacesMapData } from './use-places-map-data'

export type PlacesMapProps = {
  postType: string
  categoryId: number | null
  /** the view the address asked for; null to fit the places */
  view: MapState['view']
  categories: CategoryNode[]
  /** a Leaflet URL template and its attribution (HTML from the site's configuration) */
  tiles: { url: string; attribution: string }
}

type Selection = { place: ListedPlace; latitude: number; longitude: number; focus: boolean; opener: HTMLElement | null }

/** The copy of `longitude` nearest the view's centre, so that places beyond the antimeridian show beside it. */
function nearCentre(longitude: number, centre: number): number {
  return longitude + 360 * Math.round((centre - longitude) / 360)
}

/**
 * The public map: clusters and places of the view from GET /places/v1/geojson?cluster=true, one popup at a time,
 * and beside it the list of the places in view (GET /places/v1/geojson?bbox=…), as usePlacesMapData loads them. The
 * only module that loads Leaflet.
 */
export default function PlacesMap({ postType, categoryId: initialCategoryId, view, categories, tiles }: PlacesMapProps) {
  const [map, setMap] = useState<LeafletMap | null>(null)
  const { initial, categoryId, changeCategory, markers, list, status, isLoadingMore, showMore } = usePlacesMapData({ map, postType, initialCategoryId, view })
  const [selection, setSelection] = useState<Selection | null>(null)
  const [tileState, setTileState] = useState({ loaded: 0, failed: 0 })

  const onCategoryChange = useCallback(
    (next: number | null) => {
      setSelection(null)
      changeCategory(next)
    },
    [changeCategory],
  )

  const select = useCallback(
    (place: ListedPlace, options: { focus: boolean; opener: HTMLElement | null }) => {
      const centre = map?.getCenter().lng ?? 0
      setSelection({ place, latitude: place.latitude, longitude: nearCentre(place.longitude, centre), ...options })
    },
    [map],
  )

  const showOnMap = useCallback((place: ListedPlace, opener: HTMLElement) => select(place, { focus: true, opener }), [select])

  const closed = useCallback(
    (closing: Selection) => {
      setSelection((current) => (current === closing ? null : current))
      // Back to the list item it was opened from, when the popup had the focus.
      const active = document.activeElement
      if (closing.opener?.isConnected && (!active || active === document.body || map?.getContainer().contains(active))) closing.opener.focus()
    },
    [map],
  )

  const tileHandlers = useMemo(
    () => ({
      tileload: () => setTileState((s) => (s.loaded ? s : { ...s, loaded: 1 })),
      tileerror: () => setTileState((s) => (s.failed ? s : { ...s, failed: 1 })),
    }),
    [],
  )

  return (
    <div className="map-app" data-ready={status === 'ready'}>
      <PlacePanel
        categories={categories}
        categoryId={categoryId}
        onCategoryChange={onCategoryChange}
        list={list}
        status={status}
        isLoadingMore={isLoadingMore}
        onShowOnMap={showOnMap}
        onShowMore={() => void showMore()}
      />
      <section className="map-area" aria-label="Map of the places">
        {initial && (
          <MapContainer ref={setMap} className="places-map" maxZoom={MAX_ZOOM} minZoom={1} worldCopyJump {...initial}>
            <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={MAX_ZOOM} eventHandlers={tileHandlers} />
            {markers?.features.map((feature) => {
              const [longitude, latitude] = feature.geometry.coordinates
              const shown = nearCentre(longitude, markers.centre)
              return isCluster(feature) ? (
                <ClusterMarker
                  key={`c${longitude},${latitude},${feature.properties.point_count}`}
                  latitude={latitude}
                  longitude={shown}
                  count={feature.properties.point_count}
                  expansionZoom={feature.properties.expansion_zoom}
                />
              ) : (
                <PlaceMarker key={`p${feature.properties.id}`} {...feature.properties} latitude={latitude} longitude={shown} onSelect={select} />
              )
            })}
            {selection && <PlacePopup key={selection.place.id} selection={selection} onClosed={closed} />}
          </MapContainer>
        )}
        {tileState.failed > 0 && tileState.loaded === 0 && (
          <p className="map-notice" role="status">
            The background map could not be loaded. The places are all here, and in the list.
          </p>
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
  const handlers = useMemo(
    () => ({
      click: () => map.setView(position, Math.min(Math.max(expansionZoom, map.getZoom() + 1), MAX_ZOOM)),
    }),
    [map, position, expansionZoom],
  )
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

/** The popup of one place: its title as a link to its page, and its address. React renders the text: never HTML. */
function PlacePopup({ selection, onClosed }: { selection: Selection; onClosed: (selection: Selection) => void }) {
  const { place } = selection
  const position = useMemo<LatLngTuple>(() => [selection.latitude, selection.longitude], [selection])
  const handlers = useMemo(() => ({ remove: () => onClosed(selection) }), [selection, onClosed])
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
    <Popup position={position} eventHandlers={handlers} className="place-popup" autoPanPadding={[24, 24]}>
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions -- Escape bubbles up from the link inside; the div itself takes no focus */}
      <div
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return
          event.stopPropagation()
          onClosed(selection)
        }}
      >
        <p className="place-popup-title">
          <a ref={focusLink} href={place.url}>
            {place.title}
          </a>
        </p>
        {place.address && <p className="place-popup-address">{place.address}</p>}
      </div>
    </Popup>
  )
}
