'use client'
import { TileLayer } from 'react-leaflet'

/** The map's background: the configured tiles, or none when MAP_TILE_URL is `none` (README, "Configuration"). */
export function BaseLayer({ tiles, maxZoom }: { tiles: { url: string; attribution: string }; maxZoom: number }) {
  if (tiles.url === 'none') return null
  return <TileLayer url={tiles.url} attribution={tiles.attribution} maxZoom={maxZoom} />
}
