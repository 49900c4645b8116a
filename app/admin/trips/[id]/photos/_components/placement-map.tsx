'use client'
import 'leaflet/dist/leaflet.css'
import { latLngBounds } from 'leaflet'
import { CircleMarker, MapContainer, Polyline, Tooltip, useMapEvents } from 'react-leaflet'
import { Basemap, type TileSource } from '@/app/_components/basemap'
import { beside, drawn } from '@/app/trip/[slug]/trip-map'

export type PlacedMarker = { id: number; number: number; title: string; latitude: number; longitude: number; sure: boolean; accepted: boolean }

export type PlacementMapProps = {
  route: [number, number][][]
  markers: PlacedMarker[]
  focused: number | null
  tiles: TileSource | null
  /** while a photo is being placed by hand, where the editor clicked */
  onPick: ((latitude: number, longitude: number) => void) | null
  onFocus: (id: number) => void
}

const MAX_ZOOM = 19

function Picker({ onPick }: { onPick: PlacementMapProps['onPick'] }) {
  useMapEvents({ click: (event) => onPick?.(event.latlng.lat, event.latlng.wrap().lng) })
  return null
}

/** The trip's route and where each photo would go: sure ones filled dark, unsure ones amber, rejected ones faint. */
export default function PlacementMap({ route, markers, focused, tiles, onPick, onFocus }: PlacementMapProps) {
  const lines = drawn(route)
  const reference = lines[0]?.[0]?.[1] ?? markers[0]?.longitude ?? 0
  const shown = markers.map((marker) => ({ ...marker, longitude: beside(marker.longitude, reference) }))
  const positions = [...lines.flat(), ...shown.map((marker): [number, number] => [marker.latitude, marker.longitude])]
  return (
    <MapContainer
      className={`trip-map review-map${onPick ? ' picking' : ''}`}
      bounds={positions.length > 0 ? latLngBounds(positions).pad(0.05) : undefined}
      center={positions.length > 0 ? undefined : [0, 0]}
      zoom={positions.length > 0 ? undefined : 2}
      maxZoom={MAX_ZOOM}
      scrollWheelZoom={false}
    >
      <Basemap tiles={tiles} maxZoom={MAX_ZOOM} />
      <Picker onPick={onPick} />
      {lines.length > 0 && <Polyline positions={lines} className="trip-route" pathOptions={{ color: '#d63638', weight: 3 }} interactive={false} />}
      {shown.map((marker) => (
        <CircleMarker
          key={marker.id}
          center={[marker.latitude, marker.longitude]}
          radius={marker.id === focused ? 11 : 8}
          pathOptions={{
            color: marker.id === focused ? '#2271b1' : '#fff',
            weight: marker.id === focused ? 3 : 2,
            fillColor: marker.sure ? '#1d2327' : '#dba617',
            fillOpacity: marker.accepted ? 0.95 : 0.35,
          }}
          eventHandlers={{ click: () => onFocus(marker.id) }}
        >
          <Tooltip>
            {marker.number}. {marker.title}
          </Tooltip>
        </CircleMarker>
      ))}
    </MapContainer>
  )
}
