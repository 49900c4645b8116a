'use client'

import 'leaflet/dist/leaflet.css'
import { divIcon, type LatLngTuple, type Marker as LeafletMarker } from 'leaflet'
import { useEffect, useEffectEvent, useMemo, useRef } from 'react'
import { MapContainer, Marker, TileLayer, useMap, useMapEvents } from 'react-leaflet'
import { WorldLayer } from '@/app/_components/world-layer'

// The editor's map: click to put the location, drag the marker to move it. Browser-only (Leaflet touches
// `window`): load it with next/dynamic and ssr: false (location-picker-loader.tsx). Tiles are configuration
// (MAP_TILE_URL); when they cannot load, the map is blank but clicking and dragging still work.

/** MAP_TILE_URL and its attribution; null for `none`: the world layer alone. */
export type Tiles = { url: string; attribution: string } | null

export type LocationPickerProps = {
  latitude: number | null
  longitude: number | null
  onPick: (latitude: number, longitude: number) => void
  tiles: Tiles
  /** changes when the editor wants the map to show the location (typed or imported), not on every pick */
  recenter: number
}

const WORLD: LatLngTuple = [20, 0]
const PICKED_ZOOM = 13

// Six decimals are about 10 cm: more than a click on a map can mean.
const round = (value: number) => Math.round(value * 1e6) / 1e6
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

export default function LocationPicker({ latitude, longitude, onPick, tiles, recenter }: LocationPickerProps) {
  const marker = useRef<LeafletMarker>(null)
  const position = useMemo<LatLngTuple | null>(() => (latitude !== null && longitude !== null ? [latitude, longitude] : null), [latitude, longitude])
  const label = position ? `Location marker at ${position[0]}, ${position[1]}` : ''

  // Leaflet sets a marker's title once; keep it (and its name for screen readers) in step with the position.
  useEffect(() => {
    const element = marker.current?.getElement()
    if (!element) return
    element.setAttribute('title', label)
    element.setAttribute('aria-label', label)
  }, [label])

  return (
    <MapContainer center={position ?? WORLD} zoom={position ? PICKED_ZOOM : 2} className="location-map" worldCopyJump>
      <WorldLayer />
      {tiles && <TileLayer url={tiles.url} attribution={tiles.attribution} />}
      <ClickToPick onPick={onPick} />
      <Recenter position={position} recenter={recenter} />
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
  )
}
