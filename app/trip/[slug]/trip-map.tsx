'use client'
import 'leaflet/dist/leaflet.css'
import { latLngBounds } from 'leaflet'
import { CircleMarker, MapContainer, Polyline, Tooltip } from 'react-leaflet'
import { Basemap, type TileSource } from '@/app/_components/basemap'

type Point = { latitude: number; longitude: number }

export type TripMapProps = {
  /** the route's lines as the API gives them, [longitude, latitude], cut at the antimeridian */
  route: [number, number][][]
  /** the trip's posts with a public point, in time order, each numbered as the list under the map */
  stops: (Point & { id: number; number: number; title: string; url: string })[]
  tiles: TileSource | null
  /** where a stop's page opens: this window, or (in an embed) the page that frames it */
  linkTarget?: '_self' | '_top'
}

const MAX_ZOOM = 18

/** Longitude moved by whole turns to lie within half a turn of `near`: a route across the antimeridian stays whole. */
export const beside = (longitude: number, near: number) => longitude + 360 * Math.round((near - longitude) / 360)

/** The lines as Leaflet draws them, [latitude, longitude], each continuing where the one before ended. */
export function drawn(route: [number, number][][]): [number, number][][] {
  let last: number | undefined
  return route.map((line) =>
    line.map(([longitude, latitude]) => {
      last = last === undefined ? longitude : beside(longitude, last)
      return [latitude, last]
    }),
  )
}

/** A trip's map: its route, and its posts along it as numbered markers that open their pages. */
export default function TripMap({ route, stops, tiles, linkTarget = '_self' }: TripMapProps) {
  const lines = drawn(route)
  const reference = lines[0]?.[0]?.[1] ?? stops[0]?.longitude ?? 0
  const markers = stops.map((stop) => ({ ...stop, longitude: beside(stop.longitude, reference) }))
  const positions = [...lines.flat(), ...markers.map((stop): [number, number] => [stop.latitude, stop.longitude])]
  return (
    <MapContainer className="trip-map" bounds={latLngBounds(positions).pad(0.05)} maxZoom={MAX_ZOOM} scrollWheelZoom={false}>
      <Basemap tiles={tiles} maxZoom={MAX_ZOOM} />
      {lines.length > 0 && (
        <>
          <Polyline positions={lines} pathOptions={{ color: '#fff', weight: 7, opacity: 0.9 }} interactive={false} />
          <Polyline positions={lines} className="trip-route" pathOptions={{ color: '#d63638', weight: 4 }} interactive={false} />
        </>
      )}
      {markers.map((stop) => (
        <CircleMarker
          key={stop.id}
          center={[stop.latitude, stop.longitude]}
          radius={9}
          className="trip-map-stop"
          pathOptions={{ color: '#fff', weight: 2, fillColor: '#1d2327', fillOpacity: 0.95 }}
          eventHandlers={{ click: () => window.open(stop.url, linkTarget) }}
        >
          <Tooltip>
            {stop.number}. {stop.title}
          </Tooltip>
        </CircleMarker>
      ))}
    </MapContainer>
  )
}
