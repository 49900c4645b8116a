'use client'
import dynamic from 'next/dynamic'
import type { PlacesMapProps } from './places-map'

// Leaflet touches `window` when it loads: the map is rendered in the browser only.
const PlacesMap = dynamic(() => import('./places-map'), {
  ssr: false,
  loading: () => (
    <p className="map-loading" role="status">
      Loading the map…
    </p>
  ),
})

export function PlacesMapLoader(props: PlacesMapProps) {
  return <PlacesMap {...props} />
}
