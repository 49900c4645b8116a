'use client'
import { latLngBounds, type GridLayer, type LatLngBounds } from 'leaflet'
import { useEffect, useEffectEvent } from 'react'
import { useMap } from 'react-leaflet'
import { tileCredit } from './tile-credit'

// The site's own vector basemap (MAP_PMTILES, README "The map"): the PMTiles archive at /basemap.pmtiles, read in
// parts (its header, its directories, each tile: HTTP range requests to the site, no one else), drawn on canvas tiles
// by protomaps-leaflet in its light flavor. Only within the archive's bounds, and with no background of its own:
// beyond its land and water, the world layer shows through. protomaps-leaflet and pmtiles load only on a site that
// has an archive.

export function VectorTiles({
  url,
  attribution,
  maxZoom,
  onLoad,
  onError,
  onRegion,
}: {
  url: string
  attribution: string
  maxZoom?: number
  onLoad: () => void
  onError: () => void
  /** the archive's bounds once its header is read; null when it cannot be */
  onRegion: (region: LatLngBounds | null) => void
}) {
  const map = useMap()
  // The parent's callbacks, as they are when called: a new function from a render does not read the archive again.
  const loaded = useEffectEvent(onLoad)
  const failed = useEffectEvent(onError)
  const found = useEffectEvent(onRegion)
  useEffect(() => {
    let cancelled = false
    let layer: GridLayer | undefined
    const credit = tileCredit(map, attribution)
    void (async () => {
      try {
        const [{ PMTiles }, leaflet] = await Promise.all([import('pmtiles'), import('leaflet')])
        const archive = new PMTiles(url)
        const header = await archive.getHeader()
        // protomaps-leaflet extends the global L, which Leaflet's module may not have set.
        const global = window as unknown as { L?: typeof leaflet }
        global.L ??= leaflet
        const { leafletLayer } = await import('protomaps-leaflet')
        if (cancelled) return
        const region = latLngBounds([header.minLat, header.minLon], [header.maxLat, header.maxLon])
        const made = leafletLayer({
          url: archive,
          flavor: 'light',
          lang: document.documentElement.lang || 'en',
          bounds: region,
          maxDataZoom: header.maxZoom,
          ...(maxZoom === undefined ? {} : { maxZoom }),
          attribution: '', // credited once a tile is drawn, as raster tiles are
        })
        made.backgroundColor = undefined
        // A Leaflet GridLayer, which its type (an index signature of `any`) does not say.
        const grid = made as unknown as GridLayer
        grid.on('tileload', () => {
          credit.drawn()
          loaded()
        })
        grid.on('tileerror', () => failed())
        layer = grid.addTo(map)
        found(region)
      } catch (error) {
        if (cancelled) return
        console.error('the basemap archive could not be read:', error)
        found(null)
        failed()
      }
    })()
    return () => {
      cancelled = true
      layer?.remove()
      credit.dispose()
    }
  }, [map, url, attribution, maxZoom])
  return null
}
