'use client'

import 'leaflet/dist/leaflet.css'
import { divIcon, point, type LatLngTuple, type Marker as LeafletMarker } from 'leaflet'
import { useEffect, useEffectEvent, useMemo, useRef, useState, type RefObject } from 'react'
import { MapContainer, Marker, useMap, useMapEvents } from 'react-leaflet'
import { Basemap, type TileSource } from '@/app/_components/basemap'
import { formatCoordinate, roundCoordinate } from '@/lib/geo/precision'

// The editor's map: click to put the location, drag the marker or move it with the arrow keys when it has focus. Browser-only (Leaflet touches
// `window`): load it with next/dynamic and ssr: false (location-picker-loader.tsx). Tiles are configuration
// (MAP_TILE_URL); when they cannot load, the map is blank but clicking and dragging still work.

/** MAP_TILE_URL and its attribution; null for `none`: the world layer alone. */
export type Tiles = TileSource | null

export type LocationPickerProps = {
  latitude: number | null
  longitude: number | null
  onPick: (latitude: number, longitude: number) => void
  tiles: Tiles
  /** changes when the editor wants the map to show the location (typed or imported), not on every pick */
  recenter: number
  /** a place to show ("Find a place"), without moving the location; `seq` changes on each request */
  view?: { latitude: number; longitude: number; seq: number } | null
}

const WORLD: LatLngTuple = [20, 0]
const PICKED_ZOOM = 13

const VIEW_ZOOM = 12
// An arrow key moves the marker this many screen pixels, so the step scales with the zoom: about 1.5 km at zoom 10,
// 20 m at zoom 16. Shift moves ten times as far.
const STEP_PX = 10
const SHIFT_STEP_PX = 100
const ARROWS: Record<string, [number, number]> = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }

const round = roundCoordinate
// Leaflet's longitudes run on past ±180 when the world is panned round; the post's must not.
const wrapLongitude = (value: number) => ((((value + 180) % 360) + 360) % 360) - 180

const icon = divIcon({ className: 'location-marker', html: '<span class="location-marker-dot"></span>', iconSize: [26, 26], iconAnchor: [13, 13] })

function ClickToPick({ onPick }: { onPick: LocationPickerProps['onPick'] }) {
  useMapEvents({ click: (event) => onPick(round(event.latlng.lat), round(wrapLongitude(event.latlng.lng))) })
  return null
}

function Recenter({ position, recenter }: { position: LatLngTuple | null; recenter: number }) {
  const map = useMap()
  // The position as of the request, not a dependency: moving the marker does not recentre, asking does.
  const recenterOnPosition = useEffectEvent(() => {
    if (position) map.setView(position, Math.max(map.getZoom(), PICKED_ZOOM))
  })
  useEffect(() => {
    if (recenter > 0) recenterOnPosition()
  }, [recenter])
  return null
}

function ShowPlace({ view }: { view: LocationPickerProps['view'] }) {
  const map = useMap()
  const seq = view?.seq ?? 0
  const showPlace = useEffectEvent(() => {
    if (view) map.setView([view.latitude, view.longitude], VIEW_ZOOM)
  })
  useEffect(() => {
    if (seq > 0) showPlace()
  }, [seq])
  return null
}

/**
 * Arrow keys on the focused marker move it as a drag would; the map's own arrow-key panning is kept for when the map
 * itself has focus. The new coordinates are said in a polite live region.
 */
function MarkerKeys({
  marker,
  onPick,
  onMoved,
}: {
  marker: RefObject<LeafletMarker | null>
  onPick: LocationPickerProps['onPick']
  onMoved: (text: string) => void
}) {
  const map = useMap()
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    const direction = ARROWS[event.key]
    const current = marker.current
    if (!direction || !current || event.altKey || event.ctrlKey || event.metaKey) return
    event.preventDefault()
    event.stopPropagation()
    const step = event.shiftKey ? SHIFT_STEP_PX : STEP_PX
    const zoom = map.getZoom()
    const moved = map.unproject(map.project(current.getLatLng(), zoom).add(point(direction[0] * step, direction[1] * step)), zoom)
    const latitude = round(Math.max(-90, Math.min(90, moved.lat)))
    const longitude = round(wrapLongitude(moved.lng))
    current.setLatLng([latitude, longitude])
    map.panInside([latitude, longitude], { padding: [40, 40] })
    onPick(latitude, longitude)
    onMoved(`Location moved to ${formatCoordinate(latitude)}, ${formatCoordinate(longitude)}`)
  })
  useEffect(() => {
    // The marker's element comes and goes with the location; listen on the map's container and look at the target.
    const container = map.getContainer()
    const listener = (event: KeyboardEvent) => {
      if (event.target instanceof Element && event.target === marker.current?.getElement()) onKey(event)
    }
    container.addEventListener('keydown', listener, true)
    return () => container.removeEventListener('keydown', listener, true)
  }, [map, marker])
  return null
}

export default function LocationPicker({ latitude, longitude, onPick, tiles, recenter, view }: LocationPickerProps) {
  const marker = useRef<LeafletMarker>(null)
  const [announcement, setAnnouncement] = useState('')
  const position = useMemo<LatLngTuple | null>(() => (latitude !== null && longitude !== null ? [latitude, longitude] : null), [latitude, longitude])
  const label = position ? `Location marker at ${formatCoordinate(position[0])}, ${formatCoordinate(position[1])}` : ''

  // Leaflet sets a marker's title once; keep it (and its name for screen readers) in step with the position.
  useEffect(() => {
    const element = marker.current?.getElement()
    if (!element) return
    element.setAttribute('title', label)
    element.setAttribute('aria-label', label)
    // The editor's hint under the map says how to move it (arrow keys, Shift).
    element.setAttribute('aria-describedby', 'map-hint')
  }, [label])

  return (
    <>
      <MapContainer center={position ?? WORLD} zoom={position ? PICKED_ZOOM : 2} className="location-map" worldCopyJump>
        <Basemap tiles={tiles} />
        <ClickToPick onPick={onPick} />
        <Recenter position={position} recenter={recenter} />
        <ShowPlace view={view} />
        <MarkerKeys marker={marker} onPick={onPick} onMoved={setAnnouncement} />
        {position && (
          <Marker
            ref={marker}
            position={position}
            icon={icon}
            draggable
            title={label}
            alt={label}
            eventHandlers={{
              dragend: () => {
                const point = marker.current?.getLatLng()
                if (point) onPick(round(point.lat), round(wrapLongitude(point.lng)))
              },
            }}
          />
        )}
      </MapContainer>
      <p className="visually-hidden" aria-live="polite" data-testid="marker-announcement">
        {announcement}
      </p>
    </>
  )
}
