'use client'
import dynamic from 'next/dynamic'
import type { TripMapProps } from './trip-map'

// Leaflet touches `window` when it loads: the map is rendered in the browser only.
const TripMap = dynamic(() => import('./trip-map'), {
  ssr: false,
  loading: () => (
    <p className="post-map-loading" role="status">
      Loading the map…
    </p>
  ),
})

export function TripMapLoader(props: TripMapProps) {
  return <TripMap {...props} />
}
