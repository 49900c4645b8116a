'use client'

import dynamic from 'next/dynamic'
import type { LocationPickerProps } from './location-picker'

/** The map picker, loaded in the browser only (Leaflet needs `window`). */
export const LocationPickerLoader = dynamic<LocationPickerProps>(() => import('./location-picker'), {
  ssr: false,
  loading: () => <div className="location-map location-map-loading">Loading the map…</div>,
})
