'use client'
import 'leaflet/dist/leaflet.css'
import { latLngBounds } from 'leaflet'
import { CircleMarker, MapContainer, Tooltip } from 'react-leaflet'
import { Basemap, type TileSource } from '@/app/_components/basemap'

type Point = { latitude: number; longitude: number }

export type PostMapProps = {
  title: string
  point: Point
  /** the nearest public places, each linking to its page */
  nearby: (Point & { id: number; title: string; url: string })[]
  /** the configured tiles (null: MAP_TILE_URL=none, the world layer alone) */
  tiles: TileSource | null
}

const MAX_ZOOM = 18
const PLACE_ZOOM = 15

/**
 * A post's small map: its place, and the nearest public places around it as smaller markers that open their pages.
 * The list under the map (rendered by the page) holds the same links for the keyboard and for screen readers.
 */
export default function PostMap({ title, point, nearby, tiles }: PostMapProps) {
  const positions = [point, ...nearby].map((p): [number, number] => [p.latitude, p.longitude])
  const bounds = nearby.length > 0 ? latLngBounds(positions).pad(0.15) : undefined
  return (
    <MapContainer
      className="post-map"
      {...(bounds ? { bounds, boundsOptions: { maxZoom: PLACE_ZOOM } } : { center: positions[0], zoom: PLACE_ZOOM })}
      maxZoom={MAX_ZOOM}
      scrollWheelZoom={false}
      worldCopyJump
    >
      <Basemap tiles={tiles} maxZoom={MAX_ZOOM} />
      {nearby.map((place) => (
        <CircleMarker
          key={place.id}
          center={[place.latitude, place.longitude]}
          radius={7}
          // Leaflet reads a path's class only when it creates it: an option, not a style.
          className="post-map-nearby"
          pathOptions={{ color: '#fff', weight: 2, fillColor: '#50575e', fillOpacity: 0.9 }}
          eventHandlers={{ click: () => window.location.assign(place.url) }}
        >
          <Tooltip>{place.title}</Tooltip>
        </CircleMarker>
      ))}
      <CircleMarker
        center={[point.latitude, point.longitude]}
        radius={10}
        className="post-map-place"
        pathOptions={{ color: '#fff', weight: 3, fillColor: '#d63638', fillOpacity: 1 }}
      >
        <Tooltip permanent direction="top" offset={[0, -10]}>
          {title}
        </Tooltip>
      </CircleMarker>
    </MapContainer>
  )
}
